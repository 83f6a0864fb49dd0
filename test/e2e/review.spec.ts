import { expect, test, type Page } from '@playwright/test'
import { launchBurrow, watchCsp, type RunningBurrow } from './support/burrow'
import { restApi, runCommand, shot } from './support/page'

// Reviewing a merge request's changes against the demo on a real Burrow Server, through the
// support proxy so the network can be cut: the file tree with counts and Viewed boxes (kept
// across a reload), unified and side by side, and, offline, a merge request whose changes were
// never read computed from the project's clone. Serial: the first test adds the account.
test.describe.configure({ mode: 'serial' })

const PROJECT = 'kestrel/field-app'

let burrow: RunningBurrow
let violations: string[] = []
let project: { id: number }
let accountId = ''

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

interface ServerMergeRequest {
  readonly iid: number
  readonly title: string
  readonly state: string
}

async function openChanges(page: Page, iid: number): Promise<void> {
  await expect(page.getByTestId('page-title')).toBeVisible()
  await page.evaluate(
    (hash) => (window.location.hash = hash),
    `#/a/${accountId}/projects/${project.id}/merge_requests/${iid}?tab=changes`,
  )
  await expect(page.getByTestId('review-changes')).toBeVisible()
}

/** The merge request with the most changed files among `state` ones. */
async function busiest(state: 'opened' | 'merged'): Promise<{ mr: ServerMergeRequest; paths: string[] }> {
  const list = await api<ServerMergeRequest[]>(
    'GET',
    `/projects/${project.id}/merge_requests?state=${state}&per_page=20&order_by=updated_at`,
  )
  let best: { mr: ServerMergeRequest; paths: string[] } | null = null
  for (const mr of list) {
    const changes = await api<{ changes: { new_path: string }[] }>(
      'GET',
      `/projects/${project.id}/merge_requests/${mr.iid}/changes`,
    )
    const paths = changes.changes.map((c) => c.new_path)
    if (best === null || paths.length > best.paths.length) best = { mr, paths }
  }
  if (best === null) throw new Error(`no ${state} merge request in ${PROJECT}`)
  return best
}

test('after adding an account, the first sync fills the merge request list', async ({ page }) => {
  test.setTimeout(180_000)
  project = await api<{ id: number }>('GET', `/projects/${encodeURIComponent(PROJECT)}`)
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
  await runCommand(page, 'go to merge requests')
  const href = (await page.locator('.work-item-row__title').first().getAttribute('href')) ?? ''
  accountId = /\/a\/([^/]+)\//.exec(href)?.[1] ?? ''
  expect(accountId).not.toBe('')
})

test('Changes: a tree of the files with their counts, Viewed boxes kept across a reload, unified and side by side', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const { mr, paths } = await busiest('opened')
  await page.goto(burrow.pageUrl)
  await openChanges(page, mr.iid)
  const tree = page.getByTestId('review-tree-file')
  await expect(tree).toHaveCount(paths.length)
  await expect(page.getByTestId('review-viewed-count')).toHaveText(`0 of ${paths.length} viewed`)
  await expect(page.locator('.review-row--line').first()).toBeVisible()
  await shot(page, 'review-unified-light')

  // Viewed: counted, the file folds away in the diff, and the mark survives a reload.
  const first = tree.first()
  const firstPath = (await first.getAttribute('data-path')) ?? ''
  await first.getByTestId('review-viewed').check()
  await expect(page.getByTestId('review-viewed-count')).toHaveText(`1 of ${paths.length} viewed`)
  const header = page.locator(`[data-testid="review-file-header"][data-path="${firstPath}"]`)
  await expect(header.getByTestId('review-viewed-header')).toBeChecked()
  await page.reload()
  await expect(page.getByTestId('review-viewed-count')).toHaveText(`1 of ${paths.length} viewed`, { timeout: 30_000 })
  await expect(
    page.locator(`[data-testid="review-tree-file"][data-path="${firstPath}"]`).getByTestId('review-viewed'),
  ).toBeChecked()

  // Side by side: removed lines on the left, added ones on the right.
  await page.getByTestId('review-mode-split').click()
  await expect(page.getByTestId('review-diff')).toHaveAttribute('data-mode', 'split')
  await expect(page.locator('.review-row--pair').first()).toBeVisible()
  await shot(page, 'review-split-light')
  await runCommand(page, 'theme: dark')
  await shot(page, 'review-split-dark')
  await page.getByTestId('review-mode-unified').click()
  await shot(page, 'review-unified-dark')
  await runCommand(page, 'theme: light')

  // A click in the tree brings that file's diff to the top.
  const last = tree.last()
  const lastPath = (await last.getAttribute('data-path')) ?? ''
  await last.locator('.review-tree__open').click()
  await expect(page.locator(`[data-testid="review-file-header"][data-path="${lastPath}"]`)).toBeVisible()
})

test('offline, a merged merge request whose changes were never read is computed from the clone', async ({ page }) => {
  test.setTimeout(240_000)
  const { mr, paths } = await busiest('merged')
  await page.goto(burrow.pageUrl)
  await expect(page.getByTestId('page-title')).toBeVisible()
  await page.keyboard.press('g')
  await page.keyboard.press('r')
  const row = page.locator(`[data-testid="repo-row"][data-project="${PROJECT}"]`)
  await row.getByTestId('repo-clone-button').click()
  await expect(row.getByTestId('repo-clone-status')).toHaveText('Cloned: readable offline', { timeout: 120_000 })

  await burrow.setOnline(false)
  await runCommand(page, 'sync now')
  await expect(page.getByTestId('status-sync')).toContainText('Offline', { timeout: 30_000 })
  await openChanges(page, mr.iid)
  await expect(page.getByTestId('review-source')).toHaveAttribute('data-source', 'clone', { timeout: 30_000 })
  await expect(page.getByTestId('review-tree-file')).toHaveCount(paths.length)
  await expect(page.locator('.review-row--line').first()).toBeVisible()
  await shot(page, 'review-offline-clone-light')
  await burrow.setOnline(true)
})
