import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'

// The whole of `npm start` in browser mode: server from source (seeded with the demo content on
// its first start), the app signed in to it as the `local` account, the web host, the built
// renderer. Serial: a later test restarts `npm start` on the same data dir.
test.describe.configure({ mode: 'serial' })

interface Started {
  readonly process: ChildProcess
  readonly pageUrl: string
  readonly serverUrl: string
  output(): string
}

let dataDir: string
let start: Started | null = null

/** `node scripts/start.mjs --browser --no-open` on the shared data dir; resolves once it printed the page's address. */
async function startBurrow(): Promise<Started> {
  // The app's own data (accounts, cache, preferences) goes beside the server's data dir: both inside dataDir.
  const child = spawn(
    process.execPath,
    ['scripts/start.mjs', '--browser', '--no-open', '--data-dir', join(dataDir, 'server')],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let output = ''
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise<Started>((resolve, reject) => {
    // The first start seeds the demo content before the server answers.
    const timer = setTimeout(
      () => reject(new Error(`npm start printed no page address within 120 s:\n${output}`)),
      120_000,
    )
    child.once('exit', (code) => reject(new Error(`scripts/start.mjs exited with ${code}:\n${output}`)))
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const page = /running in browser mode at (http:\/\/127\.0\.0\.1:\d+\/#secret=\S+)/.exec(output)
      const server = /Burrow Server \S+ ready at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (page?.[1] && server?.[1]) {
        clearTimeout(timer)
        resolve({ process: child, pageUrl: page[1], serverUrl: server[1], output: () => output })
      }
    })
  })
}

async function stopBurrow(): Promise<void> {
  const running = start
  start = null
  if (running === null || running.process.exitCode !== null) return
  const exited = new Promise((resolve) => running.process.once('exit', resolve))
  running.process.kill('SIGINT')
  await exited
}

function current(): Started {
  if (start === null) throw new Error('npm start is not running')
  return start
}

test.beforeAll(async () => {
  test.setTimeout(150_000)
  dataDir = mkdtempSync(join(tmpdir(), 'burrow-e2e-'))
  start = await startBurrow()
})

test.afterAll(async () => {
  await stopBurrow()
  rmSync(dataDir, { recursive: true, force: true })
})

async function openIssues(page: Page): Promise<void> {
  // Keys typed before the shell has mounted would go nowhere.
  await expect(page.getByTestId('page-title')).toBeVisible()
  await page.keyboard.press('g')
  await page.keyboard.press('i')
  await expect(page.getByTestId('page-title')).toHaveText('Issues')
}

test('npm start in browser mode opens the shell, signed in to its own Burrow Server', async ({ page }) => {
  const { pageUrl, output } = current()
  expect(output()).toContain('signed in to the local Burrow Server as root (account "local")')
  await page.goto(pageUrl)
  await expect(page.getByTestId('page-title')).toHaveText('Home')
  await expect(page.getByTestId('account-current')).toHaveText('Administrator')
  await expect(page.getByRole('heading', { name: 'Welcome to Burrow' })).toHaveCount(0)
  // The secret leaves the address bar once the page has taken it.
  expect(page.url()).not.toContain('secret=')
  await page.screenshot({ path: 'test-results/e2e/shell.png', fullPage: true })
})

test("the demo forge's issues are listed without any sign-in", async ({ page }) => {
  test.setTimeout(240_000)
  await page.goto(current().pageUrl)
  await expect(page.getByTestId('status-sync')).toHaveText(/Synced/, { timeout: 200_000 })
  await openIssues(page)
  await expect(page.getByTestId('list-total')).not.toHaveText(/^0 /)
  await expect(page.locator('.work-item-row').first()).toBeVisible()
  await page.screenshot({ path: 'test-results/e2e/shell-issues.png' })
})

test('the shell follows a dark OS theme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.goto(current().pageUrl)
  await expect(page.getByTestId('page-title')).toHaveText('Home')
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await expect
    .poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor))
    .not.toBe('rgb(255, 255, 255)')
  await page.screenshot({ path: 'test-results/e2e/shell-dark.png', fullPage: true })
})

test('a page without the secret cannot reach the contract and says so', async ({ page }) => {
  await page.goto(current().pageUrl.replace(/#.*$/, ''))
  await expect(page.getByTestId('shell-error')).toContainText('Burrow is not connected')
  await expect(page.getByTestId('shell-error')).toContainText('unavailable')
  await page.screenshot({ path: 'test-results/screenshots/no-secret.png', animations: 'disabled' })
})

test('a restart of npm start keeps the account, its cached issues and the chosen theme, on a new page origin', async ({
  page,
}) => {
  test.setTimeout(150_000)
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto(current().pageUrl)
  const toggle = page.getByTestId('theme-toggle')
  await expect(toggle).toHaveAttribute('data-theme-preference', 'system')
  await toggle.click()
  await toggle.click()
  await expect(toggle).toHaveAttribute('data-theme-preference', 'dark')
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  const before = current()
  await stopBurrow()

  start = await startBurrow()
  // The web host's port (the page's origin) changes each launch: nothing of the last page's storage is there.
  expect(new URL(start.pageUrl).origin).not.toBe(new URL(before.pageUrl).origin)
  // The server's port is tried again first, so the account's base URL stays the same.
  expect(start.serverUrl).toBe(before.serverUrl)
  expect(start.output()).toContain('signed in to the local Burrow Server as root (account "local")')
  const fresh = await page.context().newPage()
  await fresh.goto(start.pageUrl)
  await expect(fresh.getByTestId('account-current')).toHaveText('Administrator')
  await expect(fresh.locator('html')).toHaveAttribute('data-theme', 'dark')
  await openIssues(fresh)
  await expect(fresh.getByTestId('list-total')).not.toHaveText(/^0 /)
  await fresh.screenshot({ path: 'test-results/e2e/shell-restarted.png' })
})
