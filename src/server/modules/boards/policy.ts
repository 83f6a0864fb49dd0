import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import type { ProjectRow } from '../../platform/db/rows'
import { canReadIssuesWith } from '../issues'

type ProjectRef = Pick<ProjectRow, 'id' | 'visibility' | 'settings'>

/** GitLab's `read_issue_board`: whoever may read the project's issues. */
export function canReadBoards(perms: Permissions, project: ProjectRef): boolean {
  return canReadIssuesWith(perms, project)
}

/** GitLab's `admin_issue_board` and `admin_issue_board_list`: Reporters who may read the issues. */
export function canAdminBoards(perms: Permissions, project: ProjectRef): boolean {
  return canReadBoards(perms, project) && perms.canInProject(project, AccessLevel.REPORTER)
}
