import type { FastifyRequest } from 'fastify'
import type { ProjectRow } from '../db/rows'
import { findSnippetById, type SnippetRow } from '../db/snippets'
import { findProjectWithNamespace } from '../db/projects'
import { projectSnippetWebUrl } from '../entities/snippet'
import { notFound } from '../http/errors'
import type { Noteable } from './notes'
import { canReadSnippet } from './snippets'

/**
 * One family of noteables under `/projects/:id/<segment>/:<param>`: how to find the one named in
 * the URL (404 when missing or unreadable). Issues and merge requests register here as they land.
 */
export interface NoteableKind {
  readonly segment: 'issues' | 'merge_requests' | 'snippets'
  readonly param: 'issue_iid' | 'merge_request_iid' | 'snippet_id'
  load(request: FastifyRequest, project: ProjectRow, key: number): Noteable
}

/** `${base}/${namespace full path}/${project path}` */
export function projectWebUrlOf(request: FastifyRequest, project: ProjectRow): string {
  const p = findProjectWithNamespace(request.server.burrow.db, project.id)
  return `${request.server.burrow.baseUrl(request)}/${p?.ns_full_path}/${project.path}`
}

/** A project snippet as a noteable. */
export function snippetNoteable(request: FastifyRequest, project: ProjectRow, snippet: SnippetRow): Noteable {
  return {
    type: 'Snippet',
    id: snippet.id,
    iid: null,
    project,
    title: snippet.title,
    webUrl: projectSnippetWebUrl(projectWebUrlOf(request, project), snippet.id),
    discussionLocked: false,
    todoTarget: false,
    canRead: (perms) => canReadSnippet(perms, project, snippet),
    touch: (req, at) => {
      req.server.burrow.db.prepare('UPDATE snippets SET updated_at = ? WHERE id = ?').run(at, snippet.id)
    },
  }
}

const snippetKind: NoteableKind = {
  segment: 'snippets',
  param: 'snippet_id',
  load(request, project, key) {
    const snippet = findSnippetById(request.server.burrow.db, key)
    if (!snippet || snippet.project_id !== project.id || !canReadSnippet(request.perms, project, snippet)) throw notFound('Snippet')
    return snippetNoteable(request, project, snippet)
  },
}

/** Every noteable family with notes and discussions routes. */
export const noteableKinds: readonly NoteableKind[] = [snippetKind]
