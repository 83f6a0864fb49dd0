import { computed, watch, type ComputedRef, type WritableComputedRef } from 'vue'
import { useRoute, useRouter } from 'vue-router'
import type { CachedList, CachedWire } from '../../shared/ipc/cache'
import type { Issue, Label, MergeRequest } from '../lib/items'
import { useReferenceDataStore } from '../stores/reference-data'
import { useItemPages, type ItemPages } from './use-item-pages'
import { useListAccounts } from './use-list-accounts'
import { plainQuery, queryObject } from './use-route-query'
import { useTriage } from './use-triage'
import { useWorkSelection, type WorkSelection } from './use-work-selection'

export interface WorkList<T extends Issue | MergeRequest, F> {
  readonly accountIds: ComputedRef<string[]>
  /** Several accounts are listed together (rows name their account). */
  readonly many: ComputedRef<boolean>
  /** The filter as the route's query string holds it; setting it replaces the route. */
  readonly filter: WritableComputedRef<F>
  readonly pages: ItemPages<T>
  readonly selection: WorkSelection<T>
  /** The labels of every listed account, one per name, by name. */
  readonly allLabels: ComputedRef<Label[]>
}

/**
 * What the issue and merge request lists share: the accounts in view and their reference data,
 * the filter kept in the route's query, the cache's pages of rows, the selection with its bulk
 * writes and list keys, and the triage shortcuts over it.
 */
export function useWorkList<K extends 'issue' | 'merge_request', T extends Issue | MergeRequest, F>(options: {
  readonly kind: K
  readonly parse: (query: Record<string, string | string[]>) => F
  readonly serialize: (filter: F) => string
  readonly fetch: (accountId: string, filter: F, offset: number, limit: number) => Promise<CachedList<K>>
  readonly read: (data: CachedWire[K]) => T
  /** The order the cache lists rows in under `filter`, for merging several accounts' rows. */
  readonly compare: (filter: F) => (a: T, b: T) => number
}): WorkList<T, F> {
  const route = useRoute()
  const router = useRouter()
  const reference = useReferenceDataStore()
  const { ids: accountIds, many } = useListAccounts()
  watch(accountIds, (ids) => ids.forEach((id) => void reference.ensure(id)), { immediate: true })

  // The list's route: while another page is shown (the list is kept alive), its filter stays as it was.
  const routeName = route.name
  let shown: F = options.parse(plainQuery(route.query))
  const filter = computed<F>({
    get: () => (route.name === routeName ? (shown = options.parse(plainQuery(route.query))) : shown),
    set: (value) => void router.replace({ query: queryObject(options.serialize(value)) }),
  })

  const pages = useItemPages({
    key: () => [accountIds.value, options.serialize(filter.value)],
    accounts: () => accountIds.value,
    kinds: [options.kind],
    fetch: (accountId, offset, limit) => options.fetch(accountId, filter.value, offset, limit),
    read: options.read,
    compare: (a, b) => options.compare(filter.value)(a, b),
  })
  const selection = useWorkSelection<T>(options.kind, pages.rows, pages.total, () => options.serialize(filter.value))
  useTriage({ kind: options.kind, targets: selection.targets })

  const allLabels = computed(() => {
    const byName = new Map<string, Label>()
    for (const id of accountIds.value)
      for (const l of reference.of(id).labels.values()) if (!byName.has(l.name)) byName.set(l.name, l)
    return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name))
  })
  return { accountIds, many, filter, pages, selection, allLabels }
}
