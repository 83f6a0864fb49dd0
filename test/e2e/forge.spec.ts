import { expect, test, type Page } from '@playwright/test'
import { addLocalServerAccount, launchBurrow, watchCsp, type RunningBurrow } from './support/burrow'
import { bothThemes, openAt, restApi } from './support/page'

// Issue 11's views against the demo content of a real Burrow Server, signed in as its
// administrator: the Releases panel, the issue board and the wiki. Serial: the first test adds
// the account and waits for its first sync.
test.describe.configure({ mode: 'serial' })

let burrow: RunningBurrow
let violations: string[] = []
/** The demo's API project. */
let apiProject = 0

test.beforeAll(async () => {
  // The server seeds the demo content before it listens: over a minute on a busy machine.
  test.setTimeout(320_000)
  burrow = await launchBurrow({ demo: true })
  apiProject = (await api<{ id: number }>('GET', `/projects/${encodeURIComponent('kestrel/platform/dispatch-api')}`)).id
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
const api = restApi(
  () => burrow.serverUrl,
  () => burrow.rootToken,
)

function open(page: Page, hash: string): Promise<void> {
  return openAt(page, burrow.pageUrl, hash)
}

const rows = (page: Page) => page.getByTestId('resource-row')

test('the administrator adds the local server and the first sync finishes', async ({ page }) => {
  test.setTimeout(240_000)
  await addLocalServerAccount(page, burrow)
})

test('Releases: the list, a release created with its tag and notes, a link added, and the release deleted', async ({
  page,
}) => {
  await api('POST', `/projects/${apiProject}/releases`, {
    tag_name: 'v0.9.0-rc1',
    ref: 'main',
    name: 'Dispatch API 0.9 RC1',
    description: 'Release candidate for the dispatch board.',
    released_at: '2025-05-20T10:00:00Z',
    assets: { links: [{ name: 'OpenAPI spec', url: 'https://kestrel.example/openapi.json', link_type: 'other' }] },
  })
  await open(page, `#/projects/releases?project=${apiProject}`)
  await expect(page.getByTestId('page-title')).toHaveText('Projects · Releases')
  await expect(rows(page).filter({ hasText: 'Dispatch API 0.9 RC1' })).toHaveCount(1)

  await page.getByTestId('resource-create').click()
  await expect(page.getByTestId('resource-form')).toBeVisible()
  await page.getByTestId('field-tag_name').locator('input').fill('v1.0.0-e2e')
  await page.getByTestId('field-ref').locator('input').fill('main')
  await page.getByTestId('field-name').locator('input').fill('Dispatch API 1.0')
  await page.getByTestId('field-description').locator('textarea').fill('Technicians see their visits on a map.')
  await bothThemes(page, 'forge-release-form')
  await page.getByTestId('form-submit').click()
  await expect(page.getByTestId('resource-detail-title')).toHaveText('Dispatch API 1.0')
  await expect(page.getByTestId('resource-detail')).toContainText('Technicians see their visits on a map.')
  const created = await api<{ tag_name: string; commit: { id: string } }>(
    'GET',
    `/projects/${apiProject}/releases/v1.0.0-e2e`,
  )
  expect(created.tag_name).toBe('v1.0.0-e2e')
  expect((await api<{ name: string }>('GET', `/projects/${apiProject}/repository/tags/v1.0.0-e2e`)).name).toBe(
    'v1.0.0-e2e',
  )

  await page.getByTestId('action-add-link').click()
  const linkForm = page.getByRole('dialog')
  await linkForm.getByTestId('field-name').locator('input').fill('Linux binary')
  await linkForm.getByTestId('field-url').locator('input').fill('https://kestrel.example/dispatch-linux')
  await linkForm.getByTestId('form-submit').click()
  // An asset link is a link with its name and type, opened in the browser (target _blank: main
  // hands it to the system's browser); one to the server itself, which has no web pages, stays text.
  const linux = page.getByTestId('named-link').filter({ hasText: 'Linux binary' })
  await expect(linux.getByRole('link', { name: 'Linux binary' })).toHaveAttribute(
    'href',
    'https://kestrel.example/dispatch-linux',
  )
  await expect(linux.getByRole('link')).toHaveAttribute('target', '_blank')
  // Its kind in words, not the API's value.
  await expect(linux.locator('.n-tag')).toHaveText('Other')
  // The server at the address the app reaches it by (the account's; its web URLs use it too).
  const ownJob = `${burrow.proxyUrl ?? burrow.serverUrl}/kestrel/platform/dispatch-api/-/jobs/1`
  await api('POST', `/projects/${apiProject}/releases/v1.0.0-e2e/assets/links`, {
    name: 'Server build log',
    url: ownJob,
    link_type: 'runbook',
  })
  await page.reload()
  const ownServer = page.getByTestId('named-link').filter({ hasText: 'Server build log' })
  await expect(ownServer.locator('.n-tag')).toHaveText('Runbook')
  await expect(ownServer).toContainText(ownJob)
  await expect(ownServer.getByRole('link')).toHaveCount(0)
  await bothThemes(page, 'forge-release-detail')

  await page.getByTestId('resource-tab-releases').click()
  await expect(rows(page).filter({ hasText: 'Dispatch API 1.0' })).toHaveCount(1)
  await bothThemes(page, 'forge-releases')

  await rows(page).filter({ hasText: 'Dispatch API 0.9 RC1' }).getByTestId('action-delete').click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(rows(page).filter({ hasText: 'Dispatch API 0.9 RC1' })).toHaveCount(0)
  const left = await api<{ tag_name: string }[]>('GET', `/projects/${apiProject}/releases`)
  expect(left.map((r) => r.tag_name)).toEqual(['v1.0.0-e2e'])
})

interface ServerIssue {
  readonly iid: number
  readonly title: string
  readonly labels: string[]
  readonly state: string
}

test('Boards: a board with label lists; a card dragged to a list is relabelled on the server, and offline the move waits in the outbox', async ({
  page,
}) => {
  test.setTimeout(180_000)
  const p = `/projects/${apiProject}`
  const board = await api<{ id: number }>('POST', `${p}/boards`, { name: 'Development' })
  const lists: Record<string, number> = {}
  for (const [name, color] of [
    ['Board: To Do', '#6699cc'],
    ['Board: Doing', '#e08c3a'],
  ] as const) {
    const label = await api<{ id: number }>('POST', `${p}/labels`, { name, color })
    lists[name] = (await api<{ id: number }>('POST', `${p}/boards/${board.id}/lists`, { label_id: label.id })).id
  }
  const open = await api<ServerIssue[]>('GET', `${p}/issues?state=opened&per_page=2&order_by=created_at&sort=asc`)
  const [first, second] = open

  await openBoard(page)
  const column = (title: string) => page.getByTestId('board-column').filter({ hasText: title })
  const card = (iid: number) => page.locator(`[data-testid="board-card"][data-iid="${iid}"]`)
  await expect(page.getByTestId('board-column')).toHaveCount(4)
  await expect(column('Open').locator(`[data-iid="${first.iid}"]`)).toBeVisible()

  await card(first.iid).dragTo(column('Board: Doing'))
  await expect(column('Board: Doing').locator(`[data-iid="${first.iid}"]`)).toBeVisible()
  await expect(column('Open').locator(`[data-iid="${first.iid}"]`)).toHaveCount(0)
  await expect
    .poll(async () => (await api<ServerIssue>('GET', `${p}/issues/${first.iid}`)).labels, { timeout: 30_000 })
    .toContain('Board: Doing')
  await bothThemes(page, 'forge-board')

  // Offline the move shows at once, pending, and reaches the server once it is back.
  await burrow.setOnline(false)
  await card(second.iid).dragTo(column('Board: To Do'))
  const moved = column('Board: To Do').locator(`[data-iid="${second.iid}"]`)
  await expect(moved).toBeVisible()
  await expect(moved.getByTestId('pending-marker')).toBeVisible()
  expect((await api<ServerIssue>('GET', `${p}/issues/${second.iid}`)).labels).not.toContain('Board: To Do')
  await bothThemes(page, 'forge-board-offline')
  await burrow.setOnline(true)
  await expect
    .poll(async () => (await api<ServerIssue>('GET', `${p}/issues/${second.iid}`)).labels, { timeout: 60_000 })
    .toContain('Board: To Do')
  await expect(moved.getByTestId('pending-marker')).toHaveCount(0, { timeout: 30_000 })

  // A card moved to Closed closes the issue and takes its list label off.
  // Playwright cannot scroll a drop target into view in the middle of a drag: the board scrolls first.
  await column('Closed').scrollIntoViewIfNeeded()
  await card(first.iid).dragTo(column('Closed'))
  await expect
    .poll(async () => (await api<ServerIssue>('GET', `${p}/issues/${first.iid}`)).state, { timeout: 30_000 })
    .toBe('closed')
  expect((await api<ServerIssue>('GET', `${p}/issues/${first.iid}`)).labels).not.toContain('Board: Doing')

  // The keyboard's way: a card's Move menu.
  await card(second.iid).getByTestId('board-card-move').click()
  await page.locator('.n-dropdown-option').filter({ hasText: 'Board: Doing' }).click()
  await expect(column('Board: Doing').locator(`[data-iid="${second.iid}"]`)).toBeVisible()
  await expect
    .poll(async () => (await api<ServerIssue>('GET', `${p}/issues/${second.iid}`)).labels, { timeout: 30_000 })
    .toEqual(expect.arrayContaining(['Board: Doing']))
  expect((await api<ServerIssue>('GET', `${p}/issues/${second.iid}`)).labels).not.toContain('Board: To Do')

  // Lists move and go from the board's header.
  await column('Board: Doing').getByTestId('board-list-left').click()
  await expect(page.getByTestId('board-column').nth(1)).toContainText('Board: Doing')
  const order = await api<{ label: { name: string } }[]>('GET', `${p}/boards/${board.id}/lists`)
  expect(order.map((l) => l.label.name)).toEqual(['Board: Doing', 'Board: To Do'])
})

/** The board of the demo's API project. */
async function openBoard(page: Page): Promise<void> {
  await open(page, `#/boards?project=${apiProject}`)
  await expect(page.getByTestId('board-columns')).toBeVisible()
}

test('Wiki: a page written in the app is committed to the wiki, edited, read offline from the saved copy, and deleted', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const p = `/projects/${apiProject}`
  // An empty wiki says so and offers its first page (not "no page of that name").
  await open(page, `#/wiki?project=${apiProject}`)
  await expect(page.getByTestId('wiki-empty')).toContainText('This wiki has no pages yet.')
  await expect(page.getByTestId('wiki-missing')).toHaveCount(0)
  // Said once, by the empty state, not again in the (empty) list of pages beside it.
  await expect(page.getByTestId('wiki-pages')).not.toContainText('No pages yet')
  await bothThemes(page, 'forge-wiki-empty')
  await page.getByTestId('wiki-write-first').click()
  await expect(page.getByTestId('wiki-title')).toBeVisible()
  await api('POST', `${p}/wikis`, { title: 'Home', content: '# Dispatch API\n\nStart with **Getting started**.' })
  await open(page, `#/wiki?project=${apiProject}`)
  await expect(page.getByTestId('wiki-page-title')).toHaveText('Home')
  await expect(page.getByTestId('wiki-content-view').locator('strong')).toHaveText('Getting started')
  await open(page, `#/wiki?project=${apiProject}&page=No-such-page`)
  await expect(page.getByTestId('wiki-missing')).toContainText('This wiki has no page of that name.')
  await open(page, `#/wiki?project=${apiProject}`)

  await page.getByTestId('wiki-new').click()
  await page.getByTestId('wiki-title').locator('input').fill('Runbooks/Getting started')
  await page.getByTestId('wiki-content').locator('textarea').fill('## Install\n\n- Clone the repository\n- `make run`')
  await bothThemes(page, 'forge-wiki-editor')
  await page.getByTestId('wiki-save').click()
  await expect(page.getByTestId('wiki-page-title')).toHaveText('Getting started')
  await expect(page.getByTestId('wiki-content-view').locator('h2')).toHaveText('Install')
  const created = await api<{ slug: string; content: string }>(
    'GET',
    `${p}/wikis/${encodeURIComponent('Runbooks/Getting-started')}`,
  )
  expect(created.content).toBe('## Install\n\n- Clone the repository\n- `make run`')

  await page.getByTestId('wiki-edit').click()
  await page.getByTestId('wiki-content').locator('textarea').fill('## Install\n\nRun `make setup` first.')
  await page.getByTestId('wiki-save').click()
  await expect(page.getByTestId('wiki-content-view')).toContainText('Run make setup first.')
  expect(
    (await api<{ content: string }>('GET', `${p}/wikis/${encodeURIComponent('Runbooks/Getting-started')}`)).content,
  ).toBe('## Install\n\nRun `make setup` first.')
  await expect(page.getByTestId('wiki-pages').locator('a')).toHaveCount(2)
  await bothThemes(page, 'forge-wiki')

  // Offline the wiki reads from the copy saved with every page's content.
  await burrow.setOnline(false)
  await page.reload()
  await expect(page.getByTestId('wiki-stale')).toBeVisible()
  await page.getByTestId('wiki-pages').locator('a[data-slug="Home"]').click()
  await expect(page.getByTestId('wiki-content-view').locator('h1')).toHaveText('Dispatch API')
  await expect(page.getByTestId('wiki-edit')).toBeDisabled()
  await expect(page.getByTestId('wiki-new')).toBeDisabled()
  await bothThemes(page, 'forge-wiki-offline')
  await burrow.setOnline(true)
  // Core probes the instance again within seconds of a stale read; until then reads stay stale.
  await expect(async () => {
    await page.reload()
    await expect(page.getByTestId('wiki-pages').locator('a')).toHaveCount(2)
    await expect(page.getByTestId('wiki-stale')).toBeHidden({ timeout: 1000 })
  }).toPass({ timeout: 30_000 })

  await page.getByTestId('wiki-pages').locator('a[data-slug="Runbooks/Getting-started"]').click()
  await page.getByTestId('wiki-delete').click()
  await page.locator('.n-popconfirm').getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(page.getByTestId('wiki-pages').locator('a')).toHaveCount(1)
  expect((await api<{ slug: string }[]>('GET', `${p}/wikis`)).map((w) => w.slug)).toEqual(['Home'])
})
