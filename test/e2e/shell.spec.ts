import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'

// The whole of `npm start` in browser mode: server from source, web host, the built renderer.
let start: ChildProcess
let pageUrl: string
let serverUrl: string
let dataDir: string
let output = ''

test.beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'burrow-e2e-'))
  // The app's own data (accounts) goes beside the server's data dir: both inside dataDir.
  start = spawn(process.execPath, ['scripts/start.mjs', '--browser', '--no-open', '--data-dir', join(dataDir, 'server')], { stdio: ['ignore', 'pipe', 'pipe'] })
  start.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start printed no page address within 60 s:\n${output}`)), 60_000)
    start.once('exit', (code) => reject(new Error(`scripts/start.mjs exited with ${code}:\n${output}`)))
    start.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const page = /running in browser mode at (http:\/\/127\.0\.0\.1:\d+\/#secret=\S+)/.exec(output)
      const server = /Burrow Server \S+ ready at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (page?.[1] && server?.[1]) {
        clearTimeout(timer)
        pageUrl = page[1]
        serverUrl = server[1]
        resolve()
      }
    })
  })
})

test.afterAll(async () => {
  if (start && start.exitCode === null) {
    const exited = new Promise((resolve) => start.once('exit', resolve))
    start.kill('SIGINT')
    await exited
  }
  rmSync(dataDir, { recursive: true, force: true })
})

test('npm start in browser mode opens the first-run screen, offering its own Burrow Server', async ({ page }) => {
  const version = ((await (await fetch(`${serverUrl}/api/v4/version`)).json()) as { version: string }).version
  await page.goto(pageUrl)
  await expect(page.getByRole('heading', { name: 'Welcome to Burrow' })).toBeVisible()
  const local = page.getByTestId('instance-local')
  await expect(local).toHaveAttribute('aria-checked', 'true')
  await expect(local).toContainText(serverUrl)
  await expect(local).toContainText(`version ${version}`)
  // The secret leaves the address bar once the page has taken it.
  expect(page.url()).not.toContain('secret=')
  await page.screenshot({ path: 'test-results/e2e/shell.png', fullPage: true })
})

test('the first-run screen follows a dark OS theme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.goto(pageUrl)
  await expect(page.getByTestId('instance-local')).toContainText('version')
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe('rgb(255, 255, 255)')
  await page.screenshot({ path: 'test-results/e2e/shell-dark.png', fullPage: true })
})

test('a page without the secret cannot reach the contract and says so', async ({ page }) => {
  await page.goto(pageUrl.replace(/#.*$/, ''))
  await expect(page.getByTestId('shell-error')).toContainText('Burrow is not connected')
  await expect(page.getByTestId('shell-error')).toContainText('unavailable')
  await page.screenshot({ path: 'test-results/screenshots/no-secret.png', animations: 'disabled' })
})
