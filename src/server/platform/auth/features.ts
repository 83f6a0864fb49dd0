import type { ProjectRow } from '../db/rows'
import { AccessLevel } from './access'
import type { Permissions } from './permissions'

/**
 * GitLab's `feature_available?` for whoever holds `perms`: the project is readable and the feature
 * is not `disabled` (for nobody, administrators included), nor `private` to a non-member
 * (administrators excepted).
 */
export function canUseProjectFeature(
  perms: Permissions,
  project: Pick<ProjectRow, 'id' | 'visibility'>,
  level: unknown,
): boolean {
  if (!perms.canReadProject(project)) return false
  if (level === 'disabled') return false
  return level !== 'private' || perms.canInProject(project, AccessLevel.GUEST)
}
