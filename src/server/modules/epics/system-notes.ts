import type { Db } from '../../platform/db/connection'
import {
  addSystemNote,
  contextOf,
  EMPTY_SNAPSHOT,
  epicTarget,
  issueTarget,
  referenceOf,
  type IssuableSnapshot,
} from '../notes'
import type { IssueRow } from '../issues'
import { epicLabelsOf, findEpicById, type EpicRow } from './queries'

/** An epic as the system notes compare it. */
export function epicSnapshot(db: Db, epicId: number): IssuableSnapshot {
  const epic = findEpicById(db, epicId) as EpicRow
  return {
    ...EMPTY_SNAPSHOT,
    title: epic.title,
    description: epic.description,
    state: epic.state,
    confidential: epic.confidential === 1,
    labelIds: (epicLabelsOf(db, [epic.id]).get(epic.id) ?? []).map((l) => l.id),
    startDateFixed: epic.start_date_fixed,
    dueDateFixed: epic.due_date_fixed,
    parentId: epic.parent_id,
  }
}

/**
 * An issue joining, leaving or changing epics: notes on the epics (`added issue …`, `removed
 * issue …`, `moved issue … to epic …`) and on the issue (`added to epic &1`, `changed epic to &2`).
 */
export function noteEpicIssue(
  db: Db,
  issue: Pick<IssueRow, 'id' | 'iid' | 'project_id'>,
  actorId: number,
  fromEpicId: number | null,
  toEpicId: number | null,
): void {
  if (fromEpicId === toEpicId) return
  const i = issueTarget(issue)
  const from = fromEpicId !== null ? epicTarget(findEpicById(db, fromEpicId) as EpicRow) : null
  const to = toEpicId !== null ? epicTarget(findEpicById(db, toEpicId) as EpicRow) : null
  if (from && to) {
    addSystemNote(
      db,
      to,
      actorId,
      `added issue ${referenceOf(db, i, contextOf(to))} from epic ${referenceOf(db, from, contextOf(to))}`,
      'epic_issue_moved',
      { ref: i },
    )
    addSystemNote(
      db,
      from,
      actorId,
      `moved issue ${referenceOf(db, i, contextOf(from))} to epic ${referenceOf(db, to, contextOf(from))}`,
      'epic_issue_moved',
      { ref: i },
    )
    addSystemNote(db, i, actorId, `changed epic to ${referenceOf(db, to, contextOf(i))}`, 'issue_changed_epic', {
      ref: to,
    })
  } else if (to) {
    addSystemNote(db, to, actorId, `added issue ${referenceOf(db, i, contextOf(to))}`, 'epic_issue_added', { ref: i })
    addSystemNote(db, i, actorId, `added to epic ${referenceOf(db, to, contextOf(i))}`, 'issue_added_to_epic', {
      ref: to,
    })
  } else if (from) {
    addSystemNote(db, from, actorId, `removed issue ${referenceOf(db, i, contextOf(from))}`, 'epic_issue_removed', {
      ref: i,
    })
    addSystemNote(
      db,
      i,
      actorId,
      `removed from epic ${referenceOf(db, from, contextOf(i))}`,
      'issue_removed_from_epic',
      { ref: from },
    )
  }
}
