import type { Db } from './connection'
import { nowIso } from './connection'
import type { UserRow } from './rows'

export function findUserById(db: Db, id: number): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined
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
  'username', 'name', 'email', 'password_hash', 'password_reset_digest', 'state', 'is_admin', 'is_auditor', 'user_type',
  'external', 'bio', 'location', 'public_email', 'skype', 'linkedin', 'twitter', 'discord', 'website_url', 'organization',
  'job_title', 'pronouns', 'note', 'avatar_url', 'private_profile', 'projects_limit', 'can_create_group', 'theme_id',
  'color_scheme_id', 'two_factor_enabled', 'commit_email', 'view_diffs_file_by_file', 'shared_runners_minutes_limit',
  'extra_shared_runners_minutes_limit', 'provisioned_by_group_id', 'confirmed_at', 'last_sign_in_at', 'current_sign_in_at',
  'last_sign_in_ip', 'current_sign_in_ip', 'sign_in_count', 'last_activity_on',
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
        db.prepare(`UPDATE namespaces SET name = ?, path = ?, full_path = ?, full_name = ?, updated_at = ? WHERE kind = 'user' AND owner_id = ?`).run(
          row.name, row.username, row.username, row.name, nowIso(), id,
        )
      }
    }
    return findUserById(db, id) as UserRow
  })()
}

/** The personal namespace id of a user. */
export function userNamespaceId(db: Db, userId: number): number | undefined {
  const row = db.prepare(`SELECT id FROM namespaces WHERE kind = 'user' AND owner_id = ?`).get(userId) as { id: number } | undefined
  return row?.id
}
