import { projectSettings } from '../db/project-settings'
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

/**
 * GitLab's read_label / read_milestone on a project: labels and milestones serve its issues and
 * merge requests, so they are prevented for whoever may use neither feature (both private to
 * members, or disabled — for administrators too).
 */
export function canUseIssuesOrMergeRequests(
  perms: Permissions,
  project: Pick<ProjectRow, 'id' | 'visibility' | 'settings'>,
): boolean {
  const settings = projectSettings(project.settings)
  return (
    canUseProjectFeature(perms, project, settings.issues_access_level) ||
    canUseProjectFeature(perms, project, settings.merge_requests_access_level)
  )
}
