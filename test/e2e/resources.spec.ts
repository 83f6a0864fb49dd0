import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { launchBurrow, SCREENSHOTS, watchCsp, type RunningBurrow } from './support/burrow'

// The generic resource panels (Admin family) against a real Burrow Server with the demo content,
// signed in as its administrator. Serial: the first test adds the account.
test.describe.configure({ mode: 'serial' })

let burrow: RunningBurrow
let violations: string[] = []

test.beforeAll(async () => {
  burrow = await launchBurrow({ demo: true })
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
async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${burrow.serverUrl}/api/v4${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': burrow.rootToken, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  return (await response.json()) as T
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), animations: 'disabled' })

async function open(page: Page, hash: string): Promise<void> {
  await page.goto(burrow.pageUrl)
  await expect(page.getByTestId('page-title')).toBeVisible()
  await page.evaluate((h) => (window.location.hash = h), hash)
}

async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((t) => window.localStorage.setItem('burrow.preferences', JSON.stringify({ theme: t, sidebarCollapsed: false })), theme)
  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
}

test('the administrator signs in and opens the users list with its filters', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await page.getByTestId('instance-other').click()
  await page.getByTestId('instance-url').locator('input').fill(burrow.serverUrl)
  await page.getByTestId('token').locator('input').fill(burrow.rootToken)
  await page.getByTestId('account-add-submit').click()
  await expect(page.getByTestId('account-current')).toHaveText('Administrator')

  await page.evaluate(() => (window.location.hash = '#/admin/users'))
  await expect(page.getByTestId('page-title')).toHaveText('Admin · Users')
  const rows = page.getByTestId('resource-row')
  await expect(rows.first()).toBeVisible()
  const total = Number((await page.getByTestId('resource-total').textContent())?.match(/\d+/)?.[0])
  expect(total).toBe((await api<unknown[]>('GET', '/users?per_page=100')).length)
  await setTheme(page, 'light')
  await expect(rows.first()).toBeVisible()
  await shot(page, 'resources-admin-users-light')

  // A filter is a query parameter of GET /users, and lands in the address for back/forward.
  await page.getByTestId('filter-search').locator('input').fill('amara')
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toContainText('Amara Okafor')
  await expect(page).toHaveURL(/search=amara/)
  await page.getByTestId('filter-clear').click()
  await page.getByTestId('filter-admins').click()
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toContainText('root')
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
  await expect(page.getByTestId('field-password')).toContainText('Give a password, or choose a reset link or a random password.')
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
  await page.locator('.n-base-select-option').filter({ hasText: /^User$/ }).click()
  await expect(page).toHaveURL(/entity_type=User/)
  const expected = await api<unknown[]>('GET', '/audit_events?entity_type=User&per_page=20')
  await expect(rows).toHaveCount(expected.length)
  await shot(page, 'resources-admin-audit-events-dark')
  await setTheme(page, 'light')
  await expect(rows).toHaveCount(expected.length)
  await shot(page, 'resources-admin-audit-events-light')
})
