import { expect, test, type Locator, type Page } from '@playwright/test'
import { launchBurrow, watchCsp, type RunningBurrow } from './support/burrow'
import { shot, runCommand, restApi } from './support/page'

// Writes that do not simply land, end to end against the demo on a real Burrow Server: ones the
// server refuses (failed: the reason, the item, discard, retry) and ones whose answer is lost
// on the way back (unknown outcome: read back, never sent twice). The support proxy cuts the
// request or its answer (support/launch.ts `drop-request`, `drop-response`). Serial: the first
// test adds the account and waits for the first sync.
test.describe.configure({ mode: 'serial' })

let burrow: RunningBurrow
let violations: string[] = []
/** kestrel/field-app, where every test here writes; the account's id in the app's addresses. */
let project: { id: number }
let accountId = ''

test.beforeAll(async () => {
  // The server seeds the demo content before it listens: over a minute on a busy machine.
  test.setTimeout(320_000)
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

/** The REST API as the demo user, straight to the server (not through the proxy). */
const api = restApi(
  () => burrow.serverUrl,
  () => burrow.user.token,
)

interface ServerIssue {
  readonly iid: number
  readonly title: string
  readonly labels: string[]
}

/** Open issues of field-app with no pending history here, `count` of them, skipping `skip`. */
async function issues(count: number, skip: number): Promise<ServerIssue[]> {
  const list = await api<ServerIssue[]>(
    'GET',
    `/projects/${project.id}/issues?state=opened&order_by=created_at&sort=asc&per_page=${count + skip}`,
  )
  return list.slice(skip, skip + count)
}

/** Opens the issue by its address in the loaded app (the page's first address carries its secret in the hash). */
async function openIssue(page: Page, issue: ServerIssue): Promise<void> {
  await expect(page.getByTestId('page-title')).toBeVisible()
  await page.evaluate(
    (hash) => (window.location.hash = hash),
    `#/a/${accountId}/projects/${project.id}/issues/${issue.iid}`,
  )
  await expect(page.getByTestId('issue-title')).toHaveText(issue.title)
}

/** A project label the issue does not have. */
async function newLabelFor(issue: ServerIssue, besides: readonly string[] = []): Promise<string> {
  const labels = await api<{ name: string }[]>('GET', `/projects/${project.id}/labels?per_page=100`)
  const label = labels.map((l) => l.name).find((name) => !issue.labels.includes(name) && !besides.includes(name))
  if (label === undefined) throw new Error(`#${issue.iid} already has every label`)
  return label
}

/** Adds a label from the keyboard (l, then the picker). */
async function addLabel(page: Page, label: string): Promise<void> {
  await page.getByTestId('issue-title').click()
  await page.keyboard.press('l')
  const filter = page.getByTestId('triage-filter').locator('input')
  await expect(filter).toBeFocused()
  await filter.fill(label)
  await expect(page.getByTestId('triage-picker').getByRole('option').first()).toContainText(label)
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('triage-picker')).toHaveCount(0)
  await expect(page.locator('[data-field="labels"]').locator(`[data-label="${label}"]`)).toBeVisible()
}

async function comment(page: Page, body: string): Promise<Locator> {
  await page.getByTestId('comment-body').locator('textarea').fill(body)
  await page.getByTestId('comment-submit').click()
  const note = page.getByTestId('note').filter({ hasText: body })
  await expect(note).toBeVisible()
  return note
}

/** The outbox panel's entry about issue `iid` in `section` (a state: failed, unknown-outcome, done…). */
function outboxEntry(page: Page, section: string, iid: number): Locator {
  return page
    .locator(`[data-section="${section}"]`)
    .getByTestId('outbox-entry')
    .filter({ hasText: new RegExp(`#${iid}(?!\\d)`) })
}

async function notesWith(issue: ServerIssue, body: string): Promise<number> {
  const notes = await api<{ body: string; system: boolean }[]>(
    'GET',
    `/projects/${project.id}/issues/${issue.iid}/notes?per_page=100`,
  )
  return notes.filter((n) => !n.system && n.body === body).length
}

/** Cuts the network and lets the app see it: sync fails and the status bar says offline. */
async function goOffline(page: Page): Promise<void> {
  await burrow.setOnline(false)
  await runCommand(page, 'sync now')
  await expect(page.getByTestId('status-sync')).toContainText('Offline', { timeout: 30_000 })
}

/** Restores the network; a sync gets an answer, so the app (and its outbox) knows at once. */
async function goOnline(page: Page): Promise<void> {
  await burrow.setOnline(true)
  await runCommand(page, 'sync now')
}

test('after adding an account, the first sync fills the issue list', async ({ page }) => {
  test.setTimeout(180_000)
  project = await api<{ id: number }>('GET', `/projects/${encodeURIComponent('kestrel/field-app')}`)
  await page.goto(burrow.pageUrl)
  // Through the proxy, as "a GitLab instance", so the tests can cut requests and answers.
  await page.getByTestId('instance-other').click()
  await page
    .getByTestId('instance-url')
    .locator('input')
    .fill(burrow.proxyUrl ?? '')
  await page.getByTestId('token').locator('input').fill(burrow.user.token)
  await page.getByTestId('account-add-submit').click()
  await expect(page.getByTestId('account-current')).toHaveText(burrow.user.name)
  await expect(page.getByTestId('status-sync')).toHaveText(/Synced/, { timeout: 150_000 })
  await runCommand(page, 'go to issues')
  const href = (await page.locator('.work-item-row__title').first().getAttribute('href')) ?? ''
  accountId = /\/a\/([^/]+)\//.exec(href)?.[1] ?? ''
  expect(accountId).not.toBe('')
})

test('writes the server refuses: failed with its reason, off the item; one discarded, the other retried once the cause is fixed lands once', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const [first, second] = await issues(2, 0)
  const firstLabel = await newLabelFor(first)
  const secondLabel = await newLabelFor(second, [firstLabel])
  await page.goto(burrow.pageUrl)
  await goOffline(page)
  await openIssue(page, first)
  await addLabel(page, firstLabel)
  await openIssue(page, second)
  await addLabel(page, secondLabel)
  await expect(page.getByTestId('status-outbox')).toContainText('2 changes waiting to be sent')

  // Meanwhile the project is archived on the server: read-only, its issues refuse changes (403).
  await api('POST', `/projects/${project.id}/archive`)
  await goOnline(page)
  await expect(page.getByTestId('status-outbox')).toContainText('2 changes need attention', { timeout: 30_000 })
  await page.getByTestId('status-outbox').click()
  const failedFirst = outboxEntry(page, 'failed', first.iid)
  const failedSecond = outboxEntry(page, 'failed', second.iid)
  await expect(failedFirst).toContainText(`Add label ${firstLabel}`)
  await expect(failedFirst).toContainText('failed')
  // The server's words, what they likely mean, and the status once.
  await expect(failedFirst).toContainText(
    'The server does not allow this change: “403 Forbidden”. The project may be archived',
  )
  await expect(failedFirst.getByText('(HTTP 403)')).toHaveCount(1)
  await expect(failedFirst).not.toContainText('(HTTP 403) (HTTP 403)')
  await expect(failedSecond).toContainText('403 Forbidden')
  await shot(page, 'outbox-failed')

  // The item: the label did not land, and it says why.
  await openIssue(page, first)
  await expect(page.getByTestId('item-outbox')).toContainText(`Add label ${firstLabel}`)
  await expect(page.getByTestId('item-outbox')).toContainText('failed: The server does not allow this change')
  await expect(page.locator('[data-field="labels"]').locator(`[data-label="${firstLabel}"]`)).toHaveCount(0)
  await shot(page, 'issue-failed-write')

  // Discarded: gone from the failed ones and from the item.
  await runCommand(page, 'go to the outbox')
  await failedFirst.getByRole('button', { name: 'Discard' }).click()
  await expect(failedFirst).toHaveCount(0)
  await expect(outboxEntry(page, 'done', first.iid)).toHaveAttribute('data-state', 'discarded')
  await expect(outboxEntry(page, 'done', first.iid).locator('.outbox-view__reason')).toHaveText('Discarded.')
  await openIssue(page, first)
  await expect(page.getByTestId('item-outbox')).toHaveCount(0)
  await expect(page.locator('[data-field="labels"]').locator(`[data-label="${firstLabel}"]`)).toHaveCount(0)

  // The cause fixed on the server, the other one retried: it lands, once.
  await api('POST', `/projects/${project.id}/unarchive`)
  await runCommand(page, 'go to the outbox')
  await failedSecond.getByRole('button', { name: 'Retry' }).click()
  await expect(outboxEntry(page, 'done', second.iid)).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
  await expect(page.getByTestId('status-outbox')).toHaveCount(0)
  const onServer = await api<ServerIssue>('GET', `/projects/${project.id}/issues/${second.iid}`)
  expect(onServer.labels).toContain(secondLabel)
  expect((await api<ServerIssue>('GET', `/projects/${project.id}/issues/${first.iid}`)).labels).not.toContain(
    firstLabel,
  )
  const events = await api<{ action: string; label: { name: string } | null }[]>(
    'GET',
    `/projects/${project.id}/issues/${second.iid}/resource_label_events?per_page=100`,
  )
  expect(events.filter((e) => e.action === 'add' && e.label?.name === secondLabel)).toHaveLength(1)
  await openIssue(page, second)
  await expect(page.locator('[data-field="labels"]').locator(`[data-label="${secondLabel}"]`)).toBeVisible()
  await expect(page.locator('[data-field="labels"]')).not.toContainText('pending')
})

test('a comment whose answer was lost shows as outcome unknown, and is found on the server by reading: confirmed, never posted twice', async ({
  page,
}) => {
  const [issue] = await issues(1, 2)
  const body = 'Did this arrive? The answer was lost on the way back.'
  await page.goto(burrow.pageUrl)
  await openIssue(page, issue)
  // The comment reaches the server, which saves it and answers; the answer never comes back.
  await burrow.armDrop('response', 'POST', `/projects/${project.id}/issues/${issue.iid}/notes`)
  const note = await comment(page, body)
  await burrow.dropped()
  expect(await notesWith(issue, body)).toBe(1)

  await expect(page.getByTestId('item-outbox')).toContainText('outcome unknown')
  await expect(note.getByTestId('pending-marker')).toBeVisible()
  await page.getByTestId('status-outbox').click()
  const unknown = outboxEntry(page, 'unknown-outcome', issue.iid)
  await expect(unknown).toContainText('outcome unknown')
  await expect(unknown).toContainText(
    'Sent, but the answer was lost (the connection was cut): the server will be read to see whether it took effect.',
  )
  // Neither failed nor offered for sending again.
  await expect(page.locator('[data-section="failed"]')).toHaveCount(0)
  await expect(unknown.getByRole('button', { name: 'Retry' })).toHaveCount(0)
  await shot(page, 'outbox-unknown-outcome')

  await goOnline(page)
  const confirmed = outboxEntry(page, 'done', issue.iid)
  await expect(confirmed).toHaveAttribute('data-state', 'reconciled', { timeout: 30_000 })
  await expect(confirmed).toContainText('The comment was found on the server.')
  await shot(page, 'outbox-unknown-outcome-confirmed')
  expect(await notesWith(issue, body)).toBe(1)
  await openIssue(page, issue)
  await expect(page.getByTestId('note').filter({ hasText: body })).toHaveCount(1)
  await expect(page.getByTestId('note').filter({ hasText: body }).getByTestId('pending-marker')).toHaveCount(0)
  await expect(page.getByTestId('item-outbox')).toHaveCount(0)
})

test('a comment cut off before the server: outcome unknown, read back as not there, and sent again only when the user says so', async ({
  page,
}) => {
  const [issue] = await issues(1, 3)
  const body = 'Cut off on the way: this never reached the server at first.'
  await page.goto(burrow.pageUrl)
  await openIssue(page, issue)
  await burrow.armDrop('request', 'POST', `/projects/${project.id}/issues/${issue.iid}/notes`)
  await comment(page, body)
  await burrow.dropped()
  await page.getByTestId('status-outbox').click()
  await expect(outboxEntry(page, 'unknown-outcome', issue.iid)).toContainText('outcome unknown')
  expect(await notesWith(issue, body)).toBe(0)

  // Read back: not there. A comment is not posted again on its own (it could still be on its way in).
  await goOnline(page)
  const notThere = outboxEntry(page, 'failed', issue.iid)
  await expect(notThere).toContainText(
    'The comment was not on the server. It did not take effect: send it again, or discard it.',
    { timeout: 30_000 },
  )
  await shot(page, 'outbox-unknown-outcome-not-applied')
  expect(await notesWith(issue, body)).toBe(0)
  await openIssue(page, issue)
  await expect(page.getByTestId('item-outbox')).toContainText('did not take effect')

  await runCommand(page, 'go to the outbox')
  await notThere.getByRole('button', { name: 'Retry' }).click()
  await expect(outboxEntry(page, 'done', issue.iid)).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
  expect(await notesWith(issue, body)).toBe(1)
  await openIssue(page, issue)
  await expect(page.getByTestId('note').filter({ hasText: body })).toHaveCount(1)
  await expect(page.getByTestId('note').filter({ hasText: body }).getByTestId('pending-marker')).toHaveCount(0)
})
