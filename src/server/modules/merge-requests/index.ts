/** The merge requests module's public face for other modules: draft notes (a review), search. */
export { mergeRequestNoteable } from './noteable'
export { canReadMergeRequestsWith } from './policy'
export {
  findMergeRequestByIid,
  listMergeRequests,
  setReviewState,
  type MergeRequestFilter,
  type MergeRequestRow,
  type ReviewState,
} from './queries'
export { presentMergeRequests } from './service'
