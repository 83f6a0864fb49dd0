import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { launchCore, type Launch } from '../../src/main/core/launch'
import { buildApp } from '../../src/server/app'
import type { Account, IpcResponse } from '../../src/shared/ipc/contract'
import type { OutboxEntry } from '../../src/shared/ipc/outbox'

/*
 * The local server's account as `npm start` sets it up each launch (core/launch.ts): a real
 * Burrow Server on a data dir that outlives it, started again with a new root token on a new
 * port, and the desktop core on an app data dir that outlives it too. The accounts use the OS
 * keychain store, which the local account must never need.
 */

interface RunningServer {
  readonly app: FastifyInstance
  readonly url: string
  readonly token: string
}

let serverDir: string
let appDir: string
let servers: RunningServer[]
let launches: Launch[]

beforeEach(() => {
  serverDir = mkdtempSync(join(tmpdir(), 'burrow-local-server-'))
  appDir = mkdtempSync(join(tmpdir(), 'burrow-local-app-'))
  servers = []
  launches = []
})

afterEach(async () => {
  for (const launch of launches) await launch.close()
  for (const server of servers) await server.app.close()
  rmSync(serverDir, { recursive: true, force: true })
  rmSync(appDir, { recursive: true, force: true })
})

/** What scripts/start.mjs does for the server: the same data dir, this launch's token, a free port. */
async function startServer(token: string): Promise<RunningServer> {
  const app = await buildApp({ dataDir: serverDir, rootToken: token })
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  const server = { app, url, token }
  servers.push(server)
  return server
}

async function stopServer(server: RunningServer): Promise<void> {
  await server.app.close()
  servers = servers.filter((s) => s !== server)
}

/** What scripts/start.mjs does for the app (browser mode), without the web host. */
async function launch(server: RunningServer | null): Promise<Launch> {
  const started = await launchCore({
    userDataDir: appDir,
    version: '0.1.0',
    mode: 'browser',
    localServer: server && { baseUrl: server.url, token: server.token },
  })
  launches.push(started)
  return started
}

async function close(l: Launch): Promise<void> {
  await l.close()
  launches = launches.filter((x) => x !== l)
}

function ok<T>(response: IpcResponse): T {
  if (!response.ok) throw new Error(`${response.error.code}: ${response.error.message}`)
  return response.result as T
}

async function api(server: RunningServer, path: string, token: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.url}/api/v4${path}`, {
    ...init,
    headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json', ...(init.headers ?? {}) },
  })
}

/** A project of root with one issue, made through the API as the launcher's root. */
async function seedIssue(server: RunningServer): Promise<{ projectId: number; iid: number }> {
  const project = (await (
    await api(server, '/projects', server.token, { method: 'POST', body: JSON.stringify({ name: 'burrow-local' }) })
  ).json()) as { id: number }
  const issue = (await (
    await api(server, `/projects/${project.id}/issues`, server.token, {
      method: 'POST',
      body: JSON.stringify({ title: 'Cached across launches' }),
    })
  ).json()) as { iid: number }
  return { projectId: project.id, iid: issue.iid }
}

/** Every byte the app wrote under its data dir. */
function appFiles(): Buffer {
  const parts: Buffer[] = []
  const visit = (path: string): void => {
    if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry))
    else parts.push(readFileSync(path))
  }
  visit(appDir)
  return Buffer.concat(parts)
}

const TOKEN_1 = 'first-launch-root-token-0123456789abcdef'
const TOKEN_2 = 'second-launch-root-token-0123456789abcdef'

describe('the local server account', () => {
  it('is added on the first launch as root, without a token typed or a keychain, and syncs', async () => {
    const server = await startServer(TOKEN_1)
    const { projectId } = await seedIssue(server)
    const l = await launch(server)
    expect(l.localAccountError).toBeNull()
    const accounts = ok<Account[]>(await l.core.dispatch('accounts:list', []))
    expect(accounts).toEqual([
      expect.objectContaining({ id: 'local', kind: 'local', baseUrl: server.url, username: 'root', authKind: 'pat' }),
    ])
    expect(ok(await l.core.dispatch('app:info', []))).toEqual({
      version: '0.1.0',
      mode: 'browser',
      serverUrl: server.url,
      localAccount: true,
    })
    expect((await l.core.sync?.run('local'))?.outcome).toBe('completed')
    const issues = ok<{ items: { data: { title: string; project_id: number } }[] }>(
      await l.core.dispatch('issues:list', ['local', { state: 'all' }]),
    )
    expect(issues.items.map((i) => [i.data.project_id, i.data.title])).toEqual([[projectId, 'Cached across launches']])
  })

  it('keeps its id, cache and sync cursors on a launch with a new token and port, where the old token no longer works', async () => {
    const first = await startServer(TOKEN_1)
    await seedIssue(first)
    const l1 = await launch(first)
    expect((await l1.core.sync?.run('local'))?.outcome).toBe('completed')
    const synced = ok<{ lastCompletedAt: string | null }>(await l1.core.dispatch('sync:status', ['local']))
    await close(l1)
    await stopServer(first)

    const second = await startServer(TOKEN_2)
    expect(second.url).not.toBe(first.url)
    const l2 = await launch(second)
    expect(ok<Account[]>(await l2.core.dispatch('accounts:list', []))).toEqual([
      expect.objectContaining({ id: 'local', baseUrl: second.url }),
    ])
    // Read before any sync of this launch: what the last launch cached is there under the same id.
    const cached = ok<{ items: { data: { title: string } }[] }>(
      await l2.core.dispatch('issues:list', ['local', { state: 'all' }]),
    )
    expect(cached.items.map((i) => i.data.title)).toEqual(['Cached across launches'])
    expect(
      ok<{ lastCompletedAt: string | null }>(await l2.core.dispatch('sync:status', ['local'])).lastCompletedAt,
    ).toBe(synced.lastCompletedAt)

    expect((await api(second, '/user', TOKEN_1)).status).toBe(401)
    expect((await api(second, '/user', TOKEN_2)).status).toBe(200)
    const rootTokens = (
      (await (await api(second, '/personal_access_tokens?user_id=1', TOKEN_2)).json()) as { name: string }[]
    ).filter((t) => t.name === 'BURROW_ROOT_TOKEN')
    expect(rootTokens).toHaveLength(1)
    // The tokens were held in memory only.
    const written = appFiles()
    expect(written.includes(Buffer.from(TOKEN_1))).toBe(false)
    expect(written.includes(Buffer.from(TOKEN_2))).toBe(false)
  })

  it('replays on the next launch a write queued while the local server was down', async () => {
    const first = await startServer(TOKEN_1)
    const { projectId, iid } = await seedIssue(first)
    const l1 = await launch(first)
    expect((await l1.core.sync?.run('local'))?.outcome).toBe('completed')
    await stopServer(first)

    const queued = ok<OutboxEntry>(
      await l1.core.dispatch('issues:comment', [
        'local',
        { projectId, iid, body: 'Written while the server was down' },
      ]),
    )
    await l1.outbox.idle()
    // Refused at once (queued), or cut off on a kept-alive connection the server closed (unknown
    // outcome, which the next launch checks by reading before sending): either way not sent.
    const before = l1.outbox.get(queued.id).state
    expect(['queued', 'unknown-outcome']).toContain(before)
    await close(l1)

    const second = await startServer(TOKEN_2)
    const l2 = await launch(second)
    await l2.outbox.idle()
    if (before === 'unknown-outcome') {
      // Looked for on the server, not found, and left for the user: a comment is never resent on its own.
      expect(l2.outbox.get(queued.id)).toMatchObject({
        state: 'failed',
        reason: expect.stringContaining('did not take effect'),
      })
      await l2.outbox.retry(queued.id)
      await l2.outbox.idle()
    }
    expect(l2.outbox.get(queued.id)).toMatchObject({ state: 'done' })
    const notes = (await (await api(second, `/projects/${projectId}/issues/${iid}/notes`, TOKEN_2)).json()) as {
      body: string
      author: { username: string }
    }[]
    expect(notes.filter((n) => n.body === 'Written while the server was down').map((n) => n.author.username)).toEqual([
      'root',
    ])
  })

  it('stays removed on later launches once the user removes it, until accounts:add-local adds it back', async () => {
    const first = await startServer(TOKEN_1)
    const l1 = await launch(first)
    expect(ok(await l1.core.dispatch('accounts:remove', ['local']))).toBeNull()
    expect(ok<Account[]>(await l1.core.dispatch('accounts:list', []))).toEqual([])
    await close(l1)
    await stopServer(first)

    const second = await startServer(TOKEN_2)
    const l2 = await launch(second)
    expect(l2.localAccount).toBeNull()
    expect(ok<Account[]>(await l2.core.dispatch('accounts:list', []))).toEqual([])
    const added = ok<Account>(await l2.core.dispatch('accounts:add-local', []))
    expect(added).toMatchObject({ id: 'local', kind: 'local', baseUrl: second.url, username: 'root' })
    expect((await l2.core.sync?.run('local'))?.outcome).toBe('completed')
    await close(l2)

    // Added back: the next launch attaches it again on its own.
    const l3 = await launch(second)
    expect(l3.localAccount).toMatchObject({ id: 'local' })
  })

  it('is not offered by a launch without a local server, and an existing one explains why it cannot sync', async () => {
    const server = await startServer(TOKEN_1)
    await close(await launch(server))
    const l = await launch(null)
    expect(ok(await l.core.dispatch('app:info', []))).toMatchObject({ serverUrl: null, localAccount: false })
    expect(await l.core.dispatch('accounts:add-local', [])).toMatchObject({ ok: false, error: { code: 'unavailable' } })
    const run = await l.core.sync?.run('local')
    expect(run).toMatchObject({
      outcome: 'failed',
      error: { code: 'secret-missing', message: expect.stringContaining('npm start') },
    })
  })
})
