import { expect, test, type Page } from '@playwright/test'
import { launchBurrow, watchCsp, type RunningBurrow } from './support/burrow'
import { restApi, runCommand, shot } from './support/page'
import { httpTransport, TestRunner } from '../helpers/runner'

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
  const highlighter = page.waitForEvent('worker', { predicate: (w) => w.url().includes('highlight-diff') })
  await page.goto(burrow.pageUrl)
  await openChanges(page, mr.iid)
  const tree = page.getByTestId('review-tree-file')
  await expect(tree).toHaveCount(paths.length)
  await expect(page.getByTestId('review-viewed-count')).toHaveText(`0 of ${paths.length} viewed`)
  await expect(page.locator('.review-row--line').first()).toBeVisible()
  // A file's header shows its added lines (once hidden with the line's + button, which shared its class).
  await expect(page.getByTestId('review-file-additions').first()).toHaveText(/^\+\d+$/)
  await expect(page.getByTestId('review-file-additions').first()).toHaveCSS('opacity', '1')
  // Lines are coloured by the highlighting worker (lib/diff-highlighter.ts), which the page's CSP lets run.
  await highlighter
  await expect(page.locator('.review-row--line .burrow-hl [class^="hljs-"]').first()).toBeVisible()
  // Rows are contained, so a scroll paints only the rows it brings in.
  await expect(page.locator('.review-diff .common-virtual-list__row').first()).toHaveCSS('contain', 'strict')
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

  // The address naming the overview, then the changes, of the same merge request switches the page's tab.
  const mrHash = `#/a/${accountId}/projects/${project.id}/merge_requests/${mr.iid}`
  await page.evaluate((hash) => (window.location.hash = hash), mrHash)
  await expect(page.getByTestId('review-changes')).toHaveCount(0)
  await page.evaluate((hash) => (window.location.hash = hash), `${mrHash}?tab=changes`)
  await expect(page.getByTestId('review-changes')).toBeVisible()

  // A click in the tree brings that file's diff to the top.
  const last = tree.last()
  const lastPath = (await last.getAttribute('data-path')) ?? ''
  await last.locator('.review-tree__open').click()
  await expect(page.locator(`[data-testid="review-file-header"][data-path="${lastPath}"]`)).toBeVisible()
})

test('reviewers are shown in the merge request sidebar and edited there; the server gets them through the outbox', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const { mr } = await busiest('opened')
  const before = await api<{ reviewers: { id: number; username: string }[] }>(
    'GET',
    `/projects/${project.id}/merge_requests/${mr.iid}`,
  )
  const members = await api<{ id: number; username: string; name: string }[]>(
    'GET',
    `/projects/${project.id}/members/all?per_page=100`,
  )
  const chosen = members.find(
    (m) => m.username !== burrow.user.username && !before.reviewers.some((r) => r.id === m.id),
  )
  if (chosen === undefined) throw new Error('no member left to ask for a review')
  await page.goto(burrow.pageUrl)
  await expect(page.getByTestId('page-title')).toBeVisible()
  await page.evaluate(
    (hash) => (window.location.hash = hash),
    `#/a/${accountId}/projects/${project.id}/merge_requests/${mr.iid}`,
  )
  const field = page.locator('[data-field="reviewers"]')
  await expect(field.getByTestId('reviewer')).toHaveCount(before.reviewers.length)
  await field.getByTestId('edit-reviewers').click()
  await page.getByTestId('reviewers-select').click()
  await page.keyboard.type(chosen.username)
  await expect(page.locator('.n-base-select-option').filter({ hasText: `@${chosen.username})` })).toBeVisible()
  await page.keyboard.press('Enter')
  await page.keyboard.press('Escape')
  await page.getByTestId('reviewers-apply').click()
  await expect(field.getByTestId('reviewer').filter({ hasText: chosen.name })).toBeVisible()
  await expect
    .poll(
      async () =>
        (
          await api<{ reviewers: { id: number }[] }>('GET', `/projects/${project.id}/merge_requests/${mr.iid}`)
        ).reviewers
          .map((r) => r.id)
          .sort(),
      { timeout: 30_000 },
    )
    .toEqual([...before.reviewers.map((r) => r.id), chosen.id].sort())
  await field.scrollIntoViewIfNeeded()
  await shot(page, 'mr-reviewers-light')
  await runCommand(page, 'theme: dark')
  await shot(page, 'mr-reviewers-dark')
  await runCommand(page, 'theme: light')
})

/** A log as gitlab-runner writes it: coloured, with a folded prepare section and the script's section. */
function runnerLog(command: string, result: string, ok: boolean): string {
  const t = Math.floor(Date.now() / 1000)
  return [
    `section_start:${t}:prepare_executor[collapsed=true]\r\x1b[0K\x1b[36;1mPreparing the "shell" executor\x1b[0;m`,
    'Using Shell executor...',
    `section_end:${t + 2}:prepare_executor\r\x1b[0Ksection_start:${t + 2}:step_script\r\x1b[0K\x1b[36;1mExecuting "step_script" stage of the job script\x1b[0;m`,
    `\x1b[32;1m$ ${command}\x1b[0;m`,
    ok ? `\x1b[32m${result}\x1b[0m` : `\x1b[31m${result}\x1b[0m`,
    `section_end:${t + 9}:step_script\r\x1b[0K`,
    ok ? '\x1b[32;1mJob succeeded\x1b[0;m' : '\x1b[31;1mERROR: Job failed: exit code 1\x1b[0;m',
    '',
  ].join('\n')
}

test('the head pipeline on the merge request, its page with the stage graph, and a job’s coloured log with sections', async ({
  page,
}) => {
  test.setTimeout(180_000)
  // A project whose branch runs build → test → deploy, its jobs run by a runner speaking the runner API.
  const ci = await api<{ id: number; path_with_namespace: string }>('POST', '/projects', {
    name: 'Pipeline graph',
    path: `pipeline-graph-${Date.now()}`,
    initialize_with_readme: true,
  })
  const yaml = [
    'stages: [build, test, deploy]',
    'compile:\n  stage: build\n  script: [make]',
    'lint:\n  stage: build\n  script: [make lint]',
    'unit:\n  stage: test\n  needs: [compile]\n  script: [npm test]',
    'e2e:\n  stage: test\n  allow_failure: true\n  script: [npm run e2e]',
    'ship:\n  stage: deploy\n  script: [make ship]',
  ].join('\n')
  await api('POST', `/projects/${ci.id}/repository/commits`, {
    branch: 'graph',
    start_branch: 'main',
    commit_message: 'Run the pipeline',
    actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: `${yaml}\n` }],
  })
  const mr = await api<{ iid: number }>('POST', `/projects/${ci.id}/merge_requests`, {
    source_branch: 'graph',
    target_branch: 'main',
    title: 'Show the pipeline',
  })
  const created = await api<{ id: number; token: string }>('POST', '/user/runners', {
    runner_type: 'project_type',
    project_id: ci.id,
    description: 'graph runner',
  })
  const runner = TestRunner.connect(httpTransport(burrow.serverUrl), created)
  const outcomes: Record<string, [string, boolean]> = {
    compile: ['built in 3.1s', true],
    lint: ['✔ No problems found', true],
    unit: ['✔ 42 passed', true],
    e2e: ['✖ 1 failed', false],
  }
  for (let job = await runner.requestJob(); job !== null; job = await runner.requestJob()) {
    const [result, ok] = outcomes[job.job_info.name] ?? ['', true]
    expect((await runner.patchTrace(job, 0, runnerLog(job.steps[0]?.script[0] ?? '', result, ok))).status).toBe(202)
    expect(
      (await runner.updateJob(job, ok ? 'success' : 'failed', ok ? {} : { failure_reason: 'script_failure' })).status,
    ).toBe(200)
  }

  await page.goto(burrow.pageUrl)
  await expect(page.getByTestId('page-title')).toBeVisible()
  await page.evaluate(
    (hash) => (window.location.hash = hash),
    `#/a/${accountId}/projects/${ci.id}/merge_requests/${mr.iid}`,
  )
  const onMr = page.getByTestId('mr-pipeline')
  await expect(onMr.getByTestId('mr-pipeline-stage')).toHaveCount(3)
  await expect(onMr.getByTestId('mr-pipeline-stage').first()).toHaveAttribute('data-stage', 'build')
  await expect(onMr.getByTestId('mr-pipeline-job')).toHaveCount(5)
  await expect(onMr.getByTestId('mr-pipeline-job').filter({ hasText: 'e2e' })).toHaveAttribute('data-status', 'failed')
  await expect(onMr.getByTestId('mr-pipeline-job').filter({ hasText: 'ship' })).toHaveAttribute(
    'data-status',
    'success',
  )
  await onMr.scrollIntoViewIfNeeded()
  await shot(page, 'mr-pipeline-light')
  await runCommand(page, 'theme: dark')
  await shot(page, 'mr-pipeline-dark')
  await runCommand(page, 'theme: light')

  // The pipeline's page: stages as columns in run order, each job a node with its status.
  await onMr.getByTestId('mr-pipeline-open').click()
  const graph = page.getByTestId('pipeline-graph')
  await expect(page.getByTestId('resource-detail-title')).toHaveText(/^Pipeline #\d+$/)
  await expect(graph.getByTestId('pipeline-stage')).toHaveCount(3)
  expect(
    await graph.getByTestId('pipeline-stage').evaluateAll((s) => s.map((e) => e.getAttribute('data-stage'))),
  ).toEqual(['build', 'test', 'deploy'])
  await expect(graph.locator('[data-stage="test"]').getByTestId('pipeline-job')).toHaveCount(2)
  await expect(graph.locator('[data-job="e2e"]')).toHaveAttribute('data-status', 'failed')
  await shot(page, 'pipeline-graph-light')
  await runCommand(page, 'theme: dark')
  await shot(page, 'pipeline-graph-dark')
  await runCommand(page, 'theme: light')

  // A job's log: colours from its ANSI codes, the prepare section folded, the script's open until folded.
  await graph.locator('[data-job="unit"]').click()
  await expect(page.getByTestId('resource-detail-title')).toHaveText('unit')
  const log = page.getByTestId('job-log')
  await expect(log.locator('.ci-fg-green', { hasText: '✔ 42 passed' })).toBeVisible()
  await expect(log).not.toContainText('Using Shell executor')
  await expect(log).not.toContainText('section_start')
  await log.locator('[data-section="prepare_executor"]').click()
  await expect(log).toContainText('Using Shell executor')
  await expect(log.getByText('00:07')).toBeVisible()
  await log.scrollIntoViewIfNeeded()
  await shot(page, 'job-log-light')
  await runCommand(page, 'theme: dark')
  await shot(page, 'job-log-dark')
  await runCommand(page, 'theme: light')
  await log.locator('[data-section="step_script"]').click()
  await expect(log).not.toContainText('npm test')
})

const JUNIT = `<testsuite name="rspec">
  <testcase classname="spec.login" name="signs in" time="0.25"/>
  <testcase classname="spec.login" name="refuses a bad password" time="1.5">
    <failure message="expected 401">Expected 401, got 200 with a session</failure>
  </testcase>
  <testcase classname="spec.login" name="remembers the user" time="0.1"><skipped/></testcase>
</testsuite>`

test('a pipeline’s test report: counts by status, failed cases first with their output, and none without JUnit', async ({
  page,
}) => {
  test.setTimeout(180_000)
  const ci = await api<{ id: number }>('POST', '/projects', {
    name: 'Test report',
    path: `test-report-${Date.now()}`,
    initialize_with_readme: true,
  })
  // The first pipeline uploads no report; the second one's job uploads rspec.xml as its JUnit report.
  const commitCi = (action: 'create' | 'update', content: string) =>
    api('POST', `/projects/${ci.id}/repository/commits`, {
      branch: 'main',
      commit_message: 'Run the tests',
      actions: [{ action, file_path: '.gitlab-ci.yml', content }],
    })
  await commitCi('create', 'lint:\n  script: [make lint]\n')
  await commitCi('update', 'rspec:\n  script: [rspec]\n  artifacts:\n    reports:\n      junit: rspec.xml\n')
  const created = await api<{ id: number; token: string }>('POST', '/user/runners', {
    runner_type: 'project_type',
    project_id: ci.id,
    description: 'spec runner',
  })
  await TestRunner.connect(httpTransport(burrow.serverUrl), created, { 'rspec.xml': JUNIT }).runAll()
  const pipelines = await api<{ id: number }[]>('GET', `/projects/${ci.id}/pipelines?sort=asc`)
  expect(pipelines).toHaveLength(2)
  const openPipeline = (id: number) =>
    page.evaluate(
      (hash) => (window.location.hash = hash),
      `#/ci-cd/pipelines/${id}?account=${accountId}&project=${ci.id}`,
    )

  await page.goto(burrow.pageUrl)
  await expect(page.getByTestId('page-title')).toBeVisible()
  await openPipeline(pipelines[1].id)
  const report = page.getByTestId('test-report')
  await expect(report.locator('[data-count="total_count"]')).toHaveText('Tests 3')
  await expect(report.locator('[data-count="failed_count"]')).toHaveText('Failed 1')
  await expect(report.locator('[data-count="skipped_count"]')).toHaveText('Skipped 1')
  await expect(report.locator('[data-count="success_count"]')).toHaveText('Passed 1')
  const cases = report.getByTestId('test-report-case')
  expect(await cases.evaluateAll((c) => c.map((e) => e.getAttribute('data-status')))).toEqual([
    'failed',
    'skipped',
    'success',
  ])
  // Each case's status in the counts' words, not the API's.
  expect(await cases.getByTestId('test-report-case-status').allTextContents()).toEqual(['Failed', 'Skipped', 'Passed'])
  // The failed case opens with its output.
  await expect(cases.first()).toContainText('refuses a bad password')
  await expect(report.getByText('Expected 401, got 200 with a session')).toBeVisible()
  await report.scrollIntoViewIfNeeded()
  await shot(page, 'pipeline-test-report-light')
  await runCommand(page, 'theme: dark')
  await shot(page, 'pipeline-test-report-dark')
  await runCommand(page, 'theme: light')

  await openPipeline(pipelines[0].id)
  await expect(page.getByTestId('resource-detail-title')).toHaveText(`Pipeline #${pipelines[0].id}`)
  await expect(page.getByTestId('test-report-empty')).toHaveText('No test report for this pipeline')
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

interface ServerDiscussion {
  readonly id: string
  readonly notes: {
    readonly body: string
    readonly type: string | null
    readonly system: boolean
    readonly resolved?: boolean
    readonly position?: {
      readonly new_path: string
      readonly new_line: number | null
      readonly old_line: number | null
      readonly head_sha: string
      readonly line_range?: { readonly start: { readonly new_line: number | null } } | null
    } | null
    /** Where a diff note was written (its `position` may have moved to a newer version). */
    readonly original_position?: { readonly new_line: number | null; readonly head_sha: string } | null
  }[]
}

/** A merge request adding a three-line file to the demo project, made through the API. */
async function freshMergeRequest(name: string): Promise<{ iid: number; path: string; head: string }> {
  const { default_branch: main } = await api<{ default_branch: string }>('GET', `/projects/${project.id}`)
  const branch = `${name}-${Date.now()}`
  const path = `notes/${branch}.md`
  await api('POST', `/projects/${project.id}/repository/commits`, {
    branch,
    start_branch: main,
    commit_message: `Notes for ${name}`,
    actions: [{ action: 'create', file_path: path, content: 'alpha\nbeta\ngamma\n' }],
  })
  const mr = await api<{ iid: number; diff_refs: { head_sha: string } }>(
    'POST',
    `/projects/${project.id}/merge_requests`,
    { source_branch: branch, target_branch: main, title: `Review ${name}` },
  )
  return { iid: mr.iid, path, head: mr.diff_refs.head_sha }
}

/** The line of the diff with this anchor (`path:old:new`). */
const line = (page: Page, anchor: string) => page.locator(`.review-row--line[data-anchor="${anchor}"]`)

/** The merge request's comments on the server (no system notes), by thread. */
async function serverThreads(iid: number): Promise<ServerDiscussion['notes'][]> {
  const discussions = await api<ServerDiscussion[]>(
    'GET',
    `/projects/${project.id}/merge_requests/${iid}/discussions?per_page=100`,
  )
  return discussions.map((d) => d.notes.filter((n) => !n.system)).filter((notes) => notes.length > 0)
}

test('a review written offline: drafts kept on this computer, submitted, published once when the server is back', async ({
  page,
}) => {
  test.setTimeout(180_000)
  const { iid, path, head } = await freshMergeRequest('offline-review')
  await page.goto(burrow.pageUrl)
  // Read once online: the merge request and its changes are saved for offline.
  await openChanges(page, iid)
  await expect(line(page, `${path}::2`)).toBeVisible()

  await burrow.setOnline(false)
  await runCommand(page, 'sync now')
  await expect(page.getByTestId('status-sync')).toContainText('Offline', { timeout: 30_000 })
  await page.reload()
  await openChanges(page, iid)
  await expect(page.getByTestId('review-source')).toHaveAttribute('data-source', 'saved')
  // A draft on a line: kept here, shown under its line.
  await line(page, `${path}::2`).hover()
  await line(page, `${path}::2`).getByTestId('review-add-comment').click()
  const form = page.getByTestId('review-composer')
  await expect(form).toContainText('Comment on line 2')
  await form.locator('textarea').fill('Written on the train')
  await expect(form.getByTestId('review-composer-review')).toHaveText('Start a review')
  await form.getByTestId('review-composer-review').click()
  const draft = page.getByTestId('review-draft').filter({ hasText: 'Written on the train' })
  await expect(draft.getByTestId('review-draft-local')).toBeVisible()
  await expect(form).toHaveCount(0)
  // Another on line 3, given up below.
  await line(page, `${path}::3`).hover()
  await line(page, `${path}::3`).getByTestId('review-add-comment').click()
  await form.locator('textarea').fill('Scratch that')
  await expect(form.getByTestId('review-composer-review')).toHaveText('Add to review')
  await form.getByTestId('review-composer-review').click()
  await expect(form).toHaveCount(0)
  // A general comment for the review, from the bar.
  await page.getByTestId('review-general').click()
  await page.getByTestId('review-general-body').locator('textarea').fill('Looks good overall')
  await page.getByTestId('review-general-add').click()
  await expect(page.getByTestId('review-count')).toContainText('Pending review: 3 comments')
  await shot(page, 'review-offline-drafts-light')
  await runCommand(page, 'theme: dark')
  await shot(page, 'review-offline-drafts-dark')
  await runCommand(page, 'theme: light')
  // Drafts stay on this computer until the review is submitted: one given up is gone for good.
  await page.getByTestId('review-draft').filter({ hasText: 'Scratch that' }).getByTestId('review-draft-delete').click()
  await expect(page.getByTestId('review-draft').filter({ hasText: 'Scratch that' })).toHaveCount(0)
  await expect(page.getByTestId('review-count')).toContainText('Pending review: 2 comments')
  await page.reload()
  await openChanges(page, iid)
  await expect(page.getByTestId('review-count')).toContainText('Pending review: 2 comments')
  await expect(draft).toBeVisible()

  await page.getByTestId('review-submit').click()
  await expect(page.getByTestId('review-count')).toContainText('submitted, publishing when the server is reachable')
  // Still offline: nothing reached the server.
  expect(await serverThreads(iid)).toEqual([])

  // Back online: one review, its line comment a DiffNote on line 2 of this version and the general comment, each once.
  await burrow.setOnline(true)
  await runCommand(page, 'sync now')
  await expect
    .poll(async () => (await serverThreads(iid)).map((notes) => notes.map((n) => [n.body, n.type])), {
      timeout: 60_000,
    })
    .toEqual([[['Written on the train', 'DiffNote']], [['Looks good overall', 'DiscussionNote']]])
  const [[onLine]] = await serverThreads(iid)
  expect(onLine.position).toMatchObject({ new_path: path, old_line: null, new_line: 2, head_sha: head })
  expect(await api<unknown[]>('GET', `/projects/${project.id}/merge_requests/${iid}/draft_notes`)).toEqual([])
  await expect(page.getByTestId('review-count')).toHaveCount(0, { timeout: 30_000 })
  await expect(page.getByTestId('review-draft')).toHaveCount(0)
  const published = page.getByTestId('review-thread').filter({ hasText: 'Written on the train' })
  await expect(published).toHaveCount(1, { timeout: 30_000 })
  await expect(published).toHaveAttribute('data-discussion', /^[0-9a-f]{40}$/)
  await page.locator('.n-tabs-tab', { hasText: 'Overview' }).click()
  await expect(page.getByTestId('note').filter({ hasText: 'Looks good overall' })).toHaveCount(1)
})

test('a comment on a line from its +, and on a range by dragging: shown in place, held by the server as diff notes, resolved there', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const { iid, path, head } = await freshMergeRequest('line-comment')
  await page.goto(burrow.pageUrl)
  await openChanges(page, iid)
  await line(page, `${path}::2`).hover()
  await line(page, `${path}::2`).getByTestId('review-add-comment').click()
  const form = page.getByTestId('review-composer')
  await expect(form).toContainText('Comment on line 2')
  await form.locator('textarea').fill('Is **beta** right here?')
  await form.getByTestId('review-composer-now').click()
  const thread = page.getByTestId('review-thread').filter({ hasText: 'Is beta right here?' })
  await expect(thread).toBeVisible()
  await expect(thread.getByTestId('pending-marker')).toHaveCount(0, { timeout: 30_000 })
  await expect(thread).toHaveAttribute('data-discussion', /^[0-9a-f]{40}$/, { timeout: 20_000 })

  // A range: pressed on line 1's +, let go over line 3.
  await line(page, `${path}::1`).hover()
  const plus = await line(page, `${path}::1`).getByTestId('review-add-comment').boundingBox()
  const last = await line(page, `${path}::3`).locator('.review-row__code').boundingBox()
  if (plus === null || last === null) throw new Error('the lines are not on screen')
  await page.mouse.move(plus.x + plus.width / 2, plus.y + plus.height / 2)
  await page.mouse.down()
  await page.mouse.move(last.x + 20, last.y + last.height / 2, { steps: 5 })
  await page.mouse.up()
  await expect(form).toContainText('Comment on lines 1 to 3')
  await form.locator('textarea').fill('The whole list')
  await shot(page, 'review-line-comment-light')
  await runCommand(page, 'theme: dark')
  await shot(page, 'review-line-comment-dark')
  await runCommand(page, 'theme: light')
  await form.getByTestId('review-composer-now').click()
  await expect(page.getByTestId('review-thread').filter({ hasText: 'The whole list' })).toBeVisible()

  await expect
    .poll(
      async () => (await serverThreads(iid)).map((notes) => notes.map((n) => [n.body, n.type, n.position?.new_line])),
      {
        timeout: 30_000,
      },
    )
    .toEqual([[['Is **beta** right here?', 'DiffNote', 2]], [['The whole list', 'DiffNote', 3]]])
  const [one, range] = await serverThreads(iid)
  expect(one[0].position).toMatchObject({ new_path: path, head_sha: head, old_line: null })
  expect(range[0].position?.line_range?.start.new_line).toBe(1)

  await thread.getByTestId('review-resolve').click()
  await expect(thread.getByTestId('review-resolved')).toBeVisible({ timeout: 30_000 })
  expect((await serverThreads(iid))[0][0].resolved).toBe(true)
  await thread.getByTestId('review-resolve').click()
  await expect(thread.getByTestId('review-resolved')).toHaveCount(0, { timeout: 30_000 })
  expect((await serverThreads(iid))[0][0].resolved).toBe(false)

  // A reply added to the review: a draft in the thread, published with the review.
  await thread.getByTestId('review-reply').click()
  await thread.getByTestId('review-reply-body').locator('textarea').fill('Same on the next line')
  await expect(thread.getByTestId('review-reply-review')).toHaveText('Start a review')
  await thread.getByTestId('review-reply-review').click()
  const replyDraft = thread.getByTestId('review-draft').filter({ hasText: 'Same on the next line' })
  await expect(replyDraft).toBeVisible()
  await expect(page.getByTestId('review-count')).toContainText('Pending review: 1 comment')
  await shot(page, 'review-reply-draft-light')
  await runCommand(page, 'theme: dark')
  await shot(page, 'review-reply-draft-dark')
  await runCommand(page, 'theme: light')
  await page.getByTestId('review-submit').click()
  await expect
    .poll(async () => (await serverThreads(iid))[0].map((n) => n.body), { timeout: 30_000 })
    .toEqual(['Is **beta** right here?', 'Same on the next line'])
  await expect(thread.getByTestId('review-thread-note').filter({ hasText: 'Same on the next line' })).toBeVisible({
    timeout: 30_000,
  })
  await expect(page.getByTestId('review-draft')).toHaveCount(0)

  // A push makes a new version of the diff: a line inserted above, line 2 rewritten. The threads on it are
  // outdated, off the diff, and in the discussion list with the lines they were written on (the project's
  // clone lacks that version: the server's compare); one on the unchanged last line moves down with it.
  const mr = await api<{ source_branch: string; diff_refs: { base_sha: string; start_sha: string; head_sha: string } }>(
    'GET',
    `/projects/${project.id}/merge_requests/${iid}`,
  )
  await api('POST', `/projects/${project.id}/merge_requests/${iid}/discussions`, {
    body: 'Is gamma the last one?',
    position: { ...mr.diff_refs, position_type: 'text', old_path: path, new_path: path, new_line: 3 },
  })
  await api('POST', `/projects/${project.id}/repository/commits`, {
    branch: mr.source_branch,
    commit_message: 'Reword',
    actions: [{ action: 'update', file_path: path, content: 'intro\nalpha\nBETA\ngamma\n' }],
  })
  await page.reload()
  await openChanges(page, iid)
  await expect(line(page, `${path}::3`)).toContainText('BETA')
  const carried = page.locator(`.review-diff__slot[data-slot$="${path}::4"]`).getByTestId('review-thread')
  await expect(carried).toContainText('Is gamma the last one?')
  await expect(page.getByTestId('review-thread')).toHaveCount(1)
  const moved = (await serverThreads(iid)).find((notes) => notes[0].body === 'Is gamma the last one?')?.[0]
  expect(moved?.position).toMatchObject({ new_line: 4, head_sha: expect.not.stringMatching(head) })
  expect(moved?.original_position).toMatchObject({ new_line: 3, head_sha: head })
  await shot(page, 'review-carried-thread-light')
  await runCommand(page, 'theme: dark')
  await shot(page, 'review-carried-thread-dark')
  await runCommand(page, 'theme: light')
  await page.locator('.n-tabs-tab', { hasText: 'Overview' }).click()
  const outdated = page.getByTestId('thread-context').filter({ hasText: 'line 2' })
  await expect(outdated.getByTestId('thread-outdated')).toBeVisible()
  await expect(outdated.getByTestId('thread-snippet')).toContainText('+ beta')
  await outdated.scrollIntoViewIfNeeded()
  await shot(page, 'review-outdated-thread-light')
  await runCommand(page, 'theme: dark')
  await shot(page, 'review-outdated-thread-dark')
  await runCommand(page, 'theme: light')
})

test('at 900 px Changes keeps its toolbar on one row and a line comment’s form, buttons and all, inside the diff', async ({
  page,
}) => {
  const { iid, path } = await freshMergeRequest('narrow')
  await page.setViewportSize({ width: 900, height: 800 })
  await page.goto(burrow.pageUrl)
  await openChanges(page, iid)
  await line(page, `${path}::2`).hover()
  await line(page, `${path}::2`).getByTestId('review-add-comment').click()
  const form = page.getByTestId('review-composer')
  await expect(form).toContainText('Comment on line 2')
  await form.locator('textarea').fill('Narrow, but whole?')
  const box = async (selector: string) => {
    const found = await page.locator(selector).first().boundingBox()
    if (found === null) throw new Error(`${selector} is not on screen`)
    return found
  }
  const diff = await box('.review-changes__diff')
  for (const button of await form.getByRole('button').all()) {
    const name = await button.textContent()
    const b = await button.boundingBox()
    if (b === null) throw new Error(`${name} is not on screen`)
    expect(b.x, `${name}: left edge`).toBeGreaterThanOrEqual(diff.x)
    expect(b.x + b.width, `${name}: right edge`).toBeLessThanOrEqual(diff.x + diff.width + 1)
  }
  const changes = await box('[data-testid="review-changes"]')
  const modes = await box('.review-changes__modes')
  expect(modes.x + modes.width).toBeLessThanOrEqual(changes.x + changes.width + 1)
  const summary = await box('[data-testid="review-summary"]')
  // One line of text: "2 files" no longer breaks in two.
  expect(summary.height).toBeLessThan(24)
  expect(Math.abs(summary.y + summary.height / 2 - (modes.y + modes.height / 2))).toBeLessThan(8)
  // The spec's earlier tests chose the light theme by command, so the OS's scheme no longer applies.
  await shot(page, 'review-900-line-comment-light')
  await runCommand(page, 'theme: dark')
  await shot(page, 'review-900-line-comment-dark')
  await runCommand(page, 'theme: light')
})

test('one commit of a merge request picked in Changes: its diff, a line comment there held as the merge request’s thread on that commit', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const { default_branch: main } = await api<{ default_branch: string }>('GET', `/projects/${project.id}`)
  const branch = `two-steps-${Date.now()}`
  const path = `notes/${branch}.md`
  const first = await api<{ id: string; short_id: string; parent_ids: string[] }>(
    'POST',
    `/projects/${project.id}/repository/commits`,
    {
      branch,
      start_branch: main,
      commit_message: 'First step',
      actions: [{ action: 'create', file_path: path, content: 'alpha\nbeta\n' }],
    },
  )
  await api('POST', `/projects/${project.id}/repository/commits`, {
    branch,
    commit_message: 'Second step',
    actions: [{ action: 'update', file_path: path, content: 'alpha\nbeta\ngamma\n' }],
  })
  const { iid } = await api<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, {
    source_branch: branch,
    target_branch: main,
    title: 'Review two steps',
  })
  await page.goto(burrow.pageUrl)
  await openChanges(page, iid)
  await expect(line(page, `${path}::3`)).toBeVisible()

  await page.getByTestId('review-commit-select').click()
  await page.locator('.n-base-select-option', { hasText: 'First step' }).click()
  await expect(line(page, `${path}::3`)).toHaveCount(0)
  await expect(line(page, `${path}::2`)).toBeVisible()
  await line(page, `${path}::2`).hover()
  await line(page, `${path}::2`).getByTestId('review-add-comment').click()
  const form = page.getByTestId('review-composer')
  await expect(form).toContainText('Comment on line 2')
  await expect(form.getByTestId('review-composer-review')).toHaveCount(0)
  await form.locator('textarea').fill('Beta arrives in the **first** step')
  await shot(page, 'review-commit-picked-light')
  await runCommand(page, 'theme: dark')
  await shot(page, 'review-commit-picked-dark')
  await runCommand(page, 'theme: light')
  await form.getByTestId('review-composer-now').click()
  const thread = page.getByTestId('review-thread').filter({ hasText: 'Beta arrives in the first step' })
  await expect(thread).toBeVisible()
  await expect(thread).toHaveAttribute('data-discussion', /^[0-9a-f]{40}$/, { timeout: 30_000 })

  const [[note]] = await serverThreads(iid)
  expect(note).toMatchObject({ body: 'Beta arrives in the **first** step', type: 'DiffNote' })
  expect(note.position).toMatchObject({
    head_sha: first.id,
    base_sha: first.parent_ids[0],
    start_sha: first.parent_ids[0],
    new_path: path,
    new_line: 2,
  })
  expect((note as { commit_id?: string }).commit_id).toBe(first.id)
  // All changes again: the thread is on another diff than the merge request's, listed with the discussions.
  await page.getByTestId('review-commit-select').click()
  await page.locator('.n-base-select-option', { hasText: 'All changes' }).click()
  await expect(line(page, `${path}::3`)).toBeVisible()
  await page.locator('.n-tabs-tab', { hasText: 'Overview' }).click()
  await expect(page.getByTestId('note').filter({ hasText: 'Beta arrives in the first step' })).toHaveCount(1)
})

test('a range of a merge request’s commits picked in Changes from the keyboard: its diff, a line comment there at the range’s refs', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const { default_branch: main } = await api<{ default_branch: string }>('GET', `/projects/${project.id}`)
  const branch = `three-steps-${Date.now()}`
  const path = `notes/${branch}.md`
  const step = (message: string, content: string, start?: string) =>
    api<{ id: string; parent_ids: string[] }>('POST', `/projects/${project.id}/repository/commits`, {
      branch,
      ...(start === undefined ? {} : { start_branch: start }),
      commit_message: message,
      actions: [{ action: start === undefined ? 'update' : 'create', file_path: path, content }],
    })
  const first = await step('First step', 'alpha\nbeta\n', main)
  await step('Second step', 'alpha\nbeta\ngamma\n')
  const third = await step('Third step', 'alpha\nbeta\ngamma\ndelta\n')
  const { iid } = await api<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, {
    source_branch: branch,
    target_branch: main,
    title: 'Review three steps',
  })
  await page.goto(burrow.pageUrl)
  await openChanges(page, iid)
  await expect(line(page, `${path}::4`)).toBeVisible()

  // From the second step (picked from the list), through the third: the end picker is the next stop of Tab.
  await page.getByTestId('review-commit-select').click()
  await page.locator('.n-base-select-option', { hasText: 'Second step' }).click()
  await expect(line(page, `${path}::4`)).toHaveCount(0)
  const end = page.getByTestId('review-range-end-select')
  await expect(end).toContainText('This commit only')
  await page.keyboard.press('Tab')
  await expect(end.locator(':focus')).toHaveCount(1)
  await page.keyboard.press('Enter')
  const through = page.locator('.n-base-select-option', { hasText: /^Through \w+ Third step$/ })
  await expect(through).toBeVisible()
  for (let i = 0; i < 3 && !(await through.getAttribute('class'))?.includes('pending'); i++)
    await page.keyboard.press('ArrowUp')
  await page.keyboard.press('Enter')
  await expect(end).toContainText('Third step')
  // The range's diff: the third step against the first, gamma and delta added.
  await expect(line(page, `${path}::3`)).toHaveClass(/addition/)
  await expect(line(page, `${path}::4`)).toHaveClass(/addition/)

  await line(page, `${path}::4`).hover()
  await line(page, `${path}::4`).getByTestId('review-add-comment').click()
  const form = page.getByTestId('review-composer')
  await expect(form).toContainText('Comment on line 4')
  await expect(form.getByTestId('review-composer-review')).toHaveCount(0)
  await form.locator('textarea').fill('Delta closes the range')
  await shot(page, 'review-commit-range-light')
  await runCommand(page, 'theme: dark')
  await shot(page, 'review-commit-range-dark')
  await runCommand(page, 'theme: light')
  await form.getByTestId('review-composer-now').click()
  const thread = page.getByTestId('review-thread').filter({ hasText: 'Delta closes the range' })
  await expect(thread).toBeVisible()
  await expect(thread).toHaveAttribute('data-discussion', /^[0-9a-f]{40}$/, { timeout: 30_000 })

  // Held by the server at the range's refs: from the first step (the second's parent) to the third, not one commit's.
  const [[note]] = await serverThreads(iid)
  expect(note).toMatchObject({ body: 'Delta closes the range', type: 'DiffNote' })
  expect(note.position).toMatchObject({
    base_sha: first.id,
    start_sha: first.id,
    head_sha: third.id,
    new_path: path,
    new_line: 4,
  })
  expect((note as { commit_id?: string | null }).commit_id ?? null).toBeNull()
  // All changes again: the range's thread is not on the merge request's diff.
  await page.getByTestId('review-commit-select').click()
  await page.locator('.n-base-select-option', { hasText: 'All changes' }).click()
  await expect(end).toHaveCount(0)
  await expect(line(page, `${path}::4`)).toBeVisible()
  await expect(thread).toHaveCount(0)
})

test('a suggestion written in the app with Insert suggestion, applied there: the diff shows the new line, it reads Applied; offline Apply says why', async ({
  page,
}) => {
  test.setTimeout(180_000)
  const { iid, path, head } = await freshMergeRequest('suggestion')
  await page.goto(burrow.pageUrl)
  await openChanges(page, iid)
  // Insert suggestion puts line 2 as it is in a suggestion block, the cursor at its end: typing edits the line.
  await line(page, `${path}::2`).hover()
  await line(page, `${path}::2`).getByTestId('review-add-comment').click()
  const form = page.getByTestId('review-composer')
  await form.getByTestId('review-insert-suggestion').click()
  await page.keyboard.type(' and more')
  await expect(form.locator('textarea')).toHaveValue('```suggestion:-0+0\nbeta and more\n```')
  await form.getByTestId('review-composer-now').click()

  const shown = page.getByTestId('review-thread').getByTestId('review-suggestion')
  await expect(shown.getByTestId('suggestion-old-line')).toHaveText(['2−beta'], { timeout: 30_000 })
  await expect(shown.getByTestId('suggestion-new-line')).toHaveText(['2+beta and more'])
  const apply = shown.getByTestId('review-suggestion-apply')
  await expect(apply).toBeEnabled({ timeout: 30_000 })
  await shot(page, 'review-suggestion-light')
  await runCommand(page, 'theme: dark')
  await shot(page, 'review-suggestion-dark')
  await runCommand(page, 'theme: light')

  // Applied: a commit on the source branch, the merge request's head moves, the diff shows the new line.
  await apply.click()
  await shown.getByTestId('suggestion-commit-apply').click()
  await expect(line(page, `${path}::2`)).toContainText('beta and more', { timeout: 30_000 })
  const mr = await api<{ sha: string; source_branch: string }>('GET', `/projects/${project.id}/merge_requests/${iid}`)
  expect(mr.sha).not.toBe(head)
  const fileOnBranch = async () =>
    Buffer.from(
      (
        await api<{ content: string }>(
          'GET',
          `/projects/${project.id}/repository/files/${encodeURIComponent(path)}?ref=${mr.source_branch}`,
        )
      ).content,
      'base64',
    ).toString()
  expect(await fileOnBranch()).toBe('alpha\nbeta and more\ngamma\n')
  // Its line changed, so the thread is outdated on the new diff: the discussion list shows it, Applied, with its commit.
  await page.locator('.n-tabs-tab', { hasText: 'Overview' }).click()
  const listed = page.getByTestId('review-suggestion').filter({ hasText: 'beta and more' })
  await expect(listed.getByTestId('review-suggestion-applied')).toHaveText('Applied', { timeout: 30_000 })
  await expect(listed).toContainText(mr.sha.slice(0, 8))
  await expect(listed.getByTestId('review-suggestion-apply')).toHaveCount(0)
  await listed.scrollIntoViewIfNeeded()
  await shot(page, 'review-suggestion-applied-light')
  await runCommand(page, 'theme: dark')
  await shot(page, 'review-suggestion-applied-dark')
  await runCommand(page, 'theme: light')

  // Offline, another suggestion's Apply is disabled and says why; nothing is queued for later.
  const now = await api<{ diff_refs: { base_sha: string; start_sha: string; head_sha: string } }>(
    'GET',
    `/projects/${project.id}/merge_requests/${iid}`,
  )
  await api('POST', `/projects/${project.id}/merge_requests/${iid}/discussions`, {
    body: '```suggestion\nGamma\n```',
    position: { ...now.diff_refs, position_type: 'text', old_path: path, new_path: path, new_line: 3 },
  })
  await page.reload()
  await openChanges(page, iid)
  const second = page.getByTestId('review-suggestion').filter({ hasText: 'Gamma' })
  await expect(second.getByTestId('review-suggestion-apply')).toBeEnabled({ timeout: 30_000 })
  await burrow.setOnline(false)
  await runCommand(page, 'sync now')
  await expect(page.getByTestId('status-sync')).toContainText('Offline', { timeout: 30_000 })
  await expect(second.getByTestId('review-suggestion-apply')).toBeDisabled()
  await expect(second.getByTestId('review-suggestion-offline')).toContainText(
    'Offline: applying a suggestion needs the server',
  )
  await shot(page, 'review-suggestion-offline-light')
  await runCommand(page, 'theme: dark')
  await shot(page, 'review-suggestion-offline-dark')
  await runCommand(page, 'theme: light')
  await burrow.setOnline(true)
  await runCommand(page, 'sync now')
  await expect(page.getByTestId('status-sync')).not.toContainText('Offline', { timeout: 30_000 })
  expect(await fileOnBranch()).toBe('alpha\nbeta and more\ngamma\n')
})

test('two suggestions on two files batched and applied with a commit message: one commit on the server with that message and both files changed', async ({
  page,
}) => {
  test.setTimeout(180_000)
  const { default_branch: main } = await api<{ default_branch: string }>('GET', `/projects/${project.id}`)
  const branch = `batch-${Date.now()}`
  const first = `notes/${branch}-one.md`
  const second = `notes/${branch}-two.md`
  await api('POST', `/projects/${project.id}/repository/commits`, {
    branch,
    start_branch: main,
    commit_message: 'Notes for the batch',
    actions: [
      { action: 'create', file_path: first, content: 'one\ntwo\n' },
      { action: 'create', file_path: second, content: 'three\nfour\n' },
    ],
  })
  const mr = await api<{ iid: number; diff_refs: { base_sha: string; start_sha: string; head_sha: string } }>(
    'POST',
    `/projects/${project.id}/merge_requests`,
    { source_branch: branch, target_branch: main, title: 'Review batch' },
  )
  for (const [path, text] of [
    [first, 'ONE'],
    [second, 'FOUR'],
  ] as const)
    await api('POST', `/projects/${project.id}/merge_requests/${mr.iid}/discussions`, {
      body: `\`\`\`suggestion\n${text}\n\`\`\``,
      position: {
        ...mr.diff_refs,
        position_type: 'text',
        old_path: path,
        new_path: path,
        new_line: path === first ? 1 : 2,
      },
    })
  await page.goto(burrow.pageUrl)
  await openChanges(page, mr.iid)
  const one = page.getByTestId('review-suggestion').filter({ hasText: 'ONE' })
  const four = page.getByTestId('review-suggestion').filter({ hasText: 'FOUR' })
  // Both threads are read before anything is pressed: a button of a list still arriving could be another's.
  await expect(one.getByTestId('review-suggestion-batch')).toBeEnabled({ timeout: 30_000 })
  await one.getByTestId('review-suggestion-batch').click()
  await expect(page.getByTestId('suggestion-batch-count')).toHaveText('1 suggestion in batch')
  await expect(one.getByTestId('review-suggestion-in-batch')).toHaveText('In batch')
  await four.scrollIntoViewIfNeeded()
  await expect(four.getByTestId('review-suggestion-batch')).toBeEnabled({ timeout: 30_000 })
  await four.getByTestId('review-suggestion-batch').click()
  const bar = page.getByTestId('suggestion-batch-bar')
  await expect(bar.getByTestId('suggestion-batch-count')).toHaveText('2 suggestions in batch')
  await bar.getByTestId('suggestion-batch-apply').click()
  const message = bar.getByTestId('suggestion-commit-message').locator('textarea')
  await expect(message).toHaveAttribute('placeholder', 'Apply 2 suggestion(s) to 2 file(s)')
  await message.fill('Shout two notes\n\nFrom the batch review.')
  await shot(page, 'review-suggestion-batch-light')
  await runCommand(page, 'theme: dark')
  await shot(page, 'review-suggestion-batch-dark')
  await runCommand(page, 'theme: light')
  await bar.getByTestId('suggestion-commit-apply').click()
  await expect(bar).toHaveCount(0, { timeout: 30_000 })

  // One commit on the source branch, on top of the old head, with the message written, changing both files.
  const after = await api<{ sha: string }>('GET', `/projects/${project.id}/merge_requests/${mr.iid}`)
  expect(after.sha).not.toBe(mr.diff_refs.head_sha)
  const commit = await api<{ message: string; parent_ids: string[] }>(
    'GET',
    `/projects/${project.id}/repository/commits/${after.sha}`,
  )
  expect(commit.message).toBe('Shout two notes\n\nFrom the batch review.')
  expect(commit.parent_ids).toEqual([mr.diff_refs.head_sha])
  const fileAt = async (path: string) =>
    Buffer.from(
      (
        await api<{ content: string }>(
          'GET',
          `/projects/${project.id}/repository/files/${encodeURIComponent(path)}?ref=${branch}`,
        )
      ).content,
      'base64',
    ).toString()
  expect(await fileAt(first)).toBe('ONE\ntwo\n')
  expect(await fileAt(second)).toBe('three\nFOUR\n')
  // The diff is read again at the new head: both lines show as the suggestions wrote them.
  await expect(line(page, `${first}::1`)).toContainText('ONE', { timeout: 30_000 })
  await expect(line(page, `${second}::2`)).toContainText('FOUR')
})
