import type { NamespaceRow, ProjectRow, Visibility } from '../../src/server/platform/db/rows'
import { nowIso } from '../../src/server/platform/db/connection'
import { findNamespaceById, findProjectById } from '../../src/server/modules/namespaces/queries'
import { userNamespaceId } from '../../src/server/modules/users/queries'
import type { TestServer } from './server'

let seq = 0
function uniq(prefix: string): string {
  seq += 1
  return `${prefix}${seq}-${Math.random().toString(36).slice(2, 6)}`
}

/** Inserts a group straight into the database (test setup independent of the groups API). */
export function seedGroup(
  server: TestServer,
  attrs: { path?: string; name?: string; parentId?: number | null; visibility?: Visibility } = {},
): NamespaceRow {
  const db = server.app.burrow.db
  const path = attrs.path ?? uniq('group')
  const parent = attrs.parentId ? findNamespaceById(db, attrs.parentId) : undefined
  const name = attrs.name ?? path
  const now = nowIso()
  const info = db
    .prepare(
      `INSERT INTO namespaces (kind, name, path, full_path, full_name, parent_id, visibility, created_at, updated_at)
       VALUES ('group', ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      name,
      path,
      parent ? `${parent.full_path}/${path}` : path,
      parent ? `${parent.full_name} / ${name}` : name,
      parent?.id ?? null,
      attrs.visibility ?? 'private',
      now,
      now,
    )
  return findNamespaceById(db, Number(info.lastInsertRowid)) as NamespaceRow
}

/** Inserts a project straight into the database, in a group or in a user's namespace. */
export function seedProject(
  server: TestServer,
  attrs: {
    namespaceId?: number
    ownerId?: number
    path?: string
    name?: string
    visibility?: Visibility
    creatorId?: number
  } = {},
): ProjectRow {
  const db = server.app.burrow.db
  const namespaceId = attrs.namespaceId ?? (attrs.ownerId ? userNamespaceId(db, attrs.ownerId) : undefined)
  if (!namespaceId) throw new Error('seedProject needs namespaceId or ownerId')
  const path = attrs.path ?? uniq('project')
  const now = nowIso()
  const info = db
    .prepare(
      `INSERT INTO projects (namespace_id, name, path, visibility, default_branch, creator_id, created_at, updated_at, last_activity_at)
       VALUES (?, ?, ?, ?, 'main', ?, ?, ?, ?)`,
    )
    .run(
      namespaceId,
      attrs.name ?? path,
      path,
      attrs.visibility ?? 'private',
      attrs.creatorId ?? attrs.ownerId ?? null,
      now,
      now,
      now,
    )
  return findProjectById(db, Number(info.lastInsertRowid)) as ProjectRow
}

/** Adds a direct membership (source 'Project' or 'Namespace' for a group). */
export function seedMember(
  server: TestServer,
  sourceType: 'Project' | 'Namespace',
  sourceId: number,
  userId: number,
  accessLevel: number,
): void {
  const now = nowIso()
  server.app.burrow.db
    .prepare(
      'INSERT INTO members (source_type, source_id, user_id, access_level, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    .run(sourceType, sourceId, userId, accessLevel, now, now)
}
