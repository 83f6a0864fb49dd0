import type { ReadableFamily } from '../../platform/auth/readable'
import { findCommitNoteableById } from './queries'

/**
 * Commits' read rule for other lists (activity events, search, notes' noteables): a commit is
 * readable with its project's code.
 */
export const commitNotesReadable: ReadableFamily = {
  items: {
    Commit: (items, id) => {
      const commit = findCommitNoteableById(items.db, id)
      return commit !== undefined && items.feature('code', commit.project_id)
    },
  },
}
