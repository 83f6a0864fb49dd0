/** Merge requests as the merge request side of issues (issues/extensions.ts), which modules/index.ts registers at startup. */
import type { IssueMergeRequests } from '../issues'
import { closingMergeRequestCounts, mergeRequestsReferencingIssue } from './service'

/** The merge requests that close or mention an issue. */
export const issueMergeRequestsSide: IssueMergeRequests = {
  closingCounts: closingMergeRequestCounts,
  referencing: mergeRequestsReferencingIssue,
}
