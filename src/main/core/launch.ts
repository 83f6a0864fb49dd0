import { join } from 'node:path'
import type { Account, AppMode } from '../../shared/ipc/contract'
import { openAccounts, type Accounts, type LocalServer } from './accounts/index'
import { openCache, type Cache } from './cache/index'
import { createCore, type Core, type CreateCoreOptions } from './index'
import { Outbox } from './outbox/index'

export interface LaunchOptions {
  /** Where accounts.json and cache.sqlite3 live (Electron's userData; browser mode's `app/` beside the server's data dir). */
  readonly userDataDir: string
  readonly version: string
  readonly mode: AppMode
  /** The Burrow Server the launcher started for this launch (`npm start`), or null. */
  readonly localServer: LocalServer | null
  /** Secrets in the encrypted file instead of the OS keychain (tests, machines without one). */
  readonly encryptedFilePassphrase?: string
  readonly fetch?: typeof fetch
  readonly syncOptions?: CreateCoreOptions['syncOptions']
  readonly notifyOptions?: CreateCoreOptions['notifyOptions']
  readonly recentLogLines?: CreateCoreOptions['recentLogLines']
}

export interface Launch {
  readonly core: Core
  readonly accounts: Accounts
  readonly cache: Cache
  readonly outbox: Outbox
  /** The local server's account after this launch attached it; null without a local server, or when the user removed it. */
  readonly localAccount: Account | null
  /** Why the local account could not be attached (the launch goes on without it). */
  readonly localAccountError: string | null
  /** Stops sync, checks and replay, then closes the cache. */
  close(): Promise<void>
}

/**
 * One launch of the desktop core, the same for both shells (src/main/index.ts, and
 * scripts/start.mjs for browser mode): accounts, then the local server's account moved to this
 * launch's URL and token, then the cache and the outbox (whose replay of queued writes starts
 * now, so writes queued for the local account while its server was down go out), then core.
 */
export async function launchCore(options: LaunchOptions): Promise<Launch> {
  const accounts = await openAccounts({
    userDataDir: options.userDataDir,
    encryptedFilePassphrase: options.encryptedFilePassphrase,
    fetch: options.fetch,
    local: options.localServer ?? undefined,
  })
  let localAccount: Account | null = null
  let localAccountError: string | null = null
  try {
    localAccount = await accounts.connectLocal()
  } catch (error) {
    localAccountError = error instanceof Error ? error.message : String(error)
  }
  // One cache database, shared by the cache, sync, the outbox (its table lives there) and the preferences.
  const cache = openCache({ userDataDir: options.userDataDir })
  const outbox = new Outbox({ cache, accounts })
  outbox.start()
  const core = createCore({
    version: options.version,
    mode: options.mode,
    serverUrl: options.localServer?.baseUrl ?? null,
    fetch: options.fetch,
    accounts,
    cache,
    outbox,
    syncOptions: options.syncOptions,
    notifyOptions: options.notifyOptions,
    recentLogLines: options.recentLogLines,
    // Clones of the repositories the user chose, beside the cache.
    reposDir: join(options.userDataDir, 'repos'),
  })
  let closing: Promise<void> | null = null
  return {
    core,
    accounts,
    cache,
    outbox,
    localAccount,
    localAccountError,
    close() {
      closing ??= (async () => {
        await core.dispose()
        await outbox.dispose()
        accounts.dispose()
        cache.close()
      })()
      return closing
    },
  }
}
