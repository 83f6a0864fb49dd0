import { expect, test, type Page } from '@playwright/test'
import { addLocalServerAccount, launchBurrow, watchCsp, type RunningBurrow } from './support/burrow'
import { bothThemes, openAt, restApi } from './support/page'

// The Schedules panel of a project's CI/CD against the demo content of a real Burrow Server, signed
// in as its administrator: a schedule added with a cron expression and a timezone, read with its
// human hint, run now (a pipeline of source schedule on the server), and another one deleted.
// Serial: the first test adds the account and waits for its first sync.
test.describe.configure({ mode: 'serial' })

let burrow: RunningBurrow
let violations: string[] = []
/** The demo's API project. */
let apiProject = 0

test.beforeAll(async () => {
  // The server seeds the demo content before it listens: over a minute on a busy machine.
  test.setTimeout(320_000)
  burrow = await launchBurrow({ demo: true })
  apiProject = (await api<{ id: number }>('GET', `/projects/${encodeURIComponent('kestrel/platform/dispatch-api')}`)).id
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

const rows = (page: Page) => page.getByTestId('resource-row')

test('the administrator adds the local server and the first sync finishes', async ({ page }) => {
  test.setTimeout(240_000)
  await addLocalServerAccount(page, burrow)
})

test('Schedules: a schedule created with a hint for its cron, run now, and another deleted', async ({ page }) => {
  await api('POST', `/projects/${apiProject}/pipeline_schedules`, {
    description: 'Nightly build',
    ref: 'main',
    cron: '0 2 * * *',
  })
  await open(page, `#/ci-cd/pipeline-schedules?project=${apiProject}`)
  await expect(page.getByTestId('page-title')).toContainText('Schedules')
  await expect(rows(page).filter({ hasText: 'Nightly build' })).toHaveCount(1)
  await expect(rows(page).filter({ hasText: 'Nightly build' })).toContainText('Daily at 02:00')

  await page.getByTestId('resource-create').click()
  await expect(page.getByTestId('resource-form')).toBeVisible()
  await page.getByTestId('field-description').locator('input').fill('Weekday smoke test')
  await page.getByTestId('field-ref').locator('input').fill('main')
  await page.getByTestId('field-cron').locator('input').fill('30 8 * * 1-5')
  await page.getByTestId('field-cron_timezone').locator('input').fill('Europe/Berlin')
  await bothThemes(page, 'schedules-form')
  await page.getByTestId('form-submit').click()
  await expect(page.getByTestId('resource-detail-title')).toHaveText('Weekday smoke test')
  await expect(page.getByTestId('resource-detail')).toContainText('Monday to Friday at 08:30, Europe/Berlin')
  await expect(page.getByTestId('resource-detail')).toContainText('Administrator')

  await page.getByTestId('action-play').click()
  await expect(page.getByTestId('resource-outcome')).toContainText('Pipeline started.')
  const [created] = await api<{ id: number; description: string }[]>(
    'GET',
    `/projects/${apiProject}/pipeline_schedules?scope=active`,
  ).then((all) => all.filter((s) => s.description === 'Weekday smoke test'))
  const pipelines = await api<{ source: string; ref: string }[]>(
    'GET',
    `/projects/${apiProject}/pipeline_schedules/${created.id}/pipelines`,
  )
  expect(pipelines).toMatchObject([{ source: 'schedule', ref: 'main' }])
  await bothThemes(page, 'schedules-detail')

  await page.getByTestId('resource-tab-pipeline-schedules').click()
  await expect(rows(page).filter({ hasText: 'Weekday smoke test' })).toHaveCount(1)
  await bothThemes(page, 'schedules-list')

  await rows(page).filter({ hasText: 'Nightly build' }).getByTestId('action-delete').click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(rows(page).filter({ hasText: 'Nightly build' })).toHaveCount(0)
  const left = await api<{ description: string }[]>('GET', `/projects/${apiProject}/pipeline_schedules`)
  expect(left.map((s) => s.description)).toEqual(['Weekday smoke test'])
})
