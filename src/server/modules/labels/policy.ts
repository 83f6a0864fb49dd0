import { canUseIssuesOrMergeRequests } from '../../platform/auth/features'
import type { Permissions } from '../../platform/auth/permissions'
import type { ProjectRow } from '../../platform/db/rows'

/**
 * GitLab's read_label on a project: a project's labels serve its issues and merge requests, so a
 * caller who may use neither feature has no labels there to read or change.
 */
export function canUseProjectLabels(perms: Permissions, project: ProjectRow): boolean {
  return canUseIssuesOrMergeRequests(perms, project)
}
