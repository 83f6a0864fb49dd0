import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { launchBurrow, SCREENSHOTS, watchCsp, type RunningBurrow } from './support/burrow'

// The triage views against the demo content of a real Burrow Server, synced by core into its
// cache. Serial: the first test adds the account and waits for the first sync.
test.describe.configure({ mode: 'serial' })

let burrow: RunningBurrow
let violations: string[] = []

test.beforeAll(async () => {
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

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), animations: 'disabled' })

/** The REST API as the demo user, straight to the server (not through the proxy). */
async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${burrow.serverUrl}/api/v4${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': burrow.user.token, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  return (await response.json()) as T
}

async function runCommand(page: Page, text: string): Promise<void> {
  // Keys typed before the shell has mounted would go nowhere.
  await expect(page.getByTestId('page-title')).toBeVisible()
  await page.keyboard.press('Control+k')
  await page.getByTestId('command-palette-input').locator('input').fill(text)
  await page.keyboard.press('Enter')
}

test('after adding an account, the first sync fills the issue list', async ({ page }) => {
  test.setTimeout(180_000)
  await page.goto(burrow.pageUrl)
  // Through the proxy, as "a GitLab instance", so later tests can take the network away.
  await page.getByTestId('instance-other').click()
  await page.getByTestId('instance-url').locator('input').fill(burrow.proxyUrl ?? '')
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

test('an issue opens with its description, discussion and attributes, and a comment is queued then sent', async ({ page }) => {
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
  await expect(page.getByTestId('bulk-bar')).toContainText(`2 of 2 label ${label} added`)
  await shot(page, 'issues-bulk')
  await expect(rows.nth(0).locator(`[data-label="${label}"]`)).toBeVisible({ timeout: 30_000 })
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
  await expect(page.locator('.diff-file').first()).toBeVisible()
  await expect(page.locator('.diff-line--addition, .diff-line--deletion').first()).toBeVisible()
  await shot(page, 'merge-request-changes')
})

test('epics show as a tree with their dates, milestones with progress and a burndown', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await runCommand(page, 'go to epics')
  await expect(page.getByTestId('epic-row').first()).toBeVisible()
  await shot(page, 'epics')
  await runCommand(page, 'go to milestones')
  const milestone = page.getByTestId('milestone-row').first()
  await expect(milestone).toBeVisible()
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
    .poll(async () => (await api<{ assignees: { username: string }[] }>('GET', `/projects/${projectId}/issues/${iid}`)).assignees.map((a) => a.username), { timeout: 30_000 })
    .toEqual(['amara'])
})

test('offline: online-only actions say why they are off, comments wait in the outbox and go out on return', async ({ page }) => {
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
  await expect(page.getByTestId('outbox-empty').or(page.locator('[data-section="done"]'))).toBeVisible({ timeout: 120_000 })
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
  await expect(page.locator('.diff-file').first()).toBeVisible()
  await shot(page, 'merge-request-changes-dark')
})
