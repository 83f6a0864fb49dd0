import { expect, test } from '@playwright/test'
import { launchBurrow, watchCsp, type RunningBurrow } from './support/burrow'
import { shot, runCommand, restApi } from './support/page'
import { startSecondServer, type SecondServer } from './support/second-server'

// Two accounts on two real Burrow Servers: the demo forge (as its group owner) and a second,
// small instance (as its root). "All accounts" merges their lists and search, names whose each
// row is, and a change made there goes to the right server. Serial: the first test adds both.
test.describe.configure({ mode: 'serial' })

let burrow: RunningBurrow
let second: SecondServer
let violations: string[] = []
const WORD = 'lighthouse'
let harbourProjectId = 0
let demoProjectId = 0
let demoIssueIid = 0

test.beforeAll(async () => {
  // The demo seed is shared by the run (support/seed-template.ts): paid once, by whichever spec comes first.
  test.setTimeout(360_000)
  ;[burrow, second] = await Promise.all([launchBurrow({ demo: true }), startSecondServer()])
  const project = await second.api<{ id: number }>('POST', '/projects', {
    name: 'Harbour',
    initialize_with_readme: true,
  })
  harbourProjectId = project.id
  await second.api('POST', `/projects/${project.id}/labels`, { name: 'triage', color: '#6699cc' })
  const milestone = await second.api<{ id: number }>('POST', `/projects/${project.id}/milestones`, {
    title: 'Harbour 1.0',
  })
  for (const title of [`The ${WORD} lamp flickers at dusk`, `Paint the ${WORD} door`, `${WORD} keeper rota`]) {
    await second.api('POST', `/projects/${project.id}/issues`, { title, milestone_id: milestone.id })
  }
  // A merge request and a to-do on each instance, so those views have one of each account too.
  await second.api('POST', `/projects/${project.id}/repository/commits`, {
    branch: 'lamp',
    start_branch: 'main',
    commit_message: 'Brighter lamp',
    actions: [{ action: 'create', file_path: 'lamp.md', content: 'brighter\n' }],
  })
  await second.api('POST', `/projects/${project.id}/merge_requests`, {
    source_branch: 'lamp',
    target_branch: 'main',
    title: `Brighter ${WORD} lamp`,
  })
  await second.api('POST', `/projects/${project.id}/issues/1/todo`)
  // One issue of the demo forge with the same word, so a search finds both instances.
  const [demoProject] = await demoApi<{ id: number; default_branch: string }[]>(
    'GET',
    '/projects?membership=true&order_by=id&sort=asc&per_page=1',
  )
  demoProjectId = demoProject.id
  const demoIssue = await demoApi<{ iid: number }>('POST', `/projects/${demoProject.id}/issues`, {
    title: `Map the ${WORD} on the route planner`,
  })
  demoIssueIid = demoIssue.iid
  await demoApi('POST', `/projects/${demoProject.id}/repository/commits`, {
    branch: 'lighthouse-map',
    start_branch: demoProject.default_branch,
    commit_message: 'Lighthouse on the map',
    actions: [{ action: 'create', file_path: 'lighthouse-map.md', content: 'on the map\n' }],
  })
  await demoApi('POST', `/projects/${demoProject.id}/merge_requests`, {
    source_branch: 'lighthouse-map',
    target_branch: demoProject.default_branch,
    title: `Show the ${WORD} on the map`,
  })
  await demoApi('POST', `/projects/${demoProject.id}/issues/${demoIssue.iid}/todo`)
})

test.afterAll(async () => {
  await Promise.all([burrow?.stop(), second?.stop()])
})

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1360, height: 860 })
  violations = watchCsp(page)
})

test.afterEach(() => {
  expect(violations, 'Content-Security-Policy violations').toEqual([])
})

/** The demo forge's REST API as its group owner. */
const demoApi = restApi(
  () => burrow.serverUrl,
  () => burrow.user.token,
)

const host = (url: string): string => new URL(url).host

test('two accounts on two servers: All accounts merges their issue lists and says whose each row is', async ({
  page,
}) => {
  test.setTimeout(300_000)
  await page.goto(burrow.pageUrl)
  await page.getByTestId('instance-other').click()
  await page.getByTestId('instance-url').locator('input').fill(burrow.serverUrl)
  await page.getByTestId('token').locator('input').fill(burrow.user.token)
  await page.getByTestId('account-add-submit').click()
  await expect(page.getByTestId('account-current')).toHaveText(burrow.user.name)

  await page.getByTestId('account-switcher').click()
  await page.getByText('Add account…').click()
  await expect(page.getByTestId('page-title')).toHaveText('Add account')
  await page.getByTestId('instance-other').click()
  await page.getByTestId('instance-url').locator('input').fill(second.url)
  await page.getByTestId('token').locator('input').fill(second.rootToken)
  await page.getByTestId('account-add-submit').click()
  await expect(page.getByTestId('page-title')).toHaveText('Accounts')

  await page.getByTestId('account-switcher').click()
  await page.getByText('All accounts (2)').click()
  await expect(page.getByTestId('account-current')).toHaveText('All accounts')
  await expect(page.getByTestId('status-sync')).toHaveText(/Synced/, { timeout: 200_000 })

  await runCommand(page, 'go to issues')
  await page.getByTestId('filter-search').locator('input').fill(WORD)
  await expect(page.getByTestId('list-total')).toHaveText('4 issues', { timeout: 60_000 })
  const rows = page.locator('.work-item-row')
  await expect(rows.filter({ hasText: `@root on ${host(second.url)}` })).toHaveCount(3)
  await expect(rows.filter({ hasText: `@${burrow.user.username} on ${host(burrow.serverUrl)}` })).toHaveCount(1)
  await shot(page, 'all-accounts-issues')

  // One account alone shows only its own.
  await page.getByTestId('account-switcher').click()
  await page.getByText(`Administrator · ${host(second.url)}`).click()
  await expect(page.getByTestId('list-total')).toHaveText('3 issues')
  await expect(rows.filter({ hasText: ' on ' })).toHaveCount(0)
})

test('All accounts: search finds both instances’ items and milestones list both', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await page.getByTestId('account-switcher').click()
  await page.getByText('All accounts (2)').click()
  await expect(page.getByTestId('account-current')).toHaveText('All accounts')
  await page.getByTestId('page-title').click()
  await page.keyboard.press('/')
  await page.getByTestId('search-input').locator('input').fill(WORD)
  const hits = page.getByTestId('search-hit')
  // Three issues and a merge request on the second instance, an issue and a merge request on the demo forge.
  await expect(hits).toHaveCount(6)
  await expect(hits.filter({ hasText: `@root on ${host(second.url)}` })).toHaveCount(4)
  await expect(hits.filter({ hasText: `@${burrow.user.username} on ${host(burrow.serverUrl)}` })).toHaveCount(2)
  await shot(page, 'all-accounts-search')

  await runCommand(page, 'go to milestones')
  const milestones = page.getByTestId('milestone-row')
  await expect(milestones.filter({ hasText: 'Harbour 1.0' })).toHaveCount(1)
  await expect(milestones.filter({ hasText: 'Release 3.6' })).toHaveCount(1)
  await shot(page, 'all-accounts-milestones')
})

test('All accounts: a label shortcut on the second instance’s issue lands on that server, not the other', async ({
  page,
}) => {
  await page.goto(burrow.pageUrl)
  await page.getByTestId('account-switcher').click()
  await page.getByText('All accounts (2)').click()
  await runCommand(page, 'go to issues')
  await page.getByTestId('filter-search').locator('input').fill('keeper rota')
  await expect(page.getByTestId('list-total')).toHaveText('1 issue')
  await page.locator('.work-item-row__title').first().click()
  await expect(page.getByTestId('issue-title')).toHaveText(`${WORD} keeper rota`)
  await page.getByTestId('issue-title').click()
  await page.keyboard.press('l')
  const filter = page.getByTestId('triage-filter').locator('input')
  await expect(filter).toBeFocused()
  await filter.fill('triage')
  // The second instance's labels are offered, not the demo forge's.
  await expect(page.getByTestId('triage-picker').getByRole('option')).toHaveText([/triage/])
  await page.keyboard.press('Enter')
  await expect(page.locator('[data-field="labels"]').locator('[data-label="triage"]')).toBeVisible()
  await expect
    .poll(
      async () =>
        (
          await second.api<{ title: string; labels: string[] }[]>(
            'GET',
            `/projects/${harbourProjectId}/issues?search=keeper`,
          )
        ).map((i) => i.labels),
      { timeout: 30_000 },
    )
    .toEqual([['triage']])
  await expect(page.locator('[data-field="labels"]')).not.toContainText('pending', { timeout: 30_000 })
})

test('All accounts: merge requests and to-dos of both accounts, each marked with its account; one account narrows to its own', async ({
  page,
}) => {
  await page.goto(burrow.pageUrl)
  await page.getByTestId('account-switcher').click()
  await page.getByText('All accounts (2)').click()
  await expect(page.getByTestId('account-current')).toHaveText('All accounts')
  const secondMark = `@root on ${host(second.url)}`
  const demoMark = `@${burrow.user.username} on ${host(burrow.serverUrl)}`

  await runCommand(page, 'go to merge requests')
  await page.getByTestId('mr-filter-search').locator('input').fill(WORD)
  await expect(page.getByTestId('list-total')).toHaveText('2 merge requests', { timeout: 60_000 })
  const rows = page.locator('.work-item-row')
  await expect(rows.filter({ hasText: `Brighter ${WORD} lamp` }).filter({ hasText: secondMark })).toHaveCount(1)
  await expect(rows.filter({ hasText: `Show the ${WORD} on the map` }).filter({ hasText: demoMark })).toHaveCount(1)
  await shot(page, 'all-accounts-merge-requests')

  // New merge request from All accounts asks which account, and then offers that account's projects and branches.
  await page.getByTestId('new-merge-request').click()
  const dialog = page.getByTestId('mr-create-dialog')
  const account = dialog.getByTestId('mr-create-account')
  await expect(account).toBeVisible()
  await account.click()
  await page
    .locator('.n-base-select-option')
    .filter({ hasText: host(second.url) })
    .click()
  await expect(account).toContainText(`root @ ${host(second.url)}`)
  const demoPath = (await demoApi<{ path_with_namespace: string }>('GET', `/projects/${demoProjectId}`))
    .path_with_namespace
  await dialog.getByTestId('mr-create-project').click()
  const projects = page.locator('.n-base-select-option')
  await expect(projects.filter({ hasText: 'root/harbour' })).toHaveCount(1)
  await expect(projects.filter({ hasText: demoPath })).toHaveCount(0)
  await projects.filter({ hasText: 'root/harbour' }).click()
  await dialog.getByTestId('mr-create-source').click()
  await page.keyboard.type('lamp')
  await page.locator('.n-base-select-option').filter({ hasText: 'lamp' }).first().click()
  await expect(dialog.getByTestId('mr-create-target')).toContainText('main')
  // The title is proposed from the branch's one commit (repos:compare on the second server), as for the first account.
  await expect(dialog.getByTestId('mr-create-title').locator('input')).toHaveValue('Brighter lamp')
  await shot(page, 'all-accounts-new-merge-request')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()

  await runCommand(page, 'go to to-dos')
  const todos = page.getByTestId('todo-row')
  await expect(
    todos.filter({ hasText: `The ${WORD} lamp flickers at dusk` }).filter({ hasText: secondMark }),
  ).toHaveCount(1)
  await expect(
    todos.filter({ hasText: `Map the ${WORD} on the route planner` }).filter({ hasText: demoMark }),
  ).toHaveCount(1)
  await shot(page, 'all-accounts-todos')

  // The demo account alone: its own to-do, none of the second instance's, and no account marks.
  await page.getByTestId('account-switcher').click()
  await page.getByText(`${burrow.user.name} · ${host(burrow.serverUrl)}`).click()
  await expect(todos.filter({ hasText: `Map the ${WORD} on the route planner` })).toHaveCount(1)
  await expect(todos.filter({ hasText: `The ${WORD} lamp flickers at dusk` })).toHaveCount(0)
  await expect(todos.filter({ hasText: ' on 127.0.0.1' })).toHaveCount(0)
  await runCommand(page, 'go to merge requests')
  await page.getByTestId('mr-filter-search').locator('input').fill(WORD)
  await expect(page.getByTestId('list-total')).toHaveText('1 merge request')
  await expect(rows.filter({ hasText: `Show the ${WORD} on the map` })).toHaveCount(1)
  await expect(rows.filter({ hasText: ' on 127.0.0.1' })).toHaveCount(0)
})

test('All accounts: comments on both instances’ issues go out through each one’s own account, as the server records', async ({
  page,
}) => {
  await page.goto(burrow.pageUrl)
  await page.getByTestId('account-switcher').click()
  await page.getByText('All accounts (2)').click()
  await expect(page.getByTestId('account-current')).toHaveText('All accounts')
  await runCommand(page, 'go to issues')
  await page.getByTestId('filter-search').locator('input').fill(WORD)
  await expect(page.getByTestId('list-total')).toHaveText('4 issues', { timeout: 60_000 })
  const rows = page.locator('.work-item-row')
  // Both rows selected in the merged list, one comment from the palette: one outbox write per item, each by its own account.
  await rows.filter({ hasText: 'Paint the' }).locator('.work-item-row__check').click()
  await rows.filter({ hasText: 'route planner' }).locator('.work-item-row__check').click()
  await expect(page.getByTestId('bulk-bar')).toContainText('2 selected')
  await runCommand(page, 'Comment…')
  const box = page.getByTestId('triage-text').locator('textarea')
  await expect(box).toBeFocused()
  await box.fill('Checked from All accounts.')
  await page.keyboard.press('Control+Enter')
  await expect(page.getByText('Comment queued on 2 issues.')).toBeVisible()
  type Note = { body: string; author: { username: string } }
  const paintIid = (await second.api<{ iid: number }[]>('GET', `/projects/${harbourProjectId}/issues?search=Paint`))[0]
    .iid
  await expect
    .poll(
      async () =>
        (await second.api<Note[]>('GET', `/projects/${harbourProjectId}/issues/${paintIid}/notes`))
          .filter((n) => n.body === 'Checked from All accounts.')
          .map((n) => n.author.username),
      { timeout: 30_000 },
    )
    .toEqual(['root'])
  await expect
    .poll(
      async () =>
        (await demoApi<Note[]>('GET', `/projects/${demoProjectId}/issues/${demoIssueIid}/notes`))
          .filter((n) => n.body === 'Checked from All accounts.')
          .map((n) => n.author.username),
      { timeout: 30_000 },
    )
    .toEqual([burrow.user.username])
  // Both sent: nothing waits in the shell's outbox indicator.
  await expect(page.getByTestId('status-outbox')).toHaveCount(0, { timeout: 30_000 })
})
