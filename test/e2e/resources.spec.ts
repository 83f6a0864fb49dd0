import { expect, test, type Locator, type Page } from '@playwright/test'
import { launchBurrow, watchCsp, type RunningBurrow } from './support/burrow'
import { openAt, restApi, shot } from './support/page'

// The generic resource panels of every family (Admin, CI/CD, Operations, Security, Projects,
// Groups, Your account) against a real Burrow Server with the demo content (runners, pipelines
// with logs, environments, protected environments, Pages domains, error tracking,
// vulnerabilities, dependencies, replication nodes, a second storage with a finished move),
// signed in as its administrator through a proxy the tests can cut. Each family is read with
// real rows and one representative write is checked on the server through its API; offline,
// writes are refused with the reason and reads come from the saved copies, marked stale.
// Serial: the first test adds the account and waits for its first sync.
test.describe.configure({ mode: 'serial' })

let burrow: RunningBurrow
let violations: string[] = []

/** The demo's projects and groups by path, and a user asking for access (created in beforeAll). */
const ids = { api: 0, fieldApp: 0, website: 0, kestrel: 0, oss: 0, rowan: 0 }
/** What earlier tests changed, for the offline test to look for. */
const changed = { stoppedEnvironment: '' }

test.beforeAll(async () => {
  // The server seeds the demo content before it listens: over a minute on a busy machine.
  test.setTimeout(320_000)
  burrow = await launchBurrow({ demo: true, secondStorage: true })
  // A runner to list: registered with the instance's registration token, as gitlab-runner does.
  const settings = await api<{ runners_registration_token: string }>('GET', '/application/settings')
  for (const [description, tags] of [
    ['linux-docker-1', 'docker,linux'],
    ['macos-arm64', 'macos,arm64'],
  ] as const) {
    const response = await fetch(`${burrow.serverUrl}/api/v4/runners`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: settings.runners_registration_token, description, tag_list: tags }),
    })
    expect(response.status).toBe(201)
  }
  ids.api = (await api<{ id: number }>('GET', `/projects/${encodeURIComponent('kestrel/platform/dispatch-api')}`)).id
  ids.fieldApp = (await api<{ id: number }>('GET', `/projects/${encodeURIComponent('kestrel/field-app')}`)).id
  ids.website = (await api<{ id: number }>('GET', `/projects/${encodeURIComponent('kestrel/website')}`)).id
  ids.kestrel = (await api<{ id: number }>('GET', '/groups/kestrel')).id
  ids.oss = (await api<{ id: number }>('GET', '/groups/kestrel-oss')).id
  // Rowan, new at the company, asks to join the API project and the open-source group.
  const rowan = await api<{ id: number }>('POST', '/users', {
    username: 'rowan',
    name: 'Rowan Achterberg',
    email: 'rowan@kestrel.example',
    password: 'long-enough-password-1',
    skip_confirmation: true,
  })
  ids.rowan = rowan.id
  const token = (
    await api<{ token: string }>('POST', `/users/${rowan.id}/personal_access_tokens`, { name: 'e2e', scopes: ['api'] })
  ).token
  for (const path of [`/projects/${ids.api}/access_requests`, `/groups/${ids.oss}/access_requests`]) {
    const response = await fetch(`${burrow.serverUrl}/api/v4${path}`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': token },
    })
    expect(response.status, path).toBe(201)
  }
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

/** The REST API as the administrator, straight to the server (not through the proxy). */
const api = restApi(
  () => burrow.serverUrl,
  () => burrow.rootToken,
)

function open(page: Page, hash: string): Promise<void> {
  return openAt(page, burrow.pageUrl, hash)
}

/** The theme follows the system's colour scheme (the preference's default). */
async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: theme })
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
}

/** Screenshots of what is on screen in both themes. */
async function bothThemes(page: Page, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme)
    await shot(page, `${name}-${theme}`)
  }
  await setTheme(page, 'light')
}

/** Answers the confirmation dialog of an action with its own button. */
async function confirm(page: Page, label: string): Promise<void> {
  await page.getByRole('dialog').getByRole('button', { name: label, exact: true }).click()
}

/** Picks an option of a naive-ui select. */
async function choose(page: Page, select: Locator, option: string | RegExp): Promise<void> {
  await select.click()
  await page.locator('.n-base-select-option').filter({ hasText: option }).first().click()
}

const rows = (page: Page) => page.getByTestId('resource-row')
/** The row whose ID cell (a code cell) is exactly `id`. */
const rowWithId = (page: Page, id: number) =>
  rows(page).filter({ has: page.locator('code', { hasText: new RegExp(`^${id}$`) }) })
const outcome = (page: Page) => page.getByTestId('resource-outcome')

test('the administrator signs in and opens the users list with its filters', async ({ page }) => {
  test.setTimeout(240_000)
  await page.goto(burrow.pageUrl)
  // Through the proxy, as "a GitLab instance", so the offline test can take the network away.
  await page.getByTestId('instance-other').click()
  await page
    .getByTestId('instance-url')
    .locator('input')
    .fill(burrow.proxyUrl ?? '')
  await page.getByTestId('token').locator('input').fill(burrow.rootToken)
  await page.getByTestId('account-add-submit').click()
  await expect(page.getByTestId('account-current')).toHaveText('Administrator')
  // The project pickers list the synced projects.
  await expect(page.getByTestId('status-sync')).toHaveText(/Synced/, { timeout: 200_000 })

  await page.evaluate(() => (window.location.hash = '#/admin/users'))
  await expect(page.getByTestId('page-title')).toHaveText('Admin · Users')
  await expect(rows(page).first()).toBeVisible()
  const total = Number((await page.getByTestId('resource-total').textContent())?.match(/\d+/)?.[0])
  expect(total).toBe((await api<unknown[]>('GET', '/users?per_page=100')).length)
  await setTheme(page, 'light')
  await expect(rows(page).first()).toBeVisible()
  await shot(page, 'resources-admin-users-light')

  // A filter is a query parameter of GET /users, and lands in the address for back/forward.
  await page.getByTestId('filter-search').locator('input').fill('amara')
  await expect(rows(page)).toHaveCount(1)
  await expect(rows(page).first()).toContainText('Amara Okafor')
  await expect(page).toHaveURL(/search=amara/)
  await page.getByTestId('filter-clear').click()
  await page.getByTestId('filter-admins').click()
  await expect(rows(page)).toHaveCount(1)
  await expect(rows(page).first()).toContainText('root')
})

test('creates a user: the password rule is checked before sending, then the new user opens', async ({ page }) => {
  await open(page, '#/admin/users')
  await page.getByTestId('resource-create').click()
  await expect(page.getByTestId('resource-form')).toBeVisible()
  await page.getByTestId('field-name').locator('input').fill('Grace Hopper')
  await page.getByTestId('field-username').locator('input').fill('grace')
  await page.getByTestId('field-email').locator('input').fill('grace@navy.example')
  await page.getByTestId('form-submit').click()
  await expect(page.getByTestId('field-password')).toHaveAttribute('data-invalid', 'true')
  await expect(page.getByTestId('field-password')).toContainText(
    'Give a password, or choose a reset link or a random password.',
  )
  await setTheme(page, 'dark')
  await page.getByTestId('field-name').locator('input').fill('Grace Hopper')
  await page.getByTestId('field-username').locator('input').fill('grace')
  await page.getByTestId('field-email').locator('input').fill('grace@navy.example')
  await page.getByTestId('form-submit').click()
  await shot(page, 'resources-admin-user-form-dark')
  await page.getByTestId('field-password').locator('input').fill('cobol-1959-compiler')
  await page.getByTestId('form-submit').click()

  await expect(page.getByTestId('resource-detail-title')).toHaveText('grace')
  await expect(page.locator('[data-field="email"]')).toHaveText('grace@navy.example')
  const [created] = await api<{ id: number; state: string }[]>('GET', '/users?username=grace')
  expect(created.state).toBe('active')
  // The ID other APIs ask for, shown plainly.
  await expect(page.locator('[data-field="id"]')).toHaveText(String(created.id))
  await shot(page, 'resources-admin-user-detail-dark')

  // Block asks first, then the detail shows the new state.
  await page.getByTestId('action-block').click()
  await expect(page.getByText('Block @grace? They can no longer sign in or use their tokens.')).toBeVisible()
  await page.getByRole('button', { name: 'Block', exact: true }).last().click()
  await expect(page.getByTestId('resource-outcome')).toContainText('User blocked.')
  await expect(page.locator('[data-field="state"]')).toHaveText('Blocked')
  expect((await api<{ state: string }>('GET', `/users/${created.id}`)).state).toBe('blocked')
})

test('all runners with type, status and tag filters, and a runner’s detail', async ({ page }) => {
  await open(page, '#/admin/runners')
  await setTheme(page, 'light')
  const rows = page.getByTestId('resource-row')
  await expect(rows).toHaveCount(Math.min(20, (await api<unknown[]>('GET', '/runners/all?per_page=100')).length))
  await page.getByTestId('filter-tag_list').getByRole('button').click()
  await page.getByTestId('filter-tag_list').locator('input').fill('arm64')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/tag_list=arm64/)
  const tagged = await api<{ description: string }[]>('GET', '/runners/all?tag_list[]=arm64')
  await expect(rows).toHaveCount(tagged.length)
  await expect(rows.filter({ hasText: 'macos-arm64' })).toHaveCount(1)
  await shot(page, 'resources-admin-runners-light')
  await rows.filter({ hasText: 'macos-arm64' }).locator('[role="cell"]').first().click()
  await expect(page.getByTestId('resource-detail-title')).toHaveText('macos-arm64')
  await expect(page.locator('[data-field="tag_list"]')).toContainText('arm64')
  await page.getByTestId('action-pause').click()
  await expect(page.getByTestId('resource-outcome')).toContainText('Runner paused')
  await expect(page.getByTestId('action-resume')).toBeVisible()
  await setTheme(page, 'dark')
  await expect(page.getByTestId('resource-detail-title')).toHaveText('macos-arm64')
  await shot(page, 'resources-admin-runner-detail-dark')
})

test('instance audit events, filtered by entity type', async ({ page }) => {
  await open(page, '#/admin/audit-events')
  await setTheme(page, 'dark')
  const rows = page.getByTestId('resource-row')
  await expect(rows.first()).toBeVisible()
  await page.getByTestId('filter-entity_type').click()
  await page
    .locator('.n-base-select-option')
    .filter({ hasText: /^User$/ })
    .click()
  await expect(page).toHaveURL(/entity_type=User/)
  const expected = await api<unknown[]>('GET', '/audit_events?entity_type=User&per_page=20')
  await expect(rows).toHaveCount(expected.length)
  await shot(page, 'resources-admin-audit-events-dark')
  await setTheme(page, 'light')
  await expect(rows).toHaveCount(expected.length)
  await shot(page, 'resources-admin-audit-events-light')
})

test('Admin: the tabs in one row at 1280 px, the seeded storage move, a project’s move scheduled, a bad storage name refused beside its field', async ({
  page,
}) => {
  test.setTimeout(150_000)
  await page.setViewportSize({ width: 1280, height: 860 })
  await open(page, '#/admin/users')
  await expect(rows(page).first()).toBeVisible()
  // Nine tabs stay on one row, scrolling sideways where they outrun it, rather than wrapping.
  const keys = [
    'users',
    'runners',
    'audit-events',
    'replication-nodes',
    'replication-status',
    'pages-domains',
    'storage-moves',
    'group-storage-moves',
    'settings',
  ]
  const tabs = page.getByTestId('resource-tabs').getByRole('tab')
  await expect(tabs).toHaveCount(keys.length)
  const tops = await tabs.evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)))
  expect(new Set(tops).size, `tab tops ${tops.join(', ')}`).toBe(1)
  const list = await page
    .getByTestId('resource-tabs')
    .evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }))
  expect(list.scroll, 'the nine tabs outrun the row at 1280 px').toBeGreaterThan(list.client)
  await expect(page.getByTestId('resource-tab-users')).toBeInViewport({ ratio: 1 })
  await shot(page, 'resources-admin-tabs-light')
  // A tab past the edge, opened by its address, is scrolled into view; the first then leaves it.
  await page.evaluate(() => (window.location.hash = '#/admin/settings'))
  await expect(page.getByTestId('resource-tab-settings')).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByTestId('resource-tab-settings')).toBeInViewport({ ratio: 1 })
  await expect(page.getByTestId('resource-tab-users')).not.toBeInViewport({ ratio: 1 })
  await setTheme(page, 'dark')
  await shot(page, 'resources-admin-tabs-dark')
  await setTheme(page, 'light')
  // Each tab opens by a click, wherever the row is scrolled.
  for (const key of keys) {
    await page.getByTestId(`resource-tab-${key}`).click()
    await expect(page.getByTestId(`resource-tab-${key}`)).toHaveAttribute('aria-selected', 'true')
  }
  await page.setViewportSize({ width: 1360, height: 860 })

  await page.getByTestId('resource-tab-replication-nodes').click()
  await expect(rows(page)).toHaveCount((await api<unknown[]>('GET', '/geo_nodes')).length)
  await page.getByTestId('resource-tab-replication-status').click()
  await expect(rows(page).first()).toBeVisible()
  await page.getByTestId('resource-tab-pages-domains').click()
  await expect(rows(page).filter({ hasText: 'www.kestrel.example' })).toHaveCount(1)
  await page.getByTestId('resource-tab-settings').click()
  await expect(page.locator('[data-field="pages_enabled"]')).toHaveText('Yes')

  // The demo moved jonas/dotfiles to the second storage.
  await page.getByTestId('resource-tab-storage-moves').click()
  await expect(rows(page).filter({ hasText: 'jonas/dotfiles' })).toContainText('Finished')
  await bothThemes(page, 'resources-admin-storage-moves')

  // One project's move, by its path.
  await page.getByTestId('action-move-one').click()
  const dialog = page.getByRole('dialog')
  await dialog.getByTestId('field-project_id').locator('input').fill('kestrel/website')
  await dialog.getByTestId('field-destination_storage_name').locator('input').fill('archive')
  await dialog.getByTestId('form-submit').click()
  await expect(outcome(page)).toContainText('Move scheduled')
  await expect
    .poll(
      async () =>
        (
          await api<{ state: string; destination_storage_name: string }[]>(
            'GET',
            `/projects/${ids.website}/repository_storage_moves`,
          )
        ).map((m) => `${m.destination_storage_name}:${m.state}`),
      { timeout: 60_000 },
    )
    .toContain('archive:finished')
  await page.getByTestId('resource-reload').click()
  await expect(rows(page).filter({ hasText: 'kestrel/website' })).toHaveCount(1)

  // A bulk move to a storage the server does not have: its sentence next to the field.
  await page.getByTestId('action-bulk').click()
  await expect(dialog).toContainText('Every project repository on the source storage is moved')
  await dialog.getByTestId('field-destination_storage_name').locator('input').fill('nowhere')
  await dialog.getByTestId('form-submit').click()
  await expect(dialog.getByTestId('field-destination_storage_name')).toHaveAttribute('data-invalid', 'true')
  await expect(dialog.getByTestId('field-destination_storage_name')).toContainText(
    'To storage does not have a valid value',
  )
  await shot(page, 'resources-admin-bulk-move-refused-light')
  await dialog.getByTestId('form-cancel').click()
})

interface ServerJob {
  readonly id: number
  readonly name: string
  readonly status: string
  readonly pipeline: { readonly id: number }
}

/**
 * A failed job of the project that was not retried yet (the Jobs API lists retried jobs too and
 * does not say which were: a later job of the same name in the same pipeline took its place).
 */
async function retryableFailedJob(projectId: number): Promise<ServerJob> {
  const jobs = await api<ServerJob[]>('GET', `/projects/${projectId}/jobs?per_page=100`)
  const job = jobs.find(
    (j) =>
      j.status === 'failed' && !jobs.some((k) => k.name === j.name && k.pipeline.id === j.pipeline.id && k.id > j.id),
  )
  if (job === undefined) throw new Error(`project ${projectId} has no failed job left to retry`)
  return job
}

test('CI/CD: pipelines and jobs of a project, a failed job’s log, and the job retried', async ({ page }) => {
  await open(page, `#/ci-cd/pipelines?project=${ids.api}`)
  const pipelines = await api<{ id: number; status: string }[]>('GET', `/projects/${ids.api}/pipelines?per_page=20`)
  await expect(rows(page)).toHaveCount(pipelines.length)
  await expect(rows(page).first()).toContainText(`#${pipelines[0].id}`)
  // Retry is offered for failed and canceled pipelines only.
  const failed = pipelines.find((p) => p.status === 'failed')
  expect(failed).toBeDefined()
  await expect(
    rows(page)
      .filter({ hasText: new RegExp(`#${failed?.id}(?!\\d)`) })
      .getByTestId('action-retry'),
  ).toBeVisible()
  await expect(rows(page).filter({ hasText: 'Success' }).getByTestId('action-retry')).toHaveCount(0)
  await bothThemes(page, 'resources-cicd-pipelines')

  await page.getByTestId('resource-tab-jobs').click()
  await choose(page, page.getByTestId('filter-scope'), /^Failed$/)
  await expect(page).toHaveURL(/scope=failed/)
  const failedJobs = await api<ServerJob[]>('GET', `/projects/${ids.api}/jobs?scope=failed`)
  await expect(rows(page)).toHaveCount(failedJobs.length)
  const job = await retryableFailedJob(ids.api)
  await rowWithId(page, job.id).locator('[role="cell"]').first().click()
  await expect(page.getByTestId('resource-detail-title')).toHaveText(job.name)
  await expect(page.locator('[data-field="failure_reason"]')).toHaveText('Script failure')
  const log = page.getByTestId('resource-log')
  await expect(log).toContainText('ERROR: Job failed: exit code 1')
  await expect(log).toContainText('Running with gitlab-runner')
  await log.scrollIntoViewIfNeeded()
  await bothThemes(page, 'resources-cicd-job-log')

  await page.getByTestId('action-retry').click()
  await expect(outcome(page)).toContainText('Job retried as a new job.')
  const retried = await api<ServerJob[]>('GET', `/projects/${ids.api}/jobs?per_page=100`)
  const again = retried.find((j) => j.name === job.name && j.pipeline.id === job.pipeline.id && j.id > job.id)
  expect(again?.status).toMatch(/^(created|pending)$/)
  // Retried already: the server's refusal under the heading, not squeezed beside the buttons.
  await page.getByTestId('action-retry').click()
  await expect(page.getByTestId('action-error')).toContainText('Job is not retryable')
  await expect(outcome(page)).toHaveCount(0)
  await shot(page, 'resources-cicd-job-retry-refused-light')
  await page.getByTestId('action-error').getByRole('button', { name: 'Dismiss' }).click()
  await expect(page.getByTestId('action-error')).toHaveCount(0)

  await page.getByTestId('resource-tab-runners').click()
  await expect(rows(page)).toHaveCount((await api<unknown[]>('GET', `/projects/${ids.api}/runners`)).length)
  await expect(rows(page).filter({ hasText: 'kestrel-deploy-1' })).toContainText('Group type')
})

test('Operations: environments, a review app stopped, staging protected, deployments, Pages domains, error tracking and a new client key', async ({
  page,
}) => {
  await open(page, `#/operations/environments?project=${ids.api}`)
  const environments = await api<{ id: number; name: string; state: string }[]>(
    'GET',
    `/projects/${ids.api}/environments?per_page=20`,
  )
  await expect(rows(page)).toHaveCount(environments.length)
  // Searches under 3 characters are not sent (the API refuses them).
  await page.getByTestId('filter-search').locator('input').fill('re')
  await expect(page).toHaveURL(/search=re/)
  await expect(rows(page)).toHaveCount(environments.length)
  await page.getByTestId('filter-search').locator('input').fill('review')
  await expect(rows(page)).toHaveCount(environments.filter((e) => e.name.includes('review')).length)
  await page.getByTestId('filter-clear').click()
  await bothThemes(page, 'resources-operations-environments')

  const review = environments.find((e) => e.name.startsWith('review/') && e.state === 'available')
  expect(review).toBeDefined()
  const row = rows(page).filter({ hasText: review?.name ?? '' })
  await row.getByTestId('action-stop').click()
  await expect(page.getByRole('dialog')).toContainText(`Stop ${review?.name}?`)
  await confirm(page, 'Stop')
  await expect(outcome(page)).toContainText(/Stopping: the environment’s stop job runs first\.|Environment stopped\./)
  const stopped = await api<{ state: string }>('GET', `/projects/${ids.api}/environments/${review?.id}`)
  expect(stopped.state).toMatch(/^(stopping|stopped)$/)
  await expect(row).toContainText(stopped.state === 'stopping' ? 'Stopping' : 'Stopped')
  changed.stoppedEnvironment = review?.name ?? ''

  // Staging: deployable by Developers and maintainers only.
  await page.getByTestId('resource-tab-protected-environments').click()
  await expect(rows(page).filter({ hasText: 'production' })).toContainText('User: Noor Haddad')
  await page.getByTestId('resource-create').click()
  await page.getByTestId('field-name').locator('input').fill('staging')
  await choose(page, page.getByTestId('field-access_level'), 'Developers and maintainers')
  await page.getByTestId('form-submit').click()
  await expect(page.getByTestId('resource-detail-title')).toHaveText('staging')
  await expect(page.locator('[data-field="deploy_access_levels"]')).toContainText('Developers + Maintainers')
  const rule = await api<{ deploy_access_levels: { access_level: number }[] }>(
    'GET',
    `/projects/${ids.api}/protected_environments/staging`,
  )
  expect(rule.deploy_access_levels.map((l) => l.access_level)).toEqual([30])
  // Protecting it twice: the server's refusal, readable.
  await page.getByTestId('resource-tab-protected-environments').click()
  await page.getByTestId('resource-create').click()
  await page.getByTestId('field-name').locator('input').fill('staging')
  await page.getByTestId('form-submit').click()
  await expect(page.getByTestId('form-error')).toContainText("Protected environment 'staging' already exists")
  await page.getByTestId('form-cancel').click()

  await page.getByTestId('resource-tab-deployments').click()
  const deployments = await api<{ iid: number }[]>('GET', `/projects/${ids.api}/deployments?per_page=20&sort=desc`)
  await expect(rows(page)).toHaveCount(deployments.length)
  await expect(rows(page).first()).toContainText(`#${deployments[0].iid}`)
  await bothThemes(page, 'resources-operations-deployments')

  await open(page, `#/operations/pages-domains?project=${ids.website}`)
  await expect(rows(page)).toHaveCount(2)
  await expect(rows(page).filter({ hasText: 'www.kestrel.example' })).toContainText('Valid')
  await bothThemes(page, 'resources-operations-pages-domains')

  await open(page, `#/operations/error-tracking?project=${ids.fieldApp}`)
  await expect(page.locator('[data-field="integrated"]')).toHaveText('Yes')
  await page.getByTestId('resource-tab-client-keys').click()
  const before = await api<unknown[]>('GET', `/projects/${ids.fieldApp}/error_tracking/client_keys`)
  await expect(rows(page)).toHaveCount(before.length)
  await page.getByTestId('action-generate').click()
  await expect(outcome(page)).toContainText('Key generated.')
  await expect(rows(page)).toHaveCount(before.length + 1)
  expect(await api<unknown[]>('GET', `/projects/${ids.fieldApp}/error_tracking/client_keys`)).toHaveLength(
    before.length + 1,
  )
  await bothThemes(page, 'resources-operations-client-keys')
})

test('Security: vulnerabilities with their finding, one resolved, and dependencies with theirs', async ({ page }) => {
  await open(page, `#/security/vulnerabilities?project=${ids.api}`)
  const vulnerabilities = await api<{ id: number; title: string; state: string }[]>(
    'GET',
    `/projects/${ids.api}/vulnerabilities`,
  )
  await expect(rows(page)).toHaveCount(vulnerabilities.length)
  await bothThemes(page, 'resources-security-vulnerabilities')
  // Not triaged yet: `opened` on Burrow Server (`detected` on GitLab 17).
  const detected = vulnerabilities.find((v) => v.state === 'opened' || v.state === 'detected')
  expect(detected).toBeDefined()
  await rows(page)
    .filter({ hasText: detected?.title ?? '' })
    .locator('[role="cell"]')
    .first()
    .click()
  await expect(page.getByTestId('resource-detail-title')).toHaveText(detected?.title ?? '')
  await expect(page.locator('[data-field="location"]')).toContainText('src/db/query.js:40')
  await expect(page.locator('[data-field="identifiers"]')).toContainText('CWE-89')
  await expect(page.locator('[data-field="report_type"]')).toHaveText('SAST')
  await page.getByTestId('action-resolve').click()
  await expect(outcome(page)).toContainText('Vulnerability resolved.')
  await expect(page.locator('[data-field="state"]')).toHaveText('Resolved')
  expect((await api<{ state: string }>('GET', `/vulnerabilities/${detected?.id}`)).state).toBe('resolved')
  await bothThemes(page, 'resources-security-vulnerability')

  await page.getByTestId('resource-tab-dependencies').click()
  const dependencies = await api<unknown[]>('GET', `/projects/${ids.api}/dependencies?per_page=20`)
  await expect(rows(page)).toHaveCount(dependencies.length)
  await expect(rows(page).filter({ hasText: 'lodash' })).toContainText('High: Prototype Pollution in lodash')
  await choose(page, page.getByTestId('filter-package_manager'), /^npm$/)
  await expect(page).toHaveURL(/package_manager=npm/)
  await bothThemes(page, 'resources-security-dependencies')
})

test('Projects: members, an access request approved as Developer, protected branches and audit events', async ({
  page,
}) => {
  await open(page, `#/projects/access-requests?project=${ids.api}`)
  const request = rows(page).filter({ hasText: 'Rowan Achterberg' })
  await expect(request).toHaveCount(1)
  await bothThemes(page, 'resources-projects-access-requests')
  await request.getByTestId('action-approve').click()
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByTestId('field-access_level')).toContainText('Developer')
  await dialog.getByTestId('form-submit').click()
  await expect(outcome(page)).toContainText('Access granted.')
  await expect(page.getByTestId('resource-empty')).toBeVisible()
  expect((await api<{ access_level: number }>('GET', `/projects/${ids.api}/members/${ids.rowan}`)).access_level).toBe(
    30,
  )

  await page.getByTestId('resource-tab-members').click()
  await expect(rows(page).filter({ hasText: 'Rowan Achterberg' })).toContainText('Developer')
  await bothThemes(page, 'resources-projects-members')

  await page.getByTestId('resource-tab-protected-branches').click()
  await expect(rows(page)).toHaveCount((await api<unknown[]>('GET', `/projects/${ids.api}/protected_branches`)).length)
  await expect(rows(page).first()).toContainText('main')
  await page.getByTestId('resource-tab-audit-events').click()
  await expect(rows(page)).toHaveCount(
    (await api<unknown[]>('GET', `/projects/${ids.api}/audit_events?per_page=20`)).length,
  )
  await expect(rows(page).filter({ hasText: 'Protected environment staging' })).toHaveCount(1)
  await bothThemes(page, 'resources-projects-audit-events')
})

test('Groups: members, billable members, an access request denied, audit events and runners', async ({ page }) => {
  await open(page, `#/groups/members?group=${ids.kestrel}`)
  await expect(rows(page)).toHaveCount(
    (await api<unknown[]>('GET', `/groups/${ids.kestrel}/members?per_page=20`)).length,
  )
  await bothThemes(page, 'resources-groups-members')
  await page.getByTestId('resource-tab-billable-members').click()
  await expect(rows(page)).toHaveCount(
    (await api<unknown[]>('GET', `/groups/${ids.kestrel}/billable_members?per_page=20`)).length,
  )
  await page.getByTestId('resource-tab-audit-events').click()
  await expect(rows(page).first()).toBeVisible()
  await page.getByTestId('resource-tab-runners').click()
  await expect(rows(page).filter({ hasText: 'kestrel-deploy-1' })).toHaveCount(1)
  // Owners change the group's own runners; instance runners are the administrators' (Admin family).
  await expect(rows(page).filter({ hasText: 'kestrel-deploy-1' }).getByTestId('action-pause')).toBeVisible()
  await expect(rows(page).filter({ hasText: 'kestrel-shared-1' }).getByTestId('action-pause')).toHaveCount(0)
  await bothThemes(page, 'resources-groups-runners')

  await open(page, `#/groups/access-requests?group=${ids.oss}`)
  const request = rows(page).filter({ hasText: 'Rowan Achterberg' })
  await expect(request).toHaveCount(1)
  await request.getByTestId('action-deny').click()
  await confirm(page, 'Deny')
  await expect(outcome(page)).toContainText('Access request denied.')
  await expect(page.getByTestId('resource-empty')).toBeVisible()
  expect(await api<unknown[]>('GET', `/groups/${ids.oss}/access_requests`)).toEqual([])
  await expect(
    (
      await fetch(`${burrow.serverUrl}/api/v4/groups/${ids.oss}/members/${ids.rowan}`, {
        headers: { 'PRIVATE-TOKEN': burrow.rootToken },
      })
    ).status,
  ).toBe(404)
})

test('Your account: a personal access token created as root, shown once, working, then revoked; the activity', async ({
  page,
}) => {
  await open(page, '#/account/access-tokens')
  // Only root's own tokens, although administrators may list everyone's.
  const mine = await api<unknown[]>('GET', '/personal_access_tokens?user_id=1')
  await expect(rows(page)).toHaveCount(mine.length)
  await page.getByTestId('resource-create').click()
  await page.getByTestId('field-name').locator('input').fill('e2e-panel-token')
  await page.getByTestId('form-submit').click()
  const secret = page.getByTestId('resource-secret-value').locator('input')
  await expect(secret).toHaveValue(/^glpat-/)
  const value = await secret.inputValue()
  const user = await fetch(`${burrow.serverUrl}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': value } })
  expect(((await user.json()) as { username: string }).username).toBe('root')
  await bothThemes(page, 'resources-account-token-created')
  await page.getByTestId('resource-secret-close').click()

  const row = rows(page).filter({ hasText: 'e2e-panel-token' })
  await expect(row).toContainText('read_api')
  await row.getByTestId('action-revoke').click()
  await confirm(page, 'Revoke')
  await expect(outcome(page)).toContainText('Token revoked.')
  const [revoked] = await api<{ revoked: boolean; active: boolean }[]>(
    'GET',
    '/personal_access_tokens?user_id=1&search=e2e-panel-token',
  )
  expect(revoked).toMatchObject({ revoked: true, active: false })
  expect((await fetch(`${burrow.serverUrl}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': value } })).status).toBe(401)
  await bothThemes(page, 'resources-account-tokens')

  await page.getByTestId('resource-tab-events').click()
  await expect(rows(page)).toHaveCount(20)
  await bothThemes(page, 'resources-account-activity')
})

test('offline: writes are refused with the reason, reads come from the saved copies marked stale, and what a write outdated is not shown', async ({
  page,
}) => {
  // Saved while online: the failed jobs of the field app, then a retry from a job's page.
  const job = await retryableFailedJob(ids.fieldApp)
  await open(page, `#/ci-cd/jobs?project=${ids.fieldApp}&scope=failed`)
  await expect(rows(page)).toHaveCount(
    (await api<unknown[]>('GET', `/projects/${ids.fieldApp}/jobs?scope=failed`)).length,
  )
  await rowWithId(page, job.id).locator('[role="cell"]').first().click()
  await expect(page.getByTestId('resource-log')).toContainText('ERROR: Job failed')
  await page.getByTestId('action-retry').click()
  await expect(outcome(page)).toContainText('Job retried as a new job.')

  await burrow.setOnline(false)
  try {
    await open(page, `#/operations/environments?project=${ids.api}`)
    await expect(page.getByTestId('resource-stale')).toContainText('Offline copy from')
    // The copy saved after the stop: the review app is no longer available.
    await expect(rows(page).filter({ hasText: 'production' })).toContainText('Available')
    await expect(rows(page).filter({ hasText: changed.stoppedEnvironment })).toContainText(/Stopping|Stopped/)
    const stop = rows(page).filter({ hasText: 'production' }).getByTestId('action-stop')
    await expect(stop).toBeDisabled()
    await expect(stop).toHaveAttribute(
      'title',
      /Needs the server: Changes here go straight to the server and are not kept for later/,
    )
    await expect(page.getByTestId('resource-blocked')).toContainText('Needs the server')
    await expect(page.getByTestId('resource-create')).toBeDisabled()
    await bothThemes(page, 'resources-offline-environments')

    // The job list the retry outdated is not shown as if nothing had happened.
    await open(page, `#/ci-cd/jobs?project=${ids.fieldApp}&scope=failed`)
    await expect(page.getByTestId('resource-error')).toContainText('Not saved on this device')
    await bothThemes(page, 'resources-offline-not-saved')

    // A form stays readable and says why it cannot be sent.
    await open(page, `#/operations/protected-environments/new?project=${ids.api}`)
    await expect(page.getByTestId('form-blocked')).toContainText('Needs the server')
    await expect(page.getByTestId('form-submit')).toBeDisabled()
  } finally {
    await burrow.setOnline(true)
  }
  // Core probes its way back: a reload then reads from the server again, and writes come back.
  await open(page, `#/operations/environments?project=${ids.api}`)
  await expect(rows(page).first()).toBeVisible()
  await expect
    .poll(
      async () => {
        await page.getByTestId('resource-reload').click()
        return page.getByTestId('resource-stale').count()
      },
      { timeout: 60_000, intervals: [1_000] },
    )
    .toBe(0)
  await expect(rows(page).filter({ hasText: 'production' }).getByTestId('action-stop')).toBeEnabled()
})
