import { expect, test } from '@playwright/test'
import { launchBurrow, type RunningBurrow } from './support/burrow'
import { shot } from './support/page'

// "Copy diagnostics" from the command palette (use-desktop-shell.ts → app:diagnostics): the
// clipboard gets versions, platform and the accounts' hosts (none on this launch's welcome
// page), never a token. Light and dark.

let burrow: RunningBurrow

test.beforeAll(async () => {
  test.setTimeout(150_000)
  burrow = await launchBurrow()
})

test.afterAll(async () => {
  await burrow?.stop()
})

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the palette copies the diagnostics, without a token (${colorScheme})`, async ({ browser }) => {
    const context = await browser.newContext({ colorScheme, permissions: ['clipboard-read', 'clipboard-write'] })
    const page = await context.newPage()
    await page.goto(burrow.pageUrl)
    // A launch without accounts opens on the welcome page, where the palette is there too.
    await expect(page.getByText('Welcome to Burrow')).toBeVisible()
    await page.keyboard.press('Control+k')
    await page.getByTestId('command-palette-input').locator('input').fill('Copy diagnostics')
    await page.keyboard.press('Enter')
    await expect(page.getByText('Diagnostics copied')).toBeVisible()
    const text = await page.evaluate(() => navigator.clipboard.readText())
    expect(text).toMatch(/^Burrow \d+\.\d+\.\d+ \(browser\)/)
    expect(text).toContain('Accounts (0):')
    expect(text).not.toContain(burrow.rootToken)
    expect(text).not.toContain(burrow.user.token)
    await shot(page, `diagnostics-copied-${colorScheme}`)
    await context.close()
  })
}
