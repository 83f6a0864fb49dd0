import type { Db } from './connection'
import { nowIso } from './connection'
import type { OAuthTokenRow, PersonalAccessTokenRow } from './rows'

export function findPersonalTokenByDigest(db: Db, digest: string): PersonalAccessTokenRow | undefined {
  return db.prepare('SELECT * FROM personal_access_tokens WHERE token_digest = ?').get(digest) as PersonalAccessTokenRow | undefined
}

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
    .run(t.userId, t.name, t.description ?? null, t.digest, JSON.stringify(t.scopes), t.impersonation ? 1 : 0, t.expiresAt, nowIso())
  return findPersonalTokenById(db, Number(info.lastInsertRowid)) as PersonalAccessTokenRow
}

/** Records use at most once a minute per token, so reads do not turn into writes. */
export function touchPersonalToken(db: Db, token: PersonalAccessTokenRow): void {
  const now = Date.now()
  if (token.last_used_at && now - Date.parse(token.last_used_at) < 60_000) return
  db.prepare('UPDATE personal_access_tokens SET last_used_at = ? WHERE id = ?').run(new Date(now).toISOString(), token.id)
}

export function revokePersonalToken(db: Db, id: number): void {
  db.prepare('UPDATE personal_access_tokens SET revoked = 1 WHERE id = ?').run(id)
}

export function findOAuthTokenByDigest(db: Db, digest: string): OAuthTokenRow | undefined {
  return db.prepare('SELECT * FROM oauth_access_tokens WHERE token_digest = ?').get(digest) as OAuthTokenRow | undefined
}

export function findOAuthTokenByRefreshDigest(db: Db, digest: string): OAuthTokenRow | undefined {
  return db.prepare('SELECT * FROM oauth_access_tokens WHERE refresh_digest = ?').get(digest) as OAuthTokenRow | undefined
}

export function insertOAuthToken(db: Db, userId: number, digest: string, refreshDigest: string, scopes: readonly string[], expiresIn: number): OAuthTokenRow {
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
