import { expect, test, type Page } from '@playwright/test'
import { launchBurrow, watchCsp, type RunningBurrow } from './support/burrow'
import { bothThemes, shot, runCommand, restApi } from './support/page'

// The triage views against the demo content of a real Burrow Server, synced by core into its
// cache. Serial: the first test adds the account and waits for the first sync.
test.describe.configure({ mode: 'serial' })

let burrow: RunningBurrow
let violations: string[] = []

test.beforeAll(async () => {
  // The server seeds the demo content before it listens: over a minute on a busy machine.
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

/** The REST API as the demo user, straight to the server (not through the proxy). */
const api = restApi(
  () => burrow.serverUrl,
  () => burrow.user.token,
)

/** Opens the `nth` issue of the list; its project id and iid from the address. */
async function openIssue(page: Page, nth: number): Promise<{ projectId: number; iid: number; title: string }> {
  await runCommand(page, 'go to issues')
  const row = page.locator('.work-item-row').nth(nth)
  await expect(row).toBeVisible()
  const title = (await row.locator('.work-item-row__title').textContent())?.trim() ?? ''
  await row.locator('.work-item-row__title').click()
  await expect(page.getByTestId('issue-title')).toHaveText(title)
  const [, projectId, iid] = /projects\/(\d+)\/issues\/(\d+)/.exec(page.url()) ?? []
  return { projectId: Number(projectId), iid: Number(iid), title }
}

/** Picks `text` in the open triage picker (the first option it filters to). */
async function pick(page: Page, text: string): Promise<void> {
  const filter = page.getByTestId('triage-filter').locator('input')
  await expect(filter).toBeFocused()
  await filter.fill(text)
  await expect(page.getByTestId('triage-picker').getByRole('option').first()).toContainText(text)
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('triage-picker')).toHaveCount(0)
}

interface ServerIssue {
  readonly iid: number
  readonly state: string
  readonly title: string
  readonly description: string | null
  readonly labels: string[]
  readonly assignees: { username: string }[]
  readonly moved_to_id: number | null
}

test('after adding an account, the first sync fills the issue list', async ({ page }) => {
  test.setTimeout(180_000)
  await page.goto(burrow.pageUrl)
  // Through the proxy, as "a GitLab instance", so later tests can take the network away.
  await page.getByTestId('instance-other').click()
  await page
    .getByTestId('instance-url')
    .locator('input')
    .fill(burrow.proxyUrl ?? '')
  await page.getByTestId('token').locator('input').fill(burrow.user.token)
  await page.getByTestId('account-add-submit').click()
  await expect(page.getByTestId('account-current')).toHaveText(burrow.user.name)
  await expect(page.getByTestId('status-sync')).toHaveText(/Synced/, { timeout: 150_000 })
  await page.keyboard.press('g')
  await page.keyboard.press('i')
  await expect(page.getByTestId('list-total')).not.toHaveText(/^0 /)
  await expect(page.locator('.work-item-row').first()).toBeVisible()
  await shot(page, 'issues-list')
})

test('an issue opens with its description, discussion and attributes, and a comment is queued then sent', async ({
  page,
}) => {
  await page.goto(burrow.pageUrl)
  await runCommand(page, 'go to issues')
  const first = page.locator('.work-item-row').first()
  const title = (await first.locator('.work-item-row__title').textContent())?.trim() ?? ''
  await first.locator('.work-item-row__title').click()
  await expect(page.getByTestId('issue-title')).toHaveText(title)
  await expect(page.locator('[data-field="labels"]')).toBeVisible()
  await shot(page, 'issue-detail')
  await page.getByTestId('comment-body').locator('textarea').fill('Looked at this from **Burrow**: see #1.')
  await page.getByTestId('comment-submit').click()
  const note = page.getByTestId('note').filter({ hasText: 'Looked at this from' })
  await expect(note).toBeVisible()
  await expect(note.locator('strong').filter({ hasText: 'Burrow' })).toBeVisible()
  // Sent by the outbox: the pending marker goes away once the server has it.
  await expect(note.getByTestId('pending-marker')).toHaveCount(0, { timeout: 30_000 })
  await shot(page, 'issue-detail-commented')
})

test('filters narrow the list, live in the address, and can be saved', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await runCommand(page, 'go to issues')
  const total = page.getByTestId('list-total')
  await expect(total).not.toHaveText(/^0 /)
  const before = await total.textContent()
  await page.getByTestId('filter-search').locator('input').fill('scheduler')
  await expect(total).not.toHaveText(before ?? '')
  expect(page.url()).toContain('search=scheduler')
  await expect(page.locator('.work-item-row__title').first()).toContainText(/scheduler/i)
  // Save filter… is among the filters behind More filters.
  await expect(page.getByTestId('filter-save')).toBeHidden()
  await page.getByTestId('filter-more').click()
  await expect(page.getByTestId('filter-more')).toHaveAttribute('aria-expanded', 'true')
  await page.getByTestId('filter-save').click()
  await page.getByTestId('save-filter-name').locator('input').fill('Scheduler bugs')
  await page.keyboard.press('Enter')
  await page.getByTestId('filter-clear').click()
  await expect(total).toHaveText(before ?? '')
  await page.getByTestId('saved-filters').click()
  await page.getByText('Scheduler bugs', { exact: true }).click()
  expect(page.url()).toContain('search=scheduler')
  await shot(page, 'issues-filtered')
})

test('at 900 px the issue filter bar keeps to two rows; More filters opens the rest from the keyboard', async ({
  page,
}) => {
  await page.setViewportSize({ width: 900, height: 800 })
  await page.goto(burrow.pageUrl)
  await runCommand(page, 'go to issues')
  await expect(page.getByTestId('filter-search')).toBeVisible()
  const rowsOf = () =>
    page.locator('.issue-filter-bar').evaluate(
      (bar) =>
        new Set(
          Array.from(
            bar.querySelectorAll('[data-testid^="filter-"], [data-testid="saved-filters"], [data-testid="new-issue"]'),
          )
            .filter((e) => (e as HTMLElement).offsetParent !== null)
            .map((e) => Math.round(e.getBoundingClientRect().top / 8)),
        ).size,
    )
  expect(await rowsOf()).toBeLessThanOrEqual(2)
  // Every name in the two rows is whole: the search's placeholder and the selects' (ui25 saw "Milest…").
  await expect(page.getByTestId('filter-search').locator('input')).toHaveAttribute('placeholder', 'Search issues')
  expect(await clippedNames(page)).toEqual([])
  await shot(page, 'issues-filter-900-light')
  await page.getByTestId('filter-more').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('filter-more')).toHaveAttribute('aria-expanded', 'true')
  await expect(page.getByTestId('filter-confidential')).toBeVisible()
  await page.keyboard.press('Tab')
  await expect(page.locator('[data-testid="filter-author"] :focus')).toHaveCount(1)
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await shot(page, 'issues-filter-900-more-dark')
  // A wide window keeps the long names, still on two rows and whole.
  await page.getByTestId('filter-more').click()
  await page.setViewportSize({ width: 1360, height: 860 })
  await expect(page.getByTestId('filter-search').locator('input')).toHaveAttribute(
    'placeholder',
    'Search title and description',
  )
  await expect(page.getByTestId('filter-more')).toHaveText('More filters')
  expect(await rowsOf()).toBeLessThanOrEqual(2)
  expect(await clippedNames(page)).toEqual([])
  await shot(page, 'issues-filter-1360-dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await shot(page, 'issues-filter-1360-light')
})

test('at 900 px the merge request filter bar keeps to two rows; More filters opens the drafts filter', async ({
  page,
}) => {
  await page.setViewportSize({ width: 900, height: 800 })
  await page.goto(burrow.pageUrl)
  await runCommand(page, 'go to merge requests')
  await expect(page.getByTestId('mr-filter-search')).toBeVisible()
  await expect(page.getByTestId('new-merge-request')).toBeVisible()
  const rowsOf = () =>
    page.locator('.mr-filter-bar').evaluate(
      (bar) =>
        new Set(
          Array.from(bar.querySelectorAll('[data-testid^="mr-filter-"], [data-testid="new-merge-request"]'))
            .filter((e) => (e as HTMLElement).offsetParent !== null)
            .map((e) => Math.round(e.getBoundingClientRect().top / 8)),
        ).size,
    )
  expect(await rowsOf()).toBeLessThanOrEqual(2)
  // The search box is about 160 px beside the four states and New merge request: 'Search' reads whole.
  await expect(page.getByTestId('mr-filter-search').locator('input')).toHaveAttribute('placeholder', 'Search')
  await expect(page.getByTestId('mr-filter-draft')).toBeHidden()
  expect(await clippedNames(page, '.mr-filter-bar')).toEqual([])
  await shot(page, 'mrs-filter-900-light')
  // The drafts filter from the keyboard; once set, the button counts it.
  await page.getByTestId('mr-filter-more').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('mr-filter-more')).toHaveAttribute('aria-expanded', 'true')
  await expect(page.getByTestId('mr-filter-draft')).toBeVisible()
  await page.keyboard.press('Tab')
  await expect(page.locator('[data-testid="mr-filter-draft"] :focus')).toHaveCount(1)
  await page.getByTestId('mr-filter-draft').click()
  await page.locator('.n-base-select-option').filter({ hasText: 'Drafts only' }).click()
  await expect(page.getByTestId('mr-filter-more')).toHaveAttribute('aria-label', 'Fewer filters (1)')
  expect(page.url()).toContain('wip=yes')
  // A filter set brings Clear and 'Fewer (1)': still two rows, and the drafts row below them.
  expect(await rowsOf()).toBeLessThanOrEqual(3)
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await shot(page, 'mrs-filter-900-more-dark')
  await page.getByTestId('mr-filter-clear').click()
  await expect(page.getByTestId('mr-filter-more')).toHaveAttribute('aria-label', 'Fewer filters')
  // A wide window keeps the long names, still on two rows and whole.
  await page.getByTestId('mr-filter-more').click()
  await page.setViewportSize({ width: 1360, height: 860 })
  await expect(page.getByTestId('mr-filter-search').locator('input')).toHaveAttribute(
    'placeholder',
    'Search title and description',
  )
  await expect(page.getByTestId('mr-filter-more')).toHaveText('More filters')
  expect(await rowsOf()).toBeLessThanOrEqual(2)
  expect(await clippedNames(page, '.mr-filter-bar')).toEqual([])
  await shot(page, 'mrs-filter-1360-dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await shot(page, 'mrs-filter-1360-light')
})

/** The filter bar's placeholders and chosen values cut short by their box (an ellipsis), by their text. */
function clippedNames(page: Page, barSelector = '.issue-filter-bar'): Promise<string[]> {
  return page.locator(barSelector).evaluate((bar) => {
    const shown = (e: Element) => (e as HTMLElement).offsetParent !== null
    const selects = Array.from(
      bar.querySelectorAll('.n-base-selection-placeholder__inner, .n-base-selection-input__content'),
    ).filter((e) => shown(e) && e.scrollWidth > e.clientWidth + 1)
    const inputs = Array.from(bar.querySelectorAll('.n-input__placeholder')).filter(
      (e) =>
        shown(e) &&
        e.firstElementChild !== null &&
        e.firstElementChild.getBoundingClientRect().width > e.getBoundingClientRect().width + 1,
    )
    return [...selects, ...inputs].map((e) => e.textContent ?? '')
  })
}

test('at 900 px the page title and the Preferences topic names read whole', async ({ page }) => {
  await page.setViewportSize({ width: 900, height: 800 })
  await page.goto(burrow.pageUrl)
  const title = page.getByTestId('page-title')
  const cut = () => title.evaluate((h) => h.scrollWidth > h.clientWidth)
  await runCommand(page, 'go to merge requests')
  await expect(title).toHaveText('Merge requests')
  expect(await cut()).toBe(false)
  await runCommand(page, 'Preferences')
  await expect(page.getByTestId('preferences')).toBeVisible()
  await expect(title).toHaveText('Preferences')
  expect(await cut()).toBe(false)
  // A one-word topic on one line: the card's break-word had split "Mentio|ns", "Assignm|ents", "Aler|ts".
  const split = await page.locator('.preferences-view__topics thead th').evaluateAll((cells) =>
    cells
      .filter((th) => !(th.textContent ?? '').trim().includes(' '))
      .filter((th) => {
        const range = document.createRange()
        range.selectNodeContents(th)
        return new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size > 1
      })
      .map((th) => th.textContent?.trim()),
  )
  expect(split).toEqual([])
  await bothThemes(page, 'preferences-900')
})

test('bulk actions queue one change per selected issue', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await runCommand(page, 'go to issues')
  const rows = page.locator('.work-item-row')
  await expect(rows.first()).toBeVisible()
  const labels = await api<{ name: string }[]>('GET', '/groups/kestrel/labels?per_page=5').catch(() => [])
  await rows.nth(0).locator('.work-item-row__check').click()
  await rows.nth(1).locator('.work-item-row__check').click()
  await expect(page.getByTestId('bulk-bar')).toContainText('2 selected')
  const label = labels[0]?.name
  if (label === undefined) throw new Error('the demo content has no group labels')
  await page.getByTestId('bulk-add-label').click()
  await page.keyboard.type(label)
  await page.keyboard.press('Enter')
  // Both rows show it at once; the toast says what was done and offers Undo.
  await expect(rows.nth(0).locator(`[data-label="${label}"]`)).toBeVisible()
  await expect(rows.nth(1).locator(`[data-label="${label}"]`)).toBeVisible()
  await expect(page.getByTestId('toast').last()).toContainText(`Label ${label} added`)
  await expect(page.getByTestId('toast-undo').last()).toBeVisible()
  await shot(page, 'issues-bulk')
})

test('a merge request shows its overview, merge panel and changes as a diff', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await runCommand(page, 'go to merge requests')
  const first = page.locator('.work-item-row').first()
  await expect(first).toBeVisible()
  await shot(page, 'merge-requests-list')
  await first.locator('.work-item-row__title').click()
  await expect(page.getByTestId('mr-title')).toBeVisible()
  await expect(page.getByTestId('merge-panel')).toBeVisible()
  await shot(page, 'merge-request-overview')
  await page.locator('.n-tabs-tab', { hasText: 'Changes' }).click()
  await expect(page.getByTestId('review-file-header').first()).toBeVisible()
  await expect(page.locator('.review-row--addition, .review-row--deletion').first()).toBeVisible()
  await shot(page, 'merge-request-changes')
})

test('epics show as a tree with their dates, milestones with progress and a burndown', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await runCommand(page, 'go to epics')
  await expect(page.getByTestId('epic-row').first()).toBeVisible()
  await shot(page, 'epics')
  // Every epic opens (and stays listed), whatever its id and iid: epic discussions are asked by id.
  const titles = (await page.getByTestId('epic-row').locator('a').allTextContents()).map((t) => t.trim())
  expect(titles.length).toBeGreaterThan(3)
  for (const title of titles) {
    await page.getByTestId('epic-row').locator('a').filter({ hasText: title }).first().click()
    await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible()
    await page.goBack()
  }
  await expect(page.getByTestId('epic-row').locator('a')).toHaveText(titles)
  // The tree: a child epic one level under its parent, with the dates the server gives it.
  const serverEpics = await api<
    { id: number; parent_id: number | null; title: string; start_date: string | null; due_date: string | null }[]
  >('GET', '/groups/kestrel/epics?per_page=100')
  const child = serverEpics.find((e) => e.parent_id !== null && e.start_date !== null && e.due_date !== null)
  if (child === undefined) throw new Error('the demo content has no dated child epic')
  const childRow = page.locator('[data-testid="epic-row"][aria-level="2"]').filter({ hasText: child.title })
  // Days read as the page's locale writes them (as an issue's due date does), never as ISO.
  const day = (iso: string): Promise<string> =>
    page.evaluate(
      (d) =>
        new Date(`${d}T12:00:00`).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }),
      iso,
    )
  await expect(childRow).toContainText(`${await day(child.start_date!)} → ${await day(child.due_date!)}`)
  await runCommand(page, 'go to milestones')
  const milestone = page.getByTestId('milestone-row').first()
  await expect(milestone).toBeVisible()
  const dated = (
    await api<{ title: string; due_date: string | null }[]>(
      'GET',
      '/groups/kestrel/milestones?state=active&per_page=100',
    )
  ).find((m) => m.due_date !== null)
  if (dated === undefined) throw new Error('the demo content has no milestone with a due date')
  const datedRow = page.getByTestId('milestone-row').filter({ hasText: dated.title }).first()
  await expect(datedRow).toContainText(await day(dated.due_date!))
  await expect(datedRow).not.toContainText(dated.due_date!)
  await shot(page, 'milestones')
  await milestone.click()
  await expect(page.getByTestId('milestone-progress')).toBeVisible()
  await expect(page.locator('.milestone-burndown')).toBeVisible()
  await shot(page, 'milestone-detail')
})

test('to-dos list what waits for the user', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await runCommand(page, 'go to to-dos')
  await expect(page.getByTestId('page-title')).toHaveText('To-dos')
  await expect(page.getByTestId('todo-row').first().or(page.getByTestId('empty-state'))).toBeVisible()
  await shot(page, 'todos')
})

test('free text in the palette searches the synced items', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await expect(page.getByTestId('page-title')).toHaveText('Home')
  await runCommand(page, 'scheduler')
  await expect(page.getByTestId('page-title')).toHaveText('Search')
  await expect(page.getByTestId('search-hit').first()).toBeVisible()
  await expect(page.getByTestId('search-hit').first().locator('mark').first()).toBeVisible()
  await shot(page, 'search')
})

test('a change that meets a newer server change becomes a conflict, resolved side by side', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await runCommand(page, 'go to issues')
  await page.locator('.work-item-row__title').nth(2).click()
  await expect(page.getByTestId('issue-title')).toBeVisible()
  const [, projectId, iid] = /projects\/(\d+)\/issues\/(\d+)/.exec(page.url()) ?? []
  // Someone else assigns the issue on the server; this computer has not synced it yet.
  const [jonas] = await api<{ id: number }[]>('GET', '/users?username=jonas')
  await api('PUT', `/projects/${projectId}/issues/${iid}`, { assignee_ids: [jonas.id] })
  await page.getByTestId('edit-assignees').click()
  await page.getByTestId('assignees-select').click()
  await page.keyboard.type('Amara')
  await page.keyboard.press('Enter')
  // A multiple select stays open after a pick: close its menu before reaching for Apply.
  await page.keyboard.press('Escape')
  await page.getByTestId('assignees-apply').click()
  await expect(page.getByTestId('status-outbox')).toContainText('needs attention', { timeout: 30_000 })
  await page.getByTestId('status-outbox').click()
  const conflict = page.getByTestId('conflict')
  await expect(conflict).toBeVisible()
  await shot(page, 'outbox-conflict')
  await conflict.getByTestId('keep-mine').click()
  await expect(page.getByTestId('conflict')).toHaveCount(0, { timeout: 30_000 })
  // "Keep mine" queues the write again, over the server's version.
  await expect
    .poll(
      async () =>
        (await api<{ assignees: { username: string }[] }>('GET', `/projects/${projectId}/issues/${iid}`)).assignees.map(
          (a) => a.username,
        ),
      { timeout: 30_000 },
    )
    .toEqual(['amara'])
})

test('offline: online-only actions say why they are off, comments wait in the outbox and go out on return', async ({
  page,
}) => {
  test.setTimeout(180_000)
  await page.goto(burrow.pageUrl)
  await expect(page.getByTestId('page-title')).toHaveText('Home')
  await burrow.setOnline(false)
  await runCommand(page, 'sync now')
  await expect(page.getByTestId('status-sync')).toContainText('Offline', { timeout: 30_000 })
  await runCommand(page, 'go to merge requests')
  await page.locator('.work-item-row__title').first().click()
  await expect(page.getByTestId('merge-blocker')).toContainText('Offline')
  await expect(page.getByTestId('merge')).toBeDisabled()
  await shot(page, 'merge-request-offline')
  await runCommand(page, 'go to issues')
  await page.locator('.work-item-row__title').first().click()
  // Reactions go straight to the server: off, with the reason.
  await expect(page.getByTestId('award-add')).toBeDisabled()
  await expect(page.getByTestId('awards-offline')).toContainText('cannot be reached now')
  await page.getByTestId('comment-body').locator('textarea').fill('Written on a train, no network.')
  await page.getByTestId('comment-submit').click()
  const note = page.getByTestId('note').filter({ hasText: 'Written on a train' })
  await expect(note.getByTestId('pending-marker')).toBeVisible()
  await expect(page.getByTestId('status-outbox')).toContainText('waiting to be sent')
  await shot(page, 'issue-offline-comment')
  await page.getByTestId('status-outbox').click()
  await expect(page.locator('[data-section="queued"]')).toContainText('Comment')
  await shot(page, 'outbox-waiting')
  await burrow.setOnline(true)
  await runCommand(page, 'sync now')
  await expect(page.getByTestId('outbox-empty').or(page.locator('[data-section="done"]'))).toBeVisible({
    timeout: 120_000,
  })
  await expect(page.locator('[data-section="queued"]')).toHaveCount(0, { timeout: 120_000 })
  await expect(page.getByTestId('status-sync')).not.toContainText('Offline', { timeout: 60_000 })
})

test('the triage views in the dark theme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.goto(burrow.pageUrl)
  await runCommand(page, 'go to issues')
  await expect(page.locator('.work-item-row').first()).toBeVisible()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await shot(page, 'issues-list-dark')
  await runCommand(page, 'go to merge requests')
  await page.locator('.work-item-row__title').first().click()
  await page.locator('.n-tabs-tab', { hasText: 'Changes' }).click()
  await expect(page.getByTestId('review-file-header').first()).toBeVisible()
  await shot(page, 'merge-request-changes-dark')
})

test('the server process stopped mid-session: comment, label and close wait offline; restarted, the replay shows in the app and on the server', async ({
  page,
}) => {
  test.setTimeout(300_000)
  await page.goto(burrow.pageUrl)
  const { projectId, iid } = await openIssue(page, 3)
  const before = await api<ServerIssue>('GET', `/projects/${projectId}/issues/${iid}`)
  if (before.state !== 'opened') await api('PUT', `/projects/${projectId}/issues/${iid}`, { state_event: 'reopen' })
  const labels = await api<{ name: string }[]>('GET', `/projects/${projectId}/labels?per_page=100`)
  const label = labels.map((l) => l.name).find((name) => !before.labels.includes(name))
  if (label === undefined) throw new Error('the issue already has every label')
  await page.getByTestId('issue-title').click()
  await runCommand(page, 'reload this issue')
  await expect(page.getByTestId('issue-state')).toHaveText('Open')

  // The instance goes away: its process is stopped, not just the network.
  await burrow.setServerRunning(false)
  await runCommand(page, 'sync now')
  await expect(page.getByTestId('status-sync')).toContainText('Offline', { timeout: 30_000 })

  // Comment (c focuses the box, Ctrl+Enter sends), label (l), close (shift+c): all from the keyboard.
  await page.getByTestId('issue-title').click()
  await page.keyboard.press('c')
  await expect(page.getByTestId('comment-body').locator('textarea')).toBeFocused()
  await page.keyboard.type('Triaged while the server was down.')
  await page.keyboard.press('Control+Enter')
  await expect(
    page.getByTestId('note').filter({ hasText: 'Triaged while the server was down.' }).getByTestId('pending-marker'),
  ).toBeVisible()
  await page.getByTestId('issue-title').click()
  await page.keyboard.press('l')
  await pick(page, label)
  await expect(page.locator('[data-field="labels"]').locator(`[data-label="${label}"]`)).toBeVisible()
  await expect(page.locator('[data-field="labels"]')).toContainText('pending')
  await page.keyboard.press('Shift+C')
  await expect(page.getByTestId('issue-state')).toHaveText('Closed')
  await expect(page.getByTestId('pending-marker').first()).toBeVisible()
  await expect(page.getByTestId('status-outbox')).toContainText('3 changes waiting to be sent')
  // A move needs the server: refused now, with the reason.
  await page.keyboard.press('Shift+M')
  await expect(page.getByTestId('triage-blocked')).toContainText('cannot be reached now')
  await shot(page, 'issue-server-stopped-move-refused')
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('triage-picker')).toHaveCount(0)
  await shot(page, 'issue-server-stopped')
  await page.getByTestId('status-outbox').click()
  await expect(page.locator('[data-section="queued"]').getByTestId('outbox-entry')).toHaveCount(3)
  await shot(page, 'outbox-server-stopped')

  // Back: the same port and data; the outbox replays in order once core sees the server again.
  await burrow.setServerRunning(true)
  await runCommand(page, 'sync now')
  await expect(page.locator('[data-section="queued"]')).toHaveCount(0, { timeout: 120_000 })
  await expect(page.locator('[data-section="done"]')).toContainText(new RegExp(`Comment on \\S*#${iid}(?!\\d)`))
  await expect(page.getByTestId('status-outbox')).toHaveCount(0)
  await shot(page, 'outbox-replayed')
  await page.goBack()
  await expect(page.getByTestId('issue-state')).toHaveText('Closed')
  await expect(
    page.getByTestId('note').filter({ hasText: 'Triaged while the server was down.' }).getByTestId('pending-marker'),
  ).toHaveCount(0, { timeout: 30_000 })
  await expect(page.locator('[data-field="labels"]')).not.toContainText('pending', { timeout: 30_000 })
  await shot(page, 'issue-replayed')

  const after = await api<ServerIssue>('GET', `/projects/${projectId}/issues/${iid}`)
  expect(after.state).toBe('closed')
  expect(after.labels).toContain(label)
  const notes = await api<{ body: string; system: boolean }[]>(
    'GET',
    `/projects/${projectId}/issues/${iid}/notes?per_page=100`,
  )
  expect(notes.filter((n) => n.body === 'Triaged while the server was down.')).toHaveLength(1)
})

test('triage on the list from the keyboard: j moves, l labels and a assigns the highlighted issue', async ({
  page,
}) => {
  await page.goto(burrow.pageUrl)
  await runCommand(page, 'go to issues')
  const rows = page.locator('.work-item-row')
  await expect(rows.nth(2)).toBeVisible()
  await page.getByTestId('list-total').click()
  await page.keyboard.press('j')
  await page.keyboard.press('j')
  const row = page.locator('.work-item-row--active')
  await expect(row).toHaveCount(1)
  const iid = Number(await row.getAttribute('data-iid'))
  const href = (await row.locator('.work-item-row__title').getAttribute('href')) ?? ''
  const [, projectId] = /projects\/(\d+)\//.exec(href) ?? []
  const issue = await api<ServerIssue>('GET', `/projects/${projectId}/issues/${iid}`)
  const labels = await api<{ name: string }[]>('GET', `/projects/${projectId}/labels?per_page=100`)
  const label = labels.map((l) => l.name).find((name) => !issue.labels.includes(name))
  if (label === undefined) throw new Error('the issue already has every label')
  await page.keyboard.press('l')
  await expect(page.getByTestId('triage-picker')).toBeVisible()
  await shot(page, 'triage-label-picker')
  await pick(page, label)
  const updated = page.locator(`.work-item-row[data-iid="${iid}"]`)
  await expect(updated.locator(`[data-label="${label}"]`)).toBeVisible()
  // Picking someone already assigned takes them off: either way, the server ends up with the other state.
  const wasAssigned = issue.assignees.some((a) => a.username === burrow.user.username)
  await page.keyboard.press('a')
  await expect(page.getByTestId('triage-picker').getByRole('option').nth(1)).toContainText(burrow.user.name)
  await pick(page, burrow.user.name)
  // Online the outbox may send before a pending marker is ever seen: the server's state is what counts.
  await expect
    .poll(
      async () => {
        const now = await api<ServerIssue>('GET', `/projects/${projectId}/issues/${iid}`)
        return [now.labels.includes(label), now.assignees.some((a) => a.username === burrow.user.username)]
      },
      { timeout: 30_000 },
    )
    .toEqual([true, !wasAssigned])
})

test('a key pressed right after a pick reaches the list, not the picker that is closing', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await runCommand(page, 'go to issues')
  await expect(page.locator('.work-item-row').nth(1)).toBeVisible()
  await page.getByTestId('list-total').click()
  await page.keyboard.press('j')
  const row = page.locator('.work-item-row--active')
  const iid = Number(await row.getAttribute('data-iid'))
  const href = (await row.locator('.work-item-row__title').getAttribute('href')) ?? ''
  const [, projectId] = /projects\/(\d+)\//.exec(href) ?? []
  const issue = await api<ServerIssue>('GET', `/projects/${projectId}/issues/${iid}`)
  const labels = await api<{ name: string }[]>('GET', `/projects/${projectId}/labels?per_page=100`)
  const label = labels.map((l) => l.name).find((name) => !issue.labels.includes(name))
  if (label === undefined) throw new Error('the issue already has every label')
  await page.keyboard.press('l')
  const picker = page.getByTestId('triage-picker')
  const filter = picker.getByTestId('triage-filter').locator('input')
  await expect(filter).toBeFocused()
  await filter.fill(label)
  await expect(picker.getByRole('option').first()).toContainText(label)
  // Enter, then `a` at once, while the label picker is still fading out: `a` opens the assignees.
  await page.keyboard.press('Enter')
  await page.keyboard.press('a')
  await expect(page.getByRole('dialog', { name: 'Assignees' })).toBeVisible()
  await expect(filter).toHaveValue('')
  await expect(filter).toBeFocused()
  await expect(row.locator(`[data-label="${label}"]`)).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(picker).toHaveCount(0)
})

test('a row’s labels that do not fit end in +N: whole labels before it, the ones left out named in its tooltip', async ({
  page,
}) => {
  await page.setViewportSize({ width: 900, height: 800 })
  await page.goto(burrow.pageUrl)
  await runCommand(page, 'go to issues')
  const href = (await page.locator('.work-item-row__title').first().getAttribute('href')) ?? ''
  const [, projectId] = /projects\/(\d+)\//.exec(href) ?? []
  // Every label of the project on one new issue: more than the half line a row gives its labels at 900 px.
  const names = (await api<{ name: string }[]>('GET', `/projects/${projectId}/labels?per_page=100`)).map((l) => l.name)
  expect(names.length).toBeGreaterThan(4)
  const issue = await api<ServerIssue>('POST', `/projects/${projectId}/issues`, {
    title: 'Labelled with everything',
    labels: names.join(','),
  })
  await runCommand(page, 'sync now')
  const row = page.locator('.work-item-row').filter({ has: page.locator(`a[href$="/issues/${issue.iid}"]`) })
  const more = row.getByTestId('labels-more')
  await expect(more).toBeVisible({ timeout: 60_000 })
  const hidden = Number((await more.textContent())?.replace('+', ''))
  const chips = row.locator('.label-chip-line__chips > .label-chip')
  const inRow = await chips.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.label ?? ''))
  expect(inRow).toHaveLength(issue.labels.length)
  expect(hidden).toBeGreaterThan(0)
  expect(hidden).toBeLessThan(inRow.length)
  // The chips before +N are whole, inside the line; the rest are below it, out of sight.
  const line = (await row.locator('.label-chip-line__chips').boundingBox())!
  for (const [i, chip] of (await chips.all()).entries()) {
    const box = (await chip.boundingBox())!
    if (i < inRow.length - hidden) expect(box.x + box.width, inRow[i]).toBeLessThanOrEqual(line.x + line.width + 0.5)
    else expect(box.y, inRow[i]).toBeGreaterThanOrEqual(line.y + line.height)
  }
  // +N follows the last chip shown, one chip gap (4 px) after it, on the same line: no hole before it.
  const last = (await chips.nth(inRow.length - hidden - 1).boundingBox())!
  const plus = (await more.boundingBox())!
  expect(plus.x - (last.x + last.width)).toBeGreaterThanOrEqual(3.5)
  expect(plus.x - (last.x + last.width)).toBeLessThanOrEqual(4.5)
  expect(Math.abs(plus.y + plus.height / 2 - (last.y + last.height / 2))).toBeLessThanOrEqual(1)
  await more.focus()
  const list = page.getByTestId('labels-more-list')
  await expect(list).toBeVisible()
  expect(
    await list.locator('.label-chip').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.label)),
  ).toEqual(inRow.slice(inRow.length - hidden))
  await expect(more).toHaveAttribute('aria-label', `${hidden} more labels: ${inRow.slice(-hidden).join(', ')}`)
  await shot(page, 'issues-labels-more')
})

test('a page opens at its top, not where the page before was scrolled', async ({ page }) => {
  await page.setViewportSize({ width: 1360, height: 500 })
  await page.goto(burrow.pageUrl)
  await openIssue(page, 0)
  const content = page.locator('.shell-layout__content-inner')
  await content.evaluate((el) => el.scrollTo(0, el.scrollHeight))
  await expect.poll(() => content.evaluate((el) => el.scrollTop)).toBeGreaterThan(0)
  await runCommand(page, 'go to to-dos')
  await expect(page.getByTestId('todo-row').first()).toBeVisible()
  // Taller than the window, so a kept scroll would show.
  expect(await content.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true)
  await expect.poll(() => content.evaluate((el) => el.scrollTop)).toBe(0)
})

test('editing the title meets someone else’s newer title: both side by side, resolved with an edited version', async ({
  page,
}) => {
  await page.goto(burrow.pageUrl)
  const { projectId, iid } = await openIssue(page, 5)
  // Someone renames it on the server; this computer has not synced that yet.
  await api('PUT', `/projects/${projectId}/issues/${iid}`, { title: 'Renamed on the server' })
  await page.getByTestId('issue-title').click()
  await page.keyboard.press('e')
  await page.getByTestId('edit-title').locator('input').fill('Renamed in Burrow')
  await page.keyboard.press('Control+Enter')
  // Online, the outbox may meet the server's title before the optimistic one is even seen: the conflict is what counts.
  await expect(page.getByTestId('status-outbox')).toContainText('needs attention', { timeout: 30_000 })
  await page.getByTestId('status-outbox').click()
  const conflict = page.getByTestId('conflict')
  await expect(conflict.getByRole('cell')).toHaveText(['Renamed in Burrow', 'Renamed on the server'])
  await shot(page, 'outbox-title-conflict')
  await conflict.getByRole('button', { name: 'Edit…' }).click()
  await conflict.locator('input').fill('Renamed by both')
  await conflict.getByRole('button', { name: 'Send edited' }).click()
  await expect(page.getByTestId('conflict')).toHaveCount(0, { timeout: 30_000 })
  await expect
    .poll(async () => (await api<ServerIssue>('GET', `/projects/${projectId}/issues/${iid}`)).title, {
      timeout: 30_000,
    })
    .toBe('Renamed by both')
})

test('a task-list box ticked in the description is saved to the server through the outbox', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  const { projectId, iid } = await openIssue(page, 6)
  await api('PUT', `/projects/${projectId}/issues/${iid}`, {
    description: 'Steps:\n\n- [ ] reproduce\n- [ ] fix\n\n```\n- [ ] not a task\n```\n',
  })
  await page.getByTestId('issue-title').click()
  await page.keyboard.press('r')
  const boxes = page.getByTestId('issue-description').locator('input[type="checkbox"]')
  await expect(boxes).toHaveCount(2)
  await boxes.nth(1).click()
  await expect(boxes.nth(1)).toBeChecked()
  await expect(page.getByTestId('task-status')).toContainText('1 of 2 tasks done', { timeout: 30_000 })
  await expect
    .poll(async () => (await api<ServerIssue>('GET', `/projects/${projectId}/issues/${iid}`)).description, {
      timeout: 30_000,
    })
    .toContain('- [x] fix')
})

test('an issue moves to another project through the server; the app follows it', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  const { projectId, iid, title } = await openIssue(page, 7)
  const projects = await api<{ id: number; path_with_namespace: string; name_with_namespace: string }[]>(
    'GET',
    '/projects?membership=true&per_page=100',
  )
  const target = projects.find((p) => p.id !== projectId)
  if (target === undefined) throw new Error('no other project to move to')
  await page.getByTestId('issue-title').click()
  await page.keyboard.press('Shift+M')
  await pick(page, target.path_with_namespace)
  await expect(page).toHaveURL(new RegExp(`projects/${target.id}/issues/\\d+$`), { timeout: 30_000 })
  await expect(page.getByTestId('issue-title')).toHaveText(title)
  const old = await api<ServerIssue>('GET', `/projects/${projectId}/issues/${iid}`)
  expect(old.state).toBe('closed')
  expect(old.moved_to_id).not.toBeNull()
})

test('due date, weight and epic edited in the sidebar go through the outbox to the server', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  const { projectId, iid } = await openIssue(page, 8)
  const epics = await api<{ id: number; title: string; references: { full: string } }[]>(
    'GET',
    '/groups/kestrel/epics?state=opened&per_page=100',
  )
  const project = await api<{ path_with_namespace: string }>('GET', `/projects/${projectId}`)
  const before = await api<{ epic: { id: number } | null }>('GET', `/projects/${projectId}/issues/${iid}`)
  const epic = epics.find((e) => project.path_with_namespace.startsWith('kestrel/') && e.id !== before.epic?.id)
  if (epic === undefined) throw new Error('no kestrel epic to put the issue in')

  await page.getByTestId('edit-due-date').click()
  const date = page.getByTestId('due-date-picker').locator('input')
  await date.fill('2030-01-15')
  await date.press('Enter')
  await page.getByTestId('due-date-apply').click()
  await expect(page.getByTestId('due-date')).toContainText('2030')

  await page.getByTestId('edit-weight').click()
  await page.getByTestId('weight-input').locator('input').fill('7')
  await page.getByTestId('weight-apply').click()
  await expect(page.getByTestId('weight')).toContainText('7')

  await page.getByTestId('edit-epic').click()
  await page.getByTestId('epic-select').click()
  await page.keyboard.type(epic.title)
  await page.keyboard.press('Enter')
  await page.getByTestId('epic-apply').click()
  await expect(page.locator('[data-field="epic"]')).toContainText(epic.title)
  await shot(page, 'issue-dates-weight-epic')

  await expect
    .poll(
      async () => {
        const now = await api<{ due_date: string | null; weight: number | null; epic: { id: number } | null }>(
          'GET',
          `/projects/${projectId}/issues/${iid}`,
        )
        return [now.due_date, now.weight, now.epic?.id ?? null]
      },
      { timeout: 30_000 },
    )
    .toEqual(['2030-01-15', 7, epic.id])
  for (const field of ['due_date', 'weight', 'epic'])
    await expect(page.locator(`[data-field="${field}"]`)).not.toContainText('pending', { timeout: 30_000 })
})

test('an epic’s and a milestone’s issues open from their lists and move to another epic and milestone through the outbox', async ({
  page,
}) => {
  interface ServerEpic {
    id: number
    iid: number
    group_id: number
    title: string
  }
  interface ListedIssue {
    id: number
    iid: number
    project_id: number
    title: string
    state: string
  }
  const epics = await api<ServerEpic[]>(
    'GET',
    '/groups/kestrel/epics?state=opened&include_descendant_groups=false&per_page=100',
  )
  let from: { epic: ServerEpic; issue: ListedIssue } | null = null
  for (const epic of epics) {
    const open = (await api<ListedIssue[]>('GET', `/groups/kestrel/epics/${epic.iid}/issues`)).find(
      (i) => i.state === 'opened',
    )
    if (open !== undefined) {
      from = { epic, issue: open }
      break
    }
  }
  if (from === null) throw new Error('no kestrel epic with an open issue in the demo content')
  const to = epics.find((e) => e.id !== from.epic.id)
  if (to === undefined) throw new Error('no second kestrel epic')

  await page.goto(burrow.pageUrl)
  await runCommand(page, 'go to epics')
  await page.getByTestId('epic-row').locator('a').filter({ hasText: from.epic.title }).first().click()
  const epicIssues = page.getByTestId('epic-issues')
  const row = epicIssues.locator('.work-item-row').filter({ hasText: from.issue.title })
  await expect(row).toBeVisible()
  // Opened from the epic, as from any list.
  await row.locator('.work-item-row__title').click()
  await expect(page.getByTestId('issue-title')).toHaveText(from.issue.title)
  await page.goBack()
  await row.locator('.work-item-row__check').click()
  await expect(page.getByTestId('issue-triage-bar')).toContainText('1 selected')
  await shot(page, 'epic-issues-selected')
  await page.getByTestId('triage-move-to').click()
  await pick(page, to.title)
  // The row leaves this epic at once (the cache shows the queued change), and the server gets it.
  await expect(row).toHaveCount(0)
  await expect
    .poll(
      async () =>
        (
          await api<{ epic: { id: number } | null }>(
            'GET',
            `/projects/${from.issue.project_id}/issues/${from.issue.iid}`,
          )
        ).epic?.id ?? null,
      { timeout: 30_000 },
    )
    .toBe(to.id)

  // A milestone's open issue to another milestone its project can use.
  const milestones = await api<{ id: number; title: string }[]>(
    'GET',
    '/groups/kestrel/milestones?state=active&per_page=100',
  )
  let source: { milestone: { id: number; title: string }; issue: ListedIssue } | null = null
  for (const m of milestones) {
    const open = (await api<ListedIssue[]>('GET', `/groups/kestrel/milestones/${m.id}/issues?per_page=100`)).find(
      (i) => i.state === 'opened',
    )
    if (open !== undefined) {
      source = { milestone: m, issue: open }
      break
    }
  }
  if (source === null) throw new Error('no active kestrel milestone with an open issue')
  const target = milestones.find((m) => m.id !== source.milestone.id)
  if (target === undefined) throw new Error('no second kestrel milestone')
  await runCommand(page, 'go to milestones')
  await page.getByTestId('milestone-row').filter({ hasText: source.milestone.title }).first().click()
  await expect(page.getByTestId('milestone-progress')).toBeVisible()
  const milestoneRow = page.locator('[data-section="opened"] .work-item-row').filter({ hasText: source.issue.title })
  await expect(milestoneRow).toBeVisible()
  await milestoneRow.locator('.work-item-row__check').click()
  await page.getByTestId('triage-move-to').click()
  await pick(page, target.title)
  await expect(milestoneRow).toHaveCount(0)
  await expect
    .poll(
      async () =>
        (
          await api<{ milestone: { id: number } | null }>(
            'GET',
            `/projects/${source.issue.project_id}/issues/${source.issue.iid}`,
          )
        ).milestone?.id ?? null,
      { timeout: 30_000 },
    )
    .toBe(target.id)
  await shot(page, 'milestone-issues-moved')
})

test('online, a merge request is approved and merged, and another rebased, from the merge panel; the server records each', async ({
  page,
}) => {
  test.setTimeout(120_000)
  interface ServerMr {
    id: number
    iid: number
    project_id: number
    title: string
    sha: string
    state: string
    target_branch: string
    detailed_merge_status: string
    author: { username: string }
  }
  const open = await api<ServerMr[]>('GET', '/merge_requests?scope=all&state=opened&per_page=100')
  const ready = open.filter(
    (m) => m.detailed_merge_status === 'mergeable' && m.author.username !== burrow.user.username,
  )
  const pair = ready.flatMap((a) =>
    ready
      .filter((b) => b.id !== a.id && b.project_id === a.project_id && b.target_branch === a.target_branch)
      .map((b) => [a, b] as const),
  )[0]
  if (pair === undefined) throw new Error('no two mergeable merge requests of one project in the demo content')
  const [merged, rebased] = pair
  const openMr = async (mr: ServerMr): Promise<void> => {
    await runCommand(page, 'go to merge requests')
    await page.locator('.work-item-row').filter({ hasText: mr.title }).locator('.work-item-row__title').click()
    await expect(page.getByTestId('mr-title')).toContainText(mr.title)
  }

  await page.goto(burrow.pageUrl)
  await openMr(merged)
  const panel = page.getByTestId('merge-panel')
  await expect(panel).toContainText('Pipeline')
  await panel.getByTestId('approve').click()
  await expect(panel.getByTestId('approve')).toHaveText('Revoke approval')
  const approvals = await api<{ approved_by: { user: { username: string } }[] }>(
    'GET',
    `/projects/${merged.project_id}/merge_requests/${merged.iid}/approvals`,
  )
  expect(approvals.approved_by.map((a) => a.user.username)).toContain(burrow.user.username)
  await shot(page, 'merge-request-approved')
  await panel.getByTestId('merge').click()
  // The app reads the merged state back from the server: the panel says so and merging is off.
  await expect(panel.getByTestId('merge-blocker')).toHaveText('This merge request is merged.', { timeout: 30_000 })
  await expect(panel.getByTestId('merge')).toBeDisabled()
  expect((await api<ServerMr>('GET', `/projects/${merged.project_id}/merge_requests/${merged.iid}`)).state).toBe(
    'merged',
  )

  // The other one is now behind its target: a rebase gives it a new head, which the app shows before merging it.
  await openMr(rebased)
  await panel.getByTestId('rebase').click()
  await expect
    .poll(
      async () => (await api<ServerMr>('GET', `/projects/${rebased.project_id}/merge_requests/${rebased.iid}`)).sha,
      { timeout: 60_000 },
    )
    .not.toBe(rebased.sha)
  await expect(panel.getByTestId('rebase')).toHaveText('Rebase', { timeout: 30_000 })
  await expect(panel.getByTestId('merge')).toBeEnabled()
  const head = (await api<ServerMr>('GET', `/projects/${rebased.project_id}/merge_requests/${rebased.iid}`)).sha
  await page.locator('.n-tabs-tab', { hasText: 'Commits' }).click()
  await expect(page.getByText(head.slice(0, 8)).first()).toBeVisible()
})

test('time tracking, a to-do and the subscription from the issue sidebar reach the server', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  const { projectId, iid, title } = await openIssue(page, 9)
  const before = await api<{ subscribed: boolean; time_stats: { time_estimate: number; total_time_spent: number } }>(
    'GET',
    `/projects/${projectId}/issues/${iid}`,
  )
  await page.getByTestId('estimate-input').locator('input').fill('1d 2h')
  await page.getByTestId('estimate-input').locator('input').press('Enter')
  await page.getByTestId('spent-input').locator('input').fill('1h 30m')
  await page.getByTestId('spent-add').click()
  await expect(page.getByTestId('time-stats')).toContainText('of 1d 2h', { timeout: 30_000 })
  await page.getByTestId('add-todo').click()
  // The to-do is there at once, so the sidebar offers to mark it done rather than to add another.
  await expect(page.getByTestId('todo-mark-done')).toHaveText('Mark as done')
  await page.getByTestId('subscribe').click()
  await shot(page, 'issue-time-todo-subscription')
  await expect
    .poll(
      async () => {
        const now = await api<{ subscribed: boolean; time_stats: { time_estimate: number; total_time_spent: number } }>(
          'GET',
          `/projects/${projectId}/issues/${iid}`,
        )
        return [
          now.time_stats.time_estimate,
          now.time_stats.total_time_spent - before.time_stats.total_time_spent,
          now.subscribed,
        ]
      },
      { timeout: 30_000 },
    )
    .toEqual([10 * 3600, 90 * 60, !before.subscribed])
  const todos = await api<{ target: { iid: number; project_id: number }; target_type: string }[]>(
    'GET',
    '/todos?state=pending&per_page=100',
  )
  expect(
    todos.some((t) => t.target_type === 'Issue' && t.target.iid === iid && t.target.project_id === projectId),
  ).toBe(true)
  await runCommand(page, 'go to to-dos')
  await expect(page.getByTestId('todo-row').filter({ hasText: title }).first()).toBeVisible({ timeout: 30_000 })
})

test('a reaction is given online from the issue page and lands on the server; given again, it is taken back', async ({
  page,
}) => {
  await page.goto(burrow.pageUrl)
  const { projectId, iid } = await openIssue(page, 9)
  const mine = async (): Promise<{ id: number }[]> =>
    (
      await api<{ id: number; name: string; user: { username: string } }[]>(
        'GET',
        `/projects/${projectId}/issues/${iid}/award_emoji?per_page=100`,
      )
    ).filter((a) => a.name === 'rocket' && a.user.username === burrow.user.username)
  const rockets = async (): Promise<number> => (await mine()).length
  // The demo may have given it already: start without it.
  for (const award of await mine()) {
    const response = await fetch(
      `${burrow.serverUrl}/api/v4/projects/${projectId}/issues/${iid}/award_emoji/${award.id}`,
      { method: 'DELETE', headers: { 'PRIVATE-TOKEN': burrow.user.token } },
    )
    expect(response.status).toBe(204)
  }
  await page.reload()
  await expect(page.getByTestId('award-add')).toBeEnabled()
  await expect(page.locator('[data-award="rocket"][aria-pressed="true"]')).toHaveCount(0)
  await page.getByTestId('award-add').click()
  await page.locator('[data-choice="rocket"]').click()
  await expect(page.locator('[data-award="rocket"]')).toHaveAttribute('aria-pressed', 'true')
  expect(await rockets()).toBe(1)
  await shot(page, 'issue-reaction')
  await page.locator('[data-award="rocket"]').click()
  await expect(page.locator('[data-award="rocket"]')).toHaveCount(0)
  expect(await rockets()).toBe(0)
})

test('a merge request lists its commits, opens one’s diff, and colours code in diffs', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await runCommand(page, 'go to merge requests')
  await page.locator('.work-item-row__title').first().click()
  await expect(page.getByTestId('mr-title')).toBeVisible()
  await page.getByTestId('mr-title').click()
  await page.keyboard.press('Shift+T')
  const commit = page.getByTestId('mr-commit').first()
  await expect(commit).toBeVisible()
  const highlighter = page.waitForEvent('worker', { predicate: (w) => w.url().includes('highlight-diff') })
  await commit.locator('button').click()
  await expect(commit.locator('.diff-file').first()).toBeVisible()
  // The commit's diff is coloured by the highlighting worker, as the review's is.
  await highlighter
  await expect(commit.locator('.diff-line__code.burrow-hl [class^="hljs-"]').first()).toBeVisible()
  await shot(page, 'merge-request-commits')
  await page.keyboard.press('Shift+D')
  await expect(page.locator('.review-row__code.hljs [class^="hljs-"]').first()).toBeVisible()
})

test('search shows 50 hits at first and more on demand', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await expect(page.getByTestId('page-title')).toHaveText('Home')
  await page.keyboard.press('/')
  await page.getByTestId('search-input').locator('input').fill('the')
  await expect(page.getByTestId('search-hit')).toHaveCount(50)
  await expect(page.getByTestId('search-total')).toContainText('showing 50')
  // States as GitLab labels them, not the API's values.
  const states = await page.getByTestId('search-hit-state').allTextContents()
  expect(states.length).toBe(50)
  expect(states.filter((s) => !['Open', 'Closed', 'Merged', 'Locked'].includes(s))).toEqual([])
  await page.getByTestId('search-more').click()
  await expect.poll(async () => page.getByTestId('search-hit').count()).toBeGreaterThan(50)
})

/** A list's X-Total straight from the server. */
async function serverTotal(path: string): Promise<number> {
  const response = await fetch(`${burrow.serverUrl}/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': burrow.user.token } })
  if (!response.ok) throw new Error(`GET ${path}: ${response.status}`)
  return Number(response.headers.get('x-total'))
}

test('what to sync: one chosen project leaves only its issues on this computer; memberships bring the rest back', async ({
  page,
}) => {
  test.setTimeout(300_000)
  await page.goto(burrow.pageUrl)
  await runCommand(page, 'go to issues')
  const total = page.getByTestId('list-total')
  await expect(total).not.toHaveText(/^0 /)
  const everything = await total.textContent()
  await page.getByTestId('account-switcher').click()
  await page.getByText('What to sync…', { exact: true }).click()
  await expect(page.getByTestId('page-title')).toContainText('What to sync')
  await page.getByTestId('sync-mode-custom').click()
  const [project] = await api<{ id: number; path_with_namespace: string }[]>(
    'GET',
    '/projects?membership=true&order_by=path&sort=asc&per_page=1',
  )
  await page.locator(`[data-project="${project.path_with_namespace}"]`).click()
  await shot(page, 'sync-scope')
  await page.getByTestId('sync-save').click()
  await page.getByTestId('sync-now').click()
  const expected = await serverTotal(`/projects/${project.id}/issues?state=opened&per_page=1`)
  await runCommand(page, 'go to issues')
  await expect(total).toHaveText(`${expected.toLocaleString('en-US')} ${expected === 1 ? 'issue' : 'issues'}`, {
    timeout: 120_000,
  })
  await page.getByTestId('account-switcher').click()
  await page.getByText('What to sync…', { exact: true }).click()
  await page.getByTestId('sync-mode-memberships').click()
  await page.getByTestId('sync-save').click()
  await page.getByTestId('sync-now').click()
  await runCommand(page, 'go to issues')
  await expect(total).toHaveText(everything ?? '', { timeout: 180_000 })
})

test('every main screen, light and dark', async ({ page }) => {
  test.setTimeout(240_000)
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme })
    await page.goto(burrow.pageUrl)
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
    await expect(page.getByTestId('page-title')).toHaveText('Home')
    await shot(page, `screen-home-${theme}`)
    await openIssue(page, 0)
    await expect(page.locator('[data-field="labels"]')).toBeVisible()
    await shot(page, `screen-issue-${theme}`)
    await page.getByTestId('issue-title').click()
    await page.keyboard.press('l')
    await expect(page.getByTestId('triage-picker').getByRole('option').first()).toBeVisible()
    await shot(page, `screen-issue-label-picker-${theme}`)
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('triage-picker')).toHaveCount(0)
    await page.keyboard.press('e')
    await expect(page.getByTestId('edit-form')).toBeVisible()
    await shot(page, `screen-issue-edit-${theme}`)
    await page.keyboard.press('Escape')
    await runCommand(page, 'go to issues')
    await expect(page.locator('.work-item-row').first()).toBeVisible()
    await shot(page, `screen-issues-${theme}`)
    await runCommand(page, 'go to merge requests')
    await expect(page.locator('.work-item-row').first()).toBeVisible()
    await shot(page, `screen-merge-requests-${theme}`)
    await page.locator('.work-item-row__title').first().click()
    await expect(page.getByTestId('merge-panel')).toBeVisible()
    await shot(page, `screen-merge-request-${theme}`)
    await page.getByTestId('mr-title').click()
    await page.keyboard.press('Shift+T')
    await expect(page.getByTestId('mr-commit').first()).toBeVisible()
    await shot(page, `screen-merge-request-commits-${theme}`)
    await page.keyboard.press('Shift+D')
    await expect(page.getByTestId('review-file-header').first()).toBeVisible()
    await shot(page, `screen-merge-request-changes-${theme}`)
    await runCommand(page, 'go to epics')
    await expect(page.getByTestId('epic-row').first()).toBeVisible()
    await shot(page, `screen-epics-${theme}`)
    const epicLink = page.getByTestId('epic-row').first().locator('a').first()
    const epicTitle = (await epicLink.textContent())?.trim() ?? ''
    await epicLink.click()
    await expect(page.getByRole('heading', { level: 2, name: epicTitle })).toBeVisible()
    await shot(page, `screen-epic-${theme}`)
    await runCommand(page, 'go to milestones')
    await expect(page.getByTestId('milestone-row').first()).toBeVisible()
    await shot(page, `screen-milestones-${theme}`)
    await page.getByTestId('milestone-row').first().click()
    await expect(page.locator('.milestone-burndown')).toBeVisible()
    await shot(page, `screen-milestone-${theme}`)
    await runCommand(page, 'go to to-dos')
    await expect(page.getByTestId('todo-row').first().or(page.getByTestId('empty-state'))).toBeVisible()
    await shot(page, `screen-todos-${theme}`)
    await runCommand(page, 'go to the outbox')
    await expect(page.getByTestId('outbox-empty').or(page.getByTestId('outbox-entry').first())).toBeVisible()
    await shot(page, `screen-outbox-${theme}`)
    await page.getByTestId('page-title').click()
    await page.keyboard.press('/')
    await page.getByTestId('search-input').locator('input').fill('scheduler')
    await expect(page.getByTestId('search-hit').first()).toBeVisible()
    await shot(page, `screen-search-${theme}`)
    await runCommand(page, 'manage accounts')
    await expect(page.getByTestId('account-sync-scope').first()).toBeVisible()
    await shot(page, `screen-accounts-${theme}`)
    await page.getByTestId('account-sync-scope').first().click()
    await expect(page.getByTestId('sync-mode')).toBeVisible()
    await shot(page, `screen-sync-scope-${theme}`)
    await page.getByTestId('page-title').click()
    await page.keyboard.press('?')
    await expect(page.getByTestId('shortcuts-help')).toBeVisible()
    await shot(page, `screen-shortcuts-${theme}`)
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('shortcuts-help')).toHaveCount(0)
    await page.keyboard.press('Control+k')
    await expect(page.getByTestId('command-palette')).toBeVisible()
    await shot(page, `screen-palette-${theme}`)
    await page.keyboard.press('Escape')
  }
})
