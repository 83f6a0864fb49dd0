/** Project snippets as a noteable family: comments and threads, no quick actions or to-dos. */
import type { Caller } from '../../platform/caller'
import type { ProjectRow } from '../../platform/db/rows'
import { notFound } from '../../platform/http/errors'
import type { NoteableKind } from '../notes'
import { projectWebUrl, type Noteable } from '../notes'
import { findSnippetById, touchSnippet, type SnippetRow } from './queries'
import { projectSnippetWebUrl } from './entity'
import { canReadSnippet } from './policy'

/** A project snippet as a noteable. */
export function snippetNoteable(caller: Caller, project: ProjectRow, snippet: SnippetRow): Noteable {
  return {
    type: 'Snippet',
    id: snippet.id,
    iid: null,
    container: { kind: 'project', project },
    title: snippet.title,
    webUrl: projectSnippetWebUrl(projectWebUrl(caller, project), snippet.id),
    discussionLocked: false,
    todoTarget: false,
    canRead: (perms) => canReadSnippet(perms, project, snippet),
    touch: (caller, at) => touchSnippet(caller.db, snippet.id, at),
  }
}

/** The notes and discussions family of project snippets. */
export const snippetNoteableKind: NoteableKind = {
  parent: 'projects',
  segment: 'snippets',
  param: 'snippet_id',
  find(caller, project, key) {
    const snippet = findSnippetById(caller.db, key)
    if (!snippet || snippet.project_id !== project.id || !canReadSnippet(caller.perms, project, snippet))
      throw notFound('Snippet')
    return snippetNoteable(caller, project, snippet)
  },
}
