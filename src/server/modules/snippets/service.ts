import type { Caller } from '../../platform/caller'
import type { ProjectRow, UserRow, Visibility } from '../../platform/db/rows'
import { forbidden, notFound } from '../../platform/http/errors'
import type { Page } from '../../platform/http/pagination'
import { checkLengths, TEXT_LIMITS } from '../../platform/text/limits'
import { assertSnippetRepositoryWritable } from '../storage-moves'
import { canAdminSnippet, canCreateSnippet, canReadSnippet, readableSnippetVisibilities } from './policy'
import {
  deleteSnippetRow,
  findSnippetById,
  insertSnippet,
  listProjectSnippets,
  updateSnippetRow,
  type SnippetChanges,
  type SnippetRow,
} from './queries'

/** One page of the project's snippets the caller may read, newest first, with the total count. */
export function snippetsPage(
  caller: Caller,
  project: ProjectRow,
  page: Page,
): { readonly rows: SnippetRow[]; readonly total: number } {
  const visibilities = readableSnippetVisibilities(caller.perms, project)
  return listProjectSnippets(caller.db, project.id, visibilities, caller.user?.id ?? null, page.perPage, page.offset)
}

/** The project's snippet with this id that the caller may read, or 404 `Snippet Not Found`. */
export function projectSnippetOf(caller: Caller, project: ProjectRow, snippetId: number): SnippetRow {
  const snippet = findSnippetById(caller.db, snippetId)
  if (!snippet || snippet.project_id !== project.id || !canReadSnippet(caller.perms, project, snippet))
    throw notFound('Snippet')
  return snippet
}

export interface SnippetInput {
  readonly title: string
  readonly description: string | null
  readonly fileName: string
  readonly content: string
  readonly visibility: Visibility
}

/** 403 unless the caller may create snippets in the project (a Reporter where the feature is open to them). */
export function requireSnippetCreator(caller: Caller, project: ProjectRow): UserRow {
  if (!caller.user || !canCreateSnippet(caller.perms, project)) throw forbidden()
  return caller.user
}

/**
 * Creates a project snippet authored by the caller: 403 as requireSnippetCreator, 400 for a title or
 * description over GitLab's limits.
 */
export function createProjectSnippet(caller: Caller, project: ProjectRow, input: SnippetInput): SnippetRow {
  const author = requireSnippetCreator(caller, project)
  checkLengths(input, TEXT_LIMITS.snippet)
  return insertSnippet(caller.db, { projectId: project.id, authorId: author.id, ...input })
}

/** 403 unless the caller may edit or delete the snippet (its author while a Reporter, or a Maintainer). */
export function requireSnippetAdmin(caller: Caller, project: ProjectRow, snippet: SnippetRow): void {
  if (!canAdminSnippet(caller.perms, project, snippet)) throw forbidden()
}

/** Updates a snippet's title, description, file, content or visibility; 400 for a title or description over GitLab's limits. */
export function updateSnippet(caller: Caller, snippet: SnippetRow, changes: SnippetChanges): SnippetRow {
  checkLengths(changes, TEXT_LIMITS.snippet)
  if (changes.content !== undefined || changes.file_name !== undefined)
    assertSnippetRepositoryWritable(caller.db, snippet.id)
  return updateSnippetRow(caller.db, snippet.id, changes)
}

/** Deletes a snippet with its notes. */
export function destroySnippet(caller: Caller, snippet: SnippetRow): void {
  deleteSnippetRow(caller.db, snippet.id)
}
