import { onScopeDispose, shallowRef, watch, type ShallowRef, type WatchSource } from 'vue'
import { useBridge } from '../bridge'
import { toReadableError, type ReadableError } from '../lib/ipc-errors'

export interface CachedQuery<T> {
  readonly data: ShallowRef<T | null>
  readonly error: ShallowRef<ReadableError | null>
  readonly loading: ShallowRef<boolean>
  reload(): Promise<void>
}

/** How long cache changes are gathered before a query runs again (a sync page writes many rows). */
const SETTLE_MS = 250

/**
 * Runs a cache query now, again whenever `key` changes, and again when `cache:did-change` says
 * one of `accounts()` changed one of `kinds`. The last answer stays on screen while the next
 * one loads; answers that arrive out of order are dropped.
 */
export function useCachedQuery<T>(key: WatchSource<unknown>, accounts: () => readonly string[], kinds: readonly string[], load: () => Promise<T>): CachedQuery<T> {
  const bridge = useBridge()
  const data = shallowRef<T | null>(null)
  const error = shallowRef<ReadableError | null>(null)
  const loading = shallowRef(false)
  let generation = 0
  let timer: ReturnType<typeof setTimeout> | null = null

  async function reload(): Promise<void> {
    const mine = ++generation
    loading.value = true
    try {
      const result = await load()
      if (mine !== generation) return
      data.value = result
      error.value = null
    } catch (e) {
      if (mine === generation) error.value = toReadableError(e)
    } finally {
      if (mine === generation) loading.value = false
    }
  }

  const off = bridge.on('cache:did-change', (change) => {
    if (!accounts().includes(change.accountId) || !change.kinds.some((k) => kinds.includes(k))) return
    if (timer !== null) clearTimeout(timer)
    timer = setTimeout(() => {
      timer = null
      void reload()
    }, SETTLE_MS)
  })
  onScopeDispose(() => {
    off()
    if (timer !== null) clearTimeout(timer)
  })
  watch(key, () => void reload(), { immediate: true, deep: true })
  return { data, error, loading, reload }
}
