/**
 * A second, small Burrow Server for the e2e tests that need two instances (two accounts): its
 * own process on 127.0.0.1 with an empty data dir, root's token known, content made through
 * the REST API by the test.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { ROOT_TOKEN } from '../../helpers/server'
import { freePort } from './seed-template'

const root = resolve(import.meta.dirname, '../../..')

export interface SecondServer {
  readonly url: string
  readonly rootToken: string
  /** The REST API as root. */
  api<T>(method: string, path: string, body?: unknown): Promise<T>
  stop(): Promise<void>
}

/**
 * Starts the server and resolves once it answers. Without options it is empty (it starts in a
 * second or two); with `issues` it holds the benchmarks' synthetic content first (that many
 * issues in five projects, a fifth as many merge requests, no comments: bench/lib/ui-server.ts),
 * seeded in a few seconds.
 */
export async function startSecondServer(options: { readonly issues?: number } = {}): Promise<SecondServer> {
  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), 'burrow-e2e-second-'))
  const url = `http://127.0.0.1:${port}`
  let output = ''
  const args =
    options.issues === undefined
      ? ['src/server/cli.ts', '--host', '127.0.0.1', '--port', String(port), '--data-dir', dataDir]
      : [
          'bench/lib/ui-server.ts',
          dataDir,
          String(port),
          String(options.issues),
          String(Math.round(options.issues / 5)),
        ]
  const child = spawn(process.execPath, [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), ...args], {
    cwd: root,
    env: { ...process.env, BURROW_ROOT_TOKEN: ROOT_TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the second Burrow Server exited while starting:\n${output}`)
    try {
      if ((await fetch(`${url}/api/v4/version`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the second Burrow Server did not answer within 120 s:\n${output}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  return {
    url,
    rootToken: ROOT_TOKEN,
    async api<T>(method: string, path: string, body?: unknown): Promise<T> {
      const response = await fetch(`${url}/api/v4${path}`, {
        method,
        headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
      return (await response.json()) as T
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
        await exited
        clearTimeout(timer)
      }
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
