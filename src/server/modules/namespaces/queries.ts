import type { Db } from '../../platform/db/connection'
import type { NamespaceRow, ProjectRow } from '../../platform/db/rows'
import { cachedStatement } from '../../platform/db/statements'

export function findNamespaceById(db: Db, id: number): NamespaceRow | undefined {
  return db.prepare('SELECT * FROM namespaces WHERE id = ?').get(id) as NamespaceRow | undefined
}

/** Case-insensitive lookup by full path (`group/subgroup` or a username). */
export function findNamespaceByFullPath(db: Db, fullPath: string): NamespaceRow | undefined {
  return db.prepare('SELECT * FROM namespaces WHERE full_path = ?').get(fullPath) as NamespaceRow | undefined
}

/** A group by integer id or URL-decoded full path; user namespaces are not groups. */
export function findGroup(db: Db, idOrPath: string | number): NamespaceRow | undefined {
  const text = String(idOrPath)
  const row = /^\d+$/.test(text) ? findNamespaceById(db, Number(text)) : findNamespaceByFullPath(db, text)
  return row && row.kind === 'group' ? row : undefined
}

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

/** The root (top-level) ancestor of a namespace, or the namespace itself. */
export function rootNamespace(db: Db, id: number): NamespaceRow {
  const ancestors = namespaceAncestors(db, id)
  return ancestors.length > 0 ? ancestors[ancestors.length - 1] : (findNamespaceById(db, id) as NamespaceRow)
}

export function findProjectById(db: Db, id: number): ProjectRow | undefined {
  return cachedStatement(db, 'SELECT * FROM projects WHERE id = ?').get(id) as ProjectRow | undefined
}

/** A project by integer id or URL-decoded full path (`namespace/path`, case-insensitive). */
export function findProject(db: Db, idOrPath: string | number): ProjectRow | undefined {
  const text = String(idOrPath)
  if (/^\d+$/.test(text)) return findProjectById(db, Number(text))
  const slash = text.lastIndexOf('/')
  if (slash <= 0) return undefined
  const ns = findNamespaceByFullPath(db, text.slice(0, slash))
  if (!ns) return undefined
  return db
    .prepare('SELECT * FROM projects WHERE namespace_id = ? AND path = ? COLLATE NOCASE')
    .get(ns.id, text.slice(slash + 1)) as ProjectRow | undefined
}
