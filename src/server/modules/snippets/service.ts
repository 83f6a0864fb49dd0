import type { FastifyRequest } from 'fastify'
import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import type { ProjectRow, Visibility } from '../../platform/db/rows'
import { deleteSnippetRow, insertSnippet, updateSnippetRow, type SnippetChanges, type SnippetRow } from './queries'
import { projectSettings } from '../projects/entity'
import { assertSnippetRepositoryWritable } from '../storage-moves/service'
import { checkLengths, TEXT_LIMITS } from '../../platform/text/limits'

/** The project's snippets feature level: 'enabled' (everyone who sees the project), 'private' (members), 'disabled'. */
export function snippetsFeature(project: ProjectRow): string {
  return String(projectSettings(project.settings).snippets_access_level ?? 'enabled')
}

/** Whether the caller may see the project's snippets at all (the feature's access level). */
export function canReadProjectSnippets(perms: Permissions, project: ProjectRow): boolean {
  if (!perms.canReadProject(project)) return false
  const feature = snippetsFeature(project)
  if (feature === 'disabled') return false
  if (feature === 'private') return perms.canInProject(project, AccessLevel.GUEST)
  return true
}

/** Snippet visibility levels the caller may read in a project whose snippets they can see. */
export function readableSnippetVisibilities(perms: Permissions, project: ProjectRow): Visibility[] {
  if (perms.canInProject(project, AccessLevel.GUEST)) return ['private', 'internal', 'public']
  if (perms.user && perms.user.external === 0) return ['internal', 'public']
  return ['public']
}

/** Snippet read rule: the feature is readable and the snippet's visibility admits the caller (authors always). */
export function canReadSnippet(perms: Permissions, project: ProjectRow, snippet: SnippetRow): boolean {
  if (!canReadProjectSnippets(perms, project)) return false
  if (perms.user && perms.user.id === snippet.author_id) return true
  return readableSnippetVisibilities(perms, project).includes(snippet.visibility)
}

/** Creating project snippets is a Reporter right (GitLab's create_snippet). */
export function canCreateSnippet(perms: Permissions, project: ProjectRow): boolean {
  return canReadProjectSnippets(perms, project) && perms.canInProject(project, AccessLevel.REPORTER)
}

/** Editing or deleting: the author while still a Reporter, or a Maintainer, or an administrator. */
export function canAdminSnippet(perms: Permissions, project: ProjectRow, snippet: SnippetRow): boolean {
  if (perms.canInProject(project, AccessLevel.MAINTAINER)) return true
  return perms.user?.id === snippet.author_id && perms.canInProject(project, AccessLevel.REPORTER)
}

export interface SnippetInput {
  readonly title: string
  readonly description: string | null
  readonly fileName: string
  readonly content: string
  readonly visibility: Visibility
}

/** Creates a project snippet authored by the caller; 400 for a title or description over GitLab's limits. */
export function createProjectSnippet(
  request: FastifyRequest,
  project: ProjectRow,
  authorId: number,
  input: SnippetInput,
): SnippetRow {
  checkLengths(input, TEXT_LIMITS.snippet)
  return insertSnippet(request.server.burrow.db, { projectId: project.id, authorId, ...input })
}

/** Updates a snippet's title, description, file, content or visibility; 400 for a title or description over GitLab's limits. */
export function updateSnippet(request: FastifyRequest, snippet: SnippetRow, changes: SnippetChanges): SnippetRow {
  checkLengths(changes, TEXT_LIMITS.snippet)
  if (changes.content !== undefined || changes.file_name !== undefined)
    assertSnippetRepositoryWritable(request.server.burrow.db, snippet.id)
  return updateSnippetRow(request.server.burrow.db, snippet.id, changes)
}

/** Deletes a snippet with its notes. */
export function destroySnippet(request: FastifyRequest, snippet: SnippetRow): void {
  deleteSnippetRow(request.server.burrow.db, snippet.id)
}
