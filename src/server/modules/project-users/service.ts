import type { UserBasic } from '../../../shared/api/user'
import type { Caller } from '../../platform/caller'
import type { ProjectRow } from '../../platform/db/rows'
import { listEffectiveMembers } from '../members'
import { userRef } from '../users'

/** What narrows a project's users: a name, username or public email, and users left out. */
export interface ProjectUsersFilter {
  readonly search?: string
  readonly skipUserIds?: readonly number[]
}

/**
 * GitLab's project team users: every member of the project, direct, inherited from its groups or
 * invited through a shared group, each once, by user id. One page of them and how many there are.
 */
export function projectUsers(
  caller: Caller,
  project: ProjectRow,
  filter: ProjectUsersFilter,
  window: { readonly limit: number; readonly offset: number },
): { readonly users: UserBasic[]; readonly total: number } {
  const { rows, total } = listEffectiveMembers(
    caller.db,
    { type: 'Project', id: project.id, namespaceId: project.namespace_id },
    { query: filter.search, skipUserIds: filter.skipUserIds },
    window,
  )
  return { users: rows.map((m) => userRef(m.user, caller.baseUrl)), total }
}
