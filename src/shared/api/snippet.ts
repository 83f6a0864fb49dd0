/**
 * Project snippets. Snippets keep one file in the row, so `files` has that one entry and the clone
 * URLs are null until snippets are repository-backed.
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable, Timestamp, Visibility } from './common'
import { UserRef } from './user'

/** GitLab's ProjectSnippet entity. */
export const Snippet = Entity({
  id: Type.Integer(),
  title: Type.String(),
  description: Nullable(Type.String()),
  visibility: Visibility,
  author: UserRef,
  created_at: Timestamp,
  updated_at: Timestamp,
  project_id: Nullable(Type.Integer()),
  web_url: Type.String(),
  raw_url: Type.String(),
  ssh_url_to_repo: Nullable(Type.String()),
  http_url_to_repo: Nullable(Type.String()),
  file_name: Type.String(),
  files: Type.Array(Entity({ path: Type.String(), raw_url: Type.String() })),
  imported: Type.Boolean(),
  imported_from: Type.String(),
})
export type Snippet = Static<typeof Snippet>
