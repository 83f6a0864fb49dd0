/**
 * The merge requests module's public face for other modules: draft notes (a review), search, to-dos,
 * milestones, the merge requests of a commit.
 */
export { mergeRequestsOfCommit } from './by-commit'
export { mergeRequestNoteable } from './noteable'
export { canReadMergeRequestsWith } from './policy'
export {
  clearMergeRequestsMilestone,
  findMergeRequestById,
  findMergeRequestByIid,
  listMergeRequests,
  moveMergeRequestsToMilestone,
  setReviewState,
  sourceProjectOf,
  type MergeRequestFilter,
  type MergeRequestRow,
  type ReviewState,
} from './queries'
export { closeForkCrossings, milestoneMergeRequests, presentMergeRequests } from './service'
