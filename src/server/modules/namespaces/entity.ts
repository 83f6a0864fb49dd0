import type { NamespaceRow } from '../../platform/db/rows'
import { groupWebUrl } from '../groups/entity'

/** GitLab's Namespace entity (`GET /namespaces`). */
export function namespaceEntity(
  n: NamespaceRow,
  x: { readonly baseUrl: string; readonly projectsCount?: number; readonly membersCount?: number },
): Record<string, unknown> {
  const entity: Record<string, unknown> = {
    id: n.id,
    name: n.name,
    path: n.path,
    kind: n.kind,
    full_path: n.full_path,
    parent_id: n.parent_id,
    avatar_url: n.avatar_url,
    web_url: n.kind === 'group' ? groupWebUrl(x.baseUrl, n.full_path) : `${x.baseUrl}/${n.full_path}`,
    billable_members_count: x.membersCount ?? 1,
    plan: 'default',
    end_date: null,
    trial_ends_on: null,
    trial: false,
    root_repository_size: 0,
    projects_count: x.projectsCount ?? 0,
  }
  if (n.kind === 'group' && x.membersCount !== undefined) entity.members_count_with_descendants = x.membersCount
  return entity
}
