import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import type { ProjectRow } from '../../platform/db/rows'

/**
 * How much of a group's or project's audit log a caller may list: all of it (group Owners, project
 * Maintainers), only their own actions (Developers), or nothing (null).
 */
export type AuditReach = 'all' | 'own' | null

/** The caller's reach into a group's audit events. */
export function groupAuditReach(perms: Permissions, groupId: number): AuditReach {
  if (perms.canInGroup(groupId, AccessLevel.OWNER)) return 'all'
  return perms.groupAccess(groupId) >= AccessLevel.DEVELOPER ? 'own' : null
}

/** The caller's reach into a project's audit events. */
export function projectAuditReach(perms: Permissions, project: ProjectRow): AuditReach {
  if (perms.canInProject(project, AccessLevel.MAINTAINER)) return 'all'
  return perms.projectAccess(project) >= AccessLevel.DEVELOPER ? 'own' : null
}
