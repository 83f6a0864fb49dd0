import { computed, onScopeDispose, shallowRef, watch, type ShallowRef, type WatchSource } from 'vue'
import type { ApiJson, CachedList } from '../../shared/ipc/cache'
import { useBridge } from '../bridge'
import { toReadableError, type ReadableError } from '../lib/ipc-errors'
import type { AccountItem } from '../lib/items'

export interface ItemPagesOptions<T> {
  /** Re-queries from scratch when this changes (the filter, the accounts). */
  readonly key: WatchSource<unknown>
  readonly accounts: () => readonly string[]
  /** `cache:did-change` kinds that make the list stale. */
  readonly kinds: readonly string[]
  readonly fetch: (accountId: string, offset: number, limit: number) => Promise<CachedList>
  readonly read: (data: ApiJson) => T
  /** Order of merged rows when several accounts are listed together. */
  readonly compare: (a: T, b: T) => number
  readonly pageSize?: number
  /** Rows taken from each account when several are merged. */
  readonly mergeLimit?: number
}

export interface ItemPages<T> {
  /** One slot per row; undefined while its page loads. */
  readonly rows: ShallowRef<readonly (AccountItem<T> | undefined)[]>
  readonly total: ShallowRef<number>
  readonly loading: ShallowRef<boolean>
  readonly error: ShallowRef<ReadableError | null>
  /** Several accounts had more rows than `mergeLimit`: the merged list is their first rows only. */
  readonly capped: ShallowRef<boolean>
  /** Loads the pages covering rows `start`…`end` (what the virtual list shows). */
  ensureRange(start: number, end: number): void
  reload(): Promise<void>
}

const SETTLE_MS = 300

/**
 * A cache list behind a virtual scroller. One account: pages of `pageSize` rows fetched as they
 * come into view, `total` from the first answer. Several accounts: the first `mergeLimit` rows
 * of each, merged in the list's order (the cache pages per account, not across them).
 */
export function useItemPages<T>(options: ItemPagesOptions<T>): ItemPages<T> {
  const bridge = useBridge()
  const pageSize = options.pageSize ?? 100
  const mergeLimit = options.mergeLimit ?? 500
  const rows = shallowRef<readonly (AccountItem<T> | undefined)[]>([])
  const total = shallowRef(0)
  const loading = shallowRef(false)
  const error = shallowRef<ReadableError | null>(null)
  const capped = shallowRef(false)
  const loadedPages = new Set<number>()
  let generation = 0
  let lastRange: [number, number] = [0, pageSize]
  let timer: ReturnType<typeof setTimeout> | null = null

  const single = computed(() => (options.accounts().length === 1 ? options.accounts()[0] : null))

  async function loadPage(page: number, mine: number): Promise<void> {
    const accountId = single.value
    if (accountId === null || loadedPages.has(page)) return
    loadedPages.add(page)
    try {
      const list = await options.fetch(accountId, page * pageSize, pageSize)
      if (mine !== generation) return
      const next = rows.value.length === list.total ? [...rows.value] : Array.from({ length: list.total }, (_, i) => rows.value[i])
      list.items.forEach((cached, i) => (next[page * pageSize + i] = { accountId, item: options.read(cached.data), pending: cached.pending }))
      total.value = list.total
      rows.value = next
    } catch (e) {
      loadedPages.delete(page)
      if (mine === generation) error.value = toReadableError(e)
    }
  }

  async function loadMerged(mine: number): Promise<void> {
    const accounts = options.accounts()
    const lists = await Promise.all(
      accounts.map(async (accountId) => {
        try {
          return { accountId, list: await options.fetch(accountId, 0, mergeLimit) }
        } catch (e) {
          error.value = toReadableError(e)
          return { accountId, list: { items: [], total: 0, offset: 0, limit: mergeLimit } satisfies CachedList }
        }
      }),
    )
    if (mine !== generation) return
    const merged = lists.flatMap(({ accountId, list }) => list.items.map((cached) => ({ accountId, item: options.read(cached.data), pending: cached.pending })))
    merged.sort((a, b) => options.compare(a.item, b.item))
    capped.value = lists.some(({ list }) => list.total > list.items.length)
    rows.value = merged
    total.value = merged.length
  }

  /** `clear`: a new question (the filter changed), so the old rows must not linger. */
  async function reload(clear = false): Promise<void> {
    const mine = ++generation
    loadedPages.clear()
    loading.value = true
    error.value = null
    capped.value = false
    try {
      if (single.value === null) {
        if (options.accounts().length === 0) {
          rows.value = []
          total.value = 0
        } else await loadMerged(mine)
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
    if (single.value === null) return
    for (let page = Math.floor(start / pageSize); page * pageSize < Math.min(end, Math.max(total.value, 1)); page++) void loadPage(page, generation)
  }

  const off = bridge.on('cache:did-change', (change) => {
    if (!options.accounts().includes(change.accountId) || !change.kinds.some((k) => options.kinds.includes(k))) return
    if (timer !== null) clearTimeout(timer)
    timer = setTimeout(() => {
      timer = null
      void reload(false)
    }, SETTLE_MS)
  })
  onScopeDispose(() => {
    off()
    if (timer !== null) clearTimeout(timer)
  })
  watch(options.key, () => void reload(true), { immediate: true, deep: true })

  return { rows, total, loading, error, capped, ensureRange, reload: () => reload(false) }
}

/** Orders items by one of their fields the way the API's `order_by`/`sort` does (nulls last). */
export function compareByField<T>(field: string, sort: 'asc' | 'desc'): (a: T, b: T) => number {
  return (a, b) => {
    const x = (a as Record<string, unknown>)[field]
    const y = (b as Record<string, unknown>)[field]
    if (x === y) return 0
    if (x === null || x === undefined) return 1
    if (y === null || y === undefined) return -1
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))
    return sort === 'asc' ? order : -order
  }
}
