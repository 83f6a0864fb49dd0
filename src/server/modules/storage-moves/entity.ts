import type { GroupStorageMove, ProjectStorageMove, SnippetStorageMove } from '../../../shared/api/storage-move'
import { projectRef } from '../projects'
import { userRefOrNull } from '../users'
import type { UserRow } from '../../platform/db/rows'
import type { MovedGroupRow, MovedProjectRow, MovedSnippetRow, StorageMoveRow, StorageMoveState } from './queries'

/** What a move shows of its snippet: the snippet and its author (undefined once the account is gone). */
export interface MovedSnippet extends MovedSnippetRow {
  readonly author: UserRow | undefined
}

/** GitLab's `human_state_name`: `cleanup_failed` reads `cleanup failed`. */
export function humanMoveState(state: StorageMoveState): string {
  return state.replace('_', ' ')
}

// Each kind writes the shared move fields (GitLab's RepositoryStorageMove entities show them all) out: spread from a
// helper at the head of a literal, they gave nearly every object V8 built a hidden class of its own, and a page of
// 1,000 moves took several times as long to serialize.

/** GitLab's Projects::RepositoryStorageMove entity: the move and its `project_ref` (null once deleted). */
export function projectMoveEntity(row: StorageMoveRow, project: MovedProjectRow | undefined): ProjectStorageMove {
  return {
    id: row.id,
    created_at: row.created_at,
    state: humanMoveState(row.state),
    source_storage_name: row.source_storage_name,
    destination_storage_name: row.destination_storage_name,
    error_message: row.error_message,
    project: project ? projectRef(project) : null,
  }
}

/** A moved snippet as GitLab's BasicSnippet shows it. */
function movedSnippet(snippet: MovedSnippet, baseUrl: string): NonNullable<SnippetStorageMove['snippet']> {
  const webUrl = snippet.project_full_path
    ? `${baseUrl}/${snippet.project_full_path}/-/snippets/${snippet.id}`
    : `${baseUrl}/-/snippets/${snippet.id}`
  return {
    id: snippet.id,
    title: snippet.title,
    description: snippet.description,
    visibility: snippet.visibility,
    author: userRefOrNull(snippet.author, baseUrl),
    updated_at: snippet.updated_at,
    created_at: snippet.created_at,
    project_id: snippet.project_id,
    web_url: webUrl,
    raw_url: `${webUrl}/raw`,
    // Snippets keep their content in the database: no repository to clone (see snippets/entity.ts).
    ssh_url_to_repo: null,
    http_url_to_repo: null,
  }
}

/** GitLab's Snippets::RepositoryStorageMove entity: the move and its BasicSnippet (null once deleted). */
export function snippetMoveEntity(
  row: StorageMoveRow,
  snippet: MovedSnippet | undefined,
  baseUrl: string,
): SnippetStorageMove {
  return {
    id: row.id,
    created_at: row.created_at,
    state: humanMoveState(row.state),
    source_storage_name: row.source_storage_name,
    destination_storage_name: row.destination_storage_name,
    error_message: row.error_message,
    snippet: snippet ? movedSnippet(snippet, baseUrl) : null,
  }
}

/** GitLab's Groups::RepositoryStorageMove entity: the move and the group's id, page and name (null once deleted). */
export function groupMoveEntity(
  row: StorageMoveRow,
  group: MovedGroupRow | undefined,
  baseUrl: string,
): GroupStorageMove {
  return {
    id: row.id,
    created_at: row.created_at,
    state: humanMoveState(row.state),
    source_storage_name: row.source_storage_name,
    destination_storage_name: row.destination_storage_name,
    error_message: row.error_message,
    group: group ? { id: group.id, web_url: `${baseUrl}/groups/${group.full_path}`, name: group.name } : null,
  }
}
