/**
 * One demo seed per Playwright run, shared by every spec that launches a demo Burrow Server.
 * The seed takes 15–80 s on a loaded 2-core machine and each demo spec used to pay it; now the
 * first launch seeds a template data dir (a server process started with the spec's arguments,
 * then stopped cleanly) and every launch copies it. The server finds its content there and does
 * not seed again. Templates live in the run's directory (`BURROW_E2E_SEED_DIR`, made and removed
 * by global-setup.ts), one per distinct set of server arguments; without that variable (launch.ts
 * run by hand) nothing is shared and the server seeds its own data dir as before.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '../../..')

/** How long a seed may take before the launch gives up: generous, for a loaded CI machine. */
const SEED_DEADLINE_MS = 300_000

/** A port nobody listens on now: `wanted` when free, else any. */
export function freePort(wanted = 0): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer()
    probe.once('error', (error) => (wanted !== 0 ? freePort(0).then(resolvePort, reject) : reject(error)))
    probe.listen(wanted, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => resolvePort(typeof address === 'object' && address !== null ? address.port : 0))
    })
  })
}

/** Seeds `dataDir` by starting the server on it until it answers, then stopping it (SIGTERM). */
async function seedInto(
  dataDir: string,
  port: number,
  serverArgs: readonly string[],
  rootToken: string,
): Promise<void> {
  let output = ''
  const child = spawn(
    process.execPath,
    [
      join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
      'src/server/cli.ts',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--data-dir',
      dataDir,
      ...serverArgs,
    ],
    {
      cwd: root,
      env: { ...process.env, BURROW_ROOT_TOKEN: rootToken },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  let exited = false
  const exit = new Promise<void>((done) => child.once('exit', () => ((exited = true), done())))
  try {
    const deadline = Date.now() + SEED_DEADLINE_MS
    for (;;) {
      if (exited) throw new Error(`Burrow Server exited while seeding the e2e template:\n${output}`)
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/v4/version`)).ok) break
      } catch {
        // not listening yet: the seed runs before the server listens
      }
      if (Date.now() > deadline)
        throw new Error(`the e2e template's seed did not finish within ${SEED_DEADLINE_MS / 1000} s:\n${output}`)
      await new Promise((r) => setTimeout(r, 250))
    }
  } finally {
    if (!exited) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      await exit
      clearTimeout(timer)
    }
  }
}

/**
 * Fills the empty `dataDir` from the run's template for `serverArgs` (seeding the template
 * first if this is the run's first launch with them) and returns the port the template was
 * seeded on, which the caller should try first: links written by the seed (activity, geo
 * nodes) name it. Returns null when the run shares no templates.
 */
export async function fillFromTemplate(
  dataDir: string,
  serverArgs: readonly string[],
  rootToken: string,
): Promise<{ readonly port: number } | null> {
  const base = process.env.BURROW_E2E_SEED_DIR
  if (base === undefined || base === '' || !existsSync(base)) return null
  const template = join(base, createHash('sha256').update(JSON.stringify(serverArgs)).digest('hex').slice(0, 16))
  if (!existsSync(join(template, 'port'))) {
    const building = mkdtempSync(`${template}-building-`)
    try {
      const port = await freePort()
      await seedInto(join(building, 'data'), port, serverArgs, rootToken)
      writeFileSync(join(building, 'port'), `${port}\n`)
      // Specs run one at a time (workers: 1); should two ever race, the first rename wins.
      if (!existsSync(template)) renameSync(building, template)
    } finally {
      rmSync(building, { recursive: true, force: true })
    }
  }
  cpSync(join(template, 'data'), dataDir, { recursive: true })
  return { port: Number(readFileSync(join(template, 'port'), 'utf8').trim()) }
}
