import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import type { RunnerRow } from './queries'
import type { RunnerOwnerScope } from './service'

// Who may see, create and change runners (GitLab's runner policies).

/** Maintainer of one of a project runner's projects, or of a group runner's group (its details, its jobs). */
export function canReadRunner(perms: Permissions, runner: RunnerRow, projectIds: readonly number[]): boolean {
  if (perms.isAdmin || runner.runner_type === 'instance_type') return perms.user !== null
  if (runner.runner_type === 'group_type')
    return runner.group_id !== null && perms.canInGroup(runner.group_id, AccessLevel.MAINTAINER)
  return projectIds.some((id) => perms.canInProject({ id }, AccessLevel.MAINTAINER))
}

/** Who may create a runner without a registration token: administrators; a group's Owners; a project's Maintainers. */
export function canCreateRunner(perms: Permissions, scope: RunnerOwnerScope): boolean {
  if (perms.isAdmin) return true
  if (scope.runnerType === 'group_type') return perms.canInGroup(scope.groupId, AccessLevel.OWNER)
  if (scope.runnerType === 'project_type') return perms.canInProject({ id: scope.projectId }, AccessLevel.MAINTAINER)
  return false
}

/**
 * Who may change or delete a runner: administrators; for a project runner a Maintainer of one of
 * its projects; for a group runner an Owner of the group (GitLab's admin_group_runners).
 */
export function canUpdateRunner(perms: Permissions, runner: RunnerRow, projectIds: readonly number[]): boolean {
  if (perms.isAdmin) return true
  if (runner.runner_type === 'instance_type') return false
  if (runner.runner_type === 'group_type')
    return runner.group_id !== null && perms.canInGroup(runner.group_id, AccessLevel.OWNER)
  return projectIds.some((id) => perms.canInProject({ id }, AccessLevel.MAINTAINER))
}
