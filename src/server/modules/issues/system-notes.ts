import type { Db } from '../../platform/db/connection'
import { addSystemNote, contextOf, EMPTY_SNAPSHOT, issueTarget, referenceOf, type IssuableSnapshot } from '../notes'
import { assigneeIdsOf, findIssueById, labelsOf, type IssueRow } from './queries'

/** An issue as the system notes compare it. */
export function issueSnapshot(db: Db, issueId: number): IssuableSnapshot {
  const issue = findIssueById(db, issueId) as IssueRow
  return {
    ...EMPTY_SNAPSHOT,
    title: issue.title,
    description: issue.description,
    state: issue.state,
    confidential: issue.confidential === 1,
    discussionLocked: issue.discussion_locked === 1,
    labelIds: (labelsOf(db, [issue.id]).get(issue.id) ?? []).map((l) => l.id),
    milestoneId: issue.milestone_id,
    dueDate: issue.due_date,
    weight: issue.weight,
    issueType: issue.issue_type,
    assigneeIds: assigneeIdsOf(db, [issue.id]).get(issue.id) ?? [],
  }
}

/** `moved to …` / `moved from …` (or `cloned …`) on an issue and its copy. */
export function noteIssueCopied(
  db: Db,
  original: IssueRow,
  copy: IssueRow,
  actorId: number,
  mode: 'moved' | 'cloned',
): void {
  const from = issueTarget(original)
  const to = issueTarget(copy)
  addSystemNote(db, from, actorId, `${mode} to ${referenceOf(db, to, contextOf(from))}`, mode, { ref: to })
  addSystemNote(db, to, actorId, `${mode} from ${referenceOf(db, from, contextOf(to))}`, mode, { ref: from })
}
