import { computed, type ComputedRef } from 'vue'
import { useBridge } from '../bridge'
import {
  activityEvents,
  type ActivityEvent,
  type LabelEvent,
  type MilestoneEvent,
  type SourceMergeRequest,
  type StateEvent,
} from '../lib/resource-events'
import { useCachedQuery } from './use-cached-query'

/** At most this many pages of 100 per list: an item with more events shows its first ones. */
const MAX_PAGES = 10

export interface ResourceEvents {
  /** The entries, oldest first; empty while loading or when nothing could be read. */
  readonly events: ComputedRef<readonly ActivityEvent[]>
  /** Some of them come from the copy saved on this computer: the server could not be reached. */
  readonly stale: ComputedRef<boolean>
}

/** The items with resource events: an epic has label and state events, no milestone ones. */
export type ResourceEventsKind = 'issue' | 'merge_request' | 'epic'

/**
 * The label, milestone and state events of an issue, merge request or epic, read through
 * `api:get` (its URL cache serves the saved copy offline, marked stale). A list that cannot be
 * read — an older server without the endpoint (404), offline with nothing saved — is left out:
 * the activity then has only its notes. They are read again when `revision` changes (the item's
 * `updated_at`: a confirmed write, or someone else's change, brings a new one).
 */
export function useResourceEvents(options: {
  readonly kind: () => ResourceEventsKind
  readonly accountId: () => string
  /** The item's project; an epic's group. */
  readonly parentId: () => number
  /** The item's iid; an epic's global id, as GitLab's epic event routes take it (`:epic_id`). Null while not known: nothing is read. */
  readonly itemId: () => number | null
  readonly revision: () => string | null | undefined
}): ResourceEvents {
  const bridge = useBridge()
  const base = (): string => {
    const kind = options.kind()
    if (kind === 'epic') return `/groups/${options.parentId()}/epics/${options.itemId()}`
    return `/projects/${options.parentId()}/${kind === 'issue' ? 'issues' : 'merge_requests'}/${options.itemId()}`
  }

  /** Every page of one list; what was read before a failure is kept, a failure on the first page gives nothing. */
  async function allPages<T>(path: string): Promise<{ rows: T[]; stale: boolean }> {
    const rows: T[] = []
    let stale = false
    for (let page = 1; page <= MAX_PAGES; page++) {
      try {
        const answer = await bridge.request('api:get', options.accountId(), path, { per_page: 100, page })
        if (!Array.isArray(answer.body)) break
        rows.push(...(answer.body as T[]))
        stale ||= answer.stale
        if (!answer.page?.nextPage) break
      } catch {
        break
      }
    }
    return { rows, stale }
  }

  /** The merge requests that close an issue: where a state event's `source_merge_request_id` gets its `!iid`. */
  async function sourcesOf(states: readonly StateEvent[]): Promise<SourceMergeRequest[]> {
    if (options.kind() !== 'issue' || !states.some((s) => s.source_merge_request_id !== null)) return []
    return (await allPages<SourceMergeRequest>(`${base()}/closed_by`)).rows
  }

  const item = (): string => `${options.accountId()}${base()}`
  const query = useCachedQuery(
    () => [item(), options.revision()],
    () => [],
    [],
    async () => {
      if (options.itemId() === null) return { item: item(), events: [], stale: false }
      const [labels, milestones, states] = await Promise.all([
        allPages<LabelEvent>(`${base()}/resource_label_events`),
        // GitLab has no milestone events for epics: not asked, rather than a 404 every time.
        options.kind() === 'epic'
          ? { rows: [], stale: false }
          : allPages<MilestoneEvent>(`${base()}/resource_milestone_events`),
        allPages<StateEvent>(`${base()}/resource_state_events`),
      ])
      const sources = await sourcesOf(states.rows)
      return {
        item: item(),
        events: activityEvents({ labels: labels.rows, milestones: milestones.rows, states: states.rows }, sources),
        stale: labels.stale || milestones.stale || states.stale,
      }
    },
  )
  // The last answer stays while the next loads: only for the same item, never another's events.
  const current = computed(() => (query.data.value?.item === item() ? query.data.value : null))
  return {
    events: computed(() => current.value?.events ?? []),
    stale: computed(() => current.value?.stale ?? false),
  }
}
