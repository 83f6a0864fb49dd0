import type { Caller } from '../../platform/caller'
import type { UserRow } from '../../platform/db/rows'
import { assertCanComment, type Noteable } from '../notes'

/**
 * Writing, editing and publishing drafts takes what commenting on the merge request takes
 * (GitLab's create_note: a reader who is signed in, a member when the discussion is locked).
 * Reading them needs no more than reading the merge request: each author only ever sees their own.
 */
export function assertMayReview(caller: Caller, mergeRequest: Noteable): UserRow {
  return assertCanComment(caller, mergeRequest)
}
