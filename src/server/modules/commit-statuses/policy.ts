import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import type { ProjectRow } from '../../platform/db/rows'
import { canReadBuilds } from '../pipelines'

/** GitLab's read_commit_status: whoever may read the project's pipelines and jobs (Reporters and up, always). */
export function canReadCommitStatuses(perms: Permissions, project: ProjectRow): boolean {
  return canReadBuilds(perms, project)
}

/** GitLab's create_commit_status: Developers and up post statuses. */
export function canCreateCommitStatus(perms: Permissions, project: Pick<ProjectRow, 'id'>): boolean {
  return perms.canInProject(project, AccessLevel.DEVELOPER)
}
