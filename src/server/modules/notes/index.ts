/**
 * The notes module's public face: the noteable and reference family registries other modules
 * fill, the Noteable they describe, and the system notes items record about themselves.
 */
export {
  noteableKinds,
  referenceFamily,
  registerNoteableKind,
  registerReferenceFamily,
  type NoteableKind,
  type ReferenceFamily,
} from './families'
export {
  createNote,
  projectWebUrl,
  raiseReviewMentionTodos,
  readableDiscussion,
  settleQuickActions,
  settleRepliedThread,
  type CreateNoteResult,
  type Noteable,
  type QuickActionSet,
} from './service'
export { assertCanComment } from './policy'
export { PositionError, parseTextPosition, positionInput, type TextPosition } from './diff-position'
export { noteEntity } from './entity'
export type { NoteRow } from './queries'
export {
  addSystemNote,
  contextOf,
  EMPTY_SNAPSHOT,
  epicTarget,
  finishNotesCopy,
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
