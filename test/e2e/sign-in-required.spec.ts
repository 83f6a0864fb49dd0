import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { launchBurrow, SCREENSHOTS, watchCsp, type RunningBurrow } from './support/burrow'
import { runCommand } from './support/page'

// An account whose token is revoked on the server: the first refused request marks it "Sign in
// again" (status bar and Accounts, with the reason), and a new token for the same user, given
// through "Sign in again…", replaces the refused one under the same account. Serial: each test
// continues the previous one's state.
test.describe.configure({ mode: 'serial' })

let burrow: RunningBurrow
let violations: string[] = []

test.beforeAll(async () => {
  burrow = await launchBurrow()
})

test.afterAll(async () => {
  await burrow?.stop()
})

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  violations = watchCsp(page)
})

test.afterEach(() => {
  expect(violations, 'Content-Security-Policy violations').toEqual([])
})

/** The page in the light and then the dark theme (the OS setting, which the app follows). */
async function shotBoth(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme)
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${scheme}.png`), animations: 'disabled' })
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

/** The REST API straight to the server as `token`. */
async function api<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${burrow.serverUrl}/api/v4${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': token, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  return (response.status === 204 ? undefined : await response.json()) as T
}

test('a revoked token marks the account "Sign in again" with the reason', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await page.getByTestId('token').locator('input').fill(burrow.user.token)
  await page.getByTestId('account-add-submit').click()
  await expect(page.getByTestId('page-title')).toHaveText('Home')

  await api(burrow.user.token, 'DELETE', '/personal_access_tokens/self')
  await runCommand(page, 'manage accounts')
  await expect(page.getByTestId('page-title')).toHaveText('Accounts')
  const card = page.locator(`[data-account="${burrow.user.username}"]`)
  await card.getByRole('button', { name: 'Check sign-in' }).click()

  await expect(card.getByTestId('account-sign-in-required')).toHaveText('Sign in again')
  await expect(card.getByTestId('account-sign-in-reason')).toContainText('refused the saved sign-in (401)')
  await expect(page.getByTestId('status-sign-in')).toHaveText(
    `Sign in again: @${burrow.user.username} on ${new URL(burrow.serverUrl).host}`,
  )
  await shotBoth(page, 'sign-in-required-accounts')
})

test('"Sign in again…" with a new token for the same user ends it, on the same account', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await runCommand(page, 'manage accounts')
  const card = page.locator(`[data-account="${burrow.user.username}"]`)
  await card.getByTestId('account-sign-in-again').click()
  await expect(page.getByText('Sign in again', { exact: true })).toBeVisible()

  const [user] = await api<{ id: number }[]>(burrow.rootToken, 'GET', `/users?username=${burrow.user.username}`)
  const fresh = await api<{ token: string }>(burrow.rootToken, 'POST', `/users/${user.id}/personal_access_tokens`, {
    name: 'signed in again',
    scopes: ['api', 'read_user'],
  })
  await page.getByTestId('token').locator('input').fill(fresh.token)
  await page.getByTestId('account-add-submit').click()

  await expect(page.getByTestId('page-title')).toHaveText('Accounts')
  await expect(page.locator('[data-account]')).toHaveCount(1)
  await expect(card.getByTestId('account-sign-in-required')).toHaveCount(0)
  await expect(page.getByTestId('status-sign-in')).toHaveCount(0)
  await card.getByRole('button', { name: 'Check sign-in' }).click()
  await expect(card.getByText('Signed in', { exact: true })).toBeVisible()
})
