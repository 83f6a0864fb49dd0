import type { ReadableFamily } from '../../platform/auth/readable'
import { canReadIssuesWith, canUserReadIssue } from './policy'
import { assigneeIdsOf, findIssueById } from './queries'

/** Issues' read rules for other lists (activity events, to-dos, cross-references): registered at startup. */
export const issuesReadable: ReadableFamily = {
  items: {
    Issue: (items, id) => {
      const issue = findIssueById(items.db, id)
      const project = issue ? items.projectRow(issue.project_id) : undefined
      if (!issue || !project) return false
      const assignees = issue.confidential === 1 ? (assigneeIdsOf(items.db, [issue.id]).get(issue.id) ?? []) : []
      return canUserReadIssue(items.perms, project, issue, assignees)
    },
  },
  features: { issues: canReadIssuesWith },
  eventTargets: { Issue: (items, e) => items.item('Issue', e.target_id as number) },
  todoTargets: { Issue: (items, t) => items.item('Issue', t.target_id) },
}
