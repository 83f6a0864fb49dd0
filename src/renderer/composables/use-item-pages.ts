import { computed, onScopeDispose, shallowRef, watch, type ShallowRef } from 'vue'
import type { CachedItem, CachedKind, CachedList, CachedWire } from '../../shared/ipc/cache'
import { toReadableError, type ReadableError } from '../lib/ipc-errors'
import { withAccount, type AccountItem } from '../lib/items'
import { MergedPages } from '../lib/merged-pages'
import { useCacheChangesStore } from '../stores/cache-changes'

/** The list of cached `K` items, read as `T` rows. */
export interface ItemPagesOptions<K extends CachedKind, T> {
  /**
   * Re-queries from scratch when this changes (the filter, the accounts): when its value does, as
   * JSON, not whenever it is read again (a kept-alive list re-reads its filter on every route change).
   */
  readonly key: () => unknown
  readonly accounts: () => readonly string[]
  /** `cache:did-change` kinds that make the list stale. */
  readonly kinds: readonly string[]
  readonly fetch: (accountId: string, offset: number, limit: number) => Promise<CachedList<K>>
  readonly read: (data: CachedWire[K]) => T
  /**
   * Order of merged rows when several accounts are listed together: the order the cache lists
   * each account's rows in (`order_by`/`sort`), so merging keeps every account's own order.
   */
  readonly compare: (a: T, b: T) => number
  readonly pageSize?: number
}

export interface ItemPages<T> {
  /** One slot per row; undefined while its page loads. */
  readonly rows: ShallowRef<readonly (AccountItem<T> | undefined)[]>
  readonly total: ShallowRef<number>
  readonly loading: ShallowRef<boolean>
  readonly error: ShallowRef<ReadableError | null>
  /** Loads the pages covering rows `start`…`end` (what the virtual list shows). */
  ensureRange(start: number, end: number): void
  reload(): Promise<void>
}

/**
 * A cache list behind a virtual scroller. One account: pages of `pageSize` rows fetched as they
 * come into view, `total` from the first answer. Several accounts ("All accounts"): every
 * account's list is read in order, a chunk at a time, and merged by `compare` — the merged list
 * is exact and complete (its total is the sum of the accounts' totals), filled from the top as
 * far as the viewer has scrolled; the cache pages per account, so a row deep in the merged list
 * needs the rows above it from every account first.
 */
export function useItemPages<K extends CachedKind, T>(options: ItemPagesOptions<K, T>): ItemPages<T> {
  const pageSize = options.pageSize ?? 100
  const rows = shallowRef<readonly (AccountItem<T> | undefined)[]>([])
  const total = shallowRef(0)
  const loading = shallowRef(false)
  const error = shallowRef<ReadableError | null>(null)
  const loadedPages = new Set<number>()
  let generation = 0
  let lastRange: [number, number] = [0, pageSize]
  // Merged mode (several accounts): the merge in progress.
  let merge: MergedPages<AccountItem<T>> | null = null

  const single = computed(() => (options.accounts().length === 1 ? options.accounts()[0] : null))
  const toRow = (accountId: string, cached: CachedItem<K>): AccountItem<T> =>
    withAccount(accountId, cached, options.read)

  async function loadPage(page: number, mine: number): Promise<void> {
    const accountId = single.value
    if (accountId === null || loadedPages.has(page)) return
    loadedPages.add(page)
    try {
      const list = await options.fetch(accountId, page * pageSize, pageSize)
      if (mine !== generation) return
      const current = rows.value
      const next =
        current.length === list.total ? [...current] : Array.from({ length: list.total }, (_, i) => current[i])
      list.items.forEach((cached, i) => (next[page * pageSize + i] = toRow(accountId, cached)))
      total.value = list.total
      rows.value = next
    } catch (e) {
      loadedPages.delete(page)
      if (mine === generation) error.value = toReadableError(e)
    }
  }

  /** Merges the accounts' lists until `count` rows are known, then shows them. */
  async function fillMerged(count: number, mine: number): Promise<void> {
    const current = merge
    if (current === null) return
    try {
      await current.fillTo(count)
    } catch (e) {
      if (mine === generation) error.value = toReadableError(e)
    }
    if (mine !== generation) return
    const known = current.rows
    total.value = current.total
    rows.value = Array.from({ length: current.total }, (_, i) => known[i])
  }

  /** `clear`: a new question (the filter changed), so the old rows must not linger. */
  async function reload(clear = false): Promise<void> {
    const mine = ++generation
    loadedPages.clear()
    loading.value = true
    error.value = null
    try {
      const accounts = options.accounts()
      if (accounts.length === 0) {
        rows.value = []
        total.value = 0
      } else if (single.value === null) {
        if (clear) rows.value = []
        merge = new MergedPages(
          accounts.map((accountId) => ({
            key: accountId,
            fetch: async (offset: number, limit: number) => {
              const list = await options.fetch(accountId, offset, limit)
              return { items: list.items.map((cached) => toRow(accountId, cached)), total: list.total }
            },
          })),
          (a, b) => options.compare(a.item, b.item),
          pageSize,
        )
        await fillMerged(Math.max(pageSize, lastRange[1]), mine)
      } else {
        if (clear) rows.value = []
        const [start, end] = lastRange
        const pages = new Set([0, Math.floor(start / pageSize), Math.floor(Math.max(start, end - 1) / pageSize)])
        await Promise.all([...pages].map((p) => loadPage(p, mine)))
      }
    } finally {
      if (mine === generation) loading.value = false
    }
  }

  function ensureRange(start: number, end: number): void {
    lastRange = [start, end]
    if (single.value === null) {
      if (merge !== null && end > merge.rows.length && merge.hasMore) void fillMerged(end + pageSize, generation)
      return
    }
    for (let page = Math.floor(start / pageSize); page * pageSize < Math.min(end, Math.max(total.value, 1)); page++)
      void loadPage(page, generation)
  }

  onScopeDispose(useCacheChangesStore().watchCache(options.accounts, options.kinds, () => void reload(false)))
  watch(
    () => JSON.stringify(options.key()),
    () => void reload(true),
    { immediate: true },
  )

  return { rows, total, loading, error, ensureRange, reload: () => reload(false) }
}

/**
 * Orders items as the cache's SQL does for `order_by`/`sort`: by one field (a dotted path such
 * as `milestone.due_date`), nulls last whatever the direction, ties broken by id in the same
 * direction.
 */
export function compareByField<T>(field: string, sort: 'asc' | 'desc'): (a: T, b: T) => number {
  const path = field.split('.')
  const valueOf = (item: T): unknown =>
    path.reduce<unknown>(
      (v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined),
      item,
    )
  const direction = sort === 'asc' ? 1 : -1
  return (a, b) => {
    const x = valueOf(a)
    const y = valueOf(b)
    if (x !== y) {
      if (x === null || x === undefined) return 1
      if (y === null || y === undefined) return -1
      const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))
      if (order !== 0) return direction * order
    }
    return direction * (Number((a as { id?: number }).id ?? 0) - Number((b as { id?: number }).id ?? 0))
  }
}
