/**
 * What the browser benchmarks (ui, review) share: a Burrow Server in a process of its own,
 * Debian Chromium with the e2e tests' flags, and the renderer's User Timing measures read
 * through Playwright.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium'
/** The flags of playwright.config.ts. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
]

/**
 * Builds the renderer from the working tree into out/renderer and returns that folder: a bench
 * must measure the code it is run on, never a build left from an earlier commit (a few seconds).
 */
export function builtRenderer(): string {
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js')
  const args = [vite, 'build', '--config', 'vite.renderer.config.ts', '--logLevel', 'warn']
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) throw new Error(`the renderer build failed (exit ${String(result.status)})`)
  return join(root, 'out', 'renderer')
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

/**
 * Runs `bench/lib/<script>` with tsx as `script DATA_DIR PORT …args` and root's token in
 * BURROW_ROOT_TOKEN; resolves once it prints `ready`.
 */
export async function startServerProcess(
  script: string,
  dataDir: string,
  token: string,
  args: readonly string[] = [],
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort()
  const child = spawn(
    process.execPath,
    [
      join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
      join(root, 'bench', 'lib', script),
      dataDir,
      String(port),
      ...args,
    ],
    { cwd: root, env: { ...process.env, BURROW_ROOT_TOKEN: token }, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  await new Promise<void>((resolve, reject) => {
    let out = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('ready')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`the bench server exited with ${code}`)))
  })
  return { url: `http://127.0.0.1:${port}`, child }
}

/** How many `name` measures the page has taken so far. */
export const measures = (page: Page, name: string): Promise<number> =>
  page.evaluate((n) => performance.getEntriesByName(n, 'measure').length, name)

/** The duration of the next `name` measure after `count` of them existed. */
export async function nextMeasure(
  page: Page,
  name: string,
  count: number,
): Promise<{ duration: number; detail: unknown }> {
  await page.waitForFunction(
    ([n, c]) => performance.getEntriesByName(n as string, 'measure').length > (c as number),
    [name, count] as const,
    { timeout: 60_000 },
  )
  return page.evaluate(
    ([n, c]) => {
      const entry = performance.getEntriesByName(n as string, 'measure')[c as number] as PerformanceMeasure
      return { duration: entry.duration, detail: entry.detail as unknown }
    },
    [name, count] as const,
  )
}
