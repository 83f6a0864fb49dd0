import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import type { ProjectRow } from '../../platform/db/rows'
import { hasAccess, rulesFor, type ProtectedBranch } from '../branches'
import { canReadBuilds } from '../pipelines'
import type { ScheduleRow } from './queries'

/** GitLab's `read_pipeline_schedule`: Reporters and above who may read the project's pipelines. */
export function canReadSchedules(perms: Permissions, project: ProjectRow): boolean {
  return canReadBuilds(perms, project) && perms.canInProject(project, AccessLevel.REPORTER)
}

/** GitLab's `create_pipeline_schedule`: Developers and above. */
export function canCreateSchedules(perms: Permissions, project: ProjectRow): boolean {
  return canReadSchedules(perms, project) && perms.canInProject(project, AccessLevel.DEVELOPER)
}

/** GitLab's `update_pipeline_schedule` (the schedule and its variables): its owner, while still a Developer. */
export function canUpdateSchedule(perms: Permissions, project: ProjectRow, schedule: ScheduleRow): boolean {
  return canCreateSchedules(perms, project) && perms.user !== null && schedule.owner_id === perms.user.id
}

/** GitLab's `admin_pipeline_schedule` (take ownership): Maintainers and above. */
export function canAdminSchedules(perms: Permissions, project: ProjectRow): boolean {
  return canReadSchedules(perms, project) && perms.canInProject(project, AccessLevel.MAINTAINER)
}

/** Deleting a schedule: its owner, or a Maintainer. */
export function canDeleteSchedule(perms: Permissions, project: ProjectRow, schedule: ScheduleRow): boolean {
  return canUpdateSchedule(perms, project, schedule) || canAdminSchedules(perms, project)
}

/**
 * Whether the user may run pipelines on `branch` (null for a tag): Developers on unprotected refs;
 * on a protected branch, whoever its rules let push or merge (GitLab's `create_pipeline` on a ref).
 */
export function canRunOnRef(
  perms: Permissions,
  project: ProjectRow,
  rules: readonly ProtectedBranch[],
  branch: string | null,
): boolean {
  if (!perms.canInProject(project, AccessLevel.DEVELOPER)) return false
  if (branch === null) return true
  const matching = rulesFor(rules, branch)
  return (
    matching.length === 0 || hasAccess(perms, project, matching, 'push') || hasAccess(perms, project, matching, 'merge')
  )
}
