import type { ReadableFamily } from '../../platform/auth/readable'
import { canReadSnippet } from './policy'
import { findSnippetById } from './queries'

/** Snippets' read rule for other lists (registered at startup). */
export const snippetsReadable: ReadableFamily = {
  items: {
    Snippet: (items, id) => {
      const snippet = findSnippetById(items.db, id)
      const project = snippet?.project_id != null ? items.projectRow(snippet.project_id) : undefined
      return snippet !== undefined && project !== undefined && canReadSnippet(items.perms, project, snippet)
    },
  },
}
