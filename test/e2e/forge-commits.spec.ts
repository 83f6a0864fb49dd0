import { expect, test, type Page } from '@playwright/test'
import { launchBurrow, watchCsp, type RunningBurrow } from './support/burrow'
import { bothThemes, openAt, restApi, runCommand } from './support/page'

// Issue 11's commit views against a real Burrow Server, signed in as its administrator: the
// statuses external CI posts, beside a merge request's head pipeline and on the commit view.
// Serial: the first test adds the account and waits for its first sync.
test.describe.configure({ mode: 'serial' })

let burrow: RunningBurrow
let violations: string[] = []
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

/** The REST API as the administrator, straight to the server. */
const api = restApi(
  () => burrow.serverUrl,
  () => burrow.rootToken,
)

function open(page: Page, hash: string): Promise<void> {
  return openAt(page, burrow.pageUrl, hash)
}

test('the administrator adds the local server and the first sync finishes', async ({ page }) => {
  test.setTimeout(240_000)
  await page.goto(burrow.pageUrl)
  await page.getByTestId('instance-other').click()
  await page
    .getByTestId('instance-url')
    .locator('input')
    .fill(burrow.proxyUrl ?? '')
  await page.getByTestId('token').locator('input').fill(burrow.rootToken)
  await page.getByTestId('account-add-submit').click()
  await expect(page.getByTestId('account-current')).toHaveText('Administrator')
  await expect(page.getByTestId('status-sync')).toHaveText(/Synced/, { timeout: 200_000 })
  await runCommand(page, 'go to merge requests')
  const href = (await page.locator('.work-item-row__title').first().getAttribute('href')) ?? ''
  accountId = /\/a\/([^/]+)\//.exec(href)?.[1] ?? ''
  expect(accountId).not.toBe('')
})

test('external commit statuses show beside the head pipeline of a merge request and on the commit', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const project = await api<{ id: number }>('POST', '/projects', {
    name: 'External CI',
    initialize_with_readme: true,
  })
  const commit = await api<{ id: string }>('POST', `/projects/${project.id}/repository/commits`, {
    branch: 'checked',
    start_branch: 'main',
    commit_message: 'Change checked by Jenkins',
    actions: [{ action: 'create', file_path: 'checked.txt', content: 'checked\n' }],
  })
  const mr = await api<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, {
    source_branch: 'checked',
    target_branch: 'main',
    title: 'Checked externally',
  })
  const post = (body: Record<string, unknown>) => api('POST', `/projects/${project.id}/statuses/${commit.id}`, body)
  await post({
    state: 'success',
    name: 'jenkins/build',
    description: 'Build #412 passed',
    target_url: 'https://jenkins.example.com/job/412',
  })
  await post({ state: 'failed', name: 'sonar/quality-gate', description: 'Coverage below 80%' })

  await open(page, `#/a/${accountId}/projects/${project.id}/merge_requests/${mr.iid}`)
  const panel = page.getByTestId('merge-panel')
  await expect(panel.getByTestId('mr-pipeline-status')).toHaveAttribute('data-status', 'failed')
  const statuses = panel.getByTestId('commit-status')
  await expect(statuses).toHaveCount(2)
  await expect(statuses.first()).toHaveAttribute('data-name', 'jenkins/build')
  await expect(statuses.first()).toHaveAttribute('data-status', 'success')
  await expect(statuses.first().getByTestId('commit-status-link')).toHaveAttribute(
    'href',
    'https://jenkins.example.com/job/412',
  )
  await expect(statuses.nth(1)).toContainText('Coverage below 80%')
  await panel.scrollIntoViewIfNeeded()
  await bothThemes(page, 'mr-external-statuses')

  await open(page, `#/a/${accountId}/projects/${project.id}/repository/commit/${commit.id}`)
  await expect(page.getByTestId('repo-commit-title')).toHaveText('Change checked by Jenkins')
  const onCommit = page.getByTestId('commit-statuses').getByTestId('commit-status')
  await expect(onCommit).toHaveCount(2)
  await expect(onCommit.nth(1)).toHaveAttribute('data-status', 'failed')
  await bothThemes(page, 'commit-statuses')
})
