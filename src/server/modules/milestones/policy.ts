import type { Permissions } from '../../platform/auth/permissions'
import type { ProjectRow } from '../../platform/db/rows'
import { canReadIssuesWith } from '../issues'
import { canReadMergeRequestsWith } from '../merge-requests'

/**
 * GitLab's read_milestone on a project: a project's milestones serve its issues and merge
 * requests, so a caller who may use neither feature (both private to members, or disabled) has
 * no milestones there to read or change, administrators included when both are disabled.
 */
export function canUseProjectMilestones(perms: Permissions, project: ProjectRow): boolean {
  return canReadIssuesWith(perms, project) || canReadMergeRequestsWith(perms, project)
}
