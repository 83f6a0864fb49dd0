import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { launchBurrow, SCREENSHOTS, watchCsp, type RunningBurrow } from './support/burrow'
import { startSecondServer, type SecondServer } from './support/second-server'

// The issue list over a forge with 10,000 issues, synced into the cache: the whole list is one
// scroll (its height for every row), only the rows in view are in the page, and the last one
// reads like the first. Core with cache and sync comes from a demo launch; the only account is
// the large instance.
test.describe.configure({ mode: 'serial' })

const ISSUES = 10_000
let burrow: RunningBurrow
let large: SecondServer
let violations: string[] = []

test.beforeAll(async () => {
  test.setTimeout(360_000)
  ;[burrow, large] = await Promise.all([launchBurrow({ demo: true }), startSecondServer({ issues: ISSUES })])
})

test.afterAll(async () => {
  await Promise.all([burrow?.stop(), large?.stop()])
})

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1360, height: 860 })
  violations = watchCsp(page)
})

test.afterEach(() => {
  expect(violations, 'Content-Security-Policy violations').toEqual([])
})

test('10,000 synced issues scroll as one list: only the rows in view are drawn, down to the last', async ({ page }) => {
  test.setTimeout(240_000)
  await page.goto(burrow.pageUrl)
  await page.getByTestId('instance-other').click()
  await page.getByTestId('instance-url').locator('input').fill(large.url)
  await page.getByTestId('token').locator('input').fill(large.rootToken)
  await page.getByTestId('account-add-submit').click()
  await expect(page.getByTestId('account-current')).toHaveText('Administrator')
  await expect(page.getByTestId('status-sync')).toHaveText(/Synced/, { timeout: 200_000 })

  await page.keyboard.press('g')
  await page.keyboard.press('i')
  await page.getByTestId('filter-state').getByText('All', { exact: true }).click()
  await expect(page.getByTestId('list-total')).toHaveText('10,000 issues')
  const list = page.getByRole('list', { name: 'Issues' })
  await expect(list).toHaveAttribute('aria-rowcount', String(ISSUES))
  await expect(page.locator('.work-item-row').first()).toBeVisible()
  const drawn = page.locator('.common-virtual-list__row')
  expect(await drawn.count()).toBeLessThan(60)

  // To the end in one move: the rows there are read as they come into view.
  await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
  const last = page.locator(`.common-virtual-list__row[aria-posinset="${ISSUES}"]`)
  await expect(last.locator('.work-item-row__title')).toBeVisible({ timeout: 30_000 })
  expect(await drawn.count()).toBeLessThan(60)
  // And back to the middle: no row is skipped on the way.
  await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight / 2 }))
  await expect(
    page.locator(`.common-virtual-list__row[aria-posinset="${ISSUES / 2}"] .work-item-row__title`),
  ).toBeVisible({ timeout: 30_000 })
  await page.screenshot({ path: join(SCREENSHOTS, 'issues-10k-middle.png'), animations: 'disabled' })
})
