import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import type { ProjectRow } from '../../platform/db/rows'

/** GitLab's `admin_project` as the badges API asks it: Maintainers add, change, remove and preview badges. */
export function canAdminProjectBadges(perms: Permissions, project: Pick<ProjectRow, 'id'>): boolean {
  return perms.canInProject(project, AccessLevel.MAINTAINER)
}

/** GitLab's `admin_group`: Owners manage a group's badges. */
export function canAdminGroupBadges(perms: Permissions, groupId: number): boolean {
  return perms.canInGroup(groupId, AccessLevel.OWNER)
}
