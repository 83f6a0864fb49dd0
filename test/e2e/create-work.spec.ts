import { expect, test, type Locator, type Page } from '@playwright/test'
import { launchBurrow, watchCsp, type RunningBurrow } from './support/burrow'
import { runCommand, restApi, shot } from './support/page'

// Creating work from the app, end to end against the demo on a real Burrow Server, through the
// support proxy so the network can be taken away: a new issue online (the `c` key anywhere, the
// form with its preview) and offline (shown at once as pending under #new-N, a comment queued on
// it, landed once after reconnecting, the page following it to its real number). Serial: the
// first test adds the account and waits for the first sync.
test.describe.configure({ mode: 'serial' })

let burrow: RunningBurrow
let violations: string[] = []
let project: { id: number }
/** The issue the online test creates, for the branch and merge request test. */
let created: ServerIssue | null = null

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

const api = restApi(
  () => burrow.serverUrl,
  () => burrow.user.token,
)

interface ServerIssue {
  readonly iid: number
  readonly title: string
  readonly labels: string[]
  readonly confidential: boolean
  readonly description: string | null
  readonly assignees: readonly { readonly id: number }[]
}

interface Person {
  readonly id: number
  readonly username: string
  readonly name: string
}

async function issuesTitled(title: string): Promise<ServerIssue[]> {
  const list = await api<ServerIssue[]>(
    'GET',
    `/projects/${project.id}/issues?state=all&search=${encodeURIComponent(title)}&in=title&per_page=100`,
  )
  return list.filter((i) => i.title === title)
}

/** Picks an option of a naive-ui select by typing its beginning. */
async function choose(page: Page, select: Locator, option: string): Promise<void> {
  await select.click()
  await page.keyboard.type(option)
  await page.locator('.n-base-select-option').filter({ hasText: option }).first().click()
}

async function goOffline(page: Page): Promise<void> {
  await burrow.setOnline(false)
  await runCommand(page, 'sync now')
  await expect(page.getByTestId('status-sync')).toContainText('Offline', { timeout: 30_000 })
}

async function goOnline(page: Page): Promise<void> {
  await burrow.setOnline(true)
  await runCommand(page, 'sync now')
}

test('after adding an account, the first sync fills the issue list', async ({ page }) => {
  test.setTimeout(180_000)
  project = await api<{ id: number }>('GET', `/projects/${encodeURIComponent('kestrel/field-app')}`)
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
})

test('c opens the new issue form anywhere; the issue lands once with its title, description, label and confidentiality', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await page.goto(burrow.pageUrl)
  await expect(page.getByTestId('page-title')).toBeVisible()
  await page.keyboard.press('c')
  const dialog = page.getByTestId('issue-create-dialog')
  await expect(dialog).toBeVisible()
  await choose(page, dialog.getByTestId('issue-create-project'), 'kestrel/field-app')
  await dialog.getByTestId('issue-create-title').locator('input').fill('Offline maps crash on rotate')
  await dialog
    .getByTestId('issue-create-description')
    .locator('textarea')
    .fill('Steps:\n\n1. Open a map\n2. Rotate the phone\n\n**Crashes.**')
  await dialog.locator('.n-tabs-tab').filter({ hasText: 'Preview' }).click()
  await expect(dialog.getByTestId('issue-create-description-preview').locator('strong')).toHaveText('Crashes.')
  const labels = await api<{ name: string }[]>('GET', `/projects/${project.id}/labels?per_page=100`)
  const label = labels[0].name
  await choose(page, dialog.getByTestId('issue-create-labels'), label)
  await page.keyboard.press('Escape')
  // Assignees are the project's users (members of the project and its groups), not everyone on the server.
  const projectUsers = await api<Person[]>('GET', `/projects/${project.id}/users?per_page=100`)
  const outsider = (await api<Person[]>('GET', '/users?per_page=100')).find(
    (u) => !projectUsers.some((p) => p.id === u.id),
  )
  if (outsider === undefined) throw new Error('the demo has no user outside kestrel/field-app')
  const assignee = projectUsers.find((u) => u.username !== burrow.user.username) ?? projectUsers[0]
  await dialog.getByTestId('issue-create-assignees').click()
  await page.keyboard.type(outsider.username)
  await expect(page.locator('.n-base-select-menu:visible').filter({ hasText: 'No Data' })).toHaveCount(1)
  await page.keyboard.press('Escape')
  await choose(page, dialog.getByTestId('issue-create-assignees'), `@${assignee.username})`)
  await page.keyboard.press('Escape')
  await dialog.getByTestId('issue-create-confidential').click()
  await shot(page, 'issue-create-light')
  await runCommand(page, 'theme: dark')
  await expect(dialog).toBeVisible()
  await shot(page, 'issue-create-dark')
  await runCommand(page, 'theme: light')

  await dialog.getByTestId('issue-create-submit').click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByTestId('issue-title')).toHaveText('Offline maps crash on rotate')
  // Landed: the page moves to the real number and the pending marker goes.
  await expect(page).toHaveURL(/\/issues\/\d+$/, { timeout: 30_000 })
  await expect(page.getByTestId('pending-marker')).toHaveCount(0, { timeout: 30_000 })
  const found = await issuesTitled('Offline maps crash on rotate')
  expect(found).toHaveLength(1)
  expect(found[0]).toMatchObject({ labels: [label], confidential: true })
  expect(found[0].assignees.map((a) => a.id)).toEqual([assignee.id])
  expect(found[0].description).toContain('**Crashes.**')
  created = found[0]
  await shot(page, 'issue-created-light')
})

test('offline, a new issue shows at once as pending under #new-N with a comment; after reconnecting both land once and the page follows the real number', async ({
  page,
}) => {
  test.setTimeout(150_000)
  await page.goto(burrow.pageUrl)
  await runCommand(page, 'go to issues')
  await goOffline(page)
  await page.getByTestId('new-issue').click()
  const dialog = page.getByTestId('issue-create-dialog')
  await choose(page, dialog.getByTestId('issue-create-project'), 'kestrel/field-app')
  await dialog.getByTestId('issue-create-title').locator('input').fill('Written on the train')
  await expect(dialog).toContainText('offline: it is queued')
  await dialog.getByTestId('issue-create-submit').click()

  await expect(page.getByTestId('issue-title')).toHaveText('Written on the train')
  await expect(page).toHaveURL(/\/issues\/-\d+$/)
  await expect(page.getByTestId('pending-marker')).toBeVisible()
  await expect(page.locator('.issue-detail-view__meta')).toContainText(/#new-\d+/)
  await page.getByTestId('comment-body').locator('textarea').fill('Seen between two tunnels')
  await page.getByTestId('comment-submit').click()
  await expect(page.getByTestId('note').filter({ hasText: 'Seen between two tunnels' })).toBeVisible()
  await shot(page, 'issue-created-offline-light')
  expect(await issuesTitled('Written on the train')).toHaveLength(0)

  await goOnline(page)
  await expect(page).toHaveURL(/\/issues\/\d+$/, { timeout: 30_000 })
  await expect(page.getByTestId('pending-marker')).toHaveCount(0, { timeout: 30_000 })
  const found = await issuesTitled('Written on the train')
  expect(found).toHaveLength(1)
  await expect
    .poll(async () => {
      const notes = await api<{ body: string; system: boolean }[]>(
        'GET',
        `/projects/${project.id}/issues/${found[0].iid}/notes?per_page=100`,
      )
      return notes.filter((n) => !n.system).map((n) => n.body)
    })
    .toEqual(['Seen between two tunnels'])
  await expect(page.getByTestId('note').filter({ hasText: 'Seen between two tunnels' })).toBeVisible()
})

test('from a confidential issue, Create merge request proposes its branch (12-confidential-issue, made from the default branch), Draft: Resolve "title" and Closes #n; with a reviewer it lands once', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const issue = created
  if (issue === null) throw new Error('the online creation test did not run')
  // The issue is confidential: GitLab keeps its title out of the branch name.
  const branch = `${issue.iid}-confidential-issue`
  await page.goto(burrow.pageUrl)
  await expect(page.getByTestId('page-title')).toBeVisible()
  await page.evaluate(
    (hash) => (window.location.hash = hash),
    `#/a/${await accountId(page)}/projects/${project.id}/issues/${issue.iid}`,
  )
  await expect(page.getByTestId('issue-title')).toHaveText(issue.title)
  await page.getByTestId('issue-create-mr').click()
  const dialog = page.getByTestId('mr-create-dialog')
  await expect(dialog.getByTestId('mr-create-source')).toContainText(branch)
  await expect(dialog.getByTestId('mr-create-new-branch')).toContainText(`${branch} does not exist yet`)
  await expect(dialog.getByTestId('mr-create-title').locator('input')).toHaveValue(`Draft: Resolve "${issue.title}"`)
  await expect(dialog.getByTestId('mr-create-description').locator('textarea')).toHaveValue(`Closes #${issue.iid}`)
  const reviewer = (
    await api<{ id: number; username: string; name: string }[]>(
      'GET',
      `/projects/${project.id}/members/all?per_page=100`,
    )
  ).find((m) => m.username !== burrow.user.username)
  if (reviewer === undefined) throw new Error('no other member to review')
  await choose(page, dialog.getByTestId('mr-create-reviewers'), reviewer.name)
  await page.keyboard.press('Escape')
  await shot(page, 'mr-create-light')
  await runCommand(page, 'theme: dark')
  await expect(dialog).toBeVisible()
  await shot(page, 'mr-create-dark')
  await runCommand(page, 'theme: light')
  await dialog.getByTestId('mr-create-submit').click()
  await expect(dialog).toHaveCount(0)
  await expect(page).toHaveURL(/\/merge_requests\/\d+$/, { timeout: 30_000 })
  const mrs = await api<
    { iid: number; draft: boolean; description: string; reviewers: { id: number }[]; target_branch: string }[]
  >('GET', `/projects/${project.id}/merge_requests?source_branch=${encodeURIComponent(branch)}&state=all`)
  expect(mrs).toHaveLength(1)
  expect(mrs[0]).toMatchObject({ draft: true, description: `Closes #${issue.iid}`, target_branch: 'main' })
  expect(mrs[0].reviewers.map((r) => r.id)).toEqual([reviewer.id])
  await api('GET', `/projects/${project.id}/repository/branches/${encodeURIComponent(branch)}`)
})

/** The app's id of the account the first test added (from an issue link of the list). */
async function accountId(page: Page): Promise<string> {
  await runCommand(page, 'go to issues')
  const href = (await page.locator('.work-item-row__title').first().getAttribute('href')) ?? ''
  return /\/a\/([^/]+)\//.exec(href)?.[1] ?? ''
}
