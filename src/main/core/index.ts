import { createDispatcher } from './dispatch'
import { createEventHub, type EventHub } from './events'
import { createHandlers, type CoreOptions } from './handlers'
import { SyncService, type SyncServiceOptions } from './sync/service'
import type { IpcResponse } from '../../shared/ipc/contract'

export interface Core {
  /** Validates and runs one request; never throws. */
  readonly dispatch: (channel: unknown, args: unknown) => Promise<IpcResponse>
  readonly events: EventHub
  /** The sync of every account, when the launch has a cache and accounts. */
  readonly sync: SyncService | null
  /** Stops periodic syncs and the runs in progress (the cache itself is the shell's to close). */
  dispose(): Promise<void>
}

export interface CreateCoreOptions extends Omit<CoreOptions, 'events' | 'sync'> {
  /**
   * Sync timing. With `schedule: true` (the shells), every account syncs periodically and again
   * when its instance comes back online; tests leave it off and start runs themselves.
   */
  readonly syncOptions?: Pick<SyncServiceOptions, 'intervalMs' | 'reconcileEveryMs' | 'perPage'> & { readonly schedule?: boolean }
}

/** Everything behind the IPC contract, wired once per launch; both shells call this. */
export function createCore(options: CreateCoreOptions): Core {
  const events = createEventHub()
  const { cache, accounts, syncOptions } = options
  const sync =
    cache !== undefined && accounts !== undefined
      ? new SyncService({
          cache,
          accounts,
          ...syncOptions,
          onProgress: (progress) => events.emit('sync:did-progress', progress),
          onFinish: (finished) => events.emit('sync:did-finish', finished),
        })
      : null
  let unsubscribe: (() => void) | null = null
  if (sync !== null && cache !== undefined && accounts !== undefined) {
    const known = new Set<string>()
    const follow = (ids: readonly string[]): void => {
      for (const id of ids) {
        if (known.has(id)) continue
        known.add(id)
        if (syncOptions?.schedule === true) sync.schedule(id)
      }
      // A removed account's data leaves the disk with it.
      for (const id of [...known]) {
        if (ids.includes(id)) continue
        known.delete(id)
        void sync.forget(id).then(() => cache.purgeAccount(id))
      }
    }
    void accounts.list().then((list) => follow(list.map((a) => a.id)))
    unsubscribe = accounts.onDidChange((list) => follow(list.map((a) => a.id)))
  }
  const dispatch = createDispatcher(createHandlers({ ...options, events, sync: sync ?? undefined }))
  return {
    dispatch,
    events,
    sync,
    async dispose() {
      unsubscribe?.()
      await sync?.dispose()
    },
  }
}
