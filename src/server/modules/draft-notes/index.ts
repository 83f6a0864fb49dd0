/**
 * The draft notes module's public face: its routes are registered by modules/index.ts, and nothing
 * else reads a review's drafts (they are private to their author until published as notes).
 */
export { draftNotesOf, publishDraftNotes, reviewTarget, type ReviewTarget } from './service'
