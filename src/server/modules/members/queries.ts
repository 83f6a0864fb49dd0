import { containsLike } from '../../platform/db/statements'
import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'
import type { MemberRow, MemberSourceType, UserRow } from '../../platform/db/rows'

/** A membership source: a project or a group (`Namespace`), with what its queries need. */
export interface SourceRef {
  readonly type: MemberSourceType
  readonly id: number
  /**
   * The namespace whose ancestor chain grants inherited membership: the group itself, or the
   * project's namespace.
   */
  readonly namespaceId: number
}

/** The membership shown for one user: a stored row, or a synthetic one (personal project owner). */
export interface MembershipFacts {
  /** `members.id`, null for the owner of a personal project (no row). */
  readonly id: number | null
  readonly access_level: number
  readonly expires_at: string | null
  readonly created_at: string
  readonly created_by_id: number | null
  readonly updated_at: string | null
}

/** A user together with the membership that applies to them. */
export interface MemberWithUser {
  readonly user: UserRow
  readonly member: MembershipFacts
}

/** Filters shared by the direct and the inherited member lists. */
export interface MemberFilter {
  /** Matches name or username (substring, case-insensitive) or the exact public email. */
  readonly query?: string
  readonly userIds?: readonly number[]
  readonly skipUserIds?: readonly number[]
}

export interface Window {
  readonly limit: number
  readonly offset: number
}

const ACTIVE = `(expires_at IS NULL OR expires_at >= date('now'))`

/** SQL conditions on `u` (users) for a filter, with their named parameters. */
function filterSql(filter: MemberFilter, params: Record<string, unknown>): string {
  const conds: string[] = []
  if (filter.query) {
    params.q = containsLike(filter.query)
    params.qExact = filter.query
    conds.push(
      `(u.name LIKE @q ESCAPE '\\' OR u.username LIKE @q ESCAPE '\\' OR (u.public_email <> '' AND u.public_email = @qExact COLLATE NOCASE))`,
    )
  }
  if (filter.userIds) {
    if (filter.userIds.length === 0) conds.push('0')
    else conds.push(`u.id IN (${filter.userIds.map((id) => Number(id)).join(', ')})`)
  }
  if (filter.skipUserIds && filter.skipUserIds.length > 0)
    conds.push(`u.id NOT IN (${filter.skipUserIds.map((id) => Number(id)).join(', ')})`)
  return conds.length > 0 ? conds.join(' AND ') : '1'
}

/** The columns of `T` as a joined row selects them, prefixed `m_` (`m_id`, `m_access_level`…) beside `u.*`. */
type Prefixed<T> = { readonly [K in keyof T & string as `m_${K}`]: T[K] }

/** A member list row: the user's columns (`u.*`) and the membership's, prefixed. */
type MemberListRow = UserRow & Prefixed<MembershipFacts>

/** Splits a member list row into the user and the membership facts. */
function memberWithUser({
  m_id: id,
  m_access_level: access_level,
  m_expires_at: expires_at,
  m_created_at: created_at,
  m_created_by_id: created_by_id,
  m_updated_at: updated_at,
  ...user
}: MemberListRow): MemberWithUser {
  return { user, member: { id, access_level, expires_at, created_at, created_by_id, updated_at } }
}

/** Direct, unexpired members of a source, ordered by membership id, with the total count. */
export function listDirectMembers(
  db: Db,
  source: SourceRef,
  filter: MemberFilter,
  window: Window,
): { rows: MemberWithUser[]; total: number } {
  const params: Record<string, unknown> = {
    type: source.type,
    id: source.id,
    limit: window.limit,
    offset: window.offset,
  }
  const where = `m.source_type = @type AND m.source_id = @id AND (m.expires_at IS NULL OR m.expires_at >= date('now')) AND ${filterSql(filter, params)}`
  const from = `FROM members m JOIN users u ON u.id = m.user_id WHERE ${where}`
  const { total } = db.prepare(`SELECT COUNT(*) AS total ${from}`).get(params) as { total: number }
  const rows = db
    .prepare(
      `SELECT u.*, m.id AS m_id, m.access_level AS m_access_level, m.expires_at AS m_expires_at, m.created_at AS m_created_at,
              m.created_by_id AS m_created_by_id, m.updated_at AS m_updated_at
       ${from} ORDER BY m.id LIMIT @limit OFFSET @offset`,
    )
    .all(params) as MemberListRow[]
  return { rows: rows.map(memberWithUser), total }
}

/**
 * Every membership that applies to a source, one row per (user, way in): direct members, members of
 * the ancestor groups, the owner of a personal project, and members (with their groups' ancestors)
 * of groups the project or its groups are shared with, capped at the share's access level.
 * Parameters: @type, @id (the source), @ns (its namespace), @project (project id or -1).
 */
const EFFECTIVE_CTE = `
  scope(id) AS (
    SELECT n.id FROM namespaces n WHERE n.id = @ns AND n.kind = 'group'
    UNION SELECT n.parent_id FROM namespaces n JOIN scope s ON n.id = s.id WHERE n.parent_id IS NOT NULL
  ),
  invited(group_id, cap) AS (
    SELECT group_id, group_access FROM project_group_links WHERE project_id = @project AND ${ACTIVE}
    UNION SELECT shared_with_group_id, group_access FROM group_group_links WHERE shared_group_id IN (SELECT id FROM scope) AND ${ACTIVE}
  ),
  invited_up(group_id, cap) AS (
    SELECT group_id, cap FROM invited
    UNION SELECT n.parent_id, i.cap FROM namespaces n JOIN invited_up i ON n.id = i.group_id WHERE n.parent_id IS NOT NULL
  ),
  candidates(id, user_id, access_level, expires_at, created_at, created_by_id, updated_at) AS (
    SELECT id, user_id, access_level, expires_at, created_at, created_by_id, updated_at FROM members
    WHERE source_type = 'Project' AND @type = 'Project' AND source_id = @id AND ${ACTIVE}
    UNION ALL
    SELECT id, user_id, access_level, expires_at, created_at, created_by_id, updated_at FROM members
    WHERE source_type = 'Namespace' AND source_id IN (SELECT id FROM scope) AND ${ACTIVE}
    UNION ALL
    SELECT m.id, m.user_id, MIN(m.access_level, i.cap), m.expires_at, m.created_at, m.created_by_id, m.updated_at
    FROM members m JOIN invited_up i ON m.source_type = 'Namespace' AND m.source_id = i.group_id
    WHERE (m.expires_at IS NULL OR m.expires_at >= date('now'))
    UNION ALL
    SELECT NULL, n.owner_id, 50, NULL, p.created_at, NULL, NULL FROM projects p JOIN namespaces n ON n.id = p.namespace_id
    WHERE p.id = @project AND n.kind = 'user'
  ),
  ranked AS (
    SELECT c.*, ROW_NUMBER() OVER (PARTITION BY c.user_id ORDER BY c.access_level DESC, c.id IS NULL, c.id) AS rn FROM candidates c
  )`

function effectiveParams(source: SourceRef): Record<string, unknown> {
  return {
    type: source.type,
    id: source.id,
    ns: source.namespaceId,
    project: source.type === 'Project' ? source.id : -1,
  }
}

const EFFECTIVE_SELECT = `SELECT u.*, r.id AS m_id, r.access_level AS m_access_level, r.expires_at AS m_expires_at,
  r.created_at AS m_created_at, r.created_by_id AS m_created_by_id, r.updated_at AS m_updated_at
  FROM ranked r JOIN users u ON u.id = r.user_id`

/** Members including inherited and invited ones, each user once at their highest level, ordered by user id. */
export function listEffectiveMembers(
  db: Db,
  source: SourceRef,
  filter: MemberFilter,
  window: Window,
): { rows: MemberWithUser[]; total: number } {
  const params: Record<string, unknown> = { ...effectiveParams(source), limit: window.limit, offset: window.offset }
  const where = `r.rn = 1 AND ${filterSql(filter, params)}`
  const { total } = db
    .prepare(
      `WITH RECURSIVE ${EFFECTIVE_CTE} SELECT COUNT(*) AS total FROM ranked r JOIN users u ON u.id = r.user_id WHERE ${where}`,
    )
    .get(params) as { total: number }
  const rows = db
    .prepare(
      `WITH RECURSIVE ${EFFECTIVE_CTE} ${EFFECTIVE_SELECT} WHERE ${where} ORDER BY u.id LIMIT @limit OFFSET @offset`,
    )
    .all(params) as MemberListRow[]
  return { rows: rows.map(memberWithUser), total }
}

/** One user's effective membership of a source (highest level over every way in), if any. */
export function findEffectiveMember(db: Db, source: SourceRef, userId: number): MemberWithUser | undefined {
  const row = db
    .prepare(`WITH RECURSIVE ${EFFECTIVE_CTE} ${EFFECTIVE_SELECT} WHERE r.rn = 1 AND u.id = @user`)
    .get({ ...effectiveParams(source), user: userId }) as MemberListRow | undefined
  return row ? memberWithUser(row) : undefined
}

/** A direct, unexpired membership row. */
export function findDirectMember(db: Db, source: SourceRef, userId: number): MemberRow | undefined {
  return db
    .prepare(`SELECT * FROM members WHERE source_type = ? AND source_id = ? AND user_id = ? AND ${ACTIVE}`)
    .get(source.type, source.id, userId) as MemberRow | undefined
}

/** A direct membership row whatever its expiry (used to detect duplicates before inserting). */
export function findAnyDirectMember(db: Db, source: SourceRef, userId: number): MemberRow | undefined {
  return db
    .prepare('SELECT * FROM members WHERE source_type = ? AND source_id = ? AND user_id = ?')
    .get(source.type, source.id, userId) as MemberRow | undefined
}

/** The same direct membership with its user, as the member entity needs it. */
export function directMemberWithUser(db: Db, source: SourceRef, userId: number): MemberWithUser | undefined {
  const { rows } = listDirectMembers(db, source, { userIds: [userId] }, { limit: 1, offset: 0 })
  return rows[0]
}

export interface NewMember {
  readonly source: SourceRef
  readonly userId: number
  readonly accessLevel: number
  readonly expiresAt: string | null
  readonly createdById: number | null
}

/** Inserts a direct membership, replacing an expired row of the same user if one is left. */
export function insertMember(db: Db, m: NewMember): MemberRow {
  const now = nowIso()
  db.prepare(`DELETE FROM members WHERE source_type = ? AND source_id = ? AND user_id = ? AND NOT ${ACTIVE}`).run(
    m.source.type,
    m.source.id,
    m.userId,
  )
  const info = db
    .prepare(
      `INSERT INTO members (source_type, source_id, user_id, access_level, expires_at, created_by_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(m.source.type, m.source.id, m.userId, m.accessLevel, m.expiresAt, m.createdById, now, now)
  return db.prepare('SELECT * FROM members WHERE id = ?').get(Number(info.lastInsertRowid)) as MemberRow
}

/** Changes the level and/or expiry of a membership row. `expiresAt` undefined leaves it as it is. */
export function updateMember(db: Db, id: number, accessLevel: number, expiresAt: string | null | undefined): MemberRow {
  if (expiresAt === undefined)
    db.prepare('UPDATE members SET access_level = ?, updated_at = ? WHERE id = ?').run(accessLevel, nowIso(), id)
  else
    db.prepare('UPDATE members SET access_level = ?, expires_at = ?, updated_at = ? WHERE id = ?').run(
      accessLevel,
      expiresAt,
      nowIso(),
      id,
    )
  return db.prepare('SELECT * FROM members WHERE id = ?').get(id) as MemberRow
}

export function deleteMember(db: Db, id: number): void {
  db.prepare('DELETE FROM members WHERE id = ?').run(id)
}

/** Removes the user's memberships of these groups (`Namespace`) or projects; the source ids it removed. */
export function deleteMemberships(
  db: Db,
  userId: number,
  sourceType: 'Namespace' | 'Project',
  sourceIds: readonly number[],
): number[] {
  if (sourceIds.length === 0) return []
  const gone = db
    .prepare(
      'DELETE FROM members WHERE user_id = ? AND source_type = ? AND source_id IN (SELECT value FROM json_each(?)) RETURNING source_id',
    )
    .all(userId, sourceType, JSON.stringify(sourceIds)) as { source_id: number }[]
  return gone.map((m) => m.source_id)
}

/** Removes the memberships whose expiry date has passed (SQLite's date, UTC); what it removed. */
export function deleteExpiredMembers(db: Db): { source_type: string; source_id: number; user_id: number }[] {
  return db
    .prepare(
      `DELETE FROM members WHERE expires_at IS NOT NULL AND expires_at < date('now') RETURNING source_type, source_id, user_id`,
    )
    .all() as { source_type: string; source_id: number; user_id: number }[]
}

/** Ids of the group and every group below it, and of every project in them. */
export function hierarchyIds(db: Db, groupId: number): { groupIds: number[]; projectIds: number[] } {
  const groups = db
    .prepare(
      `WITH RECURSIVE down(id) AS (SELECT ? UNION ALL SELECT n.id FROM namespaces n JOIN down ON n.parent_id = down.id) SELECT id FROM down`,
    )
    .all(groupId) as { id: number }[]
  const groupIds = groups.map((g) => g.id)
  const projects = db.prepare(`SELECT id FROM projects WHERE namespace_id IN (${groupIds.join(', ')})`).all() as {
    id: number
  }[]
  return { groupIds, projectIds: projects.map((p) => p.id) }
}

/** A user's direct membership rows (unexpired) inside a group hierarchy, groups first. */
export function membershipsInHierarchy(db: Db, groupId: number, userId: number): MemberRow[] {
  const { groupIds, projectIds } = hierarchyIds(db, groupId)
  const projectList = projectIds.length > 0 ? projectIds.join(', ') : '-1'
  return db
    .prepare(
      `SELECT * FROM members WHERE user_id = ? AND ${ACTIVE} AND (
         (source_type = 'Namespace' AND source_id IN (${groupIds.join(', ')})) OR (source_type = 'Project' AND source_id IN (${projectList})))
       ORDER BY source_type = 'Project', id`,
    )
    .all(userId) as MemberRow[]
}

/** Number of direct owners (level 50, unexpired, not blocked) of a group and its ancestors. */
export function ownerCountWithAncestors(db: Db, groupId: number): number {
  const row = db
    .prepare(
      `WITH RECURSIVE up(id) AS (SELECT ? UNION SELECT n.parent_id FROM namespaces n JOIN up ON n.id = up.id WHERE n.parent_id IS NOT NULL)
       SELECT COUNT(DISTINCT m.user_id) AS n FROM members m JOIN users u ON u.id = m.user_id
       WHERE m.source_type = 'Namespace' AND m.source_id IN (SELECT id FROM up) AND m.access_level = 50
         AND (m.expires_at IS NULL OR m.expires_at >= date('now')) AND u.state = 'active'`,
    )
    .get(groupId) as { n: number }
  return row.n
}

/** Memberships of one user (any source), paged, optionally by source type, for the admin view. */
export function listUserMemberships(
  db: Db,
  userId: number,
  type: MemberSourceType | undefined,
  window: Window,
): { rows: MemberRow[]; total: number } {
  const typeCond = type ? 'AND source_type = @type' : ''
  const params = { user: userId, type: type ?? null, limit: window.limit, offset: window.offset }
  const { total } = db
    .prepare(`SELECT COUNT(*) AS total FROM members WHERE user_id = @user AND ${ACTIVE} ${typeCond}`)
    .get(params) as { total: number }
  const rows = db
    .prepare(
      `SELECT * FROM members WHERE user_id = @user AND ${ACTIVE} ${typeCond} ORDER BY id LIMIT @limit OFFSET @offset`,
    )
    .all(params) as MemberRow[]
  return { rows, total }
}

/** Names and paths of member sources, for membership entities. */
export interface SourceNames {
  readonly name: string
  readonly full_name: string
  readonly full_path: string
}

/** Names of the given groups and projects, keyed `Namespace:id` / `Project:id`, in two queries. */
export function sourceNames(
  db: Db,
  rows: readonly Pick<MemberRow, 'source_type' | 'source_id'>[],
): Map<string, SourceNames> {
  const map = new Map<string, SourceNames>()
  const groupIds = [...new Set(rows.filter((r) => r.source_type === 'Namespace').map((r) => r.source_id))]
  const projectIds = [...new Set(rows.filter((r) => r.source_type === 'Project').map((r) => r.source_id))]
  if (groupIds.length > 0) {
    const gs = db
      .prepare(`SELECT id, name, full_name, full_path FROM namespaces WHERE id IN (${groupIds.join(', ')})`)
      .all() as (SourceNames & { id: number })[]
    for (const g of gs) map.set(`Namespace:${g.id}`, g)
  }
  if (projectIds.length > 0) {
    const ps = db
      .prepare(
        `SELECT p.id, p.name, n.full_name || ' / ' || p.name AS full_name, n.full_path || '/' || p.path AS full_path
         FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE p.id IN (${projectIds.join(', ')})`,
      )
      .all() as (SourceNames & { id: number })[]
    for (const p of ps) map.set(`Project:${p.id}`, p)
  }
  return map
}

// ---- Access requests -------------------------------------------------------------------------

export interface AccessRequestRow {
  readonly id: number
  readonly source_type: MemberSourceType
  readonly source_id: number
  readonly user_id: number
  readonly requested_at: string
  readonly created_at: string
}

/** Pending access requests of a source with their users, oldest first. */
export function listAccessRequests(
  db: Db,
  source: SourceRef,
  window: Window,
): { rows: { request: AccessRequestRow; user: UserRow }[]; total: number } {
  const { total } = db
    .prepare('SELECT COUNT(*) AS total FROM access_requests WHERE source_type = ? AND source_id = ?')
    .get(source.type, source.id) as { total: number }
  const rows = db
    .prepare(
      `SELECT u.*, a.id AS m_id, a.source_type AS m_source_type, a.source_id AS m_source_id, a.user_id AS m_user_id,
              a.requested_at AS m_requested_at, a.created_at AS m_created_at
       FROM access_requests a JOIN users u ON u.id = a.user_id
       WHERE a.source_type = ? AND a.source_id = ? ORDER BY a.id LIMIT ? OFFSET ?`,
    )
    .all(source.type, source.id, window.limit, window.offset) as (UserRow & Prefixed<AccessRequestRow>)[]
  return {
    rows: rows.map(
      ({
        m_id: id,
        m_source_type: source_type,
        m_source_id: source_id,
        m_user_id: user_id,
        m_requested_at: requested_at,
        m_created_at: created_at,
        ...user
      }) => ({
        user,
        request: { id, source_type, source_id, user_id, requested_at, created_at },
      }),
    ),
    total,
  }
}

export function findAccessRequest(db: Db, source: SourceRef, userId: number): AccessRequestRow | undefined {
  return db
    .prepare('SELECT * FROM access_requests WHERE source_type = ? AND source_id = ? AND user_id = ?')
    .get(source.type, source.id, userId) as AccessRequestRow | undefined
}

export function insertAccessRequest(db: Db, source: SourceRef, userId: number): AccessRequestRow {
  const now = nowIso()
  const info = db
    .prepare(
      'INSERT INTO access_requests (source_type, source_id, user_id, requested_at, created_at) VALUES (?, ?, ?, ?, ?)',
    )
    .run(source.type, source.id, userId, now, now)
  return db.prepare('SELECT * FROM access_requests WHERE id = ?').get(Number(info.lastInsertRowid)) as AccessRequestRow
}

export function deleteAccessRequest(db: Db, source: SourceRef, userId: number): void {
  db.prepare('DELETE FROM access_requests WHERE source_type = ? AND source_id = ? AND user_id = ?').run(
    source.type,
    source.id,
    userId,
  )
}

// ---- Billable members ------------------------------------------------------------------------

/** A billable user with how they reach the group and their highest level there. */
export interface BillableRow {
  readonly user: UserRow
  /** True when the user has a direct membership somewhere in the hierarchy. */
  readonly direct: boolean
  readonly maxAccessLevel: number
}

export type BillableSort =
  | 'access_level_asc'
  | 'access_level_desc'
  | 'last_joined'
  | 'name_asc'
  | 'name_desc'
  | 'oldest_joined'
  | 'oldest_sign_in'
  | 'recent_sign_in'
  | 'last_activity_on_asc'
  | 'last_activity_on_desc'
  | 'id_asc'

export const BILLABLE_SORTS: readonly BillableSort[] = [
  'access_level_asc',
  'access_level_desc',
  'last_joined',
  'name_asc',
  'name_desc',
  'oldest_joined',
  'oldest_sign_in',
  'recent_sign_in',
  'last_activity_on_asc',
  'last_activity_on_desc',
]

const BILLABLE_ORDER: Readonly<Record<BillableSort, string>> = {
  access_level_asc: 'b.lvl ASC, u.id ASC',
  access_level_desc: 'b.lvl DESC, u.id ASC',
  // "Joined" is when the user joined the instance (users.created_at), as GitLab sorts users.
  last_joined: 'u.created_at DESC, u.id DESC',
  oldest_joined: 'u.created_at ASC, u.id ASC',
  name_asc: 'u.name COLLATE NOCASE ASC, u.id ASC',
  name_desc: 'u.name COLLATE NOCASE DESC, u.id DESC',
  oldest_sign_in: 'u.last_sign_in_at IS NULL, u.last_sign_in_at ASC, u.id ASC',
  recent_sign_in: 'u.last_sign_in_at IS NULL, u.last_sign_in_at DESC, u.id DESC',
  last_activity_on_asc: 'u.last_activity_on IS NULL, u.last_activity_on ASC, u.id ASC',
  last_activity_on_desc: 'u.last_activity_on IS NULL, u.last_activity_on DESC, u.id DESC',
  id_asc: 'u.id ASC',
}

/**
 * Billable users of a top-level group: direct members of the group, its subgroups and projects,
 * and members of groups invited to any of them, humans only, each once.
 */
const BILLABLE_CTE = `
  tree(id) AS (SELECT @group UNION ALL SELECT n.id FROM namespaces n JOIN tree ON n.parent_id = tree.id),
  tree_projects(id) AS (SELECT p.id FROM projects p WHERE p.namespace_id IN (SELECT id FROM tree)),
  invited(group_id) AS (
    SELECT shared_with_group_id FROM group_group_links WHERE shared_group_id IN (SELECT id FROM tree) AND ${ACTIVE}
    UNION SELECT group_id FROM project_group_links WHERE project_id IN (SELECT id FROM tree_projects) AND ${ACTIVE}
  ),
  invited_up(id) AS (SELECT group_id FROM invited UNION SELECT n.parent_id FROM namespaces n JOIN invited_up i ON n.id = i.id WHERE n.parent_id IS NOT NULL),
  ways(user_id, direct, lvl) AS (
    SELECT user_id, 1, access_level FROM members WHERE ${ACTIVE} AND (
      (source_type = 'Namespace' AND source_id IN (SELECT id FROM tree)) OR (source_type = 'Project' AND source_id IN (SELECT id FROM tree_projects)))
    UNION ALL
    SELECT user_id, 0, access_level FROM members WHERE ${ACTIVE} AND source_type = 'Namespace' AND source_id IN (SELECT id FROM invited_up)
  ),
  billable(user_id, direct, lvl) AS (SELECT user_id, MAX(direct), MAX(lvl) FROM ways GROUP BY user_id)`

/** Billable members of a top-level group, searched, sorted and paged in SQL. */
export function listBillableMembers(
  db: Db,
  groupId: number,
  search: string | undefined,
  sort: BillableSort,
  window: Window,
): { rows: BillableRow[]; total: number } {
  const params: Record<string, unknown> = { group: groupId, limit: window.limit, offset: window.offset }
  const filter = filterSql({ query: search }, params)
  const from = `FROM billable b JOIN users u ON u.id = b.user_id WHERE u.user_type = 'human' AND ${filter}`
  const { total } = db.prepare(`WITH RECURSIVE ${BILLABLE_CTE} SELECT COUNT(*) AS total ${from}`).get(params) as {
    total: number
  }
  const rows = db
    .prepare(
      `WITH RECURSIVE ${BILLABLE_CTE} SELECT u.*, b.direct AS m_direct, b.lvl AS m_lvl ${from} ORDER BY ${BILLABLE_ORDER[sort]} LIMIT @limit OFFSET @offset`,
    )
    .all(params) as (UserRow & Prefixed<{ direct: number; lvl: number }>)[]
  return {
    rows: rows.map(({ m_direct, m_lvl, ...user }) => ({ user, direct: m_direct === 1, maxAccessLevel: m_lvl })),
    total,
  }
}

/** Whether the user is billable in the top-level group (see listBillableMembers). */
export function isBillableMember(db: Db, groupId: number, userId: number): boolean {
  const row = db
    .prepare(
      `WITH RECURSIVE ${BILLABLE_CTE} SELECT 1 AS ok FROM billable b JOIN users u ON u.id = b.user_id WHERE b.user_id = @user AND u.user_type = 'human'`,
    )
    .get({ group: groupId, user: userId })
  return row !== undefined
}

/** Adds a member to a project unless the user already is one (INSERT OR IGNORE). */
export function addProjectMemberIfAbsent(
  db: Db,
  projectId: number,
  userId: number,
  accessLevel: number,
  createdById: number | null,
): void {
  const now = nowIso()
  db.prepare(
    `INSERT OR IGNORE INTO members (source_type, source_id, user_id, access_level, created_by_id, created_at, updated_at)
     VALUES ('Project', ?, ?, ?, ?, ?, ?)`,
  ).run(projectId, userId, accessLevel, createdById, now, now)
}
