import type { ReadableFamily } from '../../platform/auth/readable'

/** A milestone's activity is readable through its project's issues or merge requests feature (registered at startup). */
export const milestonesReadable: ReadableFamily = {
  eventTargets: {
    Milestone: (items, e) =>
      e.project_id === null || items.feature('issues', e.project_id) || items.feature('merge_requests', e.project_id),
  },
}
