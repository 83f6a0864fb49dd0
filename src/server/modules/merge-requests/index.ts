/** The merge requests module's public face, for the modules that work on a merge request (draft notes). */
export { mergeRequestNoteable } from './noteable'
export { canReadMergeRequestsWith } from './policy'
export { findMergeRequestByIid, type MergeRequestRow } from './queries'
