import type { Db } from './connection'
import type { NamespaceRow, OAuthTokenRow, PersonalAccessTokenRow, ProjectRow, UserRow, Visibility } from './rows'
import { cachedStatement, memoizedAll } from './statements'

// The rows the platform itself reads and writes: the caller behind a token (users, tokens, the
// sign-in lock), and the project, group or user an `:id` names. The modules that own these tables
// (users, tokens, namespaces, projects) re-export them, so both layers use one statement each.

// ---- Users ----

/** A user by id. */
export function findUserById(db: Db, id: number): UserRow | undefined {
  return cachedStatement(db, 'SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined
}

/**
 * Every time at which a sign-in lock runs out (`locked_until`), earliest first: the moments a
 * user's `locked` flag changes without a write. Read again only after the database changed.
 */
export function lockExpiryTimes(db: Db): readonly string[] {
  return memoizedAll<{ t: string }>(
    db,
    'SELECT DISTINCT locked_until AS t FROM users WHERE locked_until IS NOT NULL ORDER BY t',
    [],
  ).map((r) => r.t)
}

/** Case-insensitive username lookup. */
export function findUserByUsername(db: Db, username: string): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE username = ?').get(username) as UserRow | undefined
}

/** Looks a user up by integer id or by case-insensitive username, as `sudo` and `:id` accept. */
export function findUserByIdOrUsername(db: Db, key: string | number): UserRow | undefined {
  const text = String(key)
  if (/^\d+$/.test(text)) return findUserById(db, Number(text))
  return findUserByUsername(db, text)
}

/**
 * Counts a wrong password (Devise's increment_failed_attempts) and, when this one reaches
 * `maxAttempts`, locks the account until `lockedUntil` (Devise's lock_access!). One statement, so
 * concurrent wrong passwords all count.
 */
export function recordFailedSignIn(db: Db, userId: number, maxAttempts: number, lockedUntil: string): void {
  cachedStatement(
    db,
    `UPDATE users SET failed_attempts = failed_attempts + 1,
       locked_until = CASE WHEN failed_attempts + 1 >= @maxAttempts AND locked_until IS NULL THEN @lockedUntil ELSE locked_until END
     WHERE id = @userId`,
  ).run({ userId, maxAttempts, lockedUntil })
}

/** Notes the day a user last used the API (GitLab's `last_activity_on`). */
export function touchUserActivity(db: Db, userId: number, day: string): void {
  cachedStatement(db, 'UPDATE users SET last_activity_on = ? WHERE id = ?').run(day, userId)
}

/** Clears the wrong-password count and any lock (Devise's unlock_access!). */
export function unlockUser(db: Db, userId: number): void {
  cachedStatement(db, 'UPDATE users SET failed_attempts = 0, locked_until = NULL WHERE id = ?').run(userId)
}

// ---- Tokens ----

/** A personal, project or group access token by the SHA-256 digest of its secret. */
export function findPersonalTokenByDigest(db: Db, digest: string): PersonalAccessTokenRow | undefined {
  return cachedStatement(db, 'SELECT * FROM personal_access_tokens WHERE token_digest = ?').get(digest) as
    PersonalAccessTokenRow | undefined
}

/** Records use at most once a minute per token, so reads do not turn into writes. */
export function touchPersonalToken(db: Db, token: PersonalAccessTokenRow): void {
  const now = Date.now()
  if (token.last_used_at && now - Date.parse(token.last_used_at) < 60_000) return
  db.prepare('UPDATE personal_access_tokens SET last_used_at = ? WHERE id = ?').run(
    new Date(now).toISOString(),
    token.id,
  )
}

/** An OAuth access token by the SHA-256 digest of its secret. */
export function findOAuthTokenByDigest(db: Db, digest: string): OAuthTokenRow | undefined {
  return cachedStatement(db, 'SELECT * FROM oauth_access_tokens WHERE token_digest = ?').get(digest) as
    OAuthTokenRow | undefined
}

// ---- Namespaces and projects ----

/** A namespace (group or user namespace) by id. */
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

/** A project by id. */
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

/** A project row with the columns of its namespace, as every project list needs them. */
export interface ProjectWithNamespaceRow extends ProjectRow {
  readonly ns_name: string
  readonly ns_path: string
  readonly ns_kind: 'user' | 'group'
  readonly ns_full_path: string
  readonly ns_full_name: string
  readonly ns_parent_id: number | null
  readonly ns_owner_id: number | null
  readonly ns_avatar_url: string | null
  readonly ns_visibility: Visibility
}

/** The columns of a ProjectWithNamespaceRow, for queries that select projects `p` joined to namespaces `n`. */
export const PROJECT_WITH_NAMESPACE_COLUMNS = `p.*, n.name AS ns_name, n.path AS ns_path, n.kind AS ns_kind, n.full_path AS ns_full_path,
  n.full_name AS ns_full_name, n.parent_id AS ns_parent_id, n.owner_id AS ns_owner_id, n.avatar_url AS ns_avatar_url,
  n.visibility AS ns_visibility`

/** `SELECT` of ProjectWithNamespaceRow rows, to be followed by a WHERE clause. */
export const SELECT_PROJECT_WITH_NAMESPACE = `SELECT ${PROJECT_WITH_NAMESPACE_COLUMNS} FROM projects p JOIN namespaces n ON n.id = p.namespace_id`

/** One project with its namespace columns. */
export function findProjectWithNamespace(db: Db, id: number): ProjectWithNamespaceRow | undefined {
  return db.prepare(`${SELECT_PROJECT_WITH_NAMESPACE} WHERE p.id = ?`).get(id) as ProjectWithNamespaceRow | undefined
}

// ---- Instance settings ----

/** Every stored setting, its value as JSON text. */
export function settingRows(db: Db): { readonly key: string; readonly value: string }[] {
  return db.prepare('SELECT key, value FROM settings').all() as { key: string; value: string }[]
}

/** Stores one setting's JSON text, replacing its earlier value. */
export function storeSetting(db: Db, key: string, json: string): void {
  cachedStatement(
    db,
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  ).run(key, json)
}
