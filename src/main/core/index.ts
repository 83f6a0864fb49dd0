import { AvatarService, type AvatarServiceOptions } from './avatars'
import { createDispatcher } from './dispatch'
import { createEventHub, type EventHub } from './events'
import { createHandlers, type CoreOptions } from './handlers'
import { NotifyService, type NotifyServiceOptions } from './notify/service'
import { PreferencesStore } from './preferences'
import { RepoService, type RepoServiceOptions } from './repos/index'
import { DEFAULT_PREFERENCES } from '../../shared/ipc/preferences'
import { SyncService, type SyncServiceOptions } from './sync/service'
import type { IpcResponse } from '../../shared/ipc/contract'

export interface Core {
  /** Validates and runs one request; never throws. */
  readonly dispatch: (channel: unknown, args: unknown) => Promise<IpcResponse>
  readonly events: EventHub
  /** The sync of every account, when the launch has a cache and accounts. */
  readonly sync: SyncService | null
  /** The to-do and alert watcher, when the launch has a cache and accounts. */
  readonly notify: NotifyService | null
  /** The app preferences, when the launch has a cache (the shells read `notifications`). */
  readonly preferences: PreferencesStore | null
  /** Local clones, when the launch has a cache, accounts and `reposDir`. */
  readonly repos: RepoService | null
  /** Stops periodic syncs, checks and the runs in progress (the cache itself is the shell's to close). */
  dispose(): Promise<void>
}

export interface CreateCoreOptions extends Omit<
  CoreOptions,
  'events' | 'sync' | 'notify' | 'preferences' | 'avatars' | 'repos'
> {
  /**
   * Sync timing. With `schedule: true` (the shells), every account syncs periodically and again
   * when its instance comes back online; tests leave it off and start runs themselves.
   */
  readonly syncOptions?: Pick<SyncServiceOptions, 'intervalMs' | 'reconcileEveryMs' | 'perPage' | 'pagesPerCommit'> & {
    readonly schedule?: boolean
  }
  /**
   * To-do and alert checks. With `schedule` (default: `syncOptions.schedule`), every account is
   * checked on the interval (the `notifyIntervalSeconds` preference unless `intervalMs`) and when
   * it comes back online; without it only `notify:check` runs checks.
   */
  readonly notifyOptions?: Pick<NotifyServiceOptions, 'intervalMs' | 'maxBackoffMs' | 'alertBatch'> & {
    readonly schedule?: boolean
  }
  /** Avatar cache limits (tests make them small). */
  readonly avatarOptions?: Pick<AvatarServiceOptions, 'maxTotalBytes' | 'maxImageBytes' | 'maxAgeMs'>
  /** Where repository clones live (`repos/` in the user data dir); with the cache and accounts it enables `repos:*`. */
  readonly reposDir?: string
  /** Clone and read limits (tests make them small). */
  readonly repoOptions?: Pick<RepoServiceOptions, 'progressIntervalMs' | 'limits'>
}

/** Everything behind the IPC contract, wired once per launch; both shells call this. */
export function createCore(options: CreateCoreOptions): Core {
  const events = createEventHub()
  const { cache, accounts, syncOptions } = options
  const preferences = cache !== undefined ? new PreferencesStore(cache.db) : null
  const sync =
    cache !== undefined && accounts !== undefined
      ? new SyncService({
          cache,
          accounts,
          ...syncOptions,
          // The `syncIntervalMinutes` preference unless the launch fixes the interval.
          intervalMs:
            syncOptions?.intervalMs ?? (() => (preferences?.get() ?? DEFAULT_PREFERENCES).syncIntervalMinutes * 60_000),
          onProgress: (progress) => events.emit('sync:did-progress', progress),
          onFinish: (finished) => events.emit('sync:did-finish', finished),
          onStatus: (status) => events.emit('sync:did-change-status', status),
        })
      : null
  let syncInterval = preferences?.get().syncIntervalMinutes
  const unwatchInterval = preferences?.onDidChange((p) => {
    if (p.syncIntervalMinutes === syncInterval) return
    syncInterval = p.syncIntervalMinutes
    sync?.reschedule()
  })
  const notify =
    cache !== undefined && accounts !== undefined && preferences !== null
      ? new NotifyService({
          cache,
          accounts,
          preferences,
          ...options.notifyOptions,
          // Sync fetches the whole to-do list at the end of each completed run.
          todosFetchedAt: (id) => {
            const at = sync?.state.times(id).lastCompletedAt ?? null
            return at === null ? null : Date.parse(at)
          },
          onChange: (counts) => events.emit('notify:did-change', counts),
          onAnnounce: (announcement) => events.emit('notify:did-announce', announcement),
        })
      : null
  const avatars =
    cache !== undefined && accounts !== undefined
      ? new AvatarService({ cache, accounts, ...options.avatarOptions })
      : null
  const repos =
    cache !== undefined && accounts !== undefined && options.reposDir !== undefined
      ? new RepoService({
          cache,
          accounts,
          reposDir: options.reposDir,
          fetch: options.fetch,
          ...options.repoOptions,
          onProgress: (progress) => events.emit('repos:did-progress', progress),
          onChange: (change) => events.emit('repos:did-change', change),
        })
      : null
  const scheduleNotify = options.notifyOptions?.schedule ?? syncOptions?.schedule ?? false
  let unsubscribe: (() => void) | null = null
  // Work started by account changes (the first listing, a removed account's purge): dispose waits
  // for it, so nothing touches the cache after its owner closes it.
  const inFlight = new Set<Promise<unknown>>()
  const track = (work: Promise<unknown>): void => {
    const settled = work.catch((error: unknown) => {
      process.stderr.write(`burrow core: ${error instanceof Error ? error.message : String(error)}\n`)
    })
    inFlight.add(settled)
    void settled.finally(() => inFlight.delete(settled))
  }
  if (sync !== null && cache !== undefined && accounts !== undefined) {
    const known = new Set<string>()
    const follow = (ids: readonly string[]): void => {
      for (const id of ids) {
        if (known.has(id)) continue
        known.add(id)
        if (syncOptions?.schedule === true) sync.schedule(id)
        notify?.add(id, { schedule: scheduleNotify })
      }
      // A removed account's data leaves the disk with it.
      for (const id of [...known]) {
        if (ids.includes(id)) continue
        known.delete(id)
        track(Promise.all([sync.forget(id), notify?.forget(id), repos?.forget(id)]).then(() => cache.purgeAccount(id)))
      }
    }
    track(accounts.list().then((list) => follow(list.map((a) => a.id))))
    unsubscribe = accounts.onDidChange((list) => follow(list.map((a) => a.id)))
  }
  const dispatch = createDispatcher(
    createHandlers({
      ...options,
      events,
      sync: sync ?? undefined,
      notify: notify ?? undefined,
      preferences: preferences ?? undefined,
      avatars: avatars ?? undefined,
      repos: repos ?? undefined,
    }),
  )
  return {
    dispatch,
    events,
    sync,
    notify,
    preferences,
    repos,
    async dispose() {
      unsubscribe?.()
      unwatchInterval?.()
      while (inFlight.size > 0) await Promise.all([...inFlight])
      await Promise.all([sync?.dispose(), notify?.dispose(), repos?.dispose()])
    },
  }
}
