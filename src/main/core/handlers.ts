import { release } from 'node:os'
import type { Account, AppMode, ServerStatus } from '../../shared/ipc/contract'
import { metadataOnly } from './accounts/account-store'
import { secretStorageHandlers } from './accounts/channels'
import type { Accounts } from './accounts/accounts'
import { apiHandlers } from './api/send'
import { avatarsHandlers, type AvatarService } from './avatars'
import type { IpcHandlers } from './dispatch'
import type { EventHub } from './events'
import type { Cache } from './cache/cache'
import { notifyHandlers } from './notify/channels'
import type { NotifyService } from './notify/service'
import { preferencesHandlers, type PreferencesStore } from './preferences'
import { reposHandlers, type RepoService } from './repos/index'
import { diagnosticsReport } from './shell/diagnostics'
import { cacheHandlers, type OfflineData } from './sync/channels'
import type { SyncService } from './sync/service'
import { outboxHandlers } from './outbox/channels'
import { reviewHandlers } from './outbox/review-channels'
import type { Outbox } from './outbox/outbox'

export interface CoreOptions {
  /** Burrow's version (package.json). */
  readonly version: string
  readonly mode: AppMode
  /** Base URL of the local Burrow Server, or null when none runs. */
  readonly serverUrl: string | null
  /** Injected so tests can observe requests; defaults to the global fetch. */
  readonly fetch?: typeof fetch
  /** Receives `server:did-change-status` when a probe finds the server in a new state. */
  readonly events?: EventHub
  /** The accounts service (accounts/index.ts `openAccounts`); without it the `accounts:*` channels answer `unavailable`. */
  readonly accounts?: Accounts
  /** The offline cache (cache/index.ts `openCache`); with `accounts`, enables the cache and sync channels (else `unavailable`). */
  readonly cache?: Cache
  /** The sync service over `cache` (createCore makes it). */
  readonly sync?: SyncService
  /** The write queue (outbox/outbox.ts), started by the shell; without it the write and `outbox:*` channels answer `unavailable`. */
  readonly outbox?: Outbox
  /** The to-do and alert watcher (createCore makes it with the cache and accounts); without it the `notify:*` and `alerts:*` channels answer `unavailable`. */
  readonly notify?: NotifyService
  /** The app preferences (createCore makes them on the cache database); without them `preferences:*` answer `unavailable`. */
  readonly preferences?: PreferencesStore
  /** Avatars as data URLs (createCore makes them with the cache and accounts); without them `avatars:get` answers `unavailable`. */
  readonly avatars?: AvatarService
  /** Local clones and the repository browser's reads (createCore makes them with the cache, accounts and `reposDir`); without them `repos:*` answer `unavailable`. */
  readonly repos?: RepoService
  /** The last lines of the app's log (shell/log-file.ts), for `app:diagnostics`; browser mode keeps no log file. */
  readonly recentLogLines?: (count: number) => readonly string[]
}

/** How many log lines `app:diagnostics` includes. */
const DIAGNOSTICS_LOG_LINES = 200

/** What crosses the bridge for an account: the metadata fields, never anything else an object may carry. */
function publicAccount(a: Account): Account {
  return metadataOnly(a)
}

/** Asks `GET /api/v4/version` (answered without credentials) whether the server is up. */
export async function probeServer(serverUrl: string | null, fetchImpl: typeof fetch = fetch): Promise<ServerStatus> {
  if (serverUrl === null) return { url: null, state: 'none', version: null, revision: null }
  try {
    const response = await fetchImpl(`${serverUrl}/api/v4/version`, { signal: AbortSignal.timeout(5_000) })
    if (!response.ok) return { url: serverUrl, state: 'unreachable', version: null, revision: null }
    const body = (await response.json()) as { version?: unknown; revision?: unknown }
    return {
      url: serverUrl,
      state: 'reachable',
      version: typeof body.version === 'string' ? body.version : null,
      revision: typeof body.revision === 'string' ? body.revision : null,
    }
  } catch {
    return { url: serverUrl, state: 'unreachable', version: null, revision: null }
  }
}

/**
 * Implements the IPC contract. Runs in plain Node (no Electron): src/main/index.ts and
 * src/main/web-host.ts both hand these to createDispatcher.
 */
export function createHandlers(options: CoreOptions): IpcHandlers {
  let lastState: ServerStatus['state'] | null = null
  const accounts = (): Accounts => {
    if (options.accounts === undefined)
      throw Object.assign(new Error('Accounts are not available in this launch.'), { code: 'unavailable' })
    return options.accounts
  }
  options.accounts?.onDidChange((list) => options.events?.emit('accounts:did-change', list.map(publicAccount)))
  const outbox = (): { outbox: Outbox; accounts: Accounts } => {
    if (options.outbox === undefined)
      throw Object.assign(new Error('The outbox is not available in this launch.'), { code: 'unavailable' })
    return { outbox: options.outbox, accounts: accounts() }
  }
  options.outbox?.onDidChange((entry) => options.events?.emit('outbox:did-change', { entry }))
  const offline = (): OfflineData => {
    if (options.cache === undefined || options.sync === undefined)
      throw Object.assign(new Error('The offline cache is not available in this launch.'), { code: 'unavailable' })
    return { cache: options.cache, sync: options.sync, accounts: accounts() }
  }
  options.cache?.onDidChange((change) => options.events?.emit('cache:did-change', change))
  const notify = (): NotifyService => {
    if (options.notify === undefined)
      throw Object.assign(new Error('Notifications are not available in this launch.'), { code: 'unavailable' })
    return options.notify
  }
  const preferences = (): PreferencesStore => {
    if (options.preferences === undefined)
      throw Object.assign(new Error('Preferences are not available in this launch.'), { code: 'unavailable' })
    return options.preferences
  }
  options.preferences?.onDidChange((preferences) => options.events?.emit('preferences:did-change', preferences))
  const avatars = (): AvatarService => {
    if (options.avatars === undefined)
      throw Object.assign(new Error('Avatars are not available in this launch.'), { code: 'unavailable' })
    return options.avatars
  }
  const repos = (): RepoService => {
    if (options.repos === undefined)
      throw Object.assign(new Error('Repositories are not available in this launch.'), { code: 'unavailable' })
    return options.repos
  }
  return {
    'app:info': async () => ({
      version: options.version,
      mode: options.mode,
      serverUrl: options.serverUrl,
      localAccount: options.accounts?.hasLocalServer ?? false,
    }),
    'app:diagnostics': async () => ({
      text: diagnosticsReport({
        appVersion: options.version,
        mode: options.mode,
        versions: process.versions,
        platform: process.platform,
        arch: process.arch,
        osRelease: release(),
        accounts: options.accounts !== undefined ? await options.accounts.list() : [],
        logLines: options.recentLogLines?.(DIAGNOSTICS_LOG_LINES) ?? [],
      }),
    }),
    'server:status': async () => {
      const status = await probeServer(options.serverUrl, options.fetch)
      if (lastState !== null && status.state !== lastState) options.events?.emit('server:did-change-status', status)
      lastState = status.state
      return status
    },
    'accounts:list': async () => (await accounts().list()).map(publicAccount),
    // The request carries the token in; only the metadata comes back out.
    'accounts:add': async (request) => publicAccount(await accounts().add(request)),
    'accounts:add-local': async () => publicAccount(await accounts().addLocal()),
    'accounts:remove': async (id) => {
      await accounts().remove(id)
      return null
    },
    ...secretStorageHandlers(accounts),
    'accounts:verify': async (id) => {
      const v = await accounts().verify(id)
      return { account: publicAccount(v.account), state: v.state, message: v.message }
    },
    ...outboxHandlers(outbox),
    ...reviewHandlers(outbox),
    ...cacheHandlers(offline),
    ...apiHandlers(accounts, () => options.cache),
    ...notifyHandlers(notify),
    ...preferencesHandlers(preferences),
    ...avatarsHandlers(avatars),
    ...reposHandlers(repos),
  }
}
