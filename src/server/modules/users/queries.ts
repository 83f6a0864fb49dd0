import type { Db } from '../../platform/db/connection'
import { allRows, cachedStatement, escapeLike } from '../../platform/db/statements'
import { nowIso } from '../../platform/db/connection'
import { deleteIidCounters } from '../../platform/db/internal-ids'
import type { UserRow } from '../../platform/db/rows'

export {
  findUserById,
  findUserByIdOrUsername,
  findUserByUsername,
  recordFailedSignIn,
  unlockUser,
} from '../../platform/db/platform-queries'
import { findUserById } from '../../platform/db/platform-queries'

export function findUserByEmail(db: Db, email: string): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE email = ?').get(email) as UserRow | undefined
}

export interface NewUser {
  readonly username: string
  readonly name: string
  readonly email: string
  readonly password_hash: string | null
  readonly is_admin?: boolean
  readonly user_type?: string
  readonly confirmed?: boolean
  readonly [column: string]: unknown
}

/** Columns of `users` that `insertUser` and `updateUser` accept. */
export const USER_COLUMNS = new Set([
  'username',
  'name',
  'email',
  'password_hash',
  'password_reset_digest',
  'state',
  'is_admin',
  'is_auditor',
  'user_type',
  'external',
  'bio',
  'location',
  'public_email',
  'skype',
  'linkedin',
  'twitter',
  'discord',
  'website_url',
  'organization',
  'job_title',
  'pronouns',
  'note',
  'avatar_url',
  'private_profile',
  'projects_limit',
  'can_create_group',
  'theme_id',
  'color_scheme_id',
  'two_factor_enabled',
  'commit_email',
  'view_diffs_file_by_file',
  'shared_runners_minutes_limit',
  'extra_shared_runners_minutes_limit',
  'provisioned_by_group_id',
  'confirmed_at',
  'last_sign_in_at',
  'current_sign_in_at',
  'last_sign_in_ip',
  'current_sign_in_ip',
  'sign_in_count',
  'last_activity_on',
])

function sqlValue(v: unknown): unknown {
  if (typeof v === 'boolean') return v ? 1 : 0
  return v
}

/**
 * Inserts a user and its personal namespace in one transaction. Unknown keys are ignored;
 * booleans become 0/1. Returns the new row.
 */
export function insertUser(db: Db, user: NewUser): UserRow {
  const now = nowIso()
  const values: Record<string, unknown> = { created_at: now, updated_at: now }
  for (const [k, v] of Object.entries(user)) {
    if (k === 'confirmed') continue
    if (USER_COLUMNS.has(k) && v !== undefined) values[k] = sqlValue(v)
  }
  if (user.confirmed !== false && values.confirmed_at === undefined) values.confirmed_at = now
  const cols = Object.keys(values)
  return db.transaction(() => {
    const info = db
      .prepare(`INSERT INTO users (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')})`)
      .run(values)
    const id = Number(info.lastInsertRowid)
    db.prepare(
      `INSERT INTO namespaces (kind, name, path, full_path, full_name, owner_id, visibility, created_at, updated_at)
       VALUES ('user', ?, ?, ?, ?, ?, 'public', ?, ?)`,
    ).run(user.name, user.username, user.username, user.name, id, now, now)
    return findUserById(db, id) as UserRow
  })()
}

/** Updates the given columns (unknown keys ignored) and keeps the personal namespace in step. */
export function updateUser(db: Db, id: number, changes: Readonly<Record<string, unknown>>): UserRow {
  const values: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(changes)) if (USER_COLUMNS.has(k) && v !== undefined) values[k] = sqlValue(v)
  return db.transaction(() => {
    if (Object.keys(values).length > 0) {
      values.updated_at = nowIso()
      const sets = Object.keys(values).map((c) => `${c} = @${c}`)
      db.prepare(`UPDATE users SET ${sets.join(', ')} WHERE id = @id`).run({ ...values, id })
      if (values.username !== undefined || values.name !== undefined) {
        const row = findUserById(db, id) as UserRow
        db.prepare(
          `UPDATE namespaces SET name = ?, path = ?, full_path = ?, full_name = ?, updated_at = ? WHERE kind = 'user' AND owner_id = ?`,
        ).run(row.name, row.username, row.username, row.name, nowIso(), id)
      }
    }
    return findUserById(db, id) as UserRow
  })()
}

/** The personal namespace id of a user. */
export function userNamespaceId(db: Db, userId: number): number | undefined {
  const row = db.prepare(`SELECT id FROM namespaces WHERE kind = 'user' AND owner_id = ?`).get(userId) as
    { id: number } | undefined
  return row?.id
}

/** User types GitLab treats as internal (never people, never billable). */
export const INTERNAL_USER_TYPES: readonly string[] = [
  'ghost',
  'support_bot',
  'alert_bot',
  'visual_review_bot',
  'migration_bot',
  'security_bot',
  'automation_bot',
  'security_policy_bot',
  'admin_bot',
  'suggested_reviewers_bot',
  'llm_bot',
  'duo_code_review_bot',
]

/** Filters of `GET /users`, already validated; admin-only ones are left undefined for others. */
export interface UserListFilter {
  readonly username?: string
  readonly search?: string
  /** Whether `search` may match private (primary and secondary) emails. */
  readonly searchEmails: boolean
  readonly active?: boolean
  readonly blocked?: boolean
  readonly external?: boolean
  readonly excludeExternal?: boolean
  readonly excludeInternal?: boolean
  readonly humans?: boolean
  readonly excludeHumans?: boolean
  readonly withoutProjectBots?: boolean
  readonly admins?: boolean
  readonly twoFactor?: 'enabled' | 'disabled'
  readonly withoutProjects?: boolean
  readonly externUid?: string
  readonly provider?: string
  /** Users with an identity from this SAML provider (GitLab Premium's `saml_provider_id`). */
  readonly samlProviderId?: number
  readonly createdBefore?: string
  readonly createdAfter?: string
  readonly customAttributes?: Readonly<Record<string, string>>
}

export type UserOrderColumn = 'id' | 'name' | 'username' | 'created_at' | 'updated_at'

export interface UserListOrder {
  readonly orderBy: UserOrderColumn
  readonly sort: 'asc' | 'desc'
}

/** `WHERE` clause and named parameters for a user list filter (table alias `u`). */
function userFilterSql(f: UserListFilter): { where: string; params: Record<string, unknown>; ctes: string[] } {
  const clauses: string[] = []
  const ctes: string[] = []
  const params: Record<string, unknown> = {}
  if (f.username !== undefined) {
    clauses.push('u.username = @username')
    params.username = f.username
  }
  if (f.search !== undefined && f.search !== '') {
    params.search = f.search
    params.searchLike = `%${escapeLike(f.search)}%`
    const emailMatch = f.searchEmails
      ? `OR u.email = @search OR EXISTS (SELECT 1 FROM user_emails e WHERE e.user_id = u.id AND e.email = @search)`
      : `OR (u.public_email <> '' AND u.public_email = @search COLLATE NOCASE)`
    clauses.push(`(u.name LIKE @searchLike ESCAPE '\\' OR u.username LIKE @searchLike ESCAPE '\\' ${emailMatch})`)
  }
  if (f.active) clauses.push(`u.state = 'active'`)
  if (f.blocked) clauses.push(`u.state IN ('blocked', 'ldap_blocked')`)
  if (f.external) clauses.push('u.external = 1')
  if (f.excludeExternal) clauses.push('u.external = 0')
  const internal = INTERNAL_USER_TYPES.map((t) => `'${t}'`).join(', ')
  if (f.excludeInternal) clauses.push(`u.user_type NOT IN (${internal})`)
  if (f.humans) clauses.push(`u.user_type = 'human'`)
  if (f.excludeHumans) clauses.push(`u.user_type <> 'human'`)
  if (f.withoutProjectBots) clauses.push(`u.user_type <> 'project_bot'`)
  if (f.admins) clauses.push('u.is_admin = 1')
  if (f.twoFactor === 'enabled') clauses.push('u.two_factor_enabled = 1')
  if (f.twoFactor === 'disabled') clauses.push('u.two_factor_enabled = 0')
  if (f.withoutProjects) {
    // Namespaces holding a project themselves or anywhere below them: membership of any of
    // them (or owning one) gives the user a project.
    ctes.push(`ns_with_projects(id) AS (
      SELECT namespace_id FROM projects
      UNION SELECT n.parent_id FROM namespaces n JOIN ns_with_projects w ON n.id = w.id WHERE n.parent_id IS NOT NULL)`)
    clauses.push(`NOT EXISTS (SELECT 1 FROM members m WHERE m.user_id = u.id AND m.source_type = 'Project')
      AND NOT EXISTS (SELECT 1 FROM members m JOIN ns_with_projects w ON w.id = m.source_id WHERE m.user_id = u.id AND m.source_type = 'Namespace')
      AND NOT EXISTS (SELECT 1 FROM namespaces n JOIN ns_with_projects w ON w.id = n.id WHERE n.kind = 'user' AND n.owner_id = u.id)`)
  }
  if (f.externUid !== undefined && f.provider !== undefined) {
    clauses.push(
      'EXISTS (SELECT 1 FROM identities i WHERE i.user_id = u.id AND i.extern_uid = @externUid AND i.provider = @provider)',
    )
    params.externUid = f.externUid
    params.provider = f.provider
  }
  if (f.samlProviderId !== undefined) {
    clauses.push('EXISTS (SELECT 1 FROM identities i WHERE i.user_id = u.id AND i.saml_provider_id = @samlProviderId)')
    params.samlProviderId = f.samlProviderId
  }
  if (f.createdBefore !== undefined) {
    clauses.push('u.created_at < @createdBefore')
    params.createdBefore = f.createdBefore
  }
  if (f.createdAfter !== undefined) {
    clauses.push('u.created_at > @createdAfter')
    params.createdAfter = f.createdAfter
  }
  let n = 0
  for (const [key, value] of Object.entries(f.customAttributes ?? {})) {
    n += 1
    clauses.push(
      `EXISTS (SELECT 1 FROM user_custom_attributes c WHERE c.user_id = u.id AND c.key = @ck${n} AND c.value = @cv${n})`,
    )
    params[`ck${n}`] = key
    params[`cv${n}`] = value
  }
  return { where: clauses.length > 0 ? clauses.join(' AND ') : '1', params, ctes }
}

/** One offset page of users matching the filter, with the total count. */
export function listUsers(
  db: Db,
  f: UserListFilter,
  order: UserListOrder,
  limit: number,
  offset: number,
): { rows: UserRow[]; total: number } {
  const { where, params, ctes } = userFilterSql(f)
  const withSql = ctes.length > 0 ? `WITH RECURSIVE ${ctes.join(', ')} ` : ''
  const total = (
    cachedStatement(db, `${withSql}SELECT COUNT(*) AS n FROM users u WHERE ${where}`).get(params) as { n: number }
  ).n
  const dir = order.sort === 'asc' ? 'ASC' : 'DESC'
  const tie = order.orderBy === 'id' ? '' : `, u.id ${dir}`
  const rows = allRows<UserRow>(
    db,
    `${withSql}SELECT u.* FROM users u WHERE ${where} ORDER BY u.${order.orderBy} ${dir}${tie} LIMIT @limit OFFSET @offset`,
    { ...params, limit, offset },
  )
  return { rows, total }
}

/** One keyset page of users ordered by id, after (asc) or before (desc) the cursor. */
export function listUsersKeyset(
  db: Db,
  f: UserListFilter,
  sort: 'asc' | 'desc',
  cursor: number | undefined,
  limit: number,
): UserRow[] {
  const { where, params, ctes } = userFilterSql(f)
  const withSql = ctes.length > 0 ? `WITH RECURSIVE ${ctes.join(', ')} ` : ''
  const keyset = cursor === undefined ? '' : sort === 'asc' ? ' AND u.id > @cursor' : ' AND u.id < @cursor'
  return allRows<UserRow>(
    db,
    `${withSql}SELECT u.* FROM users u WHERE ${where}${keyset} ORDER BY u.id ${sort === 'asc' ? 'ASC' : 'DESC'} LIMIT @limit`,
    { ...params, cursor: cursor ?? null, limit },
  )
}

export interface IdentityRow {
  readonly user_id: number
  readonly provider: string
  readonly extern_uid: string
  readonly saml_provider_id: number | null
}

/** Identities of many users at once, grouped by user id. */
export function identitiesByUser(db: Db, userIds: readonly number[]): Map<number, IdentityRow[]> {
  const byUser = new Map<number, IdentityRow[]>()
  if (userIds.length === 0) return byUser
  const rows = cachedStatement(
    db,
    `SELECT user_id, provider, extern_uid, saml_provider_id FROM identities WHERE user_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
  ).all(JSON.stringify(userIds)) as IdentityRow[]
  for (const r of rows) byUser.set(r.user_id, [...(byUser.get(r.user_id) ?? []), r])
  return byUser
}

/** Creates or replaces the user's identity for `provider`. */
export function upsertIdentity(db: Db, userId: number, provider: string, externUid: string): void {
  db.prepare('DELETE FROM identities WHERE user_id = ? AND provider = ?').run(userId, provider)
  db.prepare('INSERT INTO identities (user_id, provider, extern_uid) VALUES (?, ?, ?)').run(userId, provider, externUid)
}

/** True when another user already holds this (provider, extern_uid) pair. */
export function identityTaken(db: Db, provider: string, externUid: string, exceptUserId: number | null): boolean {
  const row = db
    .prepare('SELECT user_id FROM identities WHERE provider = ? AND extern_uid = ?')
    .get(provider, externUid) as { user_id: number } | undefined
  return row !== undefined && row.user_id !== exceptUserId
}

export interface CustomAttribute {
  readonly key: string
  readonly value: string
}

/** Custom attributes of many users at once, grouped by user id. */
export function customAttributesByUser(db: Db, userIds: readonly number[]): Map<number, CustomAttribute[]> {
  const byUser = new Map<number, CustomAttribute[]>()
  if (userIds.length === 0) return byUser
  const rows = db
    .prepare(
      `SELECT user_id, key, value FROM user_custom_attributes WHERE user_id IN (SELECT value FROM json_each(?)) ORDER BY key`,
    )
    .all(JSON.stringify(userIds)) as (CustomAttribute & { user_id: number })[]
  for (const r of rows) byUser.set(r.user_id, [...(byUser.get(r.user_id) ?? []), { key: r.key, value: r.value }])
  return byUser
}

/** Follower and following counts of one user. */
export function followCounts(db: Db, userId: number): { followers: number; following: number } {
  const row = db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM user_follows WHERE followee_id = @id) AS followers,
              (SELECT COUNT(*) FROM user_follows WHERE follower_id = @id) AS following`,
    )
    .get({ id: userId }) as { followers: number; following: number }
  return row
}

/** Follower and following counts of many users at once (users without follows are absent). */
export function followCountsByUser(
  db: Db,
  userIds: readonly number[],
): Map<number, { followers: number; following: number }> {
  const counts = new Map<number, { followers: number; following: number }>()
  if (userIds.length === 0) return counts
  const rows = cachedStatement(
    db,
    `SELECT id, SUM(followers) AS followers, SUM(following) AS following FROM (
       SELECT followee_id AS id, COUNT(*) AS followers, 0 AS following FROM user_follows WHERE followee_id IN (SELECT value FROM json_each(@ids)) GROUP BY followee_id
       UNION ALL
       SELECT follower_id AS id, 0, COUNT(*) FROM user_follows WHERE follower_id IN (SELECT value FROM json_each(@ids)) GROUP BY follower_id
     ) GROUP BY id`,
  ).all({ ids: JSON.stringify(userIds) }) as { id: number; followers: number; following: number }[]
  for (const r of rows) counts.set(r.id, { followers: r.followers, following: r.following })
  return counts
}

/** True when `followerId` follows `followeeId`. */
export function isFollowing(db: Db, followerId: number, followeeId: number): boolean {
  return (
    db.prepare('SELECT 1 FROM user_follows WHERE follower_id = ? AND followee_id = ?').get(followerId, followeeId) !==
    undefined
  )
}

/** True when the email is any user's primary or secondary email (optionally ignoring one user). */
export function emailTaken(db: Db, email: string, exceptUserId: number | null): boolean {
  const row = db
    .prepare(
      `SELECT id FROM users WHERE email = @email AND id IS NOT @except
       UNION ALL SELECT user_id FROM user_emails WHERE email = @email AND user_id IS NOT @except LIMIT 1`,
    )
    .get({ email, except: exceptUserId })
  return row !== undefined
}

/** True when the username is another user's (case-insensitive). */
export function usernameTaken(db: Db, username: string, exceptUserId: number | null): boolean {
  return db.prepare('SELECT 1 FROM users WHERE username = ? AND id IS NOT ?').get(username, exceptUserId) !== undefined
}

/** True when a namespace other than the user's own already has this top-level path. */
export function namespacePathTaken(db: Db, path: string, exceptUserId: number | null): boolean {
  return (
    db
      .prepare(`SELECT 1 FROM namespaces WHERE full_path = ? AND NOT (kind = 'user' AND owner_id IS ?)`)
      .get(path, exceptUserId) !== undefined
  )
}

/** Groups in which the user is the only direct Owner (GitLab refuses to remove such users). */
/** The projects of a user's personal namespace, with where their repositories are stored. */
export function personalProjectStorages(db: Db, userId: number): { id: number; repository_storage: string }[] {
  return db
    .prepare(
      `SELECT p.id, p.repository_storage FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE n.kind = 'user' AND n.owner_id = ?`,
    )
    .all(userId) as { id: number; repository_storage: string }[]
}

export function soleOwnedGroupIds(db: Db, userId: number): number[] {
  const rows = db
    .prepare(
      `SELECT m.source_id AS id FROM members m
       WHERE m.user_id = ? AND m.source_type = 'Namespace' AND m.access_level >= 50
         AND NOT EXISTS (SELECT 1 FROM members o WHERE o.source_type = 'Namespace' AND o.source_id = m.source_id
                         AND o.access_level >= 50 AND o.user_id <> m.user_id)`,
    )
    .all(userId) as { id: number }[]
  return rows.map((r) => r.id)
}

/** Counts a sign-in from `ip` now, keeping the previous one as the last (GitLab's trackable columns). */
export function recordSignIn(db: Db, userId: number, ip: string): void {
  db.prepare(
    `UPDATE users SET sign_in_count = sign_in_count + 1, last_sign_in_at = current_sign_in_at, current_sign_in_at = ?,
     last_sign_in_ip = current_sign_in_ip, current_sign_in_ip = ? WHERE id = ?`,
  ).run(new Date().toISOString(), ip, userId)
}

/** The ghost user that inherits contributions of deleted users, created on first need. */
export function ghostUser(db: Db): UserRow {
  const existing = db.prepare(`SELECT * FROM users WHERE user_type = 'ghost' ORDER BY id LIMIT 1`).get() as
    UserRow | undefined
  if (existing) return existing
  let username = 'ghost'
  for (let i = 1; usernameTaken(db, username, null) || namespacePathTaken(db, username, null); i += 1)
    username = `ghost${i}`
  return insertUser(db, {
    username,
    name: 'Ghost User',
    email: `${username}@example.com`,
    password_hash: null,
    user_type: 'ghost',
    state: 'blocked',
    bio: 'This is a "Ghost User", created to hold all issues authored by users that have since been deleted. This user cannot be removed.',
  })
}

/** Tables whose rows belong to the user and go with it, whatever their foreign-key action. */
const OWNED_BY_USER = new Set([
  'user_emails',
  'identities',
  'user_custom_attributes',
  'user_follows',
  'personal_access_tokens',
  'oauth_access_tokens',
  'members',
  'access_requests',
  'namespaces',
])

interface ForeignKeyInfo {
  readonly table: string
  readonly from: string
  readonly to: string | null
  readonly on_delete: string
}

/**
 * Deletes a user. References to the user that would block the deletion (foreign keys without
 * ON DELETE action, in tables other than the user's own) are handed to the ghost user, or, with
 * `hardDelete`, deleted along with the user. Cascading references (the personal namespace and its
 * projects, memberships, tokens, events) go with the user. Returns the ids of the projects removed.
 */
export function deleteUser(db: Db, userId: number, hardDelete: boolean): number[] {
  return db.transaction(() => {
    const nsId = userNamespaceId(db, userId)
    const projectIds = nsId
      ? (db.prepare('SELECT id FROM projects WHERE namespace_id = ?').all(nsId) as { id: number }[]).map((r) => r.id)
      : []
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
      .all() as { name: string }[]
    let ghostId: number | null = null
    for (const { name } of tables) {
      if (name === 'users' || OWNED_BY_USER.has(name)) continue
      const fks = db.prepare(`SELECT * FROM pragma_foreign_key_list(?)`).all(name) as ForeignKeyInfo[]
      for (const fk of fks) {
        if (fk.table !== 'users' || (fk.to !== null && fk.to !== 'id')) continue
        if (fk.on_delete === 'CASCADE' || fk.on_delete === 'SET NULL' || fk.on_delete === 'SET DEFAULT') continue
        if (hardDelete) {
          db.prepare(`DELETE FROM "${name}" WHERE "${fk.from}" = ?`).run(userId)
        } else {
          ghostId ??= ghostUser(db).id
          db.prepare(`UPDATE "${name}" SET "${fk.from}" = ? WHERE "${fk.from}" = ?`).run(ghostId, userId)
        }
      }
    }
    deleteIidCounters(db, { projectIds })
    if (nsId) db.prepare('DELETE FROM namespaces WHERE id = ?').run(nsId)
    db.prepare('DELETE FROM users WHERE id = ?').run(userId)
    return projectIds
  })()
}

/** Personal namespace ids of many users at once. */
export function userNamespaceIds(db: Db, userIds: readonly number[]): Map<number, number> {
  const ids = new Map<number, number>()
  if (userIds.length === 0) return ids
  const rows = cachedStatement(
    db,
    `SELECT owner_id, id FROM namespaces WHERE kind = 'user' AND owner_id IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(userIds)) as { owner_id: number; id: number }[]
  for (const r of rows) ids.set(r.owner_id, r.id)
  return ids
}

/** Users by id, in one query (one statement whatever the ids: they are bound as a JSON array). */
export function usersByIds(db: Db, ids: readonly number[]): Map<number, UserRow> {
  const unique = [...new Set(ids.filter((id) => Number.isInteger(id)))]
  if (unique.length === 0) return new Map()
  const rows = allRows<UserRow>(db, 'SELECT * FROM users WHERE id IN (SELECT value FROM json_each(?))', [
    JSON.stringify(unique),
  ])
  return new Map(rows.map((r) => [r.id, r]))
}
