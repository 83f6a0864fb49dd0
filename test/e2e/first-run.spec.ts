import { createServer } from 'node:net'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { launchBurrow, SCREENSHOTS, watchCsp, type RunningBurrow } from './support/burrow'

// First run against a real Burrow Server through the web host: add an account, land in the
// shell, use it. Serial: the account added by the first tests is what the later ones use.
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0))
    })
  })
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), animations: 'disabled' })

test('without accounts, the first-run screen offers the local Burrow Server first', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await expect(page.getByRole('heading', { name: 'Welcome to Burrow' })).toBeVisible()
  const local = page.getByTestId('instance-local')
  await expect(local).toHaveAttribute('aria-checked', 'true')
  await expect(local).toContainText(burrow.serverUrl)
  await expect(local).toContainText('version')
  expect(page.url()).toContain('#/welcome')
  await shot(page, 'welcome-light')
})

test('a wrong token is refused with a readable error and nothing is added', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await page.getByTestId('token').locator('input').fill('glpat-this-is-not-valid')
  await page.getByTestId('account-add-submit').click()
  const error = page.getByTestId('account-add-error')
  await expect(error).toContainText('Sign-in refused')
  await expect(error).toContainText('invalid-credentials')
  await expect(page.getByRole('heading', { name: 'Welcome to Burrow' })).toBeVisible()
  await shot(page, 'welcome-invalid-token')
})

test('an unreachable instance is explained', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await page.getByTestId('instance-other').click()
  // A port that was free a moment ago: nothing listens, the connection is refused at once.
  await page
    .getByTestId('instance-url')
    .locator('input')
    .fill(`http://127.0.0.1:${await freePort()}`)
  await page.getByTestId('token').locator('input').fill('glpat-whatever')
  await page.getByTestId('account-add-submit').click()
  await expect(page.getByTestId('account-add-error')).toContainText('Cannot reach the server')
  await expect(page.getByTestId('account-add-error')).toContainText('Nothing answered at that address')
})

test('adding the local server with a token opens the shell', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await page.getByTestId('token').locator('input').fill(burrow.rootToken)
  await page.getByTestId('account-add-submit').click()
  await expect(page.getByTestId('page-title')).toHaveText('Home')
  await expect(page.getByTestId('account-current')).toHaveText('Administrator')
  await expect(page.getByRole('navigation', { name: 'Main' })).toContainText('Merge requests')
  await expect(page.getByTestId('server-version')).not.toHaveText('…')
  await expect(page.getByTestId('status-server')).toContainText('Local server')
  expect(page.url()).not.toContain('secret=')
  await shot(page, 'home-light')
})

test('a second account signs in with username and password, and the switcher offers All accounts', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await page.getByTestId('account-switcher').click()
  await page.getByText('Add account…').click()
  await expect(page.getByTestId('page-title')).toHaveText('Add account')
  await page.getByTestId('method-password').click()
  await page.getByTestId('username').locator('input').fill(burrow.user.username)
  await page.getByTestId('password').locator('input').fill(burrow.user.password)
  await page.getByTestId('account-add-submit').click()
  await expect(page.getByTestId('page-title')).toHaveText('Accounts')
  await expect(page.locator('[data-account="ada"]')).toContainText('OAuth')
  await expect(page.locator('[data-account="root"]')).toContainText('Personal access token')
  await shot(page, 'accounts')
  await page.getByTestId('account-switcher').click()
  await expect(page.getByText('All accounts (2)')).toBeVisible()
  await shot(page, 'account-switcher')
  await page.getByText('All accounts (2)').click()
  await expect(page.getByTestId('account-current')).toHaveText('All accounts')
})

test('the sidebar and g-shortcuts reach every resource family', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await expect(page.getByTestId('page-title')).toHaveText('Home')
  await page.getByRole('navigation', { name: 'Main' }).getByText('Milestones').click()
  await expect(page.getByTestId('page-title')).toHaveText('Milestones')
  await page.keyboard.press('g')
  await page.keyboard.press('i')
  await expect(page.getByTestId('page-title')).toHaveText('Issues')
  expect(page.url()).toContain('#/issues')
  await expect(page.locator('.n-menu-item-content--selected')).toHaveText('Issues')
  await shot(page, 'family-issues')
})

test('the command palette opens with Ctrl+K, filters, and runs a command', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await expect(page.getByTestId('page-title')).toHaveText('Home')
  await page.keyboard.press('Control+k')
  const palette = page.getByTestId('command-palette')
  await expect(palette).toBeVisible()
  await shot(page, 'palette')
  await page.keyboard.type('merge req')
  // Both the page and the New merge request… command match; the first option is the best match.
  await expect(palette.locator('[role="option"]').first()).toHaveText(/merge request/i)
  await palette.getByRole('option', { name: /Go to Merge requests/ }).click()
  await expect(palette).toBeHidden()
  await expect(page.getByTestId('page-title')).toHaveText('Merge requests')
})

test('? lists the keyboard shortcuts', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await expect(page.getByTestId('page-title')).toHaveText('Home')
  await page.keyboard.press('Shift+?')
  await expect(page.getByTestId('shortcuts-help')).toContainText('Go to Issues')
  await shot(page, 'shortcuts')
})

test('the theme follows a dark OS setting and can be chosen by hand', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.goto(burrow.pageUrl)
  await expect(page.getByTestId('page-title')).toHaveText('Home')
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await expect
    .poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor))
    .not.toBe('rgb(255, 255, 255)')
  await shot(page, 'home-dark')
  // system → light: the OS says dark, the user says light.
  await page.getByTestId('theme-toggle').click()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
  // naive-ui animates the body colour: wait for it to settle.
  await expect
    .poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor))
    .toBe('rgb(255, 255, 255)')
  // The choice survives a reload.
  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
})

test('the component gallery renders Markdown, diff, burndown and a 10,000-row list without CSP violations', async ({
  page,
}) => {
  await page.goto(burrow.pageUrl)
  await expect(page.getByTestId('page-title')).toHaveText('Home')
  await page.keyboard.press('Control+k')
  await page.keyboard.type('gallery')
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('page-title')).toHaveText('Component gallery')
  await expect(page.locator('.markdown-content a.gl-reference').first()).toHaveText('#12')
  await expect(page.locator('.markdown-content script')).toHaveCount(0)
  await expect(page.locator('.milestone-burndown svg')).toBeVisible()
  await expect(page.locator('[data-testid="diff-overflow"]')).toBeVisible()
  const rendered = await page.locator('.common-virtual-list__row').count()
  expect(rendered).toBeLessThan(40)
  // The shell scrolls inside its content pane: one picture per component.
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme)
    for (const part of ['markdown', 'chips', 'filter', 'burndown', 'diff', 'list']) {
      await page
        .getByTestId(`gallery-${part}`)
        .screenshot({ path: join(SCREENSHOTS, `gallery-${part}-${scheme}.png`), animations: 'disabled' })
    }
  }
})
