import { expect, test, type Locator, type Page } from '@playwright/test'
import { launchBurrow, watchCsp, type RunningBurrow } from './support/burrow'
import { restApi, runCommand, shot } from './support/page'

// A first day with Burrow against the demo on a real Burrow Server, done as a new user does it:
// an issue written with everything the form offers (markdown, a mention, a #ref, a scoped label,
// milestone, assignee, due date, confidential), edited, commented, closed and reopened with Undo;
// search by words, by reference and by project path; a merge request started from its list; three
// writes made with the server stopped, one meeting a newer edit on the server, replayed in order.
// Serial: the first test adds the account and syncs.
test.describe.configure({ mode: 'serial' })

let burrow: RunningBurrow
let violations: string[] = []
let project: { id: number; path_with_namespace: string }

interface Person {
  readonly id: number
  readonly username: string
  readonly name: string
}
interface ServerIssue {
  readonly id: number
  readonly iid: number
  readonly project_id: number
  readonly title: string
  readonly description: string | null
  readonly state: string
  readonly labels: string[]
  readonly confidential: boolean
  readonly due_date: string | null
  readonly milestone: { readonly id: number; readonly title: string } | null
  readonly assignees: readonly Person[]
}

const api = restApi(
  () => burrow.serverUrl,
  () => burrow.user.token,
)
const rootApi = restApi(
  () => burrow.serverUrl,
  () => burrow.rootToken,
)

test.beforeAll(async () => {
  test.setTimeout(320_000)
  burrow = await launchBurrow({ demo: true })
})

test.afterAll(async () => {
  await burrow?.stop()
})

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1360, height: 860 })
  violations = watchCsp(page)
})

test.afterEach(() => {
  expect(violations, 'Content-Security-Policy violations').toEqual([])
})

/** Picks an option of a naive-ui select by typing its beginning. */
async function choose(page: Page, select: Locator, option: string): Promise<void> {
  await select.click()
  await page.keyboard.type(option)
  await page.locator('.n-base-select-option').filter({ hasText: option }).first().click()
}

async function issuesTitled(title: string): Promise<ServerIssue[]> {
  const list = await api<ServerIssue[]>(
    'GET',
    `/projects/${project.id}/issues?state=all&search=${encodeURIComponent(title)}&in=title&per_page=100`,
  )
  return list.filter((i) => i.title === title)
}

async function go(page: Page, route: string): Promise<void> {
  await expect(page.getByTestId('page-title')).toBeVisible()
  await page.evaluate((to) => (window.location.hash = `#${to}`), route)
  await page.waitForURL((url) => url.hash === `#${route}`)
}

let accountId = ''
let created: ServerIssue | null = null

test('after adding an account, the first sync fills the issue list', async ({ page }) => {
  test.setTimeout(180_000)
  project = await api<{ id: number; path_with_namespace: string }>(
    'GET',
    `/projects/${encodeURIComponent('kestrel/field-app')}`,
  )
  await page.goto(burrow.pageUrl)
  await page.getByTestId('instance-other').click()
  await page
    .getByTestId('instance-url')
    .locator('input')
    .fill(burrow.proxyUrl ?? '')
  await page.getByTestId('token').locator('input').fill(burrow.user.token)
  await page.getByTestId('account-add-submit').click()
  await expect(page.getByTestId('account-current')).toHaveText(burrow.user.name)
  await expect(page.getByTestId('status-sync')).toHaveText(/Synced/, { timeout: 150_000 })
  await runCommand(page, 'go to issues')
  await page.locator('.work-item-row__title').first().click()
  await page.waitForURL(/#\/a\//)
  accountId = /#\/a\/([^/]+)\//.exec(page.url())?.[1] ?? ''
  expect(accountId).not.toBe('')
})

test('a new issue with everything the form offers lands with each field, and its mention and #ref are links', async ({
  page,
}) => {
  test.setTimeout(150_000)
  const labels = await api<{ name: string }[]>('GET', `/projects/${project.id}/labels?per_page=100`)
  const scopedLabel = labels.find((l) => l.name.includes('::'))?.name
  const plainLabel = labels.find((l) => !l.name.includes('::'))?.name
  if (scopedLabel === undefined || plainLabel === undefined) throw new Error('no scoped and plain label')
  const milestones = await api<{ id: number; title: string }[]>(
    'GET',
    `/projects/${project.id}/milestones?state=active&include_ancestors=true&per_page=100`,
  )
  if (milestones.length === 0) throw new Error('no active milestone')
  const users = await api<Person[]>('GET', `/projects/${project.id}/users?per_page=100`)
  const other = users.find((u) => u.username !== burrow.user.username)
  if (other === undefined) throw new Error('no other project user')
  const referenced = (await api<ServerIssue[]>('GET', `/projects/${project.id}/issues?per_page=1`))[0]

  await page.goto(burrow.pageUrl)
  await expect(page.getByTestId('page-title')).toBeVisible()
  await page.keyboard.press('c')
  const dialog = page.getByTestId('issue-create-dialog')
  await expect(dialog).toBeVisible()
  await choose(page, dialog.getByTestId('issue-create-project'), project.path_with_namespace)
  await dialog.getByTestId('issue-create-title').locator('input').fill('Sync stalls after the first page')
  const description = `The **second** page never comes.\n\ncc @${other.username}, see #${referenced.iid}`
  await dialog.getByTestId('issue-create-description').locator('textarea').fill(description)
  await dialog.locator('.n-tabs-tab').filter({ hasText: 'Preview' }).click()
  const preview = dialog.getByTestId('issue-create-description-preview')
  await expect(preview.locator('strong')).toHaveText('second')
  await expect(preview.locator('a').filter({ hasText: `#${referenced.iid}` })).toHaveCount(1)
  await expect(preview).toContainText(`@${other.username}`)
  await choose(page, dialog.getByTestId('issue-create-labels'), scopedLabel)
  await choose(page, dialog.getByTestId('issue-create-labels'), plainLabel)
  await page.keyboard.press('Escape')
  await choose(page, dialog.getByTestId('issue-create-assignees'), `@${other.username})`)
  await page.keyboard.press('Escape')
  await choose(page, dialog.getByTestId('issue-create-milestone'), milestones[0].title)
  const due = dialog.getByTestId('issue-create-due-date').locator('input')
  await due.fill('2031-03-14')
  await due.press('Enter')
  await dialog.getByTestId('issue-create-confidential').click()
  await shot(page, 'first-day-issue-form')
  await dialog.getByTestId('issue-create-submit').click()
  await expect(dialog).toHaveCount(0)
  await expect(page).toHaveURL(/\/issues\/\d+$/, { timeout: 30_000 })
  await expect(page.getByTestId('pending-marker')).toHaveCount(0, { timeout: 30_000 })
  const found = await issuesTitled('Sync stalls after the first page')
  expect(found).toHaveLength(1)
  expect(found[0]).toMatchObject({
    description,
    confidential: true,
    due_date: '2031-03-14',
    milestone: { id: milestones[0].id },
  })
  expect([...found[0].labels].sort()).toEqual([scopedLabel, plainLabel].sort())
  expect(found[0].assignees.map((a) => a.id)).toEqual([other.id])
  created = found[0]
  const shown = page.getByTestId('issue-description')
  await expect(shown.locator('a').filter({ hasText: `#${referenced.iid}` })).toHaveCount(1)
  await expect(shown).toContainText(`@${other.username}`)
  await expect(page.locator('[data-field="due_date"], [data-testid="due-date"]').first()).toContainText('2031')
  await expect(page.locator('.work-sidebar')).toContainText(milestones[0].title)
  await shot(page, 'first-day-issue-created')
})

test('the new issue is edited, commented, closed and reopened with Undo, and the server follows each step', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const issue = created
  if (issue === null) throw new Error('the creation test did not run')
  await page.goto(burrow.pageUrl)
  await go(page, `/a/${accountId}/projects/${project.id}/issues/${issue.iid}`)
  await expect(page.getByTestId('issue-title')).toHaveText(issue.title)
  await page.getByTestId('issue-edit').click()
  await page.getByTestId('edit-title').locator('input').fill('Sync stalls after the first page of issues')
  const editor = page.getByTestId('edit-description').locator('textarea')
  await editor.fill(`${issue.description ?? ''}\n\n- [ ] find the cursor`)
  await page.getByTestId('edit-save').click()
  await expect(page.getByTestId('issue-title')).toHaveText('Sync stalls after the first page of issues')
  await expect(page.getByTestId('task-status')).toContainText('0 of 1 task')
  await expect
    .poll(async () => (await api<ServerIssue>('GET', `/projects/${project.id}/issues/${issue.iid}`)).title, {
      timeout: 30_000,
    })
    .toBe('Sync stalls after the first page of issues')

  await page.getByTestId('comment-body').locator('textarea').fill('Seen on **two** machines')
  await page.getByTestId('comment-submit').click()
  await expect(page.getByTestId('note').filter({ hasText: 'Seen on two machines' })).toBeVisible()

  await page.getByTestId('issue-close').click()
  await expect(page.getByTestId('issue-state')).toHaveText('Closed')
  await expect(page.getByTestId('issue-reopen')).toBeVisible()
  await expect
    .poll(async () => (await api<ServerIssue>('GET', `/projects/${project.id}/issues/${issue.iid}`)).state, {
      timeout: 30_000,
    })
    .toBe('closed')
  await page.getByTestId('issue-reopen').click()
  const toast = page.getByTestId('toast').filter({ hasText: 'Reopened' })
  await expect(toast).toBeVisible()
  await expect(page.getByTestId('issue-state')).toHaveText('Open')
  await toast.getByTestId('toast-undo').click()
  await expect(page.getByTestId('issue-state')).toHaveText('Closed')
  await expect
    .poll(async () => (await api<ServerIssue>('GET', `/projects/${project.id}/issues/${issue.iid}`)).state, {
      timeout: 30_000,
    })
    .toBe('closed')
  await expect(page.getByTestId('status-outbox')).toHaveCount(0, { timeout: 30_000 })
  await expect(page.getByTestId('pending-marker')).toHaveCount(0)
  const notes = await api<{ body: string; system: boolean }[]>(
    'GET',
    `/projects/${project.id}/issues/${issue.iid}/notes?per_page=100`,
  )
  expect(notes.filter((n) => !n.system).map((n) => n.body)).toEqual(['Seen on **two** machines'])
  await shot(page, 'first-day-issue-closed')
})

test('search finds by title words, description words, #12, !4 and a project path, and opens a result', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const issue = (await api<ServerIssue[]>('GET', `/projects/${project.id}/issues?per_page=100&state=opened`)).find(
    (i) => (i.description ?? '').trim().split(/\s+/).length > 6,
  )
  if (issue === undefined) throw new Error('no issue with a description')
  const mr = (
    await api<{ iid: number; title: string }[]>('GET', `/projects/${project.id}/merge_requests?per_page=1`)
  )[0]
  await page.goto(burrow.pageUrl)
  await go(page, '/search')
  const input = page.getByTestId('search-input').locator('input')
  const hits = page.getByTestId('search-hit')

  await input.fill(issue.title.split(/\s+/).slice(0, 3).join(' '))
  await expect(hits.filter({ hasText: issue.title }).first()).toBeVisible()

  const words = (issue.description ?? '')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 5)
    .slice(0, 2)
    .join(' ')
  await input.fill(words)
  await expect(hits.filter({ hasText: issue.title }).first()).toBeVisible()

  await input.fill(`#${issue.iid}`)
  await expect(hits.filter({ hasText: issue.title }).first()).toBeVisible()
  await input.fill(`!${mr.iid}`)
  await expect(hits.filter({ hasText: mr.title }).first()).toBeVisible()
  await input.fill(`${project.path_with_namespace}#${issue.iid}`)
  await expect(hits.filter({ hasText: issue.title }).first()).toBeVisible()
  await input.fill(`#${issue.iid}`)
  await hits.filter({ hasText: issue.title }).first().getByRole('link', { name: issue.title }).click()
  await expect(page.getByTestId('issue-title')).toHaveText(issue.title)

  // A synced project's path finds the project itself, which opens.
  await go(page, '/search')
  await input.fill(project.path_with_namespace)
  const projectHit = page.getByTestId('search-project-hit').filter({ hasText: project.path_with_namespace })
  await expect(projectHit.first()).toBeVisible()
  await shot(page, 'first-day-search-path')
  await projectHit.first().locator('a').click()
  await expect(page.getByTestId('repo-title')).toHaveText(project.path_with_namespace)
})

test('the merge request list’s New merge request asks for the project, then a branch; with a reviewer and Draft it lands once', async ({
  page,
}) => {
  test.setTimeout(150_000)
  const branches = await api<{ name: string }[]>('GET', `/projects/${project.id}/repository/branches?per_page=100`)
  const open = await api<{ source_branch: string }[]>(
    'GET',
    `/projects/${project.id}/merge_requests?state=opened&per_page=100`,
  )
  const branch = branches.find((b) => b.name !== 'main' && !open.some((m) => m.source_branch === b.name))
  if (branch === undefined) throw new Error('no branch without an open merge request')
  const users = await api<Person[]>('GET', `/projects/${project.id}/users?per_page=100`)
  const reviewer = users.find((u) => u.username !== burrow.user.username)
  if (reviewer === undefined) throw new Error('no other project user')

  await page.goto(burrow.pageUrl)
  await runCommand(page, 'go to merge requests')
  await page.getByTestId('new-merge-request').click()
  const dialog = page.getByTestId('mr-create-dialog')
  await expect(dialog).toBeVisible()
  await expect(dialog.getByTestId('mr-create-submit')).toBeDisabled()
  await choose(page, dialog.getByTestId('mr-create-project'), project.path_with_namespace)
  await choose(page, dialog.getByTestId('mr-create-source'), branch.name)
  await expect(dialog.getByTestId('mr-create-target')).toContainText('main')
  await expect(dialog.getByTestId('mr-create-title').locator('input')).not.toHaveValue('')
  await dialog.getByTestId('mr-create-title').locator('input').fill('First-day merge request')
  await choose(page, dialog.getByTestId('mr-create-reviewers'), `@${reviewer.username})`)
  await page.keyboard.press('Escape')
  await dialog.getByTestId('mr-create-draft').click()
  await expect(dialog.getByTestId('mr-create-title').locator('input')).toHaveValue('Draft: First-day merge request')
  await shot(page, 'first-day-mr-form')
  await dialog.getByTestId('mr-create-submit').click()
  await expect(dialog).toHaveCount(0)
  await expect(page).toHaveURL(/\/merge_requests\/\d+$/, { timeout: 30_000 })
  const mrs = await api<{ title: string; draft: boolean; target_branch: string; reviewers: { id: number }[] }[]>(
    'GET',
    `/projects/${project.id}/merge_requests?source_branch=${encodeURIComponent(branch.name)}&state=opened`,
  )
  expect(mrs).toHaveLength(1)
  expect(mrs[0]).toMatchObject({ title: 'Draft: First-day merge request', draft: true, target_branch: 'main' })
  expect(mrs[0].reviewers.map((r) => r.id)).toEqual([reviewer.id])

  // The palette offers the same form.
  await runCommand(page, 'New merge request')
  await expect(dialog).toBeVisible()
  await expect(dialog.getByTestId('mr-create-project')).toBeVisible()
})

test('three writes with the server stopped replay in order once it is back; the one that meets a newer server edit is a conflict', async ({
  page,
}) => {
  test.setTimeout(240_000)
  const [first] = (
    await api<ServerIssue[]>(
      'GET',
      `/projects/${project.id}/issues?per_page=20&state=opened&order_by=created_at&sort=asc`,
    )
  ).filter((i) => !i.confidential)
  await page.goto(burrow.pageUrl)
  await go(page, `/a/${accountId}/projects/${project.id}/issues/${first.iid}`)
  await expect(page.getByTestId('issue-title')).toHaveText(first.title)
  await burrow.setServerRunning(false)
  await runCommand(page, 'sync now')
  await expect(page.getByTestId('status-sync')).toContainText('Offline', { timeout: 30_000 })

  await page.getByTestId('comment-body').locator('textarea').fill('Written while the server was away')
  await page.getByTestId('comment-submit').click()
  await expect(page.getByTestId('note').filter({ hasText: 'Written while the server was away' })).toBeVisible()
  await page.getByTestId('issue-edit').click()
  await page.getByTestId('edit-title').locator('input').fill(`${first.title} (offline edit)`)
  await page.getByTestId('edit-save').click()
  await expect(page.getByTestId('issue-title')).toHaveText(`${first.title} (offline edit)`)
  await page.getByTestId('issue-close').click()
  await expect(page.getByTestId('issue-state')).toHaveText('Closed')
  await expect(page.getByTestId('status-outbox')).toContainText('3')
  await shot(page, 'first-day-offline-three')

  await burrow.setServerRunning(true)
  await rootApi('PUT', `/projects/${project.id}/issues/${first.iid}`, { title: `${first.title} (server edit)` })
  await runCommand(page, 'sync now')
  await expect(page.getByTestId('item-outbox').or(page.getByTestId('status-outbox')).first()).toContainText(
    /conflict/i,
    { timeout: 60_000 },
  )
  await shot(page, 'first-day-offline-conflict')
  const now = await api<ServerIssue>('GET', `/projects/${project.id}/issues/${first.iid}`)
  expect(now.title).toBe(`${first.title} (server edit)`)
  const notes = await api<{ body: string; system: boolean }[]>(
    'GET',
    `/projects/${project.id}/issues/${first.iid}/notes?per_page=100`,
  )
  expect(notes.filter((n) => n.body === 'Written while the server was away')).toHaveLength(1)
})
