import type { ServerContext } from '../context'
import { findPersonalTokenByDigest, insertPersonalToken } from '../db/tokens'
import { findUserByUsername, insertUser, updateUser } from '../db/users'
import { digestToken, hashPassword, randomPassword } from '../auth/secrets'

/**
 * Guarantees an active administrator `root` whose personal access token is `token`
 * (scopes api, read_user, sudo). Idempotent: restarting with the same token changes nothing.
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
    if (existing && existing.user_id === root.id && !existing.revoked) return
    if (existing) db.prepare('DELETE FROM personal_access_tokens WHERE id = ?').run(existing.id)
    insertPersonalToken(db, { userId: root.id, name: 'BURROW_ROOT_TOKEN', digest, scopes: ['api', 'read_user', 'sudo'], expiresAt: null })
  })()
}
