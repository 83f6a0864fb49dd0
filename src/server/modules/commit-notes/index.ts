/**
 * The commit notes module's public face: commits as a noteable family (their discussions routes
 * are the notes module's), their read rule for other lists, and the noteable ids of commits (for
 * the merge requests whose discussions show their comments).
 */
export { commitNoteableKind } from './service'
export { commitNotesReadable } from './readable'
export { commitNoteableIdsOf, hasCommitNoteables } from './queries'
