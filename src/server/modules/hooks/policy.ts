import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import type { ProjectRow } from '../../platform/db/rows'

/** GitLab's `admin_project` as the project hooks API asks it: Maintainers read and manage a project's hooks. */
export function canAdminProjectHooks(perms: Permissions, project: Pick<ProjectRow, 'id'>): boolean {
  return perms.canInProject(project, AccessLevel.MAINTAINER)
}

/** GitLab's `admin_group`: Owners read and manage a group's hooks. */
export function canAdminGroupHooks(perms: Permissions, groupId: number): boolean {
  return perms.canInGroup(groupId, AccessLevel.OWNER)
}

/** System hooks are the administrators'. */
export function canAdminSystemHooks(perms: Permissions): boolean {
  return perms.isAdmin
}
