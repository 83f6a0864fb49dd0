import { signedInUser, type Caller } from '../../platform/caller'
import type { ProjectRow } from '../../platform/db/rows'
import { badRequest, notFound, validationFailed } from '../../platform/http/errors'
import { checkNoteLength } from '../../platform/text/limits'
import {
  canReadMergeRequestsWith,
  findMergeRequestByIid,
  mergeRequestNoteable,
  setReviewState,
  type MergeRequestRow,
} from '../merge-requests'
import {
  createNote,
  raiseReviewMentionTodos,
  recordSuggestions,
  readableDiscussion,
  settleQuickActions,
  settleRepliedThread,
  type CheckedPosition,
  type CreateNoteResult,
  type Noteable,
  type NoteRow,
  type TextPosition,
} from '../notes'
import { assertMayReview } from './policy'
import {
  deleteDraftNotes,
  findDraftNote,
  insertDraftNote,
  listDraftNotes,
  updateDraftNote,
  type DraftNoteRow,
} from './queries'

/** The merge request a review is written on, with the noteable its published notes attach to. */
export interface ReviewTarget {
  readonly project: ProjectRow
  readonly mergeRequest: MergeRequestRow
  readonly noteable: Noteable
}

/** What a new draft says and where it goes. */
export interface DraftNoteInput {
  readonly note: string
  /** The thread the draft replies to; absent for a draft that starts one. */
  readonly inReplyToDiscussionId?: string
  readonly resolveDiscussion?: boolean
  readonly commitId?: string
  readonly position?: TextPosition
}

/** GitLab's answer to a reply whose thread is gone or cannot be replied to. */
const THREAD_NOT_FOUND = { base: ['Thread to reply to cannot be found'] }

/**
 * The merge request `iid` of the project a review is written on: 401 for an anonymous caller (the
 * Draft Notes API authenticates first), 404 when missing or unreadable.
 */
export function reviewTarget(caller: Caller, project: ProjectRow, iid: number): ReviewTarget {
  signedInUser(caller)
  const mergeRequest = findMergeRequestByIid(caller.db, project.id, iid)
  if (!mergeRequest || !canReadMergeRequestsWith(caller.perms, project)) throw notFound('Merge Request')
  return { project, mergeRequest, noteable: mergeRequestNoteable(caller, project, mergeRequest) }
}

/** The caller's own drafts on the merge request, oldest first (nobody sees another's, administrators included). */
export function draftNotesOf(caller: Caller, target: ReviewTarget): DraftNoteRow[] {
  return listDraftNotes(caller.db, target.mergeRequest.id, signedInUser(caller).id)
}

/** One of the caller's drafts, or 404 `Draft Note Not Found` (another user's draft included). */
export function loadDraftNote(caller: Caller, target: ReviewTarget, id: number): DraftNoteRow {
  const draft = findDraftNote(caller.db, target.mergeRequest.id, signedInUser(caller).id, id)
  if (!draft) throw notFound('Draft Note')
  return draft
}

function checkDraftText(note: string): void {
  if (note.trim() === '') throw validationFailed({ note: ["can't be blank"] })
  checkNoteLength(note)
}

/**
 * A line draft's position checked against the merge request's diff versions, or with `commitId`
 * against that commit of it, as a diff thread's is (400 with GitLab's message when it names no
 * line of them).
 */
async function checkedPosition(
  caller: Caller,
  target: ReviewTarget,
  position: TextPosition,
  commitId: string | null,
): Promise<CheckedPosition> {
  if (!target.noteable.checkDiffPosition) throw badRequest('position is not supported here')
  return target.noteable.checkDiffPosition(caller, position, commitId ?? undefined)
}

/** A draft's commit: GitLab's web client sent the string 'undefined' for none, and the API still reads it so. */
function draftCommitId(commitId: string | undefined): string | null {
  return commitId === undefined || commitId === 'undefined' ? null : commitId
}

/** The thread a reply goes to, as the caller sees it; 400 when it is gone or a system note's. */
function threadToReply(caller: Caller, target: ReviewTarget, discussionId: string): readonly NoteRow[] {
  const thread = readableDiscussion(caller, target.noteable, discussionId)
  if (thread.length === 0 || thread[0].system === 1) throw validationFailed(THREAD_NOT_FOUND)
  return thread
}

/**
 * Writes a draft: a comment that starts a thread, on a line of the diff when it has a position
 * (checked now, and again when published), or a reply to one (which may resolve it once published).
 */
export async function createDraftNote(
  caller: Caller,
  target: ReviewTarget,
  input: DraftNoteInput,
): Promise<DraftNoteRow> {
  const user = assertMayReview(caller, target.noteable)
  checkDraftText(input.note)
  const commitId = draftCommitId(input.commitId)
  const checked = input.position ? await checkedPosition(caller, target, input.position, commitId) : undefined
  const discussionId =
    input.inReplyToDiscussionId === undefined
      ? null
      : threadToReply(caller, target, input.inReplyToDiscussionId)[0].discussion_id
  const db = caller.db
  return db.transaction(() => {
    // A reviewer who writes a draft has started their review (GitLab's review_started).
    setReviewState(db, target.mergeRequest.id, user.id, 'review_started')
    return insertDraftNote(db, {
      mergeRequestId: target.mergeRequest.id,
      authorId: user.id,
      note: input.note,
      discussionId,
      resolveDiscussion: input.resolveDiscussion === true,
      commitId,
      position: checked ? JSON.stringify(checked.position) : null,
      lineCode: checked?.lineCode ?? null,
      now: caller.clock().toISOString(),
    })
  })()
}

/**
 * Rewrites a draft's text, and its position when one is given (checked as at creation). Without
 * one a line draft keeps its line: GitLab would drop it, turning the draft into a general comment.
 */
export async function editDraftNote(
  caller: Caller,
  target: ReviewTarget,
  draft: DraftNoteRow,
  change: { readonly note: string; readonly position?: TextPosition },
): Promise<DraftNoteRow> {
  assertMayReview(caller, target.noteable)
  checkDraftText(change.note)
  const checked = change.position ? await checkedPosition(caller, target, change.position, draft.commit_id) : undefined
  const anchor = checked
    ? { position: JSON.stringify(checked.position), lineCode: checked.lineCode }
    : { position: draft.position, lineCode: draft.line_code }
  return updateDraftNote(caller.db, draft.id, change.note, anchor, caller.clock().toISOString())
}

/** Discards a draft. */
export function discardDraftNote(caller: Caller, draft: DraftNoteRow): void {
  deleteDraftNotes(caller.db, [draft.id])
}

/** Publishes one draft as a note: a new thread (on its line when checked), or a reply that resolves or reopens its thread. */
function publishDraft(
  caller: Caller,
  target: ReviewTarget,
  draft: DraftNoteRow,
  checked: CheckedPosition | undefined,
): CreateNoteResult {
  if (draft.discussion_id === null) {
    const diff = checked && {
      position: JSON.stringify(checked.position),
      lineCode: checked.lineCode,
      commitId: draft.commit_id,
    }
    return createNote(caller, target.noteable, draft.note, { thread: true, mentionTodos: false, diff })
  }
  const thread = threadToReply(caller, target, draft.discussion_id)
  const result = createNote(caller, target.noteable, draft.note, { replyTo: thread, mentionTodos: false })
  if (result.kind === 'note')
    settleRepliedThread(caller, target.noteable, draft.discussion_id, draft.resolve_discussion === 1)
  return result
}

/**
 * The line drafts' positions checked again against the merge request's diff versions (it may have
 * changed since they were written), before anything is published: git work cannot run inside
 * the one transaction that publishes the review.
 */
async function checkedPositions(
  caller: Caller,
  target: ReviewTarget,
  drafts: readonly DraftNoteRow[],
): Promise<Map<number, CheckedPosition>> {
  const checked = new Map<number, CheckedPosition>()
  for (const draft of drafts)
    if (draft.position !== null && draft.discussion_id === null)
      checked.set(
        draft.id,
        await checkedPosition(caller, target, JSON.parse(draft.position) as TextPosition, draft.commit_id),
      )
  return checked
}

/**
 * What a review submission may add to its drafts (GitLab 19.2's bulk_publish): a summary comment,
 * posted after them, and the reviewer's verdict instead of `reviewed`.
 */
export interface ReviewSubmission {
  readonly summary?: { readonly note: string; readonly internal: boolean }
  readonly reviewerState?: 'reviewed' | 'requested_changes'
}

/**
 * Submits a review (GitLab's draft publish): the drafts become notes in the order they were
 * written, then the summary if any; their mentions raise one batch of to-dos; a reviewer's state
 * becomes `reviewed` or the verdict given (their to-dos on the merge request are done, as
 * commenting does); the drafts are deleted. All in one transaction, so a refusal (a thread gone, a
 * discussion locked meanwhile) publishes nothing. Nothing to publish and nothing to say does nothing.
 * Repository work the notes' quick actions left (`/merge`) runs afterwards, in order.
 */
export async function publishDraftNotes(
  caller: Caller,
  target: ReviewTarget,
  drafts: readonly DraftNoteRow[],
  submission: ReviewSubmission = {},
): Promise<void> {
  const user = assertMayReview(caller, target.noteable)
  const { summary, reviewerState } = submission
  if (drafts.length === 0 && !summary && !reviewerState) return
  if (summary) checkDraftText(summary.note)
  const positions = await checkedPositions(caller, target, drafts)
  const results = caller.db.transaction(() => {
    const published = drafts.map((draft) => publishDraft(caller, target, draft, positions.get(draft.id)))
    if (summary)
      published.push(
        createNote(caller, target.noteable, summary.note, { internal: summary.internal, mentionTodos: false }),
      )
    const notes = published.flatMap((r) => (r.kind === 'note' ? [r.note] : []))
    raiseReviewMentionTodos(caller, target.noteable, notes, user)
    setReviewState(caller.db, target.mergeRequest.id, user.id, reviewerState ?? 'reviewed')
    deleteDraftNotes(
      caller.db,
      drafts.map((d) => d.id),
    )
    return published
  })()
  for (const result of results) {
    await settleQuickActions(result)
    if (result.kind === 'note') await recordSuggestions(caller, result.note)
  }
}
