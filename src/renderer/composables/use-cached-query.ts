import { onScopeDispose, shallowRef, watch, type ShallowRef, type WatchSource } from 'vue'
import { toReadableError, type ReadableError } from '../lib/ipc-errors'
import { useCacheChangesStore } from '../stores/cache-changes'

export interface CachedQuery<T> {
  readonly data: ShallowRef<T | null>
  readonly error: ShallowRef<ReadableError | null>
  readonly loading: ShallowRef<boolean>
  reload(): Promise<void>
}

/**
 * Runs a cache query now, again whenever `key` changes, and again when the cache changes one of
 * `kinds` of one of `accounts()` (`useCacheChangesStore` says when). The last answer stays on screen while the next
 * one loads; answers that arrive out of order are dropped. When the load for a new key says the item is missing or
 * not the user's to see, the old key's answer goes: a page moved to another item shows that error alone, not beside
 * the item it came from. Any other failure (offline, nothing saved) keeps what is on screen: a key also changes when
 * the same item changes (its updated_at, a pending write), and offline that copy is all there is.
 */
/** Error codes saying the key's item is not there for this user (as opposed to not reachable now). */
const ITEM_GONE: ReadonlySet<string> = new Set(['not-found', 'forbidden'])

export function useCachedQuery<T>(
  key: WatchSource<unknown>,
  accounts: () => readonly string[],
  kinds: readonly string[],
  load: () => Promise<T>,
): CachedQuery<T> {
  const changes = useCacheChangesStore()
  const data = shallowRef<T | null>(null)
  const error = shallowRef<ReadableError | null>(null)
  const loading = shallowRef(false)
  let generation = 0
  // `data` answers an earlier key (kept on screen while the current one loads).
  let dataOfEarlierKey = false

  async function reload(): Promise<void> {
    const mine = ++generation
    loading.value = true
    try {
      const result = await load()
      if (mine !== generation) return
      data.value = result
      dataOfEarlierKey = false
      error.value = null
    } catch (e) {
      if (mine !== generation) return
      error.value = toReadableError(e)
      if (dataOfEarlierKey && ITEM_GONE.has(error.value.code)) data.value = null
    } finally {
      if (mine === generation) loading.value = false
    }
  }

  onScopeDispose(changes.watchCache(accounts, kinds, () => void reload()))
  watch(
    key,
    () => {
      dataOfEarlierKey = data.value !== null
      void reload()
    },
    { immediate: true, deep: true },
  )
  return { data, error, loading, reload }
}
