/**
 * The notes module's public face: the noteable and reference family registries other modules
 * fill, the Noteable they describe, diff threads (createDiffDiscussion, which draft notes publish
 * through), and the system notes items record about themselves.
 */
export {
  noteableKinds,
  referenceFamily,
  registerNoteableKind,
  registerRefNoteableKind,
  registerReferenceFamily,
  type NoteableKind,
  type RefNoteableKind,
  type ReferenceFamily,
} from './families'
export {
  createNote,
  projectWebUrl,
  raiseReviewMentionTodos,
  readableDiscussion,
  readableNotesPage,
  settleQuickActions,
  settleRepliedThread,
  type CreateNoteResult,
  type CheckedPosition,
  type Noteable,
  type QuickActionSet,
} from './service'
export { assertCanComment, canSeeInternalNotes } from './policy'
export { recordSuggestions, registerNoteSuggestions, type NoteSuggestions } from './suggestions'
export { loadNoteable, paramsSchema, type NoteableParams } from './noteable-routes'
export { PositionError, parseTextPosition, positionInput, type LineRangeEnd, type TextPosition } from './diff-position'
export { createDiffDiscussion, type DiffDiscussionInput } from './diff-notes'
export { BLANK_SHA, checkCommitPosition, checkPositionInFiles, POSITION_REFUSED } from './diff-check'
export { noteEntity } from './entity'
export { diffNotesOfMergeRequest, findNoteById, moveDiffNote, type NoteRow } from './queries'
export {
  addSystemNote,
  contextOf,
  copyNotes,
  EMPTY_SNAPSHOT,
  epicTarget,
  issueNoun,
  issueTarget,
  mergeRequestTarget,
  recordCreation,
  recordStateEvent,
  recordUpdate,
  referencedItems,
  referenceOf,
  type IssuableSnapshot,
  type SystemNoteTarget,
} from './system-notes'
export { insertNote, newDiscussionId } from './queries'
export { deleteNoteAwardsOf, deleteNoteEventsOf } from './queries'
// The seed gives a discussion its own reproducible id and replies into it.
export { discussionNotes, renameDiscussion } from './queries'
