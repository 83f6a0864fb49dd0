import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// The start contract of DESIGN.md, exercised the way tools use it: `npm run server -- --host
// 127.0.0.1 --port PORT --data-dir DIR` with BURROW_ROOT_TOKEN, ready when /api/v4/version is 200.
const TOKEN = 'burrow-cli-test-root-token-0123456789'

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

interface Started {
  readonly child: ChildProcess
  readonly url: string
  output(): string
}

/** Starts `npm run server` in its own process group and waits until /api/v4/version answers 200. */
async function startCli(dataDir: string, token: string): Promise<Started> {
  const port = await freePort()
  const child = spawn(
    'npm',
    ['run', '--silent', 'server', '--', '--host', '127.0.0.1', '--port', String(port), '--data-dir', dataDir],
    {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: { ...process.env, BURROW_ROOT_TOKEN: token },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  )
  let output = ''
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()))
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()))
  const url = `http://127.0.0.1:${port}`
  const started: Started = { child, url, output: () => output }
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${output}`)
    try {
      const res = await fetch(`${url}/api/v4/version`)
      if (res.status === 200) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop(started)
      throw new Error(`server not ready within 60 s: ${output}`)
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  return started
}

/** Stops the server's whole process group (npm, tsx, node) and waits for npm to exit. */
async function stop(started: Started): Promise<void> {
  const { child } = started
  if (child.exitCode !== null || child.pid === undefined) return
  const exited = new Promise((r) => child.once('exit', r))
  process.kill(-child.pid, 'SIGTERM')
  await exited
}

const api = (s: Started, path: string, token: string | null = TOKEN, init: RequestInit = {}): Promise<Response> =>
  fetch(`${s.url}/api/v4${path}`, {
    ...init,
    headers: {
      ...(token ? { 'private-token': token } : {}),
      'content-type': 'application/json',
      ...(init.headers ?? {}),
    },
  })

describe('npm run server (the start contract)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'burrow-cli-'))
  let server: Started

  beforeAll(async () => {
    server = await startCli(dataDir, TOKEN)
  }, 90_000)
  afterAll(async () => {
    if (server) await stop(server)
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('answers GET /api/v4/version with 200 and a version once ready', async () => {
    const res = await api(server, '/version', null)
    expect(res.status).toBe(200)
    expect(typeof ((await res.json()) as { version: unknown }).version).toBe('string')
  })

  it('makes BURROW_ROOT_TOKEN the personal access token of the administrator root', async () => {
    const user = (await (await api(server, '/user')).json()) as { username: string; is_admin: boolean }
    expect(user).toMatchObject({ username: 'root', is_admin: true })
  })

  it('gives the root token the scopes api, read_user and sudo', async () => {
    const self = (await (await api(server, '/personal_access_tokens/self')).json()) as {
      scopes: string[]
      active: boolean
    }
    expect([...self.scopes].sort()).toEqual(['api', 'read_user', 'sudo'])
    expect(self.active).toBe(true)
  })

  it('keeps the database in the data dir in WAL mode with its migrations recorded', () => {
    const db = new Database(join(dataDir, 'burrow.sqlite3'), { readonly: true, fileMustExist: true })
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
      expect((db.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get() as { n: number }).n).toBeGreaterThan(0)
    } finally {
      db.close()
    }
  })

  it('stores tokens hashed: the token text is in no database file', async () => {
    // A second token, created through the API, must not be stored in clear either.
    const created = await api(server, '/users/1/personal_access_tokens', TOKEN, {
      method: 'POST',
      body: JSON.stringify({ name: 'second', scopes: ['read_api'] }),
    })
    expect(created.status).toBe(201)
    const second = ((await created.json()) as { token: string }).token
    // Checkpointing is not ours to force: the WAL and the main file are both read.
    const files = readdirSync(dataDir).filter((f) => f.startsWith('burrow.sqlite3'))
    const bytes = Buffer.concat(files.map((f) => readFileSync(join(dataDir, f))))
    expect(bytes.includes(Buffer.from('BURROW_ROOT_TOKEN'))).toBe(true)
    expect(bytes.includes(Buffer.from(TOKEN))).toBe(false)
    expect(bytes.includes(Buffer.from(second))).toBe(false)
  })

  it('keeps repositories under the same data dir', async () => {
    const res = await api(server, '/projects', TOKEN, { method: 'POST', body: JSON.stringify({ name: 'cli-project' }) })
    expect(res.status).toBe(201)
    expect(existsSync(join(dataDir, 'repositories', 'default'))).toBe(true)
  })

  it('keeps its data across a restart with the same data dir and token', async () => {
    await stop(server)
    server = await startCli(dataDir, TOKEN)
    const res = await api(server, '/projects?search=cli-project')
    expect(res.status).toBe(200)
    expect(((await res.json()) as { path: string }[]).map((p) => p.path)).toEqual(['cli-project'])
  }, 90_000)
})
