import type { Snippet } from '../../../shared/api/snippet'
import type { Caller } from '../../platform/caller'
import { findProjectWithNamespace } from '../../platform/db/platform-queries'
import type { UserRow } from '../../platform/db/rows'
import { usersByIds } from '../users'
import { snippetEntity } from './entity'
import type { SnippetRow } from './queries'

/**
 * Serialises project snippets (of one project or several), each with its project's web URL, the
 * authors loaded in one query.
 */
export function presentSnippets(caller: Caller, rows: readonly SnippetRow[]): Snippet[] {
  const authors = usersByIds(
    caller.db,
    rows.map((r) => r.author_id),
  )
  const projectWebUrls = new Map<number, string>()
  const projectWebUrl = (projectId: number): string => {
    let url = projectWebUrls.get(projectId)
    if (url === undefined) {
      const full = findProjectWithNamespace(caller.db, projectId)
      url = `${caller.baseUrl}/${full?.ns_full_path}/${full?.path}`
      projectWebUrls.set(projectId, url)
    }
    return url
  }
  return rows.flatMap((r) =>
    r.project_id === null
      ? []
      : [snippetEntity(r, authors.get(r.author_id) as UserRow, projectWebUrl(r.project_id), caller.baseUrl)],
  )
}
