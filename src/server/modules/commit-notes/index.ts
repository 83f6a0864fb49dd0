/**
 * The commit notes module's public face: commits as a noteable family (their discussions routes
 * are the notes module's) and their read rule for other lists.
 */
export { commitNoteableKind } from './service'
export { commitNotesReadable } from './readable'
