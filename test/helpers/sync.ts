import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { AccountStore } from '../../src/main/core/accounts/account-store'
import { Accounts } from '../../src/main/core/accounts/accounts'
import { EncryptedFileSecretStore } from '../../src/main/core/accounts/encrypted-file-secret-store'
import { openCache, type Cache } from '../../src/main/core/cache/index'
import { buildApp } from '../../src/server/app'
import { ROOT_TOKEN, type TestServer } from './server'

/** A Burrow Server that can be stopped and started again on the same port and data dir (a server going away mid-sync). */
export interface RestartableServer extends TestServer {
  readonly url: string
  stop(): Promise<void>
  restart(): Promise<void>
}

export async function startRestartableServer(): Promise<RestartableServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'burrow-server-'))
  let app: FastifyInstance = await buildApp({ dataDir, rootToken: ROOT_TOKEN })
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  const port = Number(new URL(url).port)
  let running = true
  const server: RestartableServer = {
    get app() {
      return app
    },
    dataDir,
    url,
    request(token, opts) {
      const headers = { ...(opts.headers ?? {}) } as Record<string, string>
      if (token) headers['private-token'] = token
      return app.inject({ ...opts, headers })
    },
    async stop() {
      if (!running) return
      running = false
      await app.close()
    },
    async restart() {
      if (running) return
      app = await buildApp({ dataDir, rootToken: ROOT_TOKEN })
      await app.listen({ host: '127.0.0.1', port })
      running = true
    },
    async close() {
      await server.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
  return server
}

/**
 * Creates issues `${title} 1`…`${title} count` in a project as `token` (its owner, who may choose
 * created_at), issue i created, and so last updated, `second(i)` seconds into the past hour
 * (default: i). Issues made in a loop without chosen times can share a millisecond, and a sync
 * page ending on such a pair makes the next request, asked from that instant, bring both again:
 * a test counting a sync's pages or downloads is only exact with the instants chosen.
 */
export async function createIssues(
  server: TestServer,
  token: string,
  projectId: number,
  count: number,
  options: { title?: string; second?: (i: number) => number } = {},
): Promise<void> {
  const { title = 'Issue', second = (i: number) => i } = options
  const start = Date.now() - 3_600_000
  for (let i = 1; i <= count; i++) {
    const response = await server.request(token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/issues`,
      payload: { title: `${title} ${i}`, created_at: new Date(start + second(i) * 1000).toISOString() },
    })
    if (response.statusCode !== 201) throw new Error(`POST issue: ${response.statusCode} ${response.body}`)
  }
}

/** Every request the desktop core sends, by method and path (query left out), in order. */
export class RequestLog {
  readonly entries: {
    method: string
    path: string
    query: string
    items: number | null
    status: number | null
    ifNoneMatch: string | null
  }[] = []
  /** Runs before each request is sent (a test stops the server here); a Response it returns answers in the server's place. */
  beforeRequest: ((url: URL) => Promise<Response | void>) | null = null

  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
    const instead = this.beforeRequest === null ? undefined : await this.beforeRequest(url)
    if (instead !== undefined) return instead
    const entry = {
      method: init?.method ?? 'GET',
      path: url.pathname.replace(/^\/api\/v4/, ''),
      query: url.search,
      items: null as number | null,
      status: null as number | null,
      ifNoneMatch: new Headers(init?.headers).get('if-none-match'),
    }
    this.entries.push(entry)
    const response = await fetch(input, init)
    entry.status = response.status
    if (response.ok && response.headers.get('content-type')?.includes('json')) {
      const body: unknown = await response.clone().json()
      if (Array.isArray(body)) entry.items = body.length
    }
    return response
  }

  clear(): void {
    this.entries.length = 0
  }

  count(predicate: (e: { method: string; path: string; query: string }) => boolean): number {
    return this.entries.filter(predicate).length
  }
}

/** Accounts with the opt-in encrypted-file secret store (no desktop keychain needed) and one cache, in a temp dir. */
export async function desktopServices(
  log: RequestLog,
): Promise<{ accounts: Accounts; cache: Cache; dir: string; dispose(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'burrow-desktop-'))
  const secrets = await EncryptedFileSecretStore.open(join(dir, 'secrets.enc.json'), 'test passphrase')
  const accounts = new Accounts({
    store: new AccountStore(join(dir, 'accounts.json')),
    secrets,
    fetch: log.fetch,
    probeIntervalMs: 50,
  })
  const cache = openCache({ userDataDir: dir })
  return {
    accounts,
    cache,
    dir,
    dispose() {
      accounts.dispose()
      cache.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
