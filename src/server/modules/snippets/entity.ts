import type { Snippet } from '../../../shared/api/snippet'
import type { SnippetRow } from './queries'
import type { UserRow } from '../../platform/db/rows'
import { userRef } from '../users'

/** The page of a project snippet: `${project web_url}/-/snippets/${id}`. */
export function projectSnippetWebUrl(projectWebUrl: string, snippetId: number): string {
  return `${projectWebUrl}/-/snippets/${snippetId}`
}

/**
 * GitLab's ProjectSnippet entity. Snippets here keep one file in the row, so `files` has that one
 * entry and the repository clone URLs are null until snippets are repository-backed.
 */
export function snippetEntity(snippet: SnippetRow, author: UserRow, projectWebUrl: string, baseUrl: string): Snippet {
  const webUrl = projectSnippetWebUrl(projectWebUrl, snippet.id)
  return {
    id: snippet.id,
    title: snippet.title,
    description: snippet.description,
    visibility: snippet.visibility,
    author: userRef(author, baseUrl),
    created_at: snippet.created_at,
    updated_at: snippet.updated_at,
    project_id: snippet.project_id,
    web_url: webUrl,
    raw_url: `${webUrl}/raw`,
    ssh_url_to_repo: null,
    http_url_to_repo: null,
    file_name: snippet.file_name,
    files: snippet.file_name
      ? [{ path: snippet.file_name, raw_url: `${webUrl}/raw/main/${encodeURI(snippet.file_name)}` }]
      : [],
    imported: false,
    imported_from: 'none',
  }
}
