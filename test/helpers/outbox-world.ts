import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AccountStore } from '../../src/main/core/accounts/account-store'
import { Accounts } from '../../src/main/core/accounts/accounts'
import { EncryptedFileSecretStore } from '../../src/main/core/accounts/encrypted-file-secret-store'
import { Cache } from '../../src/main/core/cache/cache'
import { CACHE_FILE, openCacheDatabase } from '../../src/main/core/cache/database'
import { CacheReader } from '../../src/main/core/cache/lists'
import { Outbox, type OutboxOptions } from '../../src/main/core/outbox/outbox'
import type { Account } from '../../src/shared/ipc/contract'
import type { OutboxEntry, OutboxState } from '../../src/shared/ipc/outbox'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedMember, seedProject } from './fixtures'
import type { ListeningServer, SeededUser } from './server'
import { startServer, seedUser } from './server'
import { startSwitchableProxy, type SwitchableProxy } from './switchable-proxy'

export type Json = Record<string, unknown>

/** The passphrase of the test's encrypted-file secret store (the child process opens the same store). */
export const PASSPHRASE = 'outbox test passphrase'

export const SETTLED_OR_STUCK: readonly OutboxState[] = ['done', 'reconciled', 'discarded', 'failed', 'conflict']

/**
 * Everything an outbox test needs, all real: a Burrow Server on 127.0.0.1 behind a proxy that
 * can take the network away, a user with a project, the accounts service (encrypted-file
 * secrets, so no keychain is needed), the cache database and the outbox on it.
 */
export interface OutboxWorld {
  readonly server: ListeningServer
  readonly proxy: SwitchableProxy
  readonly user: SeededUser
  readonly project: ProjectRow
  readonly dir: string
  readonly accounts: Accounts
  readonly account: Account
  readonly cache: Cache
  readonly reader: CacheReader
  outbox: Outbox
  /** A request to the server as `token` (default: the world's user), bypassing the proxy. */
  api(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: Json,
    token?: string,
  ): Promise<{ status: number; body: any }> // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Creates an issue as the user and puts the server's JSON in the cache, as sync would. */
  cachedIssue(attrs?: Json): Promise<Json>
  /** Writes the server's current JSON of an issue into the cache (a sync of that one item). */
  syncIssue(iid: number): Promise<Json>
  /** Makes the account's instance unreachable, and the outbox notice it (one failed probe). */
  goOffline(): Promise<void>
  /** Brings the instance back and probes at once (what the app's "retry now" does). */
  goOnline(): Promise<void>
  /** Resolves with the entry once it is in one of `states` (default: settled, failed or in conflict) and no replay runs. */
  until(id: number, states?: readonly OutboxState[]): Promise<OutboxEntry>
  /** A new Outbox on the same database and accounts (what a restart does), started. */
  restart(options?: Partial<OutboxOptions>): Promise<Outbox>
  close(): Promise<void>
}

export async function makeOutboxWorld(
  options: { readonly timeoutMs?: number; readonly outbox?: Partial<OutboxOptions> } = {},
): Promise<OutboxWorld> {
  const server = await startServer()
  const proxy = await startSwitchableProxy(server.url)
  const user = seedUser(server, { name: 'Olive Outbox' })
  const project = seedProject(server, { ownerId: user.user.id })
  seedMember(server, 'Project', project.id, user.user.id, AccessLevel.MAINTAINER)
  const dir = mkdtempSync(join(tmpdir(), 'burrow-outbox-'))
  const accounts = new Accounts({
    store: new AccountStore(join(dir, 'accounts.json')),
    secrets: await EncryptedFileSecretStore.open(join(dir, 'secrets.enc.json'), PASSPHRASE),
    probeIntervalMs: 60_000,
    timeoutMs: options.timeoutMs,
  })
  const account = await accounts.add({ baseUrl: proxy.url, token: user.token })
  const cache = new Cache(openCacheDatabase(join(dir, CACHE_FILE)))
  const reader = new CacheReader(cache)
  const makeOutbox = (extra: Partial<OutboxOptions> = {}): Outbox =>
    new Outbox({ cache, accounts, retryDelayMs: () => 50, ...options.outbox, ...extra })

  const api: OutboxWorld['api'] = async (method, url, payload, token = user.token) => {
    const res = await server.request(token, { method, url: `/api/v4${url}`, payload })
    return { status: res.statusCode, body: res.body === '' ? null : JSON.parse(res.body) }
  }

  const world: OutboxWorld = {
    server,
    proxy,
    user,
    project,
    dir,
    accounts,
    account,
    cache,
    reader,
    outbox: makeOutbox(),
    api,
    async syncIssue(iid) {
      const res = await api('GET', `/projects/${project.id}/issues/${iid}`)
      cache.upsert(account.id, 'issue', [res.body as Json])
      return res.body as Json
    },
    async cachedIssue(attrs = {}) {
      const created = await api('POST', `/projects/${project.id}/issues`, {
        title: 'An issue',
        description: 'As it was',
        ...attrs,
      })
      if (created.status !== 201) throw new Error(`issue not created: ${JSON.stringify(created.body)}`)
      return world.syncIssue((created.body as Json).iid as number)
    },
    async goOffline() {
      await proxy.goOffline()
      await accounts.connectivityFor(account.id).probeNow()
    },
    async goOnline() {
      await proxy.goOnline()
      await accounts.connectivityFor(account.id).probeNow()
    },
    async until(id, states = SETTLED_OR_STUCK) {
      for (;;) {
        await world.outbox.idle()
        const entry = world.outbox.get(id)
        if (states.includes(entry.state)) return entry
        await new Promise<void>((resolve) => {
          const off = world.outbox.onDidChange((e) => {
            if (e.id === id && states.includes(e.state)) {
              off()
              resolve()
            }
          })
          // A change may have landed between the check and the subscription.
          if (states.includes(world.outbox.get(id).state)) {
            off()
            resolve()
          }
        })
      }
    },
    async restart(extra = {}) {
      await world.outbox.dispose()
      world.outbox = makeOutbox(extra)
      world.outbox.start()
      return world.outbox
    },
    async close() {
      await world.outbox.dispose()
      accounts.dispose()
      cache.close()
      await proxy.close()
      await server.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
  world.outbox.start()
  return world
}
