import { expect, test } from '@playwright/test'
import { launchBurrow, watchCsp, type RunningBurrow } from './support/burrow'
import { shot } from './support/page'

// An issue's activity shows GitLab's resource events (label and state changes) beside its notes,
// against the demo content of a real Burrow Server.
let burrow: RunningBurrow

test.beforeAll(async () => {
  // The server seeds the demo content before it listens: over a minute on a busy machine.
  test.setTimeout(320_000)
  burrow = await launchBurrow({ demo: true })
})

test.afterAll(async () => {
  await burrow?.stop()
})

/** The REST API as the demo user, straight to the server. */
async function api<T>(path: string): Promise<T> {
  const response = await fetch(`${burrow.serverUrl}/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': burrow.user.token } })
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`)
  return (await response.json()) as T
}

test('a label added and a close made in the app appear in the issue’s activity once the server has them', async ({
  page,
}) => {
  test.setTimeout(240_000)
  const violations = watchCsp(page)
  await page.setViewportSize({ width: 1360, height: 860 })
  await page.goto(burrow.pageUrl)
  await page.getByTestId('instance-other').click()
  await page.getByTestId('instance-url').locator('input').fill(burrow.serverUrl)
  await page.getByTestId('token').locator('input').fill(burrow.user.token)
  await page.getByTestId('account-add-submit').click()
  await expect(page.getByTestId('status-sync')).toHaveText(/Synced/, { timeout: 150_000 })
  await page.keyboard.press('g')
  await page.keyboard.press('i')
  const row = page.locator('.work-item-row').first()
  await row.locator('.work-item-row__title').click()
  await expect(page.getByTestId('issue-state')).toHaveText('Open')
  const [, projectId, iid] = /projects\/(\d+)\/issues\/(\d+)/.exec(page.url()) ?? []
  const issue = await api<{ labels: string[] }>(`/projects/${projectId}/issues/${iid}`)
  const labels = await api<{ name: string }[]>(`/projects/${projectId}/labels?per_page=100`)
  const label = labels.map((l) => l.name).find((name) => !issue.labels.includes(name))
  if (label === undefined) throw new Error('the issue already has every label')

  await page.getByTestId('issue-title').click()
  await page.keyboard.press('l')
  const filter = page.getByTestId('triage-filter').locator('input')
  await filter.fill(label)
  await expect(page.getByTestId('triage-picker').getByRole('option').first()).toContainText(label)
  await page.keyboard.press('Enter')
  const added = page
    .getByTestId('resource-event')
    .filter({ hasText: 'added' })
    .filter({ has: page.locator(`[data-label="${label}"]`) })
  await expect(added).toContainText(`${burrow.user.name} added`, { timeout: 30_000 })

  await page.getByTestId('issue-close').click()
  await expect(page.getByTestId('issue-state')).toHaveText('Closed')
  await expect(
    page.locator('[data-testid="resource-event"][data-event="state"]').filter({ hasText: 'closed' }),
  ).toContainText(`${burrow.user.name} closed`, { timeout: 30_000 })
  const states = await api<{ state: string; user: { username: string } }[]>(
    `/projects/${projectId}/issues/${iid}/resource_state_events?per_page=100`,
  )
  expect(states.at(-1)).toMatchObject({ state: 'closed', user: { username: burrow.user.username } })
  await page.getByTestId('resource-event').last().scrollIntoViewIfNeeded()
  await shot(page, 'issue-activity-events')
  expect(violations, 'Content-Security-Policy violations').toEqual([])
})
