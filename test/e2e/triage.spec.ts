import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { launchBurrow, SCREENSHOTS, watchCsp, type RunningBurrow } from './support/burrow'

// The triage views against the demo content of a real Burrow Server, synced by core into its
// cache. Serial: the first test adds the account and waits for the first sync.
test.describe.configure({ mode: 'serial' })

let burrow: RunningBurrow
let violations: string[] = []

test.beforeAll(async () => {
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

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), animations: 'disabled' })

test('after adding an account, the first sync fills the issue list', async ({ page }) => {
  test.setTimeout(180_000)
  await page.goto(burrow.pageUrl)
  await page.getByTestId('token').locator('input').fill(burrow.user.token)
  await page.getByTestId('account-add-submit').click()
  await expect(page.getByTestId('account-current')).toHaveText(burrow.user.name)
  await expect(page.getByTestId('status-sync')).toHaveText(/Synced/, { timeout: 150_000 })
  await page.keyboard.press('g')
  await page.keyboard.press('i')
  await expect(page.getByTestId('list-total')).not.toHaveText(/^0 /)
  await expect(page.locator('.work-item-row').first()).toBeVisible()
  await shot(page, 'issues-list')
})

test('an issue opens with its description, discussion and attributes, and a comment is queued then sent', async ({ page }) => {
  await page.goto(burrow.pageUrl)
  await page.keyboard.press('g')
  await page.keyboard.press('i')
  const first = page.locator('.work-item-row').first()
  const title = (await first.locator('.work-item-row__title').textContent())?.trim() ?? ''
  await first.locator('.work-item-row__title').click()
  await expect(page.getByTestId('issue-title')).toHaveText(title)
  await expect(page.locator('[data-field="labels"]')).toBeVisible()
  await shot(page, 'issue-detail')
  await page.getByTestId('comment-body').locator('textarea').fill('Looked at this from **Burrow**: see #1.')
  await page.getByTestId('comment-submit').click()
  const note = page.getByTestId('note').filter({ hasText: 'Looked at this from' })
  await expect(note).toBeVisible()
  await expect(note.locator('strong').filter({ hasText: 'Burrow' })).toBeVisible()
  // Sent by the outbox: the pending marker goes away once the server has it.
  await expect(note.getByTestId('pending-marker')).toHaveCount(0, { timeout: 30_000 })
  await shot(page, 'issue-detail-commented')
})
