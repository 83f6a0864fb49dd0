/** Issues as a noteable family (notes, discussions, quick actions) and as references (`#5`, `project#5`). */
import type { Caller } from '../../platform/caller'
import type { ProjectRow } from '../../platform/db/rows'
import { notFound } from '../../platform/http/errors'
import { findProjectById } from '../../platform/db/platform-queries'
import type { NoteableKind, ReferenceFamily } from '../notes'
import { projectWebUrl, type Noteable } from '../notes'
import { issueNoun, issueTarget } from '../notes'
import { canUserReadIssue } from './policy'
import { assigneeIdsOf, findIssueById, findIssueByIid, labelsOf, updateIssueRow, type IssueRow } from './queries'
import { issueQuickActions } from './quick-actions'

/** An issue as a noteable: quick actions, mention to-dos, locked discussions. */
export function issueNoteable(caller: Caller, project: ProjectRow, issue: IssueRow): Noteable {
  const assignees = assigneeIdsOf(caller.db, [issue.id]).get(issue.id) ?? []
  return {
    type: 'Issue',
    id: issue.id,
    iid: issue.iid,
    container: { kind: 'project', project },
    title: issue.title,
    webUrl: `${projectWebUrl(caller, project)}/-/issues/${issue.iid}`,
    discussionLocked: issue.discussion_locked === 1,
    todoTarget: true,
    canRead: (perms) => canUserReadIssue(perms, project, issue, assignees),
    quickActions: issueQuickActions(project, issue),
    touch: (caller, at) => {
      updateIssueRow(caller.db, issue.id, { updated_at: at })
    },
  }
}

/** The notes and discussions family of issues. */
export const issueNoteableKind: NoteableKind = {
  parent: 'projects',
  segment: 'issues',
  param: 'issue_iid',
  find(caller, project, key) {
    const issue = findIssueByIid(caller.db, project.id, key)
    const assignees = issue ? (assigneeIdsOf(caller.db, [issue.id]).get(issue.id) ?? []) : []
    if (!issue || !canUserReadIssue(caller.perms, project, issue, assignees)) throw notFound('Issue')
    return issueNoteable(caller, project, issue)
  },
}

/** Issues as references: `#5` in their project, `project#5` or `group/project#5` elsewhere. */
export const issueReferences: ReferenceFamily = {
  type: 'Issue',
  sigil: '#',
  scope: 'project',
  find(db, projectId, iid, reader) {
    const project = findProjectById(db, projectId) as ProjectRow
    const issue = findIssueByIid(db, projectId, iid)
    if (!issue || !canUserReadIssue(reader, project, issue, assigneeIdsOf(db, [issue.id]).get(issue.id) ?? []))
      return null
    return issueTarget(issue)
  },
  target(db, id) {
    const issue = findIssueById(db, id)
    return issue ? issueTarget(issue) : undefined
  },
  noun: (db, id) => issueNoun((findIssueById(db, id) as IssueRow).issue_type),
  touch(db, id, at) {
    updateIssueRow(db, id, { updated_at: at })
  },
  metadata(db, id) {
    const issue = findIssueById(db, id) as IssueRow
    return { labels: (labelsOf(db, [id]).get(id) ?? []).map((l) => l.title), milestoneId: issue.milestone_id }
  },
}
