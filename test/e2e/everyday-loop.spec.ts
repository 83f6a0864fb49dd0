import { expect, test, type Page } from '@playwright/test'
import { launchBurrow, watchCsp, type RunningBurrow } from './support/burrow'
import { restApi, runCommand, shot } from './support/page'

// The everyday loop against the demo content of a real Burrow Server, synced by core into its
// cache: what a person notices within minutes — search boxes that keep their spaces, a scoped
// label that replaces its sibling, a close that can be undone, a mention that announces itself,
// and counts that agree after a merge. Serial: the first test adds the account and syncs.
test.describe.configure({ mode: 'serial' })

let burrow: RunningBurrow
let violations: string[] = []
let accountId = ''

interface ServerIssue {
  readonly id: number
  readonly iid: number
  readonly project_id: number
  readonly title: string
  readonly state: string
  readonly labels: string[]
}
interface ServerMr {
  readonly id: number
  readonly iid: number
  readonly project_id: number
  readonly title: string
  readonly state: string
  readonly detailed_merge_status: string
  readonly author: { readonly username: string }
}

/** The REST API as the demo user (amara), and as root (another user), straight to the server. */
const api = restApi(
  () => burrow.serverUrl,
  () => burrow.user.token,
)
const rootApi = restApi(
  () => burrow.serverUrl,
  () => burrow.rootToken,
)

/** amara's pending to-dos as the server counts them. */
async function serverTodoCount(): Promise<number> {
  const response = await fetch(`${burrow.serverUrl}/api/v4/todos?state=pending&per_page=1`, {
    headers: { 'PRIVATE-TOKEN': burrow.user.token },
  })
  return Number(response.headers.get('x-total'))
}

/**
 * Shows an app route in the page (the hash router), once the shell is up: a hash set before the
 * router's first navigation is replaced by it.
 */
async function go(page: Page, route: string): Promise<void> {
  await expect(page.getByTestId('page-title')).toBeVisible()
  await page.evaluate((to) => (window.location.hash = `#${to}`), route)
  await page.waitForURL((url) => url.hash === `#${route}`)
}

async function syncNow(page: Page): Promise<void> {
  await runCommand(page, 'Sync now')
  await expect(page.getByTestId('status-sync')).toHaveText(/Synced/, { timeout: 60_000 })
}

// Made before the first sync, so the cache has it: an issue holding one label of a scope the
// project has at least two labels of (the demo seeds scoped labels).
let scoped: ServerIssue
let scopedPair: [string, string]

test.beforeAll(async () => {
  test.setTimeout(320_000)
  burrow = await launchBurrow({ demo: true })
  const projects = await api<{ id: number }[]>('GET', '/projects?membership=true&per_page=100&order_by=id&sort=asc')
  for (const project of projects) {
    const labels = await api<{ name: string }[]>('GET', `/projects/${project.id}/labels?per_page=100`)
    const byScope = new Map<string, string[]>()
    for (const { name } of labels) {
      const at = name.lastIndexOf('::')
      if (at > 0) byScope.set(name.slice(0, at), [...(byScope.get(name.slice(0, at)) ?? []), name])
    }
    const pair = [...byScope.values()].find((names) => names.length >= 2)
    if (pair === undefined) continue
    scopedPair = [pair[0], pair[1]]
    scoped = await rootApi<ServerIssue>('POST', `/projects/${project.id}/issues`, {
      title: 'Scoped label triage check',
      labels: pair[0],
    })
    return
  }
  throw new Error('the demo content has no project with two labels of one scope')
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

test('after adding an account, the first sync fills the issue list', async ({ page }) => {
  test.setTimeout(180_000)
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
  await expect(page.locator('.work-item-row').first()).toBeVisible()
  await page.locator('.work-item-row__title').first().click()
  await page.waitForURL(/#\/a\//)
  accountId = /#\/a\/([^/]+)\//.exec(page.url())?.[1] ?? ''
  expect(accountId).not.toBe('')
})

test('the issue and merge request search boxes keep the spaces typed between words', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  const issues = await api<ServerIssue[]>('GET', '/issues?scope=all&state=opened&per_page=100')
  const issue = issues.find((i) => i.title.trim().split(/\s+/).length >= 3)
  if (issue === undefined) throw new Error('no open demo issue with a title of three words')
  const words = issue.title.trim().split(/\s+/).slice(0, 2).join(' ')
  await runCommand(page, 'go to issues')
  const box = page.getByTestId('filter-search').locator('input')
  await box.click()
  await page.keyboard.type(words, { delay: 40 })
  await expect(box).toHaveValue(words)
  await expect(page.locator('.work-item-row').filter({ hasText: issue.title }).first()).toBeVisible()
  expect(decodeURIComponent(page.url().replace(/\+/g, ' '))).toContain(`search=${words}`)

  const mrs = await api<ServerMr[]>('GET', '/merge_requests?scope=all&state=opened&per_page=100')
  const mr = mrs.find((m) => m.title.trim().split(/\s+/).length >= 3)
  if (mr === undefined) throw new Error('no open demo merge request with a title of three words')
  const mrWords = mr.title.trim().split(/\s+/).slice(0, 2).join(' ')
  await runCommand(page, 'go to merge requests')
  const mrBox = page.getByTestId('mr-filter-search').locator('input')
  await mrBox.click()
  await page.keyboard.type(mrWords, { delay: 40 })
  await expect(mrBox).toHaveValue(mrWords)
  await expect(page.locator('.work-item-row').filter({ hasText: mr.title }).first()).toBeVisible()
})

test('a scoped label replaces the one of its scope at once in the app, and on the server', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await go(page, `/a/${accountId}/projects/${scoped.project_id}/issues/${scoped.iid}`)
  await expect(page.getByTestId('issue-title')).toHaveText(scoped.title)
  const [from, to] = scopedPair
  const labels = page.locator('[data-field="labels"]')
  await expect(labels.locator(`[data-label="${from}"]`)).toBeVisible()
  await page.keyboard.press('l')
  const filter = page.getByTestId('triage-filter').locator('input')
  await expect(filter).toBeFocused()
  await filter.fill(to)
  await expect(page.getByTestId('triage-picker').getByRole('option').first()).toContainText(
    to.slice(to.lastIndexOf('::') + 2),
  )
  await page.keyboard.press('Enter')
  // At once, before the server has it: the sibling of the scope is gone.
  await expect(labels.locator(`[data-label="${to}"]`)).toBeVisible()
  await expect(labels.locator(`[data-label="${from}"]`)).toHaveCount(0)
  await expect
    .poll(async () => (await api<ServerIssue>('GET', `/projects/${scoped.project_id}/issues/${scoped.iid}`)).labels, {
      timeout: 30_000,
    })
    .toEqual([to])
  await shot(page, 'everyday-scoped-label')
})

test('Shift+C on the list closes the highlighted issue with Undo, which takes the close back', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await runCommand(page, 'go to issues')
  const first = page.locator('.work-item-row').first()
  await expect(first).toBeVisible()
  const iid = Number(await first.getAttribute('data-iid'))
  const title = (await first.locator('.work-item-row__title').textContent())?.trim() ?? ''
  const serverIssue = (
    await api<ServerIssue[]>('GET', `/issues?scope=all&search=${encodeURIComponent(title)}&per_page=100`)
  ).find((i) => i.iid === iid && i.title === title)
  if (serverIssue === undefined) throw new Error(`issue ${title} not found on the server`)
  await page.keyboard.press('Shift+C')
  const toast = page.getByTestId('toast').filter({ hasText: 'Closed' })
  await expect(toast).toBeVisible()
  await expect(page.locator(`.work-item-row[data-iid="${iid}"]`).filter({ hasText: title })).toHaveCount(0, {
    timeout: 10_000,
  })
  await shot(page, 'everyday-undo-toast')
  await toast.getByTestId('toast-undo').click()
  // Back in the open list, and open on the server once the outbox has settled.
  await expect(page.locator('.work-item-row').filter({ hasText: title }).first()).toBeVisible({ timeout: 10_000 })
  await expect
    .poll(async () => (await api<ServerIssue>('GET', `/projects/${serverIssue.project_id}/issues/${iid}`)).state, {
      timeout: 30_000,
    })
    .toBe('opened')
  await expect(page.getByTestId('status-outbox')).toHaveCount(0, { timeout: 30_000 })
})

test('a mention made by another user announces itself within the check interval: toast, inbox badge, desktop notification', async ({
  page,
  context,
}) => {
  test.setTimeout(150_000)
  await context.grantPermissions(['notifications'])
  // Record what the page asks Chromium to show.
  await page.addInitScript(() => {
    const shown: { title: string; body: string | undefined }[] = []
    Object.assign(window, { __shownNotifications: shown })
    const Real = window.Notification
    class Recording extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options)
        shown.push({ title, body: options?.body })
      }
    }
    Object.defineProperty(window, 'Notification', { value: Recording, configurable: true })
  })
  await page.goto(burrow.pageUrl)
  await runCommand(page, 'Preferences')
  await expect(page.getByTestId('preferences')).toBeVisible()
  const interval = page.getByTestId('pref-notify-interval').locator('input')
  await interval.fill('30')
  await interval.blur()
  await expect(page.getByTestId('pref-notifications')).toHaveAttribute('aria-checked', 'true')
  await shot(page, 'everyday-preferences-light')
  await runCommand(page, 'Theme: dark')
  await shot(page, 'everyday-preferences-dark')
  await runCommand(page, 'Theme: light')

  const issue = await rootApi<ServerIssue>('POST', `/projects/${scoped.project_id}/issues`, {
    title: 'Who keeps the pager this week?',
  })
  await rootApi('POST', `/projects/${scoped.project_id}/issues/${issue.iid}/notes`, {
    body: `Could you take this one, @${burrow.user.username}?`,
  })
  const toast = page.getByTestId('toast').filter({ hasText: 'mentioned you' })
  await expect(toast).toBeVisible({ timeout: 60_000 })
  await expect(page.getByTestId('inbox-badge')).toContainText(/[1-9]/)
  const shown = await page.evaluate(
    () => (window as unknown as { __shownNotifications: { title: string; body?: string }[] }).__shownNotifications,
  )
  expect(shown).toContainEqual({
    title: expect.stringContaining('mentioned you'),
    body: expect.stringContaining('Who keeps the pager this week?'),
  })
  await page.getByTestId('inbox-open').click()
  const entry = page.getByTestId('inbox-entry').filter({ hasText: 'mentioned you' })
  await expect(entry).toBeVisible()
  await shot(page, 'everyday-inbox-light')
  await entry.click()
  await expect(page.getByTestId('issue-title')).toHaveText(issue.title)
  await expect(page.getByTestId('inbox-open')).toHaveAttribute('aria-label', 'Notifications')
  // The local Burrow Server has no web pages: the app does not offer a link that would 404.
  await expect(page.getByTestId('open-on-server')).toHaveCount(0)
})

test('after a merge in the app the issue it closed is closed, its to-dos are resolved and every count agrees', async ({
  page,
}) => {
  test.setTimeout(150_000)
  const open = await api<ServerMr[]>('GET', '/merge_requests?scope=all&state=opened&per_page=100')
  const mr = open.find((m) => m.detailed_merge_status === 'mergeable' && m.author.username !== burrow.user.username)
  if (mr === undefined) throw new Error('no mergeable merge request in the demo content')
  // Root assigns amara an issue the merge request closes, and the merge request itself: two to-dos for her.
  const closes = await rootApi<ServerIssue>('POST', `/projects/${mr.project_id}/issues`, {
    title: 'Closed by the merge',
    assignee_ids: [await userId()],
  })
  await rootApi('PUT', `/projects/${mr.project_id}/merge_requests/${mr.iid}`, {
    description: `Closes #${closes.iid}`,
    assignee_ids: [await userId()],
  })
  await page.goto(burrow.pageUrl)
  await syncNow(page)
  await go(page, `/a/${accountId}/projects/${mr.project_id}/merge_requests/${mr.iid}`)
  await expect(page.getByTestId('mr-title')).toContainText(mr.title)
  const panel = page.getByTestId('merge-panel')
  await expect(panel.getByTestId('merge')).toBeEnabled({ timeout: 30_000 })
  await panel.getByTestId('merge').click()
  await expect(panel.getByTestId('merge-blocker')).toHaveText('This merge request is merged.', { timeout: 30_000 })

  // At once, not at the next sync: the issue is closed and nothing is left to do on it.
  await go(page, `/a/${accountId}/projects/${mr.project_id}/issues/${closes.iid}`)
  await expect(page.getByTestId('issue-state')).toHaveText('Closed', { timeout: 15_000 })
  await expect(page.getByTestId('add-todo')).toBeVisible()
  const expected = await serverTodoCount()
  await go(page, '/todos')
  await expect(page.locator('.todo-list-view__summary')).toContainText(`${expected} pending`, { timeout: 15_000 })
  await expect(page.getByTestId('todo-row').filter({ hasText: 'Closed by the merge' })).toHaveCount(0)
  await go(page, '/')
  await expect(page.locator('[data-work="todos"]')).toContainText(`${expected} to-dos`)
  await shot(page, 'everyday-home-after-merge')
})

async function userId(): Promise<number> {
  return (await api<{ id: number }>('GET', '/user')).id
}
