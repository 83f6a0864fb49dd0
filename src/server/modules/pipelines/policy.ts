import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import type { ProjectRow } from '../../platform/db/rows'
import { projectSettings } from '../../platform/db/project-settings'

/**
 * Who may read a project's pipelines and jobs: the builds feature must not be disabled;
 * Reporters and above always; Guests and others only on public or internal projects whose
 * jobs are public (GitLab keeps private projects' jobs from Guests).
 */
export function canReadBuilds(perms: Permissions, project: ProjectRow): boolean {
  if (!perms.canReadProject(project)) return false
  const s = projectSettings(project.settings)
  if (s.builds_access_level === 'disabled') return false
  if (perms.canInProject(project, AccessLevel.REPORTER)) return true
  if (s.builds_access_level === 'private' || project.visibility === 'private') return false
  return s.public_jobs !== false
}
