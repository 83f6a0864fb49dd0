import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import type { ProjectRow } from '../../platform/db/rows'
import { projectSettings } from '../../platform/db/project-settings'

/** Whoever holds `perms` may read the project's merge requests (merge_requests_access_level). */
export function canReadMergeRequestsWith(perms: Permissions, project: ProjectRow): boolean {
  const feature = projectSettings(project.settings).merge_requests_access_level
  // A disabled feature is off for everyone, administrators included (GitLab's feature_available?).
  if (feature === 'disabled') return false
  if (perms.isAdmin) return true
  if (project.visibility === 'private' || feature === 'private')
    return perms.canInProject(project, AccessLevel.REPORTER)
  return perms.canReadProject(project)
}
