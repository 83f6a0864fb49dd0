import { expect, test } from '@playwright/test'
import { launchBurrow, watchCsp, type RunningBurrow } from './support/burrow'
import { bothThemes, restApi, runCommand } from './support/page'

// An issue's linked items against the demo content of a real Burrow Server: a link added from
// the issue page lands and shows in its group, the blocked issue is marked in the list, and a
// link removed offline waits in the outbox, then goes once the server is back.
let burrow: RunningBurrow

test.beforeAll(async () => {
  // The server seeds the demo content before it listens: over a minute on a busy machine.
  test.setTimeout(320_000)
  burrow = await launchBurrow({ demo: true })
})

test.afterAll(async () => {
  await burrow?.stop()
})

const api = restApi(
  () => burrow.serverUrl,
  () => burrow.user.token,
)

interface ApiIssue {
  readonly iid: number
  readonly title: string
  readonly project_id: number
}

test('a blocking link added on the issue page, the blocked marker in the list, and a removal queued offline', async ({
  page,
}) => {
  test.setTimeout(240_000)
  const violations = watchCsp(page)
  await page.setViewportSize({ width: 1360, height: 900 })
  await page.goto(burrow.pageUrl)
  await page.getByTestId('instance-other').click()
  await page
    .getByTestId('instance-url')
    .locator('input')
    .fill(burrow.proxyUrl ?? '')
  await page.getByTestId('token').locator('input').fill(burrow.user.token)
  await page.getByTestId('account-add-submit').click()
  await expect(page.getByTestId('status-sync')).toHaveText(/Synced/, { timeout: 150_000 })
  await page.keyboard.press('g')
  await page.keyboard.press('i')
  await page.locator('.work-item-row[data-state="opened"] .work-item-row__title').first().click()
  await expect(page.getByTestId('issue-state')).toHaveText('Open')
  const [, projectId, iid] = /projects\/(\d+)\/issues\/(\d+)/.exec(page.url()) ?? []
  const issue = await api<ApiIssue>('GET', `/projects/${projectId}/issues/${iid}`)
  const open = await api<ApiIssue[]>('GET', `/projects/${projectId}/issues?state=opened&per_page=20`)
  const blocker = open.find((i) => i.iid !== issue.iid)
  if (blocker === undefined) throw new Error('the project has one open issue only')

  const section = page.getByTestId('linked-items')
  await expect(section).toContainText('No linked items.')
  await section.getByTestId('linked-items-add').click()
  await section.getByTestId('link-type-is_blocked_by').click()
  await section.getByTestId('linked-items-picker').click()
  await page.keyboard.type(`#${blocker.iid}`)
  await page
    .locator('.n-base-select-option')
    .filter({ hasText: `#${blocker.iid} ${blocker.title}` })
    .click()
  await section.getByTestId('linked-items-save').click()
  const blockedBy = section.getByTestId('links-is_blocked_by')
  await expect(blockedBy.getByTestId('linked-item')).toContainText(blocker.title, { timeout: 30_000 })
  await expect(section.getByTestId('linked-item-pending')).toHaveCount(0, { timeout: 30_000 })
  expect(await api<{ iid: number; link_type: string }[]>('GET', `/projects/${projectId}/issues/${iid}/links`)).toEqual([
    expect.objectContaining({ iid: blocker.iid, link_type: 'is_blocked_by' }),
  ])
  await bothThemes(page, 'issue-linked-items')

  await page.keyboard.press('g')
  await page.keyboard.press('i')
  const row = page.locator('.work-item-row').filter({ hasText: issue.title })
  await expect(row.getByTestId('blocked-marker')).toBeVisible({ timeout: 30_000 })
  await row.scrollIntoViewIfNeeded()
  await bothThemes(page, 'issue-list-blocked')

  await row.locator('.work-item-row__title').click()
  await expect(blockedBy.getByTestId('linked-item')).toContainText(blocker.title)
  await burrow.setOnline(false)
  await runCommand(page, 'sync now')
  await expect(page.getByTestId('status-sync')).toContainText('Offline', { timeout: 30_000 })
  await blockedBy.getByTestId('linked-item-remove').click()
  await expect(blockedBy.getByTestId('link-pending')).toHaveText(/Removal waiting to be sent/)
  await bothThemes(page, 'issue-linked-items-offline')
  await burrow.setOnline(true)
  await expect(section).toContainText('No linked items.', { timeout: 90_000 })
  expect(await api('GET', `/projects/${projectId}/issues/${iid}/links`)).toEqual([])
  expect(violations, 'Content-Security-Policy violations').toEqual([])
})
