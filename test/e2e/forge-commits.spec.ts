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
  // New issue and New merge request are buttons in the title's row, not bars across the header.
  const title = await page.getByTestId('repo-title').boundingBox()
  for (const button of ['repo-new-issue', 'repo-new-mr']) {
    const box = await page.getByTestId(button).boundingBox()
    expect(box?.width, button).toBeLessThan(300)
    const middle = (b: typeof box): number => (b === null ? 0 : b.y + b.height / 2)
    expect(Math.abs(middle(box) - middle(title)), button).toBeLessThan(12)
  }
  await bothThemes(page, 'commit-statuses')

  // A status for another ref is another pipeline: each pipeline's statuses sit under it, and it opens the pipeline.
  await post({ state: 'running', name: 'jenkins/build', ref: 'main', description: 'Build #413 on main' })
  const pipelineIds = [
    ...new Set(
      (
        await api<{ pipeline_id: number }[]>('GET', `/projects/${project.id}/repository/commits/${commit.id}/statuses`)
      ).map((s) => s.pipeline_id),
    ),
  ]
  expect(pipelineIds).toHaveLength(2)
  await page.reload()
  const groups = page.getByTestId('commit-status-pipeline')
  await expect(groups).toHaveCount(2)
  const shown = await groups.evaluateAll((sections) => sections.map((e) => Number(e.getAttribute('data-pipeline'))))
  expect(shown.sort()).toEqual([...pipelineIds].sort())
  await expect(page.getByTestId('commit-status-pipeline-open')).toHaveCount(2)
  await bothThemes(page, 'commit-statuses-pipelines')
  const onMain = Math.max(...pipelineIds)
  const main = page.locator(`[data-testid="commit-status-pipeline"][data-pipeline="${onMain}"]`)
  await expect(main.getByTestId('commit-status')).toHaveAttribute('data-status', 'running')
  await main.getByTestId('commit-status-pipeline-open').click()
  await expect(page.getByTestId('resource-detail-title')).toHaveText(`Pipeline #${onMain}`)
})

test('a commit is cherry-picked after a check, reverted, refused when already picked, and refused on a protected branch', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const project = await api<{ id: number }>('POST', '/projects', {
    name: 'Pick and revert',
    initialize_with_readme: true,
  })
  const fix = await api<{ id: string }>('POST', `/projects/${project.id}/repository/commits`, {
    branch: 'hotfix',
    start_branch: 'main',
    commit_message: 'Fix the timeout of the dispatcher',
    actions: [{ action: 'create', file_path: 'timeout.txt', content: '30s\n' }],
  })
  const dialog = page.getByTestId('repo-commit-change-dialog')
  const outcome = dialog.getByTestId('repo-commit-change-outcome')

  await open(page, `#/a/${accountId}/projects/${project.id}/repository/commit/${fix.id}`)
  await expect(page.getByTestId('repo-commit-title')).toHaveText('Fix the timeout of the dispatcher')
  await page.getByTestId('repo-commit-cherry-pick').click()
  await expect(dialog).toContainText(`Cherry-pick ${fix.id.slice(0, 8)}`)
  await expect(dialog.getByTestId('repo-ref-picker')).toContainText('main')
  await dialog.getByTestId('repo-commit-change-check').click()
  await dialog.getByTestId('repo-commit-change-submit').click()
  await expect(outcome).toHaveText('It applies cleanly to main. Nothing was changed yet.')
  const untouched = await api<{ id: string }>('GET', `/projects/${project.id}/repository/commits/main`)
  expect(untouched.id).not.toBe(fix.id)
  await bothThemes(page, 'commit-cherry-pick-checked')

  await dialog.getByTestId('repo-commit-change-check').click()
  await dialog.getByTestId('repo-commit-change-submit').click()
  await expect(outcome).toContainText('Done: new commit')
  const picked = await api<{ id: string; title: string }>('GET', `/projects/${project.id}/repository/commits/main`)
  expect(picked.title).toBe('Fix the timeout of the dispatcher')
  await expect(dialog.getByTestId('repo-commit-change-link')).toHaveText(picked.id.slice(0, 8))
  await bothThemes(page, 'commit-cherry-pick-done')

  await dialog.getByTestId('repo-commit-change-link').click()
  await expect(dialog).toBeHidden()
  await expect(page).toHaveURL(new RegExp(`/repository/commit/${picked.id}`))

  // Picking main's own head onto main leaves nothing to apply: GitLab's message, with what it means.
  await page.getByTestId('repo-commit-cherry-pick').click()
  await dialog.getByTestId('repo-commit-change-submit').click()
  const refusal = dialog.getByTestId('repo-commit-change-error')
  await expect(refusal).toContainText('Sorry, we cannot cherry-pick this commit automatically.')
  await expect(refusal).toContainText('The branch already has this change')
  await bothThemes(page, 'commit-cherry-pick-refused')
  await dialog.getByRole('button', { name: 'Close', exact: true }).click()

  await page.getByTestId('repo-commit-revert').click()
  await dialog.getByTestId('repo-commit-change-submit').click()
  await expect(outcome).toContainText('Done: new commit')
  const reverted = await api<{ title: string }>('GET', `/projects/${project.id}/repository/commits/main`)
  expect(reverted.title).toBe('Revert "Fix the timeout of the dispatcher"')
  await dialog.getByRole('button', { name: 'Close', exact: true }).click()

  // Nobody may push to a protected main: the server's refusal shows, and main stays where it was.
  // A new project's main is protected for Maintainers (the instance default): protect it for no one.
  const unprotected = await fetch(`${burrow.serverUrl}/api/v4/projects/${project.id}/protected_branches/main`, {
    method: 'DELETE',
    headers: { 'PRIVATE-TOKEN': burrow.rootToken },
  })
  expect(unprotected.status).toBe(204)
  await api('POST', `/projects/${project.id}/protected_branches`, { name: 'main', push_access_level: 0 })
  await page.getByTestId('repo-commit-revert').click()
  await dialog.getByTestId('repo-commit-change-submit').click()
  await expect(dialog.getByTestId('repo-commit-change-error')).toContainText(
    'You are not allowed to push into this branch',
  )
  const after = await api<{ title: string }>('GET', `/projects/${project.id}/repository/commits/main`)
  expect(after.title).toBe(reverted.title)
})

test('the commit view shows the commit’s comments and line comments, and comments and replies there', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const project = await api<{ id: number }>('POST', '/projects', {
    name: 'Commented commits',
    initialize_with_readme: true,
  })
  const commit = await api<{ id: string }>('POST', `/projects/${project.id}/repository/commits`, {
    branch: 'main',
    commit_message: 'Retry the dispatcher three times',
    actions: [{ action: 'create', file_path: 'retry.txt', content: 'attempts = 1\nbackoff = 2s\n' }],
  })
  const comments = `/projects/${project.id}/repository/commits/${commit.id}/comments`
  await api('POST', comments, { note: 'Why **three** retries?', path: 'retry.txt', line: 1, line_type: 'new' })

  await open(page, `#/a/${accountId}/projects/${project.id}/repository/commit/${commit.id}`)
  await expect(page.getByTestId('repo-commit-title')).toHaveText('Retry the dispatcher three times')
  const section = page.getByTestId('commit-discussions')
  const threads = section.getByTestId('commit-thread')
  await expect(threads).toHaveCount(1)
  await expect(threads.first().getByTestId('commit-note-line')).toHaveText('retry.txt:1')
  await expect(threads.first()).toContainText('Why three retries?')

  await section.getByTestId('commit-comment-body').locator('textarea').fill('Looks good to me.')
  await section.getByTestId('commit-comment-submit').click()
  await expect(threads).toHaveCount(2)
  await expect(threads.nth(1)).toContainText('Looks good to me.')

  await threads.first().getByTestId('commit-reply').click()
  await threads.first().getByTestId('commit-reply-body').locator('textarea').fill('The network drops one in three.')
  await threads.first().getByTestId('commit-reply-submit').click()
  await expect(threads.first().getByTestId('commit-note')).toHaveCount(2)
  await section.scrollIntoViewIfNeeded()
  await bothThemes(page, 'commit-comments')

  // The server holds them, oldest first: the reply is a note of the line thread.
  const stored = await api<{ note: string; path: string | null }[]>('GET', comments)
  expect(stored.map((c) => [c.note, c.path])).toEqual([
    ['Why **three** retries?', 'retry.txt'],
    ['Looks good to me.', null],
    ['The network drops one in three.', 'retry.txt'],
  ])
})

test('an empty repository says so and shows how to push a first commit; once pushed, its files show', async ({
  page,
}) => {
  const project = await api<{ id: number; http_url_to_repo: string; path_with_namespace: string }>(
    'POST',
    '/projects',
    { name: 'Empty start' },
  )
  await open(page, `#/a/${accountId}/projects/${project.id}/repository/tree`)
  await expect(page.getByTestId('repo-empty')).toContainText('This repository is empty')
  // Not synced yet: its path is read from the server, not shown as "Project N".
  await expect(page.getByTestId('repo-title')).toHaveText(project.path_with_namespace)
  // The address as the server gives it to the app, which reaches it through the test's proxy.
  const address = `${burrow.proxyUrl ?? ''}${new URL(project.http_url_to_repo).pathname}`
  await expect(page.getByTestId('repo-empty-clone')).toContainText(`git clone ${address}`)
  await expect(page.getByTestId('repo-empty-folder')).toContainText(`git remote add origin ${address}`)
  await expect(page.getByText('Tree Not Found')).toHaveCount(0)
  await bothThemes(page, 'repo-empty')

  await api('POST', `/projects/${project.id}/repository/commits`, {
    branch: 'main',
    commit_message: 'Add a README',
    actions: [{ action: 'create', file_path: 'README.md', content: '# Empty start\n' }],
  })
  await page.reload()
  await expect(page.getByTestId('repo-tree-entry')).toHaveText(['README.md'])
  await expect(page.getByTestId('repo-empty')).toHaveCount(0)
})

test('a line comment from the commit diff’s +, and comments written offline shown pending in place, landing once', async ({
  page,
}) => {
  test.setTimeout(180_000)
  const project = await api<{ id: number }>('POST', '/projects', {
    name: 'Commits reviewed offline',
    initialize_with_readme: true,
  })
  const commit = await api<{ id: string; parent_ids: string[] }>('POST', `/projects/${project.id}/repository/commits`, {
    branch: 'main',
    commit_message: 'Tune the backoff',
    actions: [{ action: 'create', file_path: 'backoff.txt', content: 'base = 2s\nfactor = 3\nceiling = 1m\n' }],
  })
  const discussions = `/projects/${project.id}/repository/commits/${commit.id}/discussions?per_page=100`
  type Thread = { notes: { body: string; type: string | null; position?: { new_line: number | null } | null }[] }
  const serverThreads = async () =>
    (await api<Thread[]>('GET', discussions)).map((t) => t.notes.map((n) => [n.body, n.type, n.position?.new_line]))
  const line = (anchor: string) => page.locator(`.review-row--line[data-anchor="${anchor}"]`)

  await open(page, `#/a/${accountId}/projects/${project.id}/repository/commit/${commit.id}`)
  await expect(page.getByTestId('repo-commit-title')).toHaveText('Tune the backoff')
  // Online: a comment on line 2 from its +, shown under the line and held by the server as a diff note.
  await line('backoff.txt::2').hover()
  await line('backoff.txt::2').getByTestId('review-add-comment').click()
  const form = page.getByTestId('review-composer')
  await expect(form).toContainText('Comment on line 2')
  await expect(form.getByTestId('review-composer-review')).toHaveCount(0)
  await form.locator('textarea').fill('Why **three**?')
  await form.getByTestId('review-composer-now').click()
  const lineThread = page.getByTestId('review-thread').filter({ hasText: 'Why three?' })
  await expect(lineThread).toHaveCount(1)
  await expect.poll(serverThreads, { timeout: 30_000 }).toEqual([[['Why **three**?', 'DiffNote', 2]]])
  await expect(lineThread.getByTestId('pending-marker')).toHaveCount(0, { timeout: 30_000 })

  // Offline: a comment on the commit, a reply in the line thread and a comment on line 3 wait in the outbox, in place.
  await burrow.setOnline(false)
  await runCommand(page, 'sync now')
  await expect(page.getByTestId('status-sync')).toContainText('Offline', { timeout: 30_000 })
  const section = page.getByTestId('commit-discussions')
  await section.getByTestId('commit-comment-body').locator('textarea').fill('Written on the train.')
  await section.getByTestId('commit-comment-submit').click()
  await expect(section.getByTestId('commit-pending-thread').filter({ hasText: 'Written on the train.' })).toContainText(
    'Pending',
  )
  await lineThread.getByTestId('review-reply').click()
  await lineThread.getByTestId('review-reply-body').locator('textarea').fill('Three keeps it under a minute.')
  await expect(lineThread.getByTestId('review-reply-review')).toHaveCount(0)
  await lineThread.getByTestId('review-reply-submit').click()
  const listed = section.getByTestId('commit-thread').filter({ hasText: 'Why three?' })
  await expect(listed.getByTestId('commit-pending-note')).toContainText('Three keeps it under a minute.')
  await line('backoff.txt::3').hover()
  await line('backoff.txt::3').getByTestId('review-add-comment').click()
  await form.locator('textarea').fill('A minute is long.')
  await form.getByTestId('review-composer-now').click()
  const offlineLine = page.getByTestId('review-thread').filter({ hasText: 'A minute is long.' })
  await expect(offlineLine.getByTestId('pending-marker')).toHaveText('Pending')
  await page.getByTestId('commit-review').scrollIntoViewIfNeeded()
  await bothThemes(page, 'commit-comments-offline')
  // Nothing reached the server.
  expect(await serverThreads()).toEqual([[['Why **three**?', 'DiffNote', 2]]])

  // Back online: each lands once, the reply in its thread, the line comment a diff note on line 3.
  await burrow.setOnline(true)
  await runCommand(page, 'sync now')
  await expect.poll(serverThreads, { timeout: 60_000 }).toEqual([
    [
      ['Why **three**?', 'DiffNote', 2],
      ['Three keeps it under a minute.', 'DiffNote', 2],
    ],
    [['Written on the train.', 'DiscussionNote', undefined]],
    [['A minute is long.', 'DiffNote', 3]],
  ])
  await expect(page.getByTestId('commit-pending-note')).toHaveCount(0, { timeout: 30_000 })
  await expect(page.getByTestId('pending-marker')).toHaveCount(0)
  await expect(section.getByTestId('commit-thread')).toHaveCount(3)
  await expect(offlineLine).toHaveCount(1)
})

test('a root commit shows side by side with the review’s toggle and takes a line comment, at GitLab’s diff refs for it', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const project = await api<{ id: number }>('POST', '/projects', { name: 'First commit reviewed' })
  const commit = await api<{ id: string; parent_ids: string[] }>('POST', `/projects/${project.id}/repository/commits`, {
    branch: 'main',
    commit_message: 'Start the schedule',
    actions: [{ action: 'create', file_path: 'schedule.txt', content: 'daily = 06:00\nweekly = monday\n' }],
  })
  expect(commit.parent_ids).toEqual([])
  const discussions = `/projects/${project.id}/repository/commits/${commit.id}/discussions?per_page=100`
  type Thread = { notes: { body: string; position?: { base_sha: string; new_line: number | null } | null }[] }

  await open(page, `#/a/${accountId}/projects/${project.id}/repository/commit/${commit.id}`)
  await expect(page.getByTestId('repo-commit-title')).toHaveText('Start the schedule')
  await expect(page.getByTestId('commit-diff-summary')).toContainText("press a line's + to comment")
  await page.getByTestId('review-mode-split').click()
  await expect(page.getByTestId('review-diff')).toHaveAttribute('data-mode', 'split')
  // Every line is new: the left side is empty, the right holds the file.
  const right = page.locator('.review-row--pair .review-row__half[data-anchor="schedule.txt::2"]')
  await expect(right).toContainText('weekly = monday')
  await right.hover()
  await right.getByTestId('review-add-comment').click()
  const form = page.getByTestId('review-composer')
  await expect(form).toContainText('Comment on line 2')
  await form.locator('textarea').fill('Monday is a holiday this week.')
  await form.getByTestId('review-composer-now').click()
  const thread = page.getByTestId('review-thread').filter({ hasText: 'Monday is a holiday this week.' })
  await expect(thread).toHaveCount(1)
  await expect(thread.getByTestId('pending-marker')).toHaveCount(0, { timeout: 30_000 })
  await expect
    .poll(async () => (await api<Thread[]>('GET', discussions)).map((t) => t.notes.map((n) => [n.body, n.position])))
    .toEqual([[['Monday is a holiday this week.', expect.objectContaining({ base_sha: '0'.repeat(40), new_line: 2 })]]])
  await page.getByTestId('commit-review').scrollIntoViewIfNeeded()
  await bothThemes(page, 'commit-root-side-by-side')
  await page.getByTestId('review-mode-unified').click()
  await expect(page.getByTestId('review-diff')).toHaveAttribute('data-mode', 'unified')
})

test('offline, a project not synced yet is titled as not on this device', async ({ page }) => {
  const project = await api<{ id: number }>('POST', '/projects', { name: 'Made elsewhere' })
  await burrow.setOnline(false)
  try {
    await open(page, `#/a/${accountId}/projects/${project.id}/repository/tree`)
    await expect(page.getByTestId('repo-title')).toHaveText(`Project ${project.id} (not on this device)`)
  } finally {
    await burrow.setOnline(true)
  }
})
