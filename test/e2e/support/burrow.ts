import { spawn, type ChildProcess } from 'node:child_process'
import { join, resolve } from 'node:path'
import { expect, type ConsoleMessage, type Page } from '@playwright/test'
import type { Launched } from './launch'

const root = resolve(import.meta.dirname, '../../..')

export interface RunningBurrow extends Launched {
  /** Cuts or restores the proxy between core and the server (demo launches only). */
  setOnline(online: boolean): Promise<void>
  /** Stops the Burrow Server process, or starts it again on the same port and data dir (demo launches only). */
  setServerRunning(running: boolean): Promise<void>
  /**
   * Arms the proxy (demo launches only) to cut the next `method` request whose path contains
   * `pathPart`: before it reaches the server (`request`), or after the server answered, the
   * answer lost (`response`); either way the proxy then goes offline until `setOnline(true)`.
   * Resolves once armed; `dropped()` resolves with `METHOD /path` once it has struck.
   */
  armDrop(drop: 'request' | 'response', method: string, pathPart: string): Promise<void>
  /** Waits until the armed drop has struck (and the proxy is offline); its request line. */
  dropped(): Promise<string>
  stop(): Promise<void>
}

/** Starts support/launch.ts and waits for its addresses. */
export async function launchBurrow(
  options: { readonly demo?: boolean; readonly secondStorage?: boolean } = {},
): Promise<RunningBurrow> {
  const args = [
    join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
    join(root, 'test/e2e/support/launch.ts'),
    ...(options.demo ? ['--demo'] : []),
    ...(options.secondStorage ? ['--second-storage'] : []),
  ]
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let output = ''
  let stdout = ''
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const launched = await new Promise<Launched>((resolveLaunch, reject) => {
    // The demo seed alone takes over a minute on a busy machine.
    const timer = setTimeout(() => reject(new Error(`launch.ts printed nothing within 300 s:\n${output}`)), 300_000)
    child.once('exit', (code) => reject(new Error(`launch.ts exited with ${code}:\n${output}`)))
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const line = stdout.split('\n').find((l) => l.startsWith('{'))
      if (line) {
        clearTimeout(timer)
        resolveLaunch(JSON.parse(line) as Launched)
      }
    })
  })
  /** Sends a command to launch.ts and waits for its `ok`. */
  async function command(name: string, timeoutMs: number): Promise<void> {
    const answer = `ok ${name}`
    const before = stdout.split(answer).length
    child.stdin?.write(`${name}\n`)
    const deadline = Date.now() + timeoutMs
    while (stdout.split(answer).length === before) {
      if (Date.now() > deadline) throw new Error(`launch.ts did not confirm ${answer}:\n${output.slice(-2000)}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  const drops = (): number => stdout.split('\ndropped ').length - 1
  let dropsBefore = 0
  return {
    ...launched,
    setOnline: (online) => command(online ? 'online' : 'offline', 10_000),
    setServerRunning: (running) => command(running ? 'server-start' : 'server-stop', running ? 120_000 : 20_000),
    async armDrop(drop, method, pathPart) {
      dropsBefore = drops()
      await command(`drop-${drop} ${method} ${pathPart}`, 10_000)
    },
    async dropped() {
      const deadline = Date.now() + 30_000
      while (drops() === dropsBefore) {
        if (Date.now() > deadline) throw new Error(`the armed drop did not strike within 30 s:\n${output.slice(-2000)}`)
        await new Promise((r) => setTimeout(r, 50))
      }
      return stdout.split('\ndropped ').at(-1)?.split('\n')[0] ?? ''
    },
    async stop() {
      if (child.exitCode !== null) return
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await exited
    },
  }
}

/**
 * Adds the launched server as an account through the welcome form, signed in with the root
 * token through the test proxy, and waits for the first sync to finish (minutes on demo content).
 */
export async function addLocalServerAccount(page: Page, burrow: RunningBurrow): Promise<void> {
  await page.goto(burrow.pageUrl)
  await page.getByTestId('instance-other').click()
  await page
    .getByTestId('instance-url')
    .locator('input')
    .fill(burrow.proxyUrl ?? '')
  await page.getByTestId('token').locator('input').fill(burrow.rootToken)
  await page.getByTestId('account-add-submit').click()
  await expect(page.getByTestId('account-current')).toHaveText('Administrator')
  await expect(page.getByTestId('status-sync')).toHaveText(/Synced/, { timeout: 200_000 })
}

/** Collects Content-Security-Policy violations the page reports in its console. */
export function watchCsp(page: Page): string[] {
  const violations: string[] = []
  page.on('console', (message: ConsoleMessage) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect|evaluate)/i.test(message.text()))
      violations.push(message.text())
  })
  page.on('pageerror', (error) => {
    if (/Content Security Policy|EvalError/i.test(error.message)) violations.push(error.message)
  })
  return violations
}

/** Where the screenshots go: test-results/ is gitignored. */
export const SCREENSHOTS = join(root, 'test-results', 'screenshots')
