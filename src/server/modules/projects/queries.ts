import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'
import type { ProjectRow, Visibility } from '../../platform/db/rows'
import { AUTHORIZED_GROUPS_CTE, AUTHORIZED_PROJECTS_CTE } from '../../platform/auth/permissions'
import { deleteIidCounters } from '../../platform/db/internal-ids'
import { findProjectById } from '../namespaces'
import { USER_REF_COLUMNS, type UserRefRow } from '../users'
import { allRows, cachedStatement, containsLike } from '../../platform/db/statements'

export { findProjectWithNamespace, type ProjectWithNamespaceRow } from '../../platform/db/platform-queries'
import {
  PROJECT_WITH_NAMESPACE_COLUMNS as WITH_NAMESPACE_COLUMNS,
  SELECT_PROJECT_WITH_NAMESPACE as SELECT_WITH_NAMESPACE,
  type ProjectWithNamespaceRow,
} from '../../platform/db/platform-queries'

export interface NewProject {
  readonly namespaceId: number
  readonly name: string
  readonly path: string
  readonly description: string | null
  readonly visibility: Visibility
  readonly defaultBranch: string
  readonly creatorId: number
  readonly repositoryStorage: string
  readonly topics: readonly string[]
  readonly requestAccessEnabled: boolean
  readonly settings: Readonly<Record<string, unknown>>
}

/** Inserts a project; the caller checks uniqueness first (the UNIQUE index is the last guard). */
export function insertProject(db: Db, p: NewProject): ProjectRow {
  const now = nowIso()
  const info = db
    .prepare(
      `INSERT INTO projects (namespace_id, name, path, description, visibility, default_branch, creator_id, repository_storage, topics,
         request_access_enabled, settings, created_at, updated_at, last_activity_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      p.namespaceId,
      p.name,
      p.path,
      p.description,
      p.visibility,
      p.defaultBranch,
      p.creatorId,
      p.repositoryStorage,
      JSON.stringify(p.topics),
      p.requestAccessEnabled ? 1 : 0,
      JSON.stringify(p.settings),
      now,
      now,
      now,
    )
  return findProjectById(db, Number(info.lastInsertRowid)) as ProjectRow
}

/** Columns `updateProjectRow` may set. */
const PROJECT_COLUMNS = new Set([
  'namespace_id',
  'name',
  'path',
  'description',
  'visibility',
  'default_branch',
  'archived',
  'repository_storage',
  'topics',
  'request_access_enabled',
  'settings',
  'star_count',
  'last_activity_at',
])

/** Sets the given columns and bumps updated_at. JSON columns must be passed already encoded. */
export function updateProjectRow(db: Db, id: number, changes: Readonly<Record<string, unknown>>): ProjectRow {
  const values: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(changes)) {
    if (!PROJECT_COLUMNS.has(k) || v === undefined) continue
    values[k] = typeof v === 'boolean' ? (v ? 1 : 0) : v
  }
  values.updated_at = nowIso()
  const sets = Object.keys(values).map((c) => `${c} = @${c}`)
  db.prepare(`UPDATE projects SET ${sets.join(', ')} WHERE id = @id`).run({ ...values, id })
  return findProjectById(db, id) as ProjectRow
}

/** Deletes a project with its memberships, access requests and iid counters (other rows cascade). */
export function deleteProjectRow(db: Db, id: number): void {
  db.transaction(() => {
    deleteIidCounters(db, { projectIds: [id] })
    db.prepare(`DELETE FROM members WHERE source_type = 'Project' AND source_id = ?`).run(id)
    db.prepare(`DELETE FROM access_requests WHERE source_type = 'Project' AND source_id = ?`).run(id)
    db.prepare('DELETE FROM projects WHERE id = ?').run(id)
  })()
}

/** The project in `namespaceId` whose path or name equals the given one (case-insensitive), other than `exceptId`. */
export function findProjectClash(
  db: Db,
  namespaceId: number,
  field: 'path' | 'name',
  value: string,
  exceptId = 0,
): ProjectRow | undefined {
  return db
    .prepare(`SELECT * FROM projects WHERE namespace_id = ? AND ${field} = ? COLLATE NOCASE AND id != ?`)
    .get(namespaceId, value, exceptId) as ProjectRow | undefined
}

/** How many projects a user has in their personal namespace (for `projects_limit`). */
export function personalProjectCount(db: Db, userId: number): number {
  const row = db
    .prepare(
      `SELECT COUNT(*) AS c FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE n.kind = 'user' AND n.owner_id = ?`,
    )
    .get(userId) as { c: number }
  return row.c
}

/** Projects directly inside any of the given namespaces. */
export function projectsInNamespaces(db: Db, namespaceIds: readonly number[]): ProjectRow[] {
  if (namespaceIds.length === 0) return []
  return db
    .prepare(`SELECT * FROM projects WHERE namespace_id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(namespaceIds)) as ProjectRow[]
}

// ---------------------------------------------------------------------------------------------
// Listing

export type ProjectOrder =
  'id' | 'name' | 'path' | 'created_at' | 'updated_at' | 'last_activity_at' | 'similarity' | 'star_count'

/** Every filter of `GET /projects` (and of the group and user project lists), already validated. */
export interface ProjectListFilter {
  /** The caller, or null for anonymous. */
  readonly userId: number | null
  readonly isAdmin: boolean
  readonly external: boolean
  /** Restrict to these namespaces (group projects, user projects). */
  readonly namespaceIds?: readonly number[]
  /** With namespaceIds: also the projects shared with this group. */
  readonly sharedWithGroupId?: number
  readonly archived?: boolean
  readonly visibility?: Visibility
  readonly search?: string
  readonly searchNamespaces?: boolean
  readonly owned?: boolean
  readonly membership?: boolean
  readonly starredBy?: number
  readonly minAccessLevel?: number
  readonly idAfter?: number
  readonly idBefore?: number
  readonly lastActivityAfter?: string
  readonly lastActivityBefore?: string
  readonly repositoryStorage?: string
  readonly topic?: readonly string[]
  readonly withIssuesEnabled?: boolean
  readonly withMergeRequestsEnabled?: boolean
  /** Only the direct forks of this project. */
  readonly forkedFromId?: number
  readonly orderBy: ProjectOrder
  readonly sort: 'asc' | 'desc'
}

/**
 * Builds the WITH prefix, WHERE clause and bound values for a project list. The caller's
 * authorization CTE is computed once per query, never per row.
 */
function projectListSql(f: ProjectListFilter): {
  withSql: string
  where: string
  values: Record<string, unknown>
  order: string
  usesNamespace: boolean
} {
  const where: string[] = []
  const values: Record<string, unknown> = {}
  const needsAuth = f.userId !== null && (!f.isAdmin || f.owned || f.membership || f.minAccessLevel !== undefined)
  let withSql = ''
  if (needsAuth) {
    // AUTHORIZED_*_CTE bind the user as ?1; named parameters cannot mix with it, so the id is inlined (an integer).
    withSql = `WITH RECURSIVE ${AUTHORIZED_GROUPS_CTE.replaceAll('?1', String(f.userId))}, ${AUTHORIZED_PROJECTS_CTE.replaceAll('?1', String(f.userId))} `
  }
  if (f.userId === null) where.push(`p.visibility = 'public'`)
  else if (!f.isAdmin) {
    const open = f.external ? `p.visibility = 'public'` : `p.visibility IN ('public', 'internal')`
    where.push(`(${open} OR p.id IN (SELECT id FROM authorized_projects))`)
  }
  if (f.owned) {
    if (f.userId === null) where.push('0')
    else where.push(`p.id IN (SELECT id FROM authorized_projects WHERE lvl >= 50)`)
  }
  if (f.membership || f.minAccessLevel !== undefined) {
    if (f.userId === null) where.push('0')
    else where.push(`p.id IN (SELECT id FROM authorized_projects WHERE lvl >= ${Number(f.minAccessLevel ?? 10)})`)
  }
  if (f.namespaceIds) {
    values.namespaces = JSON.stringify(f.namespaceIds)
    if (f.sharedWithGroupId !== undefined) {
      values.sharedWith = f.sharedWithGroupId
      where.push(
        `(p.namespace_id IN (SELECT value FROM json_each(@namespaces)) OR p.id IN (SELECT project_id FROM project_group_links WHERE group_id = @sharedWith))`,
      )
    } else where.push(`p.namespace_id IN (SELECT value FROM json_each(@namespaces))`)
  }
  if (f.forkedFromId !== undefined) {
    values.forkedFrom = f.forkedFromId
    where.push('p.id IN (SELECT project_id FROM fork_network_members WHERE forked_from_project_id = @forkedFrom)')
  }
  if (f.archived !== undefined) where.push(`p.archived = ${f.archived ? 1 : 0}`)
  if (f.visibility) {
    values.visibility = f.visibility
    where.push('p.visibility = @visibility')
  }
  if (f.search) {
    values.search = containsLike(f.search)
    const fields = [
      `p.name LIKE @search ESCAPE '\\'`,
      `p.path LIKE @search ESCAPE '\\'`,
      `p.description LIKE @search ESCAPE '\\'`,
    ]
    if (f.searchNamespaces)
      fields.push(`(n.full_path || '/' || p.path) LIKE @search ESCAPE '\\'`, `n.full_name LIKE @search ESCAPE '\\'`)
    where.push(`(${fields.join(' OR ')})`)
  }
  if (f.starredBy !== undefined) {
    values.starredBy = f.starredBy
    where.push('p.id IN (SELECT project_id FROM project_stars WHERE user_id = @starredBy)')
  }
  if (f.idAfter !== undefined) {
    values.idAfter = f.idAfter
    where.push('p.id > @idAfter')
  }
  if (f.idBefore !== undefined) {
    values.idBefore = f.idBefore
    where.push('p.id < @idBefore')
  }
  if (f.lastActivityAfter) {
    values.lastActivityAfter = f.lastActivityAfter
    where.push('p.last_activity_at > @lastActivityAfter')
  }
  if (f.lastActivityBefore) {
    values.lastActivityBefore = f.lastActivityBefore
    where.push('p.last_activity_at < @lastActivityBefore')
  }
  if (f.repositoryStorage) {
    values.storage = f.repositoryStorage
    where.push('p.repository_storage = @storage')
  }
  if (f.topic && f.topic.length > 0) {
    f.topic.forEach((t, i) => {
      values[`topic${i}`] = t
      where.push(`EXISTS (SELECT 1 FROM json_each(p.topics) WHERE value = @topic${i} COLLATE NOCASE)`)
    })
  }
  if (f.withIssuesEnabled)
    where.push(`COALESCE(json_extract(p.settings, '$.issues_access_level'), 'enabled') != 'disabled'`)
  if (f.withMergeRequestsEnabled)
    where.push(`COALESCE(json_extract(p.settings, '$.merge_requests_access_level'), 'enabled') != 'disabled'`)

  const dir = f.sort === 'asc' ? 'ASC' : 'DESC'
  let order: string
  if (f.orderBy === 'similarity' && f.search) {
    // GitLab ranks by trigram similarity; exact, then prefix, then substring matches is the same ordering for ordinary queries.
    values.exact = f.search
    values.prefix = `${f.search.replace(/[\\%_]/g, (c) => '\\' + c)}%`
    order = `CASE WHEN p.name = @exact COLLATE NOCASE OR p.path = @exact COLLATE NOCASE THEN 0
      WHEN p.name LIKE @prefix ESCAPE '\\' OR p.path LIKE @prefix ESCAPE '\\' THEN 1 ELSE 2 END ASC, p.id DESC`
  } else {
    const column = f.orderBy === 'similarity' ? 'created_at' : f.orderBy
    order = column === 'id' ? `p.id ${dir}` : `p.${column} ${dir}, p.id ${dir}`
  }
  const whereSql = where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''
  return { withSql, where: whereSql, values, order, usesNamespace: /\bn\./.test(whereSql) }
}

/** One page of projects (with namespace columns) and the total count: two queries. */
export function listProjects(
  db: Db,
  f: ProjectListFilter,
  limit: number,
  offset: number,
): { rows: ProjectWithNamespaceRow[]; total: number } {
  const q = projectListSql(f)
  // Later pages: find the page's ids first and join only those rows, rather than joining and
  // materialising every skipped row (page 100 of 10k projects: several times faster). CROSS JOIN
  // keeps the page as the outer loop: with a bound LIMIT the planner otherwise scanned every
  // project and probed the page. The first page, and conditions on namespace columns (which need
  // the join inside), keep the plain form.
  const sql =
    q.usesNamespace || offset === 0
      ? `${q.withSql}${SELECT_WITH_NAMESPACE} ${q.where} ORDER BY ${q.order} LIMIT @limit OFFSET @offset`
      : `${q.withSql}SELECT ${WITH_NAMESPACE_COLUMNS} FROM (SELECT p.id FROM projects p ${q.where} ORDER BY ${q.order} LIMIT @limit OFFSET @offset) page
       CROSS JOIN projects p ON p.id = page.id JOIN namespaces n ON n.id = p.namespace_id ORDER BY ${q.order}`
  const rows = allRows<ProjectWithNamespaceRow>(db, sql, { ...q.values, limit, offset })
  // Every project has its namespace (a NOT NULL foreign key), so the join only matters to the
  // count when a condition reads namespace columns; without it SQLite counts from an index.
  const from = q.usesNamespace ? 'projects p JOIN namespaces n ON n.id = p.namespace_id' : 'projects p'
  const total = (
    cachedStatement(db, `${q.withSql}SELECT COUNT(*) AS c FROM ${from} ${q.where}`).get(q.values) as { c: number }
  ).c
  return { rows, total }
}

/** One keyset page (ordered by id, no count query). */
export function listProjectsKeyset(db: Db, f: ProjectListFilter, limit: number): ProjectWithNamespaceRow[] {
  const q = projectListSql({ ...f, orderBy: 'id' })
  return allRows<ProjectWithNamespaceRow>(
    db,
    `${q.withSql}${SELECT_WITH_NAMESPACE} ${q.where} ORDER BY ${q.order} LIMIT @limit`,
    { ...q.values, limit },
  )
}

// ---------------------------------------------------------------------------------------------
// Per-page precomputation (one query each, whatever the page size)

export interface ProjectShareRow {
  readonly project_id: number
  readonly group_id: number
  readonly group_access: number
  readonly expires_at: string | null
  readonly group_name: string
  readonly group_full_path: string
}

/**
 * The project each of the given projects was forked from (with its namespace columns), for those that
 * are forks: one query for a whole page.
 */
export function upstreamsOf(db: Db, projectIds: readonly number[]): Map<number, ProjectWithNamespaceRow> {
  const map = new Map<number, ProjectWithNamespaceRow>()
  if (projectIds.length === 0) return map
  const rows = cachedStatement(
    db,
    `SELECT f.project_id AS fork_id, ${WITH_NAMESPACE_COLUMNS}
       FROM fork_network_members f JOIN projects p ON p.id = f.forked_from_project_id JOIN namespaces n ON n.id = p.namespace_id
       WHERE f.project_id IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(projectIds)) as (ProjectWithNamespaceRow & { fork_id: number })[]
  for (const { fork_id: forkId, ...upstream } of rows) map.set(forkId, upstream)
  return map
}

/** Group shares of the given projects, grouped by project id. */
export function projectSharesOf(db: Db, projectIds: readonly number[]): Map<number, ProjectShareRow[]> {
  const map = new Map<number, ProjectShareRow[]>()
  if (projectIds.length === 0) return map
  const rows = cachedStatement(
    db,
    `SELECT l.project_id, l.group_id, l.group_access, l.expires_at, n.name AS group_name, n.full_path AS group_full_path
       FROM project_group_links l JOIN namespaces n ON n.id = l.group_id
       WHERE l.project_id IN (SELECT value FROM json_each(?)) ORDER BY l.group_id`,
  ).all(JSON.stringify(projectIds)) as ProjectShareRow[]
  for (const r of rows) {
    const list = map.get(r.project_id) ?? []
    list.push(r)
    map.set(r.project_id, list)
  }
  return map
}

/** Direct project membership levels of a user for the given projects. */
export function directProjectLevels(db: Db, userId: number, projectIds: readonly number[]): Map<number, number> {
  const rows = cachedStatement(
    db,
    `SELECT source_id AS id, access_level AS lvl FROM members WHERE source_type = 'Project' AND user_id = ?
       AND source_id IN (SELECT value FROM json_each(?)) AND (expires_at IS NULL OR expires_at >= date('now'))`,
  ).all(userId, JSON.stringify(projectIds)) as { id: number; lvl: number }[]
  return new Map(rows.map((r) => [r.id, r.lvl]))
}

/** Effective group levels (inherited, shares included) of a user for the given groups. */
export function groupLevels(db: Db, userId: number, groupIds: readonly number[]): Map<number, number> {
  const rows = cachedStatement(
    db,
    `WITH RECURSIVE ${AUTHORIZED_GROUPS_CTE.replaceAll('?1', '@user')} SELECT id, lvl FROM authorized_groups WHERE id IN (SELECT value FROM json_each(@ids))`,
  ).all({ user: userId, ids: JSON.stringify(groupIds) }) as { id: number; lvl: number }[]
  return new Map(rows.map((r) => [r.id, r.lvl]))
}

// ---------------------------------------------------------------------------------------------
// Stars

/** True when the user has starred the project. */
export function isStarred(db: Db, userId: number, projectId: number): boolean {
  return (
    db.prepare('SELECT 1 FROM project_stars WHERE user_id = ? AND project_id = ?').get(userId, projectId) !== undefined
  )
}

/** Stars or unstars, keeping `projects.star_count` in step. */
export function setStar(db: Db, userId: number, projectId: number, starred: boolean): void {
  db.transaction(() => {
    if (starred)
      db.prepare('INSERT OR IGNORE INTO project_stars (user_id, project_id, created_at) VALUES (?, ?, ?)').run(
        userId,
        projectId,
        nowIso(),
      )
    else db.prepare('DELETE FROM project_stars WHERE user_id = ? AND project_id = ?').run(userId, projectId)
    db.prepare(
      'UPDATE projects SET star_count = (SELECT COUNT(*) FROM project_stars WHERE project_id = ?) WHERE id = ?',
    ).run(projectId, projectId)
  })()
}

export interface StarrerRow {
  readonly user_id: number
  readonly created_at: string
}

/** One page of a project's starrers, optionally filtered by name/username, and their count. */
export function listStarrers(
  db: Db,
  projectId: number,
  search: string | undefined,
  limit: number,
  offset: number,
): { rows: StarrerRow[]; total: number } {
  const filter = search ? `AND (u.username LIKE @search ESCAPE '\\' OR u.name LIKE @search ESCAPE '\\')` : ''
  const values = { projectId, search: search ? containsLike(search) : null, limit, offset }
  const rows = db
    .prepare(
      `SELECT s.user_id, s.created_at FROM project_stars s JOIN users u ON u.id = s.user_id WHERE s.project_id = @projectId ${filter}
       ORDER BY s.created_at DESC, s.user_id DESC LIMIT @limit OFFSET @offset`,
    )
    .all(values) as StarrerRow[]
  const total = (
    db
      .prepare(
        `SELECT COUNT(*) AS c FROM project_stars s JOIN users u ON u.id = s.user_id WHERE s.project_id = @projectId ${filter}`,
      )
      .get(values) as { c: number }
  ).c
  return { rows, total }
}

// ---------------------------------------------------------------------------------------------
// Shares

/** Creates or replaces a project's share with a group. */
export function insertProjectShare(
  db: Db,
  projectId: number,
  groupId: number,
  access: number,
  expiresAt: string | null,
): void {
  db.prepare(
    'INSERT INTO project_group_links (project_id, group_id, group_access, expires_at) VALUES (?, ?, ?, ?)',
  ).run(projectId, groupId, access, expiresAt)
}

/** Removes a project's share with a group; false when there was none. */
export function deleteProjectShare(db: Db, projectId: number, groupId: number): boolean {
  return (
    db.prepare('DELETE FROM project_group_links WHERE project_id = ? AND group_id = ?').run(projectId, groupId)
      .changes > 0
  )
}

/** A `project_group_links` row. */
export interface ProjectGroupLinkRow {
  readonly id: number
  readonly project_id: number
  readonly group_id: number
  readonly group_access: number
  readonly expires_at: string | null
}

/** A project's share with a group, if there is one. */
export function findProjectShare(db: Db, projectId: number, groupId: number): ProjectGroupLinkRow | undefined {
  return db
    .prepare('SELECT rowid AS id, * FROM project_group_links WHERE project_id = ? AND group_id = ?')
    .get(projectId, groupId) as ProjectGroupLinkRow | undefined
}

/** True when the project is already shared with the group. */
export function projectShareExists(db: Db, projectId: number, groupId: number): boolean {
  return (
    db.prepare('SELECT 1 FROM project_group_links WHERE project_id = ? AND group_id = ?').get(projectId, groupId) !==
    undefined
  )
}

/** The user_ref columns of the owners of personal projects, by id. */
export function projectOwnerRefs(db: Db, ownerIds: readonly number[]): Map<number, UserRefRow> {
  if (ownerIds.length === 0) return new Map()
  // Only the user_ref columns: materialising every users column was most of this query's time.
  const rows = cachedStatement(
    db,
    `SELECT ${USER_REF_COLUMNS} FROM users WHERE id IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(ownerIds)) as UserRefRow[]
  return new Map(rows.map((u) => [u.id, u]))
}
