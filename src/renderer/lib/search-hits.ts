import type { SearchHit, SearchKind } from '../../shared/ipc/cache'
import type { IconName } from '../components/common/icons'
import type { Project } from './items'

/** How a kind of search hit is shown: its icon and its name. */
export const HIT_KINDS: Readonly<Record<SearchKind, { readonly icon: IconName; readonly label: string }>> = {
  issue: { icon: 'issues', label: 'Issue' },
  merge_request: { icon: 'merge-requests', label: 'Merge request' },
  epic: { icon: 'epics', label: 'Epic' },
  milestone: { icon: 'milestones', label: 'Milestone' },
}

/** The route of a hit's page in the app. */
export function hitRoute(
  accountId: string,
  hit: Pick<SearchHit, 'kind' | 'id' | 'iid' | 'project_id' | 'group_id'>,
): string {
  switch (hit.kind) {
    case 'epic':
      return `/a/${accountId}/groups/${hit.group_id}/epics/${hit.iid}`
    case 'milestone':
      return `/a/${accountId}/milestones/${hit.id}`
    default:
      return `/a/${accountId}/projects/${hit.project_id}/${hit.kind === 'issue' ? 'issues' : 'merge_requests'}/${hit.iid}`
  }
}

/** Lower case, accents dropped: how a path or name is compared with what was typed. */
const foldText = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()

/**
 * The synced projects a search names, for the search view's Projects: those whose path holds
 * what was typed (`kestrel/field-app`, `field-app`), or whose path and name hold every typed
 * word as a word's beginning (`field app`). The full path first, then paths that begin with it,
 * shorter first. A reference (`#12`, `group/project!4`) names an item, not a project.
 */
export function matchingProjects(projects: readonly Project[], query: string, limit = 8): Project[] {
  const typed = foldText(query.trim())
  if (typed === '' || /[#!&%]/.test(typed)) return []
  const words = typed.split(/\s+/)
  const rank = (p: Project): number | null => {
    const path = foldText(p.path_with_namespace)
    if (path === typed) return 0
    if (path.startsWith(typed)) return 1
    if (path.includes(typed)) return 2
    const own = foldText(`${p.path_with_namespace} ${p.name_with_namespace}`).split(/[^\p{L}\p{N}]+/u)
    return words.every((w) => own.some((o) => o.startsWith(w))) ? 2 : null
  }
  return projects
    .filter((p) => p.burrow_synced !== false)
    .map((p) => ({ p, tier: rank(p) }))
    .filter((x): x is { p: Project; tier: number } => x.tier !== null)
    .sort(
      (a, b) =>
        a.tier - b.tier ||
        a.p.path_with_namespace.length - b.p.path_with_namespace.length ||
        a.p.path_with_namespace.localeCompare(b.p.path_with_namespace),
    )
    .slice(0, limit)
    .map((x) => x.p)
}
