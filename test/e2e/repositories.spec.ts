import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { launchBurrow, SCREENSHOTS, watchCsp, type RunningBurrow } from './support/burrow'
import { bothThemes, restApi } from './support/page'

// The repository browser against the demo content of a real Burrow Server: clone a demo project
// through the proxy, then cut the network and browse a file and a commit from the clone.
test.describe.configure({ mode: 'serial' })

const PROJECT = 'kestrel/field-app'

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

/** The REST API as the demo user, straight to the server. */
const userApi = restApi(
  () => burrow.serverUrl,
  () => burrow.user.token,
)

const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), animations: 'disabled' })

async function goToRepositories(page: Page): Promise<void> {
  await expect(page.getByTestId('page-title')).toBeVisible()
  await page.keyboard.press('g')
  await page.keyboard.press('r')
  await expect(page.getByTestId('page-title')).toHaveText('Repositories')
}

test('a demo project is cloned with progress, then its files and a commit are browsed with the network cut', async ({
  page,
}) => {
  test.setTimeout(300_000)
  await page.goto(burrow.pageUrl)
  await page.getByTestId('instance-other').click()
  await page
    .getByTestId('instance-url')
    .locator('input')
    .fill(burrow.proxyUrl ?? '')
  await page.getByTestId('token').locator('input').fill(burrow.user.token)
  await page.getByTestId('account-add-submit').click()
  await expect(page.getByTestId('account-current')).toHaveText(burrow.user.name)
  await expect(page.getByTestId('status-sync')).toHaveText(/Synced/, { timeout: 150_000 })

  await goToRepositories(page)
  const row = page.locator(`[data-testid="repo-row"][data-project="${PROJECT}"]`)
  await expect(row).toBeVisible()
  await expect(row.getByTestId('repo-clone-status')).toHaveText(/Not cloned/)
  await row.getByTestId('repo-clone-button').click()
  await expect(row.getByTestId('repo-clone-status')).toHaveText('Cloned: readable offline', { timeout: 120_000 })
  await shot(page, 'repositories-list')

  await row.getByTestId('repo-open').click()
  await expect(page.getByTestId('repo-title')).toHaveText(PROJECT)
  await expect(page.getByTestId('repo-source')).toHaveAttribute('data-source', 'clone')
  await expect(page.getByTestId('repo-tree-entry').first()).toBeVisible()
  await shot(page, 'repository-tree')

  // From here on the instance cannot be reached: everything comes from the clone.
  await burrow.setOnline(false)
  await page.locator('[data-testid="repo-tree-entry"][data-path="README.md"]').click()
  await expect(page.getByTestId('repo-file-markdown').locator('h1').first()).toBeVisible()
  await expect(page.getByTestId('repo-source')).toHaveAttribute('data-source', 'clone')
  await shot(page, 'repository-readme')

  // Keyboard: back up, into the first directory, open its first file.
  await page.keyboard.press('u')
  await expect(page.getByTestId('repo-tree-entry').first()).toBeVisible()
  const firstDir = page.locator('[data-testid="repo-tree-entry"][data-type="tree"]').first()
  const dirPath = await firstDir.getAttribute('data-path')
  await firstDir.click()
  await expect(page.getByTestId('repo-breadcrumbs')).toContainText(dirPath ?? '')
  const firstFile = page.locator('[data-testid="repo-tree-entry"][data-type="blob"]').first()
  await firstFile.click()
  await expect(page.getByTestId('repo-file-code-view')).toBeVisible()
  await expect(page.locator('.repo-file__line').first()).toBeVisible()
  await shot(page, 'repository-file')

  await page.getByTestId('repo-tab-history').click()
  await expect(page.getByTestId('repo-commit-row').first()).toBeVisible()
  await shot(page, 'repository-history')
  const title = (await page.locator('.repo-commits__title').first().textContent())?.trim() ?? ''
  await page.keyboard.press('o')
  await expect(page.getByTestId('repo-commit-title')).toHaveText(title)
  await expect(page.getByTestId('review-file-header').first()).toBeVisible()
  await expect(page.getByTestId('repo-source')).toHaveAttribute('data-source', 'clone')
  await shot(page, 'repository-commit')

  // Fetching needs the server. With the network cut, either the app already knows the instance is unreachable (a
  // read failed), and Fetch is off and says why, or trying it says so; the clone stays readable either way.
  const fetchButton = page.getByTestId('repo-fetch')
  await expect(async () => {
    if (await fetchButton.isDisabled()) {
      await expect(fetchButton).toHaveAttribute('title', /cannot be reached/)
      return
    }
    await fetchButton.click({ timeout: 2_000 })
    await expect(page.getByTestId('repo-clone').getByRole('alert')).toContainText('Needs the server', {
      timeout: 60_000,
    })
    await expect(page.getByTestId('repo-clone-status')).toHaveText(/the last fetch failed/)
  }).toPass({ timeout: 90_000 })
  await expect(page.getByTestId('repo-source')).toHaveAttribute('data-source', 'clone')
  await shot(page, 'repository-fetch-offline')
  await burrow.setOnline(true)
  await page.getByTestId('repo-fetch').click()
  await expect(page.getByTestId('repo-clone-status')).toHaveText('Cloned: readable offline', { timeout: 60_000 })
})

test('the repository browser in the dark theme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.goto(burrow.pageUrl)
  await goToRepositories(page)
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await shot(page, 'repositories-list-dark')
  await page.locator(`[data-testid="repo-row"][data-project="${PROJECT}"]`).getByTestId('repo-open').click()
  await page.locator('[data-testid="repo-tree-entry"][data-path="README.md"]').click()
  await expect(page.getByTestId('repo-file-markdown')).toBeVisible()
  await shot(page, 'repository-readme-dark')
  await page.getByTestId('repo-tab-history').click()
  await page.locator('.repo-commits__title').first().click()
  await expect(page.getByTestId('review-file-header').first()).toBeVisible()
  await shot(page, 'repository-commit-dark')
  await page.goBack()
  await page.getByTestId('repo-tab-files').click()
  await page.locator('[data-testid="repo-tree-entry"][data-type="tree"]').first().click()
  await page.locator('[data-testid="repo-tree-entry"][data-type="blob"]').first().click()
  await expect(page.getByTestId('repo-file-code-view')).toBeVisible()
  await shot(page, 'repository-file-dark')
})

test('blame of a file comes from the clone with the network cut, grouped by commit as the server blames it', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const project = await userApi<{ id: number; default_branch: string }>(
    'GET',
    `/projects/${encodeURIComponent(PROJECT)}`,
  )
  const served = await userApi<{ commit: { id: string; message: string }; lines: string[] }[]>(
    'GET',
    `/projects/${project.id}/repository/files/README.md/blame?ref=${project.default_branch}`,
  )
  const lineCount = served.reduce((n, r) => n + r.lines.length, 0)
  const commitCount = new Set(served.map((r) => r.commit.id)).size

  await page.goto(burrow.pageUrl)
  await goToRepositories(page)
  await page.locator(`[data-testid="repo-row"][data-project="${PROJECT}"]`).getByTestId('repo-open').click()
  await expect(page.getByTestId('repo-tree-entry').first()).toBeVisible()
  await burrow.setOnline(false)
  await page.locator('[data-testid="repo-tree-entry"][data-path="README.md"]').click()
  await page.getByTestId('repo-view-blame').click()
  const blame = page.getByTestId('repo-blame')
  await expect(blame).toBeVisible()
  await expect(page.getByTestId('repo-source')).toHaveAttribute('data-source', 'clone')
  await expect(blame.locator('.repo-blame__meta')).toHaveText(
    `${lineCount} ${lineCount === 1 ? 'line' : 'lines'} · ${commitCount} ${commitCount === 1 ? 'commit' : 'commits'}`,
  )
  const first = blame.getByTestId('repo-blame-commit').first()
  await expect(first).toHaveAttribute('data-sha', served[0].commit.id)
  await expect(blame.getByTestId('repo-blame-line').first()).toContainText(served[0].lines[0])
  await bothThemes(page, 'repository-blame')

  // A line longer than the view scrolls sideways whole, the commit column staying where it is.
  const list = blame.locator('.common-virtual-list')
  expect(await list.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
  const gutter = blame.locator('.repo-blame__commit').first()
  const before = await gutter.boundingBox()
  await list.evaluate((el) => (el.scrollLeft = 300))
  await expect.poll(async () => (await gutter.boundingBox())?.x).toBe(before?.x)
  await expect
    .poll(async () => (await blame.locator('.repo-blame__code').first().boundingBox())?.x)
    .toBeLessThan((before?.x ?? 0) + 480)
  await list.evaluate((el) => (el.scrollLeft = 0))

  await first.click()
  await expect(page.getByTestId('repo-commit-title')).toHaveText(served[0].commit.message.split('\n')[0])
  await burrow.setOnline(true)
})

test('blame of a project that is not cloned comes from the server, and a long file renders only the lines in view', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const project = await userApi<{ id: number }>('POST', '/projects', {
    name: 'Long file',
    initialize_with_readme: true,
  })
  const long = Array.from({ length: 20_000 }, (_, i) => `line ${i + 1}`).join('\n')
  await userApi('POST', `/projects/${project.id}/repository/commits`, {
    branch: 'main',
    commit_message: 'Add a long file',
    actions: [{ action: 'create', file_path: 'long.txt', content: `${long}\n` }],
  })
  await page.goto(burrow.pageUrl)
  await goToRepositories(page)
  await page.locator(`[data-testid="repo-row"][data-project="${PROJECT}"]`).getByTestId('repo-open').click()
  await expect(page.getByTestId('repo-title')).toHaveText(PROJECT)
  const account = /\/a\/([^/]+)\//.exec(page.url())?.[1] ?? ''
  expect(account).not.toBe('')
  await page.evaluate(
    (h) => (window.location.hash = h),
    `#/a/${account}/projects/${project.id}/repository/blame?path=long.txt`,
  )
  const blame = page.getByTestId('repo-blame')
  await expect(blame.locator('.repo-blame__meta')).toHaveText('20000 lines · 1 commit')
  await expect(page.getByTestId('repo-source')).toHaveAttribute('data-source', 'server')
  await expect(blame.getByTestId('repo-blame-commit')).toHaveText(/^[0-9a-f]{8}$/)
  expect(await blame.getByTestId('repo-blame-line').count()).toBeLessThan(200)
  await blame.locator('.common-virtual-list').evaluate((el) => (el.scrollTop = 20 * 15_000))
  await expect(blame.getByTestId('repo-blame-line').filter({ hasText: /^.*line 15001$/ })).toHaveCount(1)
  expect(await blame.getByTestId('repo-blame-line').count()).toBeLessThan(200)
})

test('search finds files of the clone by name and by a line of their text, offline, and opens them', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const headers = { 'PRIVATE-TOKEN': burrow.user.token }
  const project = (await (
    await fetch(`${burrow.serverUrl}/api/v4/projects/${encodeURIComponent(PROJECT)}`, { headers })
  ).json()) as { id: number; default_branch: string }
  const readme = await (
    await fetch(
      `${burrow.serverUrl}/api/v4/projects/${project.id}/repository/files/README.md/raw?ref=${project.default_branch}`,
      { headers },
    )
  ).text()
  // A line of the README with a few words of text: its first three words, the last cut short.
  const line = readme.split('\n').find((l) => (l.match(/[A-Za-z]{4,}/g) ?? []).length >= 3) ?? ''
  const words = (line.match(/[A-Za-z]{4,}/g) ?? []).slice(0, 3)
  const typed = `${words[0]} ${words[1]} ${words[2].slice(0, 3)}`
  await page.goto(burrow.pageUrl)
  await burrow.setOnline(false)
  try {
    await page.keyboard.press('/')
    await page.getByTestId('search-input').locator('input').fill(typed)
    const inReadme = page.getByTestId('search-file-hit').filter({ hasText: 'README.md' })
    await expect(inReadme).toBeVisible({ timeout: 30_000 })
    await expect(inReadme).toContainText(`${project.default_branch} · line ${readme.split('\n').indexOf(line) + 1}`)
    await expect(inReadme.locator('mark').first()).toHaveText(words[0])
    await shot(page, 'search-files')
    await page.getByTestId('search-input').locator('input').fill('readme')
    const byName = page.getByTestId('search-file-hit').filter({ hasText: 'matched in the name' }).first()
    await expect(byName).toContainText('README.md')
    await byName.locator('a').click()
    await expect(page.getByTestId('repo-file-markdown')).toBeVisible()
  } finally {
    await burrow.setOnline(true)
  }
})
