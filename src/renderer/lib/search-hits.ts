import type { SearchHit, SearchKind } from '../../shared/ipc/cache'
import type { IconName } from '../components/common/icons'

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
