import { expect, test, type Page } from '@playwright/test'
import { launchBurrow, watchCsp, type RunningBurrow } from './support/burrow'
import { restApi, runCommand, shot } from './support/page'

// The everyday loop against the demo content of a real Burrow Server, synced by core into its
// cache: search by several words, the palette's jumps by reference and title and its recent
// items, and writes made while the server is stopped going out within seconds of its return.
// Serial: the first test adds the account and waits for the first sync.
test.describe.configure({ mode: 'serial' })

let burrow: RunningBurrow
let violations: string[] = []

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

const api = restApi(
  () => burrow.serverUrl,
  () => burrow.user.token,
)

interface ServerIssue {
  readonly iid: number
  readonly project_id: number
  readonly title: string
  readonly state: string
  readonly references: { readonly full: string }
  readonly milestone: { readonly id: number; readonly title: string } | null
}

/** An open issue about Irish postcodes: the demo has several, in different projects. */
async function postcodeIssue(): Promise<ServerIssue> {
  const found = await api<ServerIssue[]>(
    'GET',
    '/issues?scope=all&state=opened&search=postcodes&per_page=100&order_by=created_at&sort=asc',
  )
  const issue = found.find((i) => /postcodes from Ireland/.test(i.title))
  if (issue === undefined) throw new Error('the demo has no issue about postcodes from Ireland')
  return issue
}

/** Opens an issue through the palette by its full reference. */
async function openIssueByReference(page: Page, issue: ServerIssue): Promise<void> {
  await openPalette(page)
  await page.getByTestId('command-palette-input').locator('input').fill(issue.references.full)
  await expect(page.getByRole('option').first()).toContainText(issue.title)
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('issue-title')).toHaveText(issue.title)
}

async function openPalette(page: Page): Promise<void> {
  await expect(page.getByTestId('page-title')).toBeVisible()
  await page.keyboard.press('Control+k')
  await expect(page.getByTestId('command-palette-input').locator('input')).toBeFocused()
}

test('after adding an account, the first sync fills the cache', async ({ page }) => {
  test.setTimeout(180_000)
  await page.goto(burrow.pageUrl)
  // Through the proxy, as "a GitLab instance".
  await page.getByTestId('instance-other').click()
  await page
    .getByTestId('instance-url')
    .locator('input')
    .fill(burrow.proxyUrl ?? '')
  await page.getByTestId('token').locator('input').fill(burrow.user.token)
  await page.getByTestId('account-add-submit').click()
  await expect(page.getByTestId('account-current')).toHaveText(burrow.user.name)
  await expect(page.getByTestId('status-sync')).toHaveText(/Synced/, { timeout: 150_000 })
})

test('search matches every word as a prefix, titles first, and shows where each hit lives', async ({ page }) => {
  const issue = await postcodeIssue()
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme })
    await page.goto(burrow.pageUrl)
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
    await expect(page.getByTestId('page-title')).toHaveText('Home')
    await page.keyboard.press('/')
    // "postcode" is only the beginning of "postcodes": every word is a prefix, not just the last.
    await page.getByTestId('search-input').locator('input').fill('postcode ireland')
    const hit = page
      .getByTestId('search-hit')
      .filter({ has: page.getByTestId('search-hit-reference').getByText(issue.references.full, { exact: true }) })
    await expect(hit).toBeVisible()
    await expect(hit.locator('a')).toHaveText(issue.title)
    await expect(hit).toContainText('Issue · matched in the title')
    // Every hit holds both words; those with both in the title come first.
    const titles = await page.getByTestId('search-hit').locator('a').allTextContents()
    expect(titles.length).toBeGreaterThan(0)
    expect(
      titles
        .slice(0, titles.filter((t) => /postcode/i.test(t) && /ireland/i.test(t)).length)
        .every((t) => /postcode/i.test(t) && /ireland/i.test(t)),
    ).toBe(true)
    await shot(page, `search-multi-word-${theme}`)
  }
})

test('the palette jumps to an item by reference or by words of its title, and lists it as recent', async ({ page }) => {
  const issue = await postcodeIssue()
  const others = await api<ServerIssue[]>(
    'GET',
    `/projects/${issue.project_id}/issues?state=opened&per_page=5&order_by=created_at&sort=desc`,
  )
  const other = others.find((i) => i.iid !== issue.iid)
  if (other === undefined) throw new Error('the project has one open issue only')
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto(burrow.pageUrl)

  // group/project#12: that one item, first, Enter opens it.
  await openPalette(page)
  await page.getByTestId('command-palette-input').locator('input').fill(issue.references.full)
  const first = page.getByRole('option').first()
  await expect(first).toContainText(issue.title)
  await expect(first.getByTestId('palette-item-reference')).toHaveText(issue.references.full)
  await expect(page.locator('.shell-palette__group').first()).toHaveText('Go to')
  await shot(page, 'palette-reference-light')
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('issue-title')).toHaveText(issue.title)

  // #12: that number in every project, this issue among them.
  await openPalette(page)
  await page.getByTestId('command-palette-input').locator('input').fill(`#${other.iid}`)
  const byNumber = page
    .getByRole('option')
    .filter({ has: page.getByTestId('palette-item-reference').getByText(other.references.full, { exact: true }) })
  await expect(byNumber).toBeVisible()
  await byNumber.click()
  await expect(page.getByTestId('issue-title')).toHaveText(other.title)

  // Words of the title.
  await openPalette(page)
  await page.getByTestId('command-palette-input').locator('input').fill('valid postcodes irel')
  await expect(page.locator('.shell-palette__group', { hasText: 'Go to' })).toBeVisible()
  await page
    .getByRole('option')
    .filter({ has: page.getByTestId('palette-item-reference').getByText(issue.references.full, { exact: true }) })
    .click()
  await expect(page.getByTestId('issue-title')).toHaveText(issue.title)

  // %milestone: the milestones whose titles begin so, first.
  const milestone = issue.milestone ?? other.milestone
  if (milestone === null) throw new Error('neither issue has a milestone')
  await openPalette(page)
  await page
    .getByTestId('command-palette-input')
    .locator('input')
    .fill(`%${milestone.title.slice(0, 5)}`)
  const byTitle = page.getByRole('option').filter({ hasText: milestone.title }).first()
  await expect(byTitle).toBeVisible()
  await byTitle.click()
  await expect(page.getByTestId('milestone-progress')).toBeVisible()
  await expect(page.getByTestId('page-title')).toHaveText(milestone.title)
  await openIssueByReference(page, issue)

  // Nothing typed: the items just opened, most recent first.
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme })
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
    await openPalette(page)
    const recent = page.locator('.shell-palette__item')
    await expect(page.locator('.shell-palette__group').first()).toHaveText('Recent')
    await expect(recent.nth(0)).toContainText(issue.title)
    // Each once, where it was last opened.
    await expect(recent.nth(1)).toContainText(milestone.title)
    await expect(recent.nth(2)).toContainText(other.title)
    await shot(page, `palette-recent-${theme}`)
    await page.keyboard.press('Escape')
  }
  await page.emulateMedia({ colorScheme: 'light' })
})

test('with the server stopped, Offline shows at once and a comment waits; started again, it lands within seconds without a retry', async ({
  page,
}) => {
  test.setTimeout(240_000)
  const issue = await postcodeIssue()
  await page.goto(burrow.pageUrl)
  await openPalette(page)
  await page.getByTestId('command-palette-input').locator('input').fill(issue.references.full)
  await expect(page.getByRole('option').first()).toContainText(issue.title)
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('issue-title')).toHaveText(issue.title)

  // The server process stops. A request finds it gone (here sync's: through the support proxy a
  // write's first attempt would be cut after it was sent, an outcome the outbox must check): the
  // status bar says Offline at once, not at the next periodic sync.
  await burrow.setServerRunning(false)
  await runCommand(page, 'sync now')
  await expect(page.getByTestId('status-sync')).toContainText('Offline', { timeout: 5_000 })

  const body = `Written while the server was stopped ${Date.now()}`
  await page.getByTestId('issue-title').click()
  await page.keyboard.press('c')
  await expect(page.getByTestId('comment-body').locator('textarea')).toBeFocused()
  await page.keyboard.type(body)
  await page.keyboard.press('Control+Enter')
  await expect(page.getByTestId('note').filter({ hasText: body }).getByTestId('pending-marker')).toBeVisible()
  await expect(page.getByTestId('status-outbox')).toContainText('1 change waiting to be sent')

  // Back on the same port: no "sync now", no retry. Core probes every 2 s at most while a write waits.
  await burrow.setServerRunning(true)
  await expect(page.getByTestId('status-outbox')).toHaveCount(0, { timeout: 10_000 })
  await expect(page.getByTestId('note').filter({ hasText: body }).getByTestId('pending-marker')).toHaveCount(0, {
    timeout: 10_000,
  })
  await expect(page.getByTestId('status-sync')).not.toContainText('Offline', { timeout: 10_000 })
  const notes = await api<{ body: string }[]>(
    'GET',
    `/projects/${issue.project_id}/issues/${issue.iid}/notes?per_page=100`,
  )
  expect(notes.filter((n) => n.body === body)).toHaveLength(1)
})
