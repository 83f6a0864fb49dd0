import type { Db } from '../../platform/db/connection'
import { addSystemNote, EMPTY_SNAPSHOT, mergeRequestTarget, type IssuableSnapshot } from '../notes'
import { findMergeRequestById, labelsOf, userLinksOf, type MergeRequestRow } from './queries'

/** A merge request as the system notes compare it. */
export function mergeRequestSnapshot(db: Db, mrId: number): IssuableSnapshot {
  const mr = findMergeRequestById(db, mrId) as MergeRequestRow
  return {
    ...EMPTY_SNAPSHOT,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    discussionLocked: mr.discussion_locked === 1,
    labelIds: (labelsOf(db, [mr.id]).get(mr.id) ?? []).map((l) => l.id),
    milestoneId: mr.milestone_id,
    assigneeIds: (userLinksOf(db, 'merge_request_assignees', [mr.id]).get(mr.id) ?? []).map((u) => u.id),
    reviewerIds: (userLinksOf(db, 'merge_request_reviewers', [mr.id]).get(mr.id) ?? []).map((u) => u.id),
    targetBranch: mr.target_branch,
  }
}

/** `approved this merge request` / `unapproved this merge request`. */
export function noteApproval(
  db: Db,
  mr: Pick<MergeRequestRow, 'id' | 'iid' | 'project_id'>,
  actorId: number,
  approved: boolean,
): void {
  addSystemNote(
    db,
    mergeRequestTarget(mr),
    actorId,
    approved ? 'approved this merge request' : 'unapproved this merge request',
    approved ? 'approved' : 'unapproved',
  )
}

/** Automatic merge set up for a head, or cancelled. */
export function noteAutoMerge(
  db: Db,
  mr: Pick<MergeRequestRow, 'id' | 'iid' | 'project_id'>,
  actorId: number,
  sha: string | null,
): void {
  addSystemNote(
    db,
    mergeRequestTarget(mr),
    actorId,
    sha !== null ? `enabled an automatic merge when the pipeline for ${sha} succeeds` : 'canceled the automatic merge',
    'merge',
  )
}
