import { containsLike } from '../../platform/db/statements'
import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'
import type { NamespaceRow, Visibility } from '../../platform/db/rows'
import { AUTHORIZED_GROUPS_CTE } from '../../platform/auth/permissions'
import { findNamespaceById, groupAndDescendantIds } from '../namespaces'
import { deleteEpicRowsOfGroups } from '../epics'
import { deleteIidCounters } from '../../platform/db/internal-ids'

export interface NewGroup {
  readonly name: string
  readonly path: string
  readonly parent: NamespaceRow | null
  readonly visibility: Visibility
  readonly description: string
  readonly requestAccessEnabled: boolean
  readonly settings: Readonly<Record<string, unknown>>
}

/** Inserts a group, deriving full_path and full_name from its parent. */
export function insertGroup(db: Db, g: NewGroup): NamespaceRow {
  const now = nowIso()
  const info = db
    .prepare(
      `INSERT INTO namespaces (kind, name, path, full_path, full_name, parent_id, visibility, description, request_access_enabled, settings, created_at, updated_at)
       VALUES ('group', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      g.name,
      g.path,
      g.parent ? `${g.parent.full_path}/${g.path}` : g.path,
      g.parent ? `${g.parent.full_name} / ${g.name}` : g.name,
      g.parent?.id ?? null,
      g.visibility,
      g.description,
      g.requestAccessEnabled ? 1 : 0,
      JSON.stringify(g.settings),
      now,
      now,
    )
  return findNamespaceById(db, Number(info.lastInsertRowid)) as NamespaceRow
}

const GROUP_COLUMNS = new Set([
  'name',
  'path',
  'parent_id',
  'visibility',
  'description',
  'avatar_url',
  'request_access_enabled',
  'settings',
])

/**
 * Updates a group; when its name, path or parent changes, rewrites full_path and full_name of
 * the group and every descendant in the same transaction, so paths stay consistent.
 */
export function updateGroupRow(db: Db, id: number, changes: Readonly<Record<string, unknown>>): NamespaceRow {
  return db.transaction(() => {
    const values: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(changes)) {
      if (!GROUP_COLUMNS.has(k) || v === undefined) continue
      values[k] = typeof v === 'boolean' ? (v ? 1 : 0) : v
    }
    values.updated_at = nowIso()
    const sets = Object.keys(values).map((c) => `${c} = @${c}`)
    db.prepare(`UPDATE namespaces SET ${sets.join(', ')} WHERE id = @id`).run({ ...values, id })
    if ('name' in values || 'path' in values || 'parent_id' in values) refreshFullPaths(db, id)
    return findNamespaceById(db, id) as NamespaceRow
  })()
}

/** Recomputes full_path/full_name of a group and its descendants, parents before children. */
function refreshFullPaths(db: Db, id: number): void {
  const rows = db
    .prepare(
      `WITH RECURSIVE down(id, depth) AS (SELECT ?, 0 UNION ALL SELECT n.id, down.depth + 1 FROM namespaces n JOIN down ON n.parent_id = down.id)
       SELECT n.id, n.name, n.path, n.parent_id FROM down JOIN namespaces n ON n.id = down.id ORDER BY down.depth`,
    )
    .all(id) as { id: number; name: string; path: string; parent_id: number | null }[]
  const update = db.prepare('UPDATE namespaces SET full_path = ?, full_name = ? WHERE id = ?')
  const computed = new Map<number, { fullPath: string; fullName: string }>()
  for (const r of rows) {
    let parent = r.parent_id !== null ? computed.get(r.parent_id) : undefined
    if (!parent && r.parent_id !== null) {
      const p = findNamespaceById(db, r.parent_id) as NamespaceRow
      parent = { fullPath: p.full_path, fullName: p.full_name }
    }
    const own = parent
      ? { fullPath: `${parent.fullPath}/${r.path}`, fullName: `${parent.fullName} / ${r.name}` }
      : { fullPath: r.path, fullName: r.name }
    computed.set(r.id, own)
    update.run(own.fullPath, own.fullName, r.id)
  }
}

/** Deletes a group with its subgroups, projects, memberships, access requests and iid counters. */
export function deleteGroupTree(db: Db, id: number): void {
  db.transaction(() => {
    const groupIds = groupAndDescendantIds(db, id)
    const ids = JSON.stringify(groupIds)
    deleteEpicRowsOfGroups(db, groupIds)
    const projectIds = `SELECT id FROM projects WHERE namespace_id IN (SELECT value FROM json_each(@ids))`
    for (const table of ['members', 'access_requests']) {
      db.prepare(`DELETE FROM ${table} WHERE source_type = 'Project' AND source_id IN (${projectIds})`).run({ ids })
      db.prepare(
        `DELETE FROM ${table} WHERE source_type = 'Namespace' AND source_id IN (SELECT value FROM json_each(@ids))`,
      ).run({ ids })
    }
    deleteIidCounters(db, { projectIds: (db.prepare(projectIds).all({ ids }) as { id: number }[]).map((p) => p.id) })
    deleteIidCounters(db, { groupIds })
    db.prepare(`DELETE FROM projects WHERE namespace_id IN (SELECT value FROM json_each(@ids))`).run({ ids })
    // Children first: the parent_id cascade would do it too, but explicit order keeps foreign keys happy without relying on it.
    db.prepare('DELETE FROM namespaces WHERE id = ?').run(id)
  })()
}

/** A group (or user namespace) with this path under the same parent, other than `exceptId`. */
export function findSiblingByPath(
  db: Db,
  parentId: number | null,
  path: string,
  exceptId = 0,
): NamespaceRow | undefined {
  const fullPath = parentId === null ? path : `${(findNamespaceById(db, parentId) as NamespaceRow).full_path}/${path}`
  return db.prepare('SELECT * FROM namespaces WHERE full_path = ? AND id != ?').get(fullPath, exceptId) as
    NamespaceRow | undefined
}

/** A group with this name under the same parent (top-level names are not unique). */
export function findSiblingByName(db: Db, parentId: number, name: string, exceptId = 0): NamespaceRow | undefined {
  return db
    .prepare(`SELECT * FROM namespaces WHERE kind = 'group' AND parent_id = ? AND name = ? COLLATE NOCASE AND id != ?`)
    .get(parentId, name, exceptId) as NamespaceRow | undefined
}

/** Direct subgroups of a group. */
export function childGroups(db: Db, id: number): NamespaceRow[] {
  return db.prepare(`SELECT * FROM namespaces WHERE kind = 'group' AND parent_id = ?`).all(id) as NamespaceRow[]
}

// ---------------------------------------------------------------------------------------------
// Listing

export type GroupOrder = 'name' | 'path' | 'id' | 'similarity'

/** Filters of the group lists (`GET /groups`, subgroups, descendant groups), already validated. */
export interface GroupListFilter {
  readonly userId: number | null
  readonly isAdmin: boolean
  readonly external: boolean
  /** Private groups the caller may see (Permissions.visibleGroups). */
  readonly visibleIds: readonly number[]
  /** Only groups the caller is a member of (unless all_available). */
  readonly membersOnly: boolean
  readonly parentId?: number
  readonly descendantsOf?: number
  readonly topLevelOnly?: boolean
  readonly skipGroups?: readonly number[]
  readonly search?: string
  readonly owned?: boolean
  readonly minAccessLevel?: number
  readonly visibility?: Visibility
  readonly orderBy: GroupOrder
  readonly sort: 'asc' | 'desc'
}

function groupListSql(f: GroupListFilter): {
  withSql: string
  where: string
  values: Record<string, unknown>
  order: string
} {
  const where: string[] = [`g.kind = 'group'`]
  const values: Record<string, unknown> = {}
  const needsAuth = f.userId !== null && (f.membersOnly || f.owned || f.minAccessLevel !== undefined)
  const withSql = needsAuth ? `WITH RECURSIVE ${AUTHORIZED_GROUPS_CTE.replaceAll('?1', String(f.userId))} ` : ''
  if (f.userId === null) where.push(`g.visibility = 'public'`)
  else if (!f.isAdmin) {
    values.visible = JSON.stringify(f.visibleIds)
    const open = f.external ? `g.visibility = 'public'` : `g.visibility IN ('public', 'internal')`
    where.push(`(${open} OR g.id IN (SELECT value FROM json_each(@visible)))`)
  }
  if (f.membersOnly && f.userId !== null) {
    // Members of a project in a group also see that group in their list, as GitLab does.
    values.visibleMember = JSON.stringify(f.visibleIds)
    where.push(`(g.id IN (SELECT id FROM authorized_groups) OR g.id IN (SELECT value FROM json_each(@visibleMember)))`)
  }
  if (f.owned) where.push(f.userId === null ? '0' : `g.id IN (SELECT id FROM authorized_groups WHERE lvl >= 50)`)
  if (f.minAccessLevel !== undefined)
    where.push(
      f.userId === null ? '0' : `g.id IN (SELECT id FROM authorized_groups WHERE lvl >= ${Number(f.minAccessLevel)})`,
    )
  if (f.parentId !== undefined) {
    values.parentId = f.parentId
    where.push('g.parent_id = @parentId')
  }
  if (f.descendantsOf !== undefined) {
    values.root = f.descendantsOf
    where.push(
      `g.id IN (WITH RECURSIVE d(id) AS (SELECT id FROM namespaces WHERE parent_id = @root UNION ALL SELECT n.id FROM namespaces n JOIN d ON n.parent_id = d.id) SELECT id FROM d)`,
    )
  }
  if (f.topLevelOnly) where.push('g.parent_id IS NULL')
  if (f.skipGroups && f.skipGroups.length > 0) {
    values.skip = JSON.stringify(f.skipGroups)
    where.push('g.id NOT IN (SELECT value FROM json_each(@skip))')
  }
  if (f.search) {
    values.search = containsLike(f.search)
    where.push(
      `(g.name LIKE @search ESCAPE '\\' OR g.path LIKE @search ESCAPE '\\' OR g.full_path LIKE @search ESCAPE '\\')`,
    )
  }
  if (f.visibility) {
    values.visibility = f.visibility
    where.push('g.visibility = @visibility')
  }
  const dir = f.sort === 'desc' ? 'DESC' : 'ASC'
  let order: string
  if (f.orderBy === 'similarity' && f.search) {
    values.exact = f.search
    values.prefix = `${f.search.replace(/[\\%_]/g, (c) => '\\' + c)}%`
    order = `CASE WHEN g.name = @exact COLLATE NOCASE OR g.path = @exact COLLATE NOCASE THEN 0
      WHEN g.name LIKE @prefix ESCAPE '\\' OR g.path LIKE @prefix ESCAPE '\\' THEN 1 ELSE 2 END ASC, g.name ASC, g.id ASC`
  } else if (f.orderBy === 'id' || f.orderBy === 'similarity') order = `g.id ${dir}`
  else order = `g.${f.orderBy} COLLATE NOCASE ${dir}, g.id ${dir}`
  return { withSql, where: `WHERE ${where.join(' AND ')}`, values, order }
}

/** One page of groups and the total count: two queries. */
export function listGroups(
  db: Db,
  f: GroupListFilter,
  limit: number,
  offset: number,
): { rows: NamespaceRow[]; total: number } {
  const q = groupListSql(f)
  const rows = db
    .prepare(`${q.withSql}SELECT g.* FROM namespaces g ${q.where} ORDER BY ${q.order} LIMIT @limit OFFSET @offset`)
    .all({ ...q.values, limit, offset }) as NamespaceRow[]
  const total = (
    db.prepare(`${q.withSql}SELECT COUNT(*) AS c FROM namespaces g ${q.where}`).get(q.values) as { c: number }
  ).c
  return { rows, total }
}

// ---------------------------------------------------------------------------------------------
// Shares

export interface GroupShareRow {
  readonly shared_group_id: number
  readonly group_id: number
  readonly group_access: number
  readonly expires_at: string | null
  readonly group_name: string
  readonly group_full_path: string
}

/** Groups each given group is shared with. */
export function groupSharesOf(db: Db, groupIds: readonly number[]): Map<number, GroupShareRow[]> {
  const map = new Map<number, GroupShareRow[]>()
  if (groupIds.length === 0) return map
  const rows = db
    .prepare(
      `SELECT l.shared_group_id, l.shared_with_group_id AS group_id, l.group_access, l.expires_at, n.name AS group_name, n.full_path AS group_full_path
       FROM group_group_links l JOIN namespaces n ON n.id = l.shared_with_group_id
       WHERE l.shared_group_id IN (SELECT value FROM json_each(?)) ORDER BY l.shared_with_group_id`,
    )
    .all(JSON.stringify(groupIds)) as GroupShareRow[]
  for (const r of rows) {
    const list = map.get(r.shared_group_id) ?? []
    list.push(r)
    map.set(r.shared_group_id, list)
  }
  return map
}

/** True when `sharedGroupId` is already shared with `withGroupId`. */
export function groupShareExists(db: Db, sharedGroupId: number, withGroupId: number): boolean {
  return (
    db
      .prepare('SELECT 1 FROM group_group_links WHERE shared_group_id = ? AND shared_with_group_id = ?')
      .get(sharedGroupId, withGroupId) !== undefined
  )
}

/** Shares a group with another group. */
export function insertGroupShare(
  db: Db,
  sharedGroupId: number,
  withGroupId: number,
  access: number,
  expiresAt: string | null,
): void {
  db.prepare(
    'INSERT INTO group_group_links (shared_group_id, shared_with_group_id, group_access, expires_at) VALUES (?, ?, ?, ?)',
  ).run(sharedGroupId, withGroupId, access, expiresAt)
}

/** Removes a group share; false when there was none. */
export function deleteGroupShare(db: Db, sharedGroupId: number, withGroupId: number): boolean {
  return (
    db
      .prepare('DELETE FROM group_group_links WHERE shared_group_id = ? AND shared_with_group_id = ?')
      .run(sharedGroupId, withGroupId).changes > 0
  )
}

/** Ids of the projects shared with a group (for the group details' `shared_projects`). */
export function projectIdsSharedWithGroup(db: Db, groupId: number): number[] {
  return (
    db.prepare('SELECT project_id FROM project_group_links WHERE group_id = ? ORDER BY project_id').all(groupId) as {
      project_id: number
    }[]
  ).map((r) => r.project_id)
}
