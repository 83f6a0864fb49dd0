import { onScopeDispose, shallowRef, watch, type ShallowRef, type WatchSource } from 'vue'
import type { SearchHit, SearchParams } from '../../shared/ipc/cache'
import { useBridge } from '../bridge'
import { useCacheChangesStore } from '../stores/cache-changes'
import { toReadableError, type ReadableError } from '../lib/ipc-errors'
import { MergedPages } from '../lib/merged-pages'

export interface AccountHit {
  readonly accountId: string
  readonly hit: SearchHit
}

export interface SearchPages {
  /** Hits shown so far, best first (lowest bm25), accounts merged. */
  readonly hits: ShallowRef<readonly AccountHit[]>
  /** Matching items in all the accounts; an estimate when `exact` is false. */
  readonly total: ShallowRef<number>
  readonly exact: ShallowRef<boolean>
  readonly hasMore: ShallowRef<boolean>
  readonly loading: ShallowRef<boolean>
  readonly error: ShallowRef<ReadableError | null>
  /** Null until a query is asked. */
  readonly asked: ShallowRef<boolean>
  /** Shows the next page of hits. */
  loadMore(): Promise<void>
}

/**
 * Full-text search over the cache, a page at a time: `search:query` per account with
 * offset/limit, merged by score, more on demand (the view's infinite scroll or its button).
 * A cache change runs the query again and keeps as many hits on screen as were shown.
 */
export function useSearchPages(options: {
  readonly key: WatchSource<unknown>
  readonly accounts: () => readonly string[]
  /** The query without paging, or null when there is nothing to search for. */
  readonly params: () => Omit<SearchParams, 'offset' | 'limit'> | null
  readonly pageSize?: number
}): SearchPages {
  const bridge = useBridge()
  const pageSize = options.pageSize ?? 50
  const hits = shallowRef<readonly AccountHit[]>([])
  const total = shallowRef(0)
  const exact = shallowRef(true)
  const hasMore = shallowRef(false)
  const loading = shallowRef(false)
  const error = shallowRef<ReadableError | null>(null)
  const asked = shallowRef(false)
  let merge: MergedPages<AccountHit> | null = null
  let exactByAccount = new Map<string, boolean>()
  let generation = 0

  async function fill(count: number, mine: number): Promise<void> {
    const current = merge
    if (current === null) return
    loading.value = true
    try {
      await current.fillTo(count)
      if (mine !== generation) return
      hits.value = [...current.rows]
      total.value = current.total
      exact.value = [...exactByAccount.values()].every(Boolean)
      hasMore.value = current.hasMore
      error.value = null
    } catch (e) {
      if (mine === generation) error.value = toReadableError(e)
    } finally {
      if (mine === generation) loading.value = false
    }
  }

  async function restart(keep: number): Promise<void> {
    const mine = ++generation
    const params = options.params()
    const accounts = options.accounts()
    if (params === null || accounts.length === 0) {
      merge = null
      asked.value = false
      hits.value = []
      total.value = 0
      hasMore.value = false
      loading.value = false
      return
    }
    asked.value = true
    const order = new Map(accounts.map((id, i) => [id, i]))
    exactByAccount = new Map()
    merge = new MergedPages<AccountHit>(
      accounts.map((accountId) => ({
        key: accountId,
        fetch: async (offset, limit) => {
          const result = await bridge.request('search:query', accountId, { ...params, offset, limit })
          exactByAccount.set(accountId, result.exact)
          return { items: result.hits.map((hit) => ({ accountId, hit })), total: result.total }
        },
      })),
      (a, b) => a.hit.score - b.hit.score || (order.get(a.accountId) ?? 0) - (order.get(b.accountId) ?? 0),
      pageSize,
    )
    await fill(Math.max(pageSize, keep), mine)
  }

  onScopeDispose(
    useCacheChangesStore().watchCache(options.accounts, ['issue', 'merge_request', 'epic', 'milestone', 'note'], () => {
      if (asked.value) void restart(hits.value.length)
    }),
  )
  watch(options.key, () => void restart(pageSize), { immediate: true, deep: true })

  return {
    hits,
    total,
    exact,
    hasMore,
    loading,
    error,
    asked,
    loadMore: async () => {
      if (merge === null || !merge.hasMore || loading.value) return
      await fill(hits.value.length + pageSize, generation)
    },
  }
}
