import type { Db } from '../../platform/db/connection'
import type { NamespaceRow } from '../../platform/db/rows'
import { containsLike } from '../../platform/db/statements'
import { AUTHORIZED_GROUPS_CTE } from '../../platform/auth/permissions'

export {
  findGroup,
  findNamespaceByFullPath,
  findNamespaceById,
  findProject,
  findProjectById,
} from '../../platform/db/platform-queries'
import { findNamespaceById } from '../../platform/db/platform-queries'

/** Ancestors of a namespace, nearest first (parent, grandparent, …). */
export function namespaceAncestors(db: Db, id: number): NamespaceRow[] {
  return db
    .prepare(
      `WITH RECURSIVE up(id, depth) AS (
         SELECT parent_id, 1 FROM namespaces WHERE id = ? AND parent_id IS NOT NULL
         UNION ALL SELECT n.parent_id, up.depth + 1 FROM namespaces n JOIN up ON n.id = up.id WHERE n.parent_id IS NOT NULL
       ) SELECT n.* FROM up JOIN namespaces n ON n.id = up.id ORDER BY up.depth`,
    )
    .all(id) as NamespaceRow[]
}

/** Ids of a group and every group below it. */
export function groupAndDescendantIds(db: Db, id: number): number[] {
  const rows = db
    .prepare(
      `WITH RECURSIVE down(id) AS (SELECT ? UNION ALL SELECT n.id FROM namespaces n JOIN down ON n.parent_id = down.id)
       SELECT id FROM down`,
    )
    .all(id) as { id: number }[]
  return rows.map((r) => r.id)
}

/** Ids of the projects of these namespaces (a group's and its subgroups' projects). */
export function projectIdsIn(db: Db, namespaceIds: readonly number[]): number[] {
  const rows = db
    .prepare('SELECT id FROM projects WHERE namespace_id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(namespaceIds)) as { id: number }[]
  return rows.map((r) => r.id)
}

/** The root (top-level) ancestor of a namespace, or the namespace itself. */
export function rootNamespace(db: Db, id: number): NamespaceRow {
  const ancestors = namespaceAncestors(db, id)
  return ancestors.length > 0 ? ancestors[ancestors.length - 1] : (findNamespaceById(db, id) as NamespaceRow)
}

/**
 * Namespaces the user may put projects in or belongs to: their personal namespace plus every
 * group they reach through membership; all namespaces for administrators.
 */
export function listNamespaces(
  db: Db,
  f: {
    readonly userId: number
    readonly isAdmin: boolean
    readonly search?: string
    readonly ownedOnly?: boolean
    readonly topLevelOnly?: boolean
  },
  limit: number,
  offset: number,
): { rows: NamespaceRow[]; total: number } {
  const where: string[] = []
  const values: Record<string, unknown> = { userId: f.userId }
  let withSql = ''
  if (!f.isAdmin || f.ownedOnly) {
    withSql = `WITH RECURSIVE ${AUTHORIZED_GROUPS_CTE.replaceAll('?1', String(f.userId))} `
    const level = f.ownedOnly ? 50 : 10
    where.push(
      `((n.kind = 'user' AND n.owner_id = @userId) OR n.id IN (SELECT id FROM authorized_groups WHERE lvl >= ${level}))`,
    )
  }
  if (f.search) {
    values.search = containsLike(f.search)
    where.push(
      `(n.name LIKE @search ESCAPE '\\' OR n.path LIKE @search ESCAPE '\\' OR n.full_path LIKE @search ESCAPE '\\')`,
    )
  }
  if (f.topLevelOnly) where.push('n.parent_id IS NULL')
  const whereSql = where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''
  const rows = db
    .prepare(`${withSql}SELECT n.* FROM namespaces n ${whereSql} ORDER BY n.id LIMIT @limit OFFSET @offset`)
    .all({ ...values, limit, offset }) as NamespaceRow[]
  const total = (
    db.prepare(`${withSql}SELECT COUNT(*) AS c FROM namespaces n ${whereSql}`).get(values) as { c: number }
  ).c
  return { rows, total }
}

/** Number of projects directly in each given namespace. */
export function projectCounts(db: Db, namespaceIds: readonly number[]): Map<number, number> {
  const rows = db
    .prepare(
      'SELECT namespace_id AS id, COUNT(*) AS c FROM projects WHERE namespace_id IN (SELECT value FROM json_each(?)) GROUP BY namespace_id',
    )
    .all(JSON.stringify(namespaceIds)) as { id: number; c: number }[]
  return new Map(rows.map((r) => [r.id, r.c]))
}
