import { expect, test } from '@playwright/test'
import { launchBurrow, watchCsp, type RunningBurrow } from './support/burrow'
import { bothThemes, openAt, restApi, runCommand } from './support/page'

// The search view's "On the server" section against the demo content of a real Burrow Server:
// what the cache does not hold (a commit, code) comes from the search API and opens where it
// belongs; scoped to a project when searched from there; offline, the section says why it is empty.
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

const TOKEN = 'zephyrquux'

test('commits and code from the server open in the repository browser; scoped to a project; offline says why', async ({
  page,
}) => {
  test.setTimeout(240_000)
  const violations = watchCsp(page)
  const [project] = await api<{ id: number; path_with_namespace: string; default_branch: string }[]>(
    'GET',
    '/projects?min_access_level=30&order_by=id&sort=asc&per_page=1',
  )
  await api('POST', `/projects/${project.id}/repository/commits`, {
    branch: project.default_branch,
    commit_message: `Document the ${TOKEN} switch`,
    actions: [
      {
        action: 'create',
        file_path: 'docs/switches.md',
        content: `# Switches\n\nOne more line.\n${TOKEN} turns the feature on.\n`,
      },
    ],
  })

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

  await page.evaluate((q) => (window.location.hash = `#/search?q=${q}`), TOKEN)
  const server = page.getByTestId('search-server')
  const code = server.getByTestId('search-server-blobs').getByTestId('search-server-hit').first()
  await expect(code).toContainText('docs/switches.md', { timeout: 30_000 })
  await expect(code).toContainText(`${project.path_with_namespace} · ${project.default_branch} · line`)
  await expect(server.getByTestId('search-server-commits')).toContainText(`Document the ${TOKEN} switch`)
  await bothThemes(page, 'search-on-the-server')

  await code.getByRole('link', { name: 'docs/switches.md' }).click()
  await expect(page.getByTestId('repo-file')).toHaveAttribute('data-path', 'docs/switches.md', { timeout: 30_000 })
  await expect(page.locator('#L4')).toHaveAttribute('data-target', 'true')
  await expect(page.locator('#L4')).toContainText(TOKEN)
  await page.goBack()
  await server
    .getByTestId('search-server-commits')
    .getByRole('link', { name: `Document the ${TOKEN} switch` })
    .click()
  await expect(page).toHaveURL(/repository\/commit\/[0-9a-f]{40}/)

  // Searched from the project: the scope shows, and the server is asked inside it.
  await openAt(page, burrow.pageUrl, `#/search?q=${TOKEN}&project_id=${project.id}`)
  await expect(page.getByTestId('search-scope')).toContainText(`In ${project.path_with_namespace}`)
  await expect(page.getByTestId('search-server-blobs')).toContainText('docs/switches.md', { timeout: 30_000 })
  await expect(page.getByTestId('search-server-projects')).toHaveCount(0)

  await burrow.setOnline(false)
  await runCommand(page, 'sync now')
  await expect(page.getByTestId('status-sync')).toContainText('Offline', { timeout: 30_000 })
  await page.getByTestId('search-input').locator('input').fill(`${TOKEN} switch`)
  await expect(page.getByTestId('search-server-offline')).toContainText(
    'The server cannot be reached, so commits, code',
  )
  await expect(page.getByTestId('search-server-hit')).toHaveCount(0)
  await bothThemes(page, 'search-on-the-server-offline')
  await burrow.setOnline(true)
  expect(violations, 'Content-Security-Policy violations').toEqual([])
})
