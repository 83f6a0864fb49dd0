import type { ReadableFamily } from '../../platform/auth/readable'
import { findMergeRequestById } from './queries'
import { canReadMergeRequestsWith } from './policy'

/**
 * Merge requests' read rules for other lists: a merge request is readable with its project's merge
 * requests feature (registered at startup).
 */
export const mergeRequestsReadable: ReadableFamily = {
  items: {
    MergeRequest: (items, id) => {
      const mr = findMergeRequestById(items.db, id)
      return mr !== undefined && items.feature('merge_requests', mr.project_id)
    },
  },
  features: { merge_requests: canReadMergeRequestsWith },
  eventTargets: {
    MergeRequest: (items, e) => e.project_id === null || items.feature('merge_requests', e.project_id),
  },
  todoTargets: { MergeRequest: (items, t) => items.item('MergeRequest', t.target_id) },
}
