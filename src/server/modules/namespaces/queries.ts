import type { Db } from '../../platform/db/connection'
import type { NamespaceRow } from '../../platform/db/rows'

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

/** The root (top-level) ancestor of a namespace, or the namespace itself. */
export function rootNamespace(db: Db, id: number): NamespaceRow {
  const ancestors = namespaceAncestors(db, id)
  return ancestors.length > 0 ? ancestors[ancestors.length - 1] : (findNamespaceById(db, id) as NamespaceRow)
}
