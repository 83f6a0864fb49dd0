import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import type { ProjectRow } from '../../platform/db/rows'

/** Whoever holds `perms` may read (and update) the project's alerts: signed-in Developers and above, as GitLab. */
export function canReadAlertsWith(perms: Permissions, project: Pick<ProjectRow, 'id' | 'visibility'>): boolean {
  return perms.user !== null && perms.canReadProject(project) && perms.canInProject(project, AccessLevel.DEVELOPER)
}

/**
 * Who may be an alert's assignee, and who may send a test alert with their own token: a Developer
 * (or above) of the project.
 */
export function isAlertResponder(perms: Permissions, project: Pick<ProjectRow, 'id' | 'visibility'>): boolean {
  return perms.canInProject(project, AccessLevel.DEVELOPER)
}
