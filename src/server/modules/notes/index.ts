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
export { projectWebUrl, type Noteable, type QuickActionSet } from './service'
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
