import type { ServerContext } from '../../platform/context'
import { deletePersonalToken, deleteRootTokensExcept, findPersonalTokenByDigest, insertPersonalToken } from './queries'
import { findUserByUsername, insertUser, updateUser } from '../users'
import { digestToken, hashPassword, randomPassword } from '../../platform/auth/secrets'

/** The name of the token `ensureRootUser` keeps for root (the env variable it comes from). */
export const ROOT_TOKEN_NAME = 'BURROW_ROOT_TOKEN'

/**
 * Guarantees an active administrator `root` whose personal access token is `token`
 * (scopes api, read_user, sudo). Idempotent: restarting with the same token changes nothing.
 *
 * A launcher (`npm start`) mints a new token every launch, so the root tokens of earlier
 * launches are deleted here: only the current one works, and the admin's token list does not
 * grow a row per launch. Deleted rather than marked revoked because nothing refers to them and
 * a revoked row per launch would be the same clutter.
 */
export function ensureRootUser(ctx: ServerContext, token: string): void {
  const { db } = ctx
  db.transaction(() => {
    let root = findUserByUsername(db, 'root')
    if (!root) {
      root = insertUser(db, {
        username: 'root',
        name: 'Administrator',
        email: 'admin@example.com',
        password_hash: hashPassword(randomPassword()),
        is_admin: true,
      })
    } else if (!root.is_admin || root.state !== 'active') {
      root = updateUser(db, root.id, { is_admin: true, state: 'active' })
    }
    const digest = digestToken(token)
    const existing = findPersonalTokenByDigest(db, digest)
    const current = existing && existing.user_id === root.id && !existing.revoked ? existing : null
    deleteRootTokensExcept(db, root.id, ROOT_TOKEN_NAME, current?.id ?? null)
    if (current) return
    // The same digest held by another user, or revoked: replaced by a fresh row for root.
    if (existing) deletePersonalToken(db, existing.id)
    insertPersonalToken(db, {
      userId: root.id,
      name: ROOT_TOKEN_NAME,
      digest,
      scopes: ['api', 'read_user', 'sudo'],
      expiresAt: null,
    })
  })()
}
