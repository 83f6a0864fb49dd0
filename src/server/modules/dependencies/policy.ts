import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import type { ProjectRow } from '../../platform/db/rows'

/** A dependency's vulnerabilities are for those with the Security Dashboard (Developer); others get the list without them. */
export function canSeeDependencyVulnerabilities(
  perms: Permissions,
  project: Pick<ProjectRow, 'id' | 'visibility'>,
): boolean {
  return perms.canInProject(project, AccessLevel.DEVELOPER)
}
