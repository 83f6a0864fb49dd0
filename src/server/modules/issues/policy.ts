import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import type { IssueRow } from './queries'
import type { ProjectRow } from '../../platform/db/rows'
import { projectSettings } from '../projects'

/**
 * The project's issues as whoever holds `perms` meets them: the project is readable and its issues
 * feature is not `disabled`, nor `private` to a non-member (administrators excepted).
 */
export function canReadIssuesWith(
  perms: Permissions,
  project: Pick<ProjectRow, 'id' | 'visibility' | 'settings'>,
): boolean {
  if (!perms.canReadProject(project)) return false
  const feature = String(projectSettings(project.settings).issues_access_level ?? 'enabled')
  if (feature === 'disabled') return false
  return feature !== 'private' || perms.canInProject(project, AccessLevel.GUEST)
}

/**
 * Issue read rule for any user (mention to-dos and cross-references check other users): the
 * project and its issues feature are readable, and a confidential issue is for its author,
 * assignees and Reporters+ (administrators included). Kept apart from noteables.ts, which the
 * write services cannot import without an import cycle through its list of families.
 */
export function canUserReadIssue(
  perms: Permissions,
  project: ProjectRow,
  issue: Pick<IssueRow, 'confidential' | 'author_id'>,
  assigneeIds: readonly number[],
): boolean {
  if (!canReadIssuesWith(perms, project)) return false
  if (issue.confidential === 0) return true
  const user = perms.user
  if (!user) return false
  return (
    user.id === issue.author_id || perms.canInProject(project, AccessLevel.REPORTER) || assigneeIds.includes(user.id)
  )
}

/**
 * GitLab's admin_issue_link: members (Guest and up) who may read the issue link it to others and
 * remove its links.
 */
export function canLinkIssueWith(
  perms: Permissions,
  project: ProjectRow,
  issue: Pick<IssueRow, 'confidential' | 'author_id'>,
  assigneeIds: readonly number[],
): boolean {
  return canUserReadIssue(perms, project, issue, assigneeIds) && perms.canInProject(project, AccessLevel.GUEST)
}
