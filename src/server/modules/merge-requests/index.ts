/** The merge requests module's public face, for the modules that work on a merge request (draft notes: a review). */
export { mergeRequestNoteable } from './noteable'
export { canReadMergeRequestsWith } from './policy'
export { findMergeRequestByIid, setReviewState, type MergeRequestRow, type ReviewState } from './queries'
