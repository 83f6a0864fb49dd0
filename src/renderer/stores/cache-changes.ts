import { defineStore } from 'pinia'
import type { CacheChangeEvent } from '../../shared/ipc/cache'
import { useBridge } from '../bridge'

/** How long changes from sync are gathered before a view reads again (a sync page writes many rows). */
export const SYNC_SETTLE_MS = 250
/** The outbox's optimistic changes are the user's own action: read again at the next frame. */
export const OPTIMISTIC_SETTLE_MS = 16

interface CacheWatch {
  readonly accounts: () => readonly string[]
  readonly kinds: readonly string[]
  readonly run: (accountIds: ReadonlySet<string>) => void
  /** The accounts changed since the watch last ran. */
  readonly changed: Set<string>
  timer: ReturnType<typeof setTimeout> | null
  due: number
}

/**
 * The renderer's one `cache:did-change` subscription. Views (through `useCachedQuery`,
 * `useItemPages` and the stores) register what they read — accounts and kinds — and are told to
 * read again with one timing for all: at the next frame for the user's own (optimistic)
 * changes, after sync's changes have settled for a moment otherwise.
 */
export const useCacheChangesStore = defineStore('cache-changes', () => {
  const bridge = useBridge()
  const watches = new Set<CacheWatch>()

  bridge.on('cache:did-change', (change) => {
    for (const w of watches) {
      if (!concerns(w, change)) continue
      w.changed.add(change.accountId)
      schedule(w, change.optimistic ? OPTIMISTIC_SETTLE_MS : SYNC_SETTLE_MS)
    }
  })

  const concerns = (w: CacheWatch, change: CacheChangeEvent): boolean =>
    w.accounts().includes(change.accountId) && change.kinds.some((k) => w.kinds.includes(k))

  /** Runs the watch after `delay`, unless it is already due sooner. */
  function schedule(w: CacheWatch, delay: number): void {
    const due = Date.now() + delay
    if (w.timer !== null) {
      if (w.due <= due) return
      clearTimeout(w.timer)
    }
    w.due = due
    w.timer = setTimeout(() => {
      w.timer = null
      const changed = new Set(w.changed)
      w.changed.clear()
      w.run(changed)
    }, delay)
  }

  /** Calls `run` with the changed accounts when the cache changes `kinds` of one of `accounts()`; returns the way to stop. */
  function watchCache(
    accounts: () => readonly string[],
    kinds: readonly string[],
    run: (accountIds: ReadonlySet<string>) => void,
  ): () => void {
    const w: CacheWatch = { accounts, kinds, run, changed: new Set(), timer: null, due: 0 }
    watches.add(w)
    return () => {
      watches.delete(w)
      if (w.timer !== null) clearTimeout(w.timer)
    }
  }

  return { watchCache }
})
