import { expect, test, type Page } from '@playwright/test'
import { startHookReceiver, type HookReceiver } from '../helpers/hook-receiver'
import { addLocalServerAccount, launchBurrow, watchCsp, type RunningBurrow } from './support/burrow'
import { bothThemes, openAt, restApi } from './support/page'

// The Webhooks panel of a project against the demo content of a real Burrow Server, signed in as
// its administrator: a webhook added with a secret token and events, tested (the push arrives at
// a receiver on 127.0.0.1, local requests allowed by the administrator's setting), and deleted.
// Serial: the first test adds the account and waits for its first sync.
test.describe.configure({ mode: 'serial' })

let burrow: RunningBurrow
let receiver: HookReceiver
let violations: string[] = []
/** The demo's API project. */
let apiProject = 0

test.beforeAll(async () => {
  // The server seeds the demo content before it listens: over a minute on a busy machine.
  test.setTimeout(320_000)
  burrow = await launchBurrow({ demo: true })
  receiver = await startHookReceiver()
  apiProject = (await api<{ id: number }>('GET', `/projects/${encodeURIComponent('kestrel/platform/dispatch-api')}`)).id
  await api('PUT', '/application/settings', { allow_local_requests_from_web_hooks_and_services: true })
})

test.afterAll(async () => {
  await burrow?.stop()
  await receiver?.close()
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

test('Webhooks: a webhook added with a token and events, tested to a real receiver, and deleted', async ({ page }) => {
  await api('POST', `/projects/${apiProject}/hooks`, { url: 'https://ci.kestrel.example/hooks', name: 'CI bridge' })
  await open(page, `#/projects/webhooks?project=${apiProject}`)
  await expect(page.getByTestId('page-title')).toHaveText('Projects · Webhooks')
  await expect(rows(page).filter({ hasText: 'CI bridge' })).toHaveCount(1)

  await page.getByTestId('resource-create').click()
  await expect(page.getByTestId('resource-form')).toBeVisible()
  await page.getByTestId('field-url').locator('input').fill(`${receiver.url}/burrow`)
  await page.getByTestId('field-name').locator('input').fill('Release notifier')
  await page.getByTestId('field-token').locator('input').fill('e2e-secret')
  await page.getByTestId('field-issues_events').locator('.n-checkbox').click()
  await page.getByTestId('field-releases_events').locator('.n-checkbox').click()
  await bothThemes(page, 'webhooks-form')
  await page.getByTestId('form-submit').click()
  await expect(page.getByTestId('resource-detail-title')).toHaveText('Release notifier')
  await expect(page.getByTestId('resource-detail')).toContainText('Releases')
  await expect(page.getByTestId('resource-detail')).not.toContainText('e2e-secret')

  await page.getByTestId('action-test-push-events').click()
  await expect(page.getByTestId('resource-outcome')).toContainText('Test delivered.')
  await receiver.waitFor(1)
  expect(receiver.received[0].headers['x-gitlab-token']).toBe('e2e-secret')
  expect(receiver.received[0].body).toMatchObject({ object_kind: 'push', project_id: apiProject })
  await bothThemes(page, 'webhooks-detail')

  // The test is logged as a delivery: opened, it shows what was sent (the token redacted) and what came back.
  const delivery = page.getByTestId('hook-delivery')
  await expect(delivery).toHaveCount(1)
  await expect(delivery).toHaveAttribute('data-status', '200')
  await expect(delivery).toContainText('Push')
  await delivery.getByTestId('hook-delivery-open').click()
  await expect(delivery.getByTestId('hook-delivery-request-headers')).toContainText('X-Gitlab-Event: Push Hook')
  await expect(delivery.getByTestId('hook-delivery-request-headers')).toContainText('X-Gitlab-Token: [REDACTED]')
  await expect(delivery.getByTestId('hook-delivery-request-body')).toContainText('"object_kind": "push"')
  await bothThemes(page, 'webhooks-deliveries')

  // Resend posts the same payload again and logs a second delivery; a filter on failures hides both.
  receiver.answer(503)
  await delivery.getByTestId('hook-delivery-resend').click()
  await expect(page.getByTestId('hook-resent')).toHaveText('Resent: the receiver answered 503.')
  await receiver.waitFor(2)
  expect(receiver.received[1].body).toEqual(receiver.received[0].body)
  await expect(page.getByTestId('hook-delivery')).toHaveCount(2)
  await expect(page.getByTestId('hook-delivery').first()).toHaveAttribute('data-status', '503')
  receiver.answer(200)
  await page.getByTestId('hook-deliveries-status').click()
  await page.locator('.n-base-select-option').filter({ hasText: 'Client failures (4xx)' }).click()
  await expect(page.getByTestId('hook-deliveries-empty')).toHaveText('No deliveries with this outcome.')

  await page.getByTestId('resource-tab-webhooks').click()
  await expect(rows(page).filter({ hasText: 'Release notifier' })).toHaveCount(1)
  await bothThemes(page, 'webhooks-list')

  await rows(page).filter({ hasText: 'CI bridge' }).getByTestId('action-delete').click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(rows(page).filter({ hasText: 'CI bridge' })).toHaveCount(0)
  const left = await api<{ url: string; token?: string }[]>('GET', `/projects/${apiProject}/hooks`)
  expect(left.map((h) => h.url)).toEqual([`${receiver.url}/burrow`])
  expect(left[0]).not.toHaveProperty('token')
})
