import { defineStore } from 'pinia'
import { computed } from 'vue'
import type { SearchHit } from '../../shared/ipc/cache'
import { MAX_RECENT_ITEMS, type RecentItem } from '../../shared/ipc/preferences'
import { useBridge } from '../bridge'
import { hitRoute } from '../lib/search-hits'
import { usePreferencesStore } from './preferences'

/** What an item route names: the reference query and filter that find its item in the cache. */
interface RouteItem {
  readonly accountId: string
  readonly query: string
  readonly filter: { readonly project_id?: number; readonly group_id?: number }
  readonly kind: 'issue' | 'merge_request' | 'epic'
}

/** The item an issue, merge request or epic page shows, or null. */
function itemOfRoute(name: unknown, params: Readonly<Record<string, unknown>>): RouteItem | null {
  const accountId = typeof params.account === 'string' ? params.account : null
  const iid = Number(params.iid)
  if (accountId === null || !Number.isInteger(iid)) return null
  if (name === 'issue')
    return { accountId, query: `#${iid}`, filter: { project_id: Number(params.projectId) }, kind: 'issue' }
  if (name === 'merge-request')
    return { accountId, query: `!${iid}`, filter: { project_id: Number(params.projectId) }, kind: 'merge_request' }
  if (name === 'epic')
    return { accountId, query: `&${iid}`, filter: { group_id: Number(params.groupId) }, kind: 'epic' }
  return null
}

/**
 * Items opened lately, most recent first, for the command palette: kept by core with the
 * preferences (`recentItems`), so they outlive the page's origin in browser mode.
 */
export const useRecentItemsStore = defineStore('recent-items', () => {
  const bridge = useBridge()
  const preferences = usePreferencesStore()
  const items = computed<readonly RecentItem[]>(() => preferences.values.recentItems)

  /** Puts a hit first in the list (opened from the palette or the search view). */
  function recordHit(accountId: string, hit: SearchHit): void {
    record({
      accountId,
      kind: hit.kind,
      route: hitRoute(accountId, hit),
      title: hit.title.slice(0, 1000),
      reference: hit.reference,
    })
  }

  /** Records the item an item page shows, named as the cache knows it; other pages are ignored. */
  async function recordRoute(name: unknown, params: Readonly<Record<string, unknown>>): Promise<void> {
    try {
      if (name === 'milestone') return await recordMilestone(params)
      const item = itemOfRoute(name, params)
      if (item === null) return
      const { hits } = await bridge.request('search:query', item.accountId, {
        query: item.query,
        kinds: [item.kind],
        ...item.filter,
        limit: 1,
      })
      if (hits[0] !== undefined) recordHit(item.accountId, hits[0])
    } catch {
      // Not in the cache (yet): nothing to name it by.
    }
  }

  /** A milestone page: its title from the cache, then the milestone reference search gives its path and reference. */
  async function recordMilestone(params: Readonly<Record<string, unknown>>): Promise<void> {
    const accountId = typeof params.account === 'string' ? params.account : null
    const id = Number(params.milestoneId)
    if (accountId === null || !Number.isInteger(id)) return
    const { item } = await bridge.request('milestones:get', accountId, id)
    const title = typeof item.data.title === 'string' ? item.data.title : ''
    const { hits } = await bridge.request('search:query', accountId, {
      query: `%"${title.replace(/"/g, '')}"`,
      kinds: ['milestone'],
      limit: 200,
    })
    const hit = hits.find((h) => h.id === id)
    if (hit !== undefined) recordHit(accountId, hit)
  }

  function record(item: RecentItem): void {
    const first = items.value[0]
    if (
      first !== undefined &&
      first.route === item.route &&
      first.title === item.title &&
      first.reference === item.reference
    )
      return
    void preferences.set({
      recentItems: [item, ...items.value.filter((i) => i.route !== item.route)].slice(0, MAX_RECENT_ITEMS),
    })
  }

  return { items, recordHit, recordRoute }
})
