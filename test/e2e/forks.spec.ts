import { expect, test, type Page } from '@playwright/test'
import { addLocalServerAccount, launchBurrow, watchCsp, type RunningBurrow } from './support/burrow'
import { bothThemes, openAt, restApi, runCommand } from './support/page'

// The Forks panel of a project against the demo content of a real Burrow Server, signed in as its
// administrator: the project forked from the app (a real copy of its branches on the server), the
// fork shown with what it was forked from, and listed among the project's forks.
// Serial: the first test adds the account and waits for its first sync.
test.describe.configure({ mode: 'serial' })

let burrow: RunningBurrow
let violations: string[] = []
/** The demo's API project. */
let apiProject = 0
const SOURCE = 'kestrel/platform/dispatch-api'

test.beforeAll(async () => {
  // The server seeds the demo content before it listens: over a minute on a busy machine.
  test.setTimeout(320_000)
  burrow = await launchBurrow({ demo: true })
  apiProject = (await api<{ id: number }>('GET', `/projects/${encodeURIComponent(SOURCE)}`)).id
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

const rows = (page: Page) => page.getByTestId('resource-row')

test('the administrator adds the local server and the first sync finishes', async ({ page }) => {
  test.setTimeout(240_000)
  await addLocalServerAccount(page, burrow)
})

test('Forks: the project forked from the app, shown with its upstream, and listed among its forks', async ({
  page,
}) => {
  const me = await api<{ username: string }>('GET', '/user')
  const forkPath = `${me.username}/dispatch-api-fork`
  await openAt(page, burrow.pageUrl, `#/projects/forks?project=${apiProject}`)
  await expect(page.getByTestId('page-title')).toHaveText('Projects · Forks')
  await expect(rows(page)).toHaveCount(0)

  // The namespace is picked among the viewer's and the groups they may create projects in (an
  // administrator: all), searched on the server.
  await page.getByTestId('resource-create').click()
  await expect(page.getByTestId('resource-form')).toBeVisible()
  const namespace = page.getByTestId('remote-select-namespace_path')
  await namespace.click()
  await page.keyboard.type('platf')
  await expect(page.locator('.n-base-select-option').filter({ hasText: /^kestrel\/platform$/ })).toHaveCount(1)
  await expect(page.locator('.n-base-select-option').filter({ hasText: 'your namespace' })).toHaveCount(0)
  await page.keyboard.press('Escape')
  await namespace.click()
  await page.keyboard.type(me.username)
  await page
    .locator('.n-base-select-option')
    .filter({ hasText: `${me.username} (your namespace)` })
    .click()
  await page.getByTestId('field-name').locator('input').fill('Dispatch API fork')
  await page.getByTestId('field-path').locator('input').fill('dispatch-api-fork')
  await expect(namespace).toContainText(`${me.username} (your namespace)`)
  await bothThemes(page, 'forks-form')
  await page.getByTestId('form-submit').click()
  await expect(page.getByTestId('resource-detail-title')).toHaveText(forkPath)
  await expect(page.getByTestId('resource-detail')).toContainText('Forked from')
  await expect(page.getByTestId('resource-detail')).toContainText(SOURCE)
  await bothThemes(page, 'forks-detail')

  // A real fork on the server: linked to its upstream, with the upstream's branches at the same commits.
  const fork = await api<{ id: number; forked_from_project: { id: number } }>(
    'GET',
    `/projects/${encodeURIComponent(forkPath)}`,
  )
  expect(fork.forked_from_project.id).toBe(apiProject)
  const heads = async (id: number) =>
    (await api<{ name: string; commit: { id: string } }[]>('GET', `/projects/${id}/repository/branches?per_page=100`))
      .map((b) => `${b.name} ${b.commit.id}`)
      .sort()
  expect(await heads(fork.id)).toEqual(await heads(apiProject))

  await page.getByTestId('resource-tab-forks').click()
  await expect(rows(page).filter({ hasText: forkPath })).toHaveCount(1)
  await bothThemes(page, 'forks-list')

  // A merge request from the fork into this project, computed across the two repositories.
  await api('POST', `/projects/${fork.id}/repository/commits`, {
    branch: 'fork-fix',
    start_branch: 'main',
    commit_message: 'Fix from the fork',
    actions: [{ action: 'create', file_path: 'FORK-FIX.md', content: 'From the fork\n' }],
  })
  await rows(page).filter({ hasText: forkPath }).getByTestId('action-merge-request').click()
  await page.getByTestId('field-source_branch').locator('input').fill('fork-fix')
  await page.getByTestId('field-target_branch').locator('input').fill('main')
  await page.getByTestId('field-title').locator('input').fill('Fix from the fork')
  await bothThemes(page, 'forks-merge-request-form')
  await page.getByTestId('form-submit').click()
  await expect(page.getByTestId('resource-outcome')).toContainText('opened in this project.')
  const [mr] = await api<{ iid: number; source_project_id: number; project_id: number }[]>(
    'GET',
    `/projects/${apiProject}/merge_requests?source_branch=fork-fix`,
  )
  expect(mr).toMatchObject({ source_project_id: fork.id, project_id: apiProject })
  const changes = await api<{ changes: { new_path: string }[] }>(
    'GET',
    `/projects/${apiProject}/merge_requests/${mr.iid}/changes`,
  )
  expect(changes.changes.map((c) => c.new_path)).toEqual(['FORK-FIX.md'])

  // Forking again into the same namespace is refused beside the fields GitLab names.
  await page.getByTestId('resource-create').click()
  await page.getByTestId('field-name').locator('input').fill('Dispatch API fork')
  await page.getByTestId('field-path').locator('input').fill('dispatch-api-fork')
  await page.getByTestId('form-submit').click()
  await expect(page.getByTestId('resource-form')).toContainText('has already been taken')
})

test("the New merge request dialog of a fork targets its upstream (GitLab's default), with the upstream's branches and people", async ({
  page,
}) => {
  test.setTimeout(120_000)
  const me = await api<{ username: string }>('GET', '/user')
  const fork = await api<{ id: number; path_with_namespace: string }>(
    'GET',
    `/projects/${encodeURIComponent(`${me.username}/dispatch-api-fork`)}`,
  )
  await api('POST', `/projects/${fork.id}/repository/commits`, {
    branch: 'fork-feature',
    start_branch: 'main',
    commit_message: 'Feature from the fork',
    actions: [{ action: 'create', file_path: 'FORK-FEATURE.md', content: 'A feature\n' }],
  })
  // Only the upstream has this branch: the target branches are the chosen project's.
  await api('POST', `/projects/${apiProject}/repository/branches`, { branch: 'upstream-only', ref: 'main' })
  await openAt(page, burrow.pageUrl, '#/')
  await runCommand(page, 'go to issues')
  const href = (await page.locator('.work-item-row__title').first().getAttribute('href')) ?? ''
  const account = /\/a\/([^/]+)\//.exec(href)?.[1] ?? ''
  await openAt(page, burrow.pageUrl, `#/a/${account}/projects/${fork.id}/repository/tree?ref=fork-feature`)
  await page.getByTestId('repo-new-mr').click()
  const dialog = page.getByTestId('mr-create-dialog')
  await expect(dialog.getByTestId('mr-create-source')).toContainText('fork-feature')
  await expect(dialog.getByTestId('mr-create-source-project').locator('input')).toHaveValue(fork.path_with_namespace)
  const targetProject = dialog.getByTestId('mr-create-target-project')
  await expect(targetProject).toContainText(SOURCE)
  await expect(dialog.getByTestId('mr-create-target')).toContainText('main')
  await expect(dialog.getByTestId('mr-create-cross-project')).toContainText(`into ${SOURCE}`)
  await dialog.getByTestId('mr-create-target').click()
  await page.keyboard.type('-only')
  await expect(page.locator('.n-base-select-option').filter({ hasText: 'upstream-only' })).toHaveCount(1)
  await page.keyboard.press('Escape')

  // The fork itself is the other target: its own branches, and the outbox as for any project.
  await targetProject.click()
  await page.locator('.n-base-select-option').filter({ hasText: fork.path_with_namespace }).click()
  await expect(dialog.getByTestId('mr-create-cross-project')).toHaveCount(0)
  await dialog.getByTestId('mr-create-target').click()
  await page.keyboard.type('fork-')
  await expect(page.locator('.n-base-select-option').filter({ hasText: 'fork-feature' })).toHaveCount(1)
  await page.keyboard.press('Escape')
  await dialog.getByTestId('mr-create-target').click()
  await page.keyboard.type('-only')
  await expect(page.locator('.n-base-select-menu:visible').filter({ hasText: 'No Data' })).toHaveCount(1)
  await page.keyboard.press('Escape')
  await targetProject.click()
  await page.locator('.n-base-select-option').filter({ hasText: SOURCE }).click()
  await expect(dialog.getByTestId('mr-create-cross-project')).toBeVisible()

  // Its reviewers are the upstream's people.
  const upstreamUsers = await api<{ id: number; username: string }[]>(
    'GET',
    `/projects/${apiProject}/users?per_page=100`,
  )
  const reviewer = upstreamUsers.find((u) => u.username !== me.username)
  if (reviewer === undefined) throw new Error('the upstream has no other user')
  await dialog.getByTestId('mr-create-reviewers').click()
  await page.keyboard.type(`@${reviewer.username})`)
  await page
    .locator('.n-base-select-option')
    .filter({ hasText: `@${reviewer.username})` })
    .first()
    .click()
  await page.keyboard.press('Escape')
  await dialog.getByTestId('mr-create-title').locator('input').fill('Feature from the fork')
  await bothThemes(page, 'forks-new-merge-request')
  await dialog.getByTestId('mr-create-submit').click()
  await expect(dialog).toHaveCount(0)
  await expect(page).toHaveURL(new RegExp(`/projects/${apiProject}/merge_requests/\\d+$`), { timeout: 30_000 })
  const [mr] = await api<
    { iid: number; source_project_id: number; target_branch: string; reviewers: { id: number }[] }[]
  >('GET', `/projects/${apiProject}/merge_requests?source_branch=fork-feature`)
  expect(mr).toMatchObject({ source_project_id: fork.id, target_branch: 'main' })
  expect(mr.reviewers.map((r) => r.id)).toEqual([reviewer.id])
  await expect(page).toHaveURL(new RegExp(`/merge_requests/${mr.iid}$`))
  await expect(page.getByText('Feature from the fork').first()).toBeVisible({ timeout: 30_000 })
})

test('offline: Fork is off with the reason, and the saved forks list stays readable', async ({ page }) => {
  const forksOf = `#/projects/forks?project=${apiProject}`
  // Saved while online.
  await openAt(page, burrow.pageUrl, forksOf)
  await expect(rows(page)).toHaveCount(1)
  await burrow.setOnline(false)
  try {
    await openAt(page, burrow.pageUrl, forksOf)
    await expect(page.getByTestId('resource-stale')).toContainText('Offline copy from')
    await expect(rows(page)).toHaveCount(1)
    await expect(page.getByTestId('resource-create')).toBeDisabled()
    await expect(page.getByTestId('resource-blocked')).toContainText('Needs the server')
    await bothThemes(page, 'forks-offline')
  } finally {
    await burrow.setOnline(true)
  }
})
