/**
 * Repository storage moves of projects, snippets and groups (administrators).
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable, Timestamp } from './common'
import { ProjectRef } from './project'
import { UserRef } from './user'

const moveFields = {
  id: Type.Integer(),
  created_at: Timestamp,
  /** GitLab's human state name: `initial`, `scheduled`, `started`, `replicated`, `finished`, `failed`, `cleanup failed`. */
  state: Type.String(),
  source_storage_name: Type.String(),
  destination_storage_name: Type.String(),
  /** Why the move failed or its cleanup did; null otherwise. */
  error_message: Nullable(Type.String()),
}

/** GitLab's Projects::RepositoryStorageMove: the project moved (null once deleted). */
export const ProjectStorageMove = Entity({ ...moveFields, project: Nullable(ProjectRef) })
export type ProjectStorageMove = Static<typeof ProjectStorageMove>

/** The snippet a storage move moves (GitLab's BasicSnippet). */
export const MovedSnippet = Entity({
  id: Type.Integer(),
  title: Type.String(),
  description: Nullable(Type.String()),
  visibility: Type.String(),
  /** Null once the author's account is gone. */
  author: Nullable(UserRef),
  updated_at: Timestamp,
  created_at: Timestamp,
  project_id: Nullable(Type.Integer()),
  web_url: Type.String(),
  raw_url: Type.String(),
  ssh_url_to_repo: Nullable(Type.String()),
  http_url_to_repo: Nullable(Type.String()),
})

/** GitLab's Snippets::RepositoryStorageMove. */
export const SnippetStorageMove = Entity({ ...moveFields, snippet: Nullable(MovedSnippet) })
export type SnippetStorageMove = Static<typeof SnippetStorageMove>

/** GitLab's Groups::RepositoryStorageMove: the group's id, name and page. */
export const GroupStorageMove = Entity({
  ...moveFields,
  group: Nullable(Entity({ id: Type.Integer(), web_url: Type.String(), name: Type.String() })),
})
export type GroupStorageMove = Static<typeof GroupStorageMove>
