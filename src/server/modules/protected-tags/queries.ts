import type { Db } from '../../platform/db/connection'
import { cachedStatement } from '../../platform/db/statements'

/** A protected tag with the roles that may create matching tags. */
export interface ProtectedTagRow {
  readonly id: number
  readonly project_id: number
  readonly name: string
  readonly createAccess: readonly { readonly id: number; readonly access_level: number }[]
}

type AccessRow = { readonly id: number; readonly protected_tag_id: number; readonly access_level: number }

function withAccess(db: Db, tags: readonly Omit<ProtectedTagRow, 'createAccess'>[]): ProtectedTagRow[] {
  const levels = cachedStatement(
    db,
    'SELECT id, protected_tag_id, access_level FROM protected_tag_create_access_levels WHERE protected_tag_id = ? ORDER BY id',
  )
  return tags.map((t) => ({
    ...t,
    createAccess: (levels.all(t.id) as AccessRow[]).map((a) => ({ id: a.id, access_level: a.access_level })),
  }))
}

/** A project's protected tags, by name. */
export function listProtectedTags(db: Db, projectId: number): ProtectedTagRow[] {
  const tags = cachedStatement(
    db,
    'SELECT id, project_id, name FROM protected_tags WHERE project_id = ? ORDER BY name',
  ).all(projectId) as Omit<ProtectedTagRow, 'createAccess'>[]
  return withAccess(db, tags)
}

/** The protected tag of exactly this name or wildcard. */
export function findProtectedTag(db: Db, projectId: number, name: string): ProtectedTagRow | undefined {
  const tag = cachedStatement(
    db,
    'SELECT id, project_id, name FROM protected_tags WHERE project_id = ? AND name = ?',
  ).get(projectId, name) as Omit<ProtectedTagRow, 'createAccess'> | undefined
  return tag ? withAccess(db, [tag])[0] : undefined
}

/** Protects a name or wildcard for these roles, in one transaction. */
export function insertProtectedTag(
  db: Db,
  projectId: number,
  name: string,
  accessLevels: readonly number[],
  now: string,
): ProtectedTagRow {
  return db.transaction(() => {
    const { id } = db
      .prepare('INSERT INTO protected_tags (project_id, name, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id')
      .get(projectId, name, now, now) as { id: number }
    const level = db.prepare(
      'INSERT INTO protected_tag_create_access_levels (protected_tag_id, access_level, created_at) VALUES (?, ?, ?)',
    )
    for (const accessLevel of accessLevels) level.run(id, accessLevel, now)
    return findProtectedTag(db, projectId, name) as ProtectedTagRow
  })()
}

export function deleteProtectedTag(db: Db, id: number): void {
  db.prepare('DELETE FROM protected_tags WHERE id = ?').run(id)
}
