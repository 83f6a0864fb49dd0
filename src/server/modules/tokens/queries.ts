import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'
import type { OAuthTokenRow, PersonalAccessTokenRow } from '../../platform/db/rows'
import type { SourceRef } from '../members'

export {
  findOAuthTokenByDigest,
  findPersonalTokenByDigest,
  touchPersonalToken,
} from '../../platform/db/platform-queries'

export function findPersonalTokenById(db: Db, id: number): PersonalAccessTokenRow | undefined {
  return db.prepare('SELECT * FROM personal_access_tokens WHERE id = ?').get(id) as PersonalAccessTokenRow | undefined
}

export interface NewPersonalToken {
  readonly userId: number
  readonly name: string
  readonly description?: string | null
  readonly digest: string
  readonly scopes: readonly string[]
  readonly expiresAt: string | null
  readonly impersonation?: boolean
}

export function insertPersonalToken(db: Db, t: NewPersonalToken): PersonalAccessTokenRow {
  const info = db
    .prepare(
      `INSERT INTO personal_access_tokens (user_id, name, description, token_digest, scopes, impersonation, expires_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      t.userId,
      t.name,
      t.description ?? null,
      t.digest,
      JSON.stringify(t.scopes),
      t.impersonation ? 1 : 0,
      t.expiresAt,
      nowIso(),
    )
  return findPersonalTokenById(db, Number(info.lastInsertRowid)) as PersonalAccessTokenRow
}

export function revokePersonalToken(db: Db, id: number): void {
  db.prepare('UPDATE personal_access_tokens SET revoked = 1 WHERE id = ?').run(id)
}

/** Deletes one personal access token row. */
export function deletePersonalToken(db: Db, id: number): void {
  db.prepare('DELETE FROM personal_access_tokens WHERE id = ?').run(id)
}

/** Deletes a user's tokens named `name` but the one with id `keepId` (all of them when it is null). */
export function deleteRootTokensExcept(db: Db, userId: number, name: string, keepId: number | null): void {
  db.prepare('DELETE FROM personal_access_tokens WHERE user_id = ? AND name = ? AND id IS NOT ?').run(
    userId,
    name,
    keepId,
  )
}

export function findOAuthTokenByRefreshDigest(db: Db, digest: string): OAuthTokenRow | undefined {
  return db.prepare('SELECT * FROM oauth_access_tokens WHERE refresh_digest = ?').get(digest) as
    OAuthTokenRow | undefined
}

export function insertOAuthToken(
  db: Db,
  userId: number,
  digest: string,
  refreshDigest: string,
  scopes: readonly string[],
  expiresIn: number,
): OAuthTokenRow {
  const info = db
    .prepare(
      `INSERT INTO oauth_access_tokens (user_id, token_digest, refresh_digest, scopes, expires_in, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
    )
    .run(userId, digest, refreshDigest, JSON.stringify(scopes), expiresIn, nowIso())
  return db.prepare('SELECT * FROM oauth_access_tokens WHERE id = ?').get(Number(info.lastInsertRowid)) as OAuthTokenRow
}

export function revokeOAuthToken(db: Db, id: number): void {
  db.prepare('UPDATE oauth_access_tokens SET revoked_at = ?, refresh_digest = NULL WHERE id = ?').run(nowIso(), id)
}

/** Filters of the personal access token lists (GitLab's PersonalAccessTokensFinder). */
export interface TokenListFilter {
  readonly userId?: number
  /** true: only impersonation tokens; false: only non-impersonation; undefined: both. */
  readonly impersonation?: boolean
  readonly state?: 'active' | 'inactive'
  readonly revoked?: boolean
  readonly createdBefore?: string
  readonly createdAfter?: string
  readonly lastUsedBefore?: string
  readonly lastUsedAfter?: string
  readonly expiresBefore?: string
  readonly expiresAfter?: string
  readonly search?: string
  /** Only tokens of the bots that are members of this project or group (its access tokens). */
  readonly botsOf?: SourceRef
}

/** SQL true for a token that is neither revoked nor expired (table alias `t`). */
export const ACTIVE_TOKEN_SQL = `(t.revoked = 0 AND (t.expires_at IS NULL OR t.expires_at > date('now')))`

/** One page of tokens matching the filter, in id order, with the total count. */
export function listPersonalTokens(
  db: Db,
  f: TokenListFilter,
  limit: number,
  offset: number,
): { rows: PersonalAccessTokenRow[]; total: number } {
  const clauses: string[] = []
  const params: Record<string, unknown> = {}
  if (f.userId !== undefined) {
    clauses.push('t.user_id = @userId')
    params.userId = f.userId
  }
  if (f.impersonation !== undefined) clauses.push(`t.impersonation = ${f.impersonation ? 1 : 0}`)
  if (f.state === 'active') clauses.push(ACTIVE_TOKEN_SQL)
  if (f.state === 'inactive') clauses.push(`NOT ${ACTIVE_TOKEN_SQL}`)
  if (f.revoked !== undefined) clauses.push(`t.revoked = ${f.revoked ? 1 : 0}`)
  const ranges: [keyof TokenListFilter, string, string][] = [
    ['createdBefore', 't.created_at', '<'],
    ['createdAfter', 't.created_at', '>'],
    ['lastUsedBefore', 't.last_used_at', '<'],
    ['lastUsedAfter', 't.last_used_at', '>'],
    ['expiresBefore', 't.expires_at', '<'],
    ['expiresAfter', 't.expires_at', '>'],
  ]
  for (const [key, column, op] of ranges) {
    if (f[key] === undefined) continue
    clauses.push(`${column} ${op} @${key}`)
    params[key] = f[key]
  }
  if (f.search !== undefined && f.search !== '') {
    clauses.push(`t.name LIKE @search ESCAPE '\\'`)
    params.search = `%${f.search.replace(/[\\%_]/g, (c) => '\\' + c)}%`
  }
  if (f.botsOf !== undefined) {
    clauses.push(`EXISTS (SELECT 1 FROM members m JOIN users u ON u.id = m.user_id
      WHERE m.user_id = t.user_id AND m.source_type = @botSourceType AND m.source_id = @botSourceId AND u.user_type = 'project_bot')`)
    params.botSourceType = f.botsOf.type
    params.botSourceId = f.botsOf.id
  }
  const where = clauses.length > 0 ? clauses.join(' AND ') : '1'
  const total = (
    db.prepare(`SELECT COUNT(*) AS n FROM personal_access_tokens t WHERE ${where}`).get(params) as { n: number }
  ).n
  const rows = db
    .prepare(`SELECT t.* FROM personal_access_tokens t WHERE ${where} ORDER BY t.id LIMIT @limit OFFSET @offset`)
    .all({ ...params, limit, offset }) as PersonalAccessTokenRow[]
  return { rows, total }
}

/** Access levels of bots in one project or group, by bot user id (for the token entity). */
export function botAccessLevels(db: Db, source: SourceRef, userIds: readonly number[]): Map<number, number> {
  const levels = new Map<number, number>()
  if (userIds.length === 0) return levels
  const rows = db
    .prepare(
      `SELECT user_id, access_level FROM members WHERE source_type = ? AND source_id = ? AND user_id IN (SELECT value FROM json_each(?))`,
    )
    .all(source.type, source.id, JSON.stringify(userIds)) as { user_id: number; access_level: number }[]
  for (const r of rows) levels.set(r.user_id, r.access_level)
  return levels
}
