import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'

/** GitLab's `admin_cicd_variables` on a group: its Owners read and manage its variables. */
export function canAdminGroupVariables(perms: Permissions, groupId: number): boolean {
  return perms.canInGroup(groupId, AccessLevel.OWNER)
}
