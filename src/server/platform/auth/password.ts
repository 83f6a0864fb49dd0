import type { ServerContext } from '../context'
import { nowIso } from '../db/connection'
import type { UserRow } from '../db/rows'
import { recordFailedSignIn, unlockUser } from '../db/platform-queries'
import { verifyPassword } from './secrets'

/** Whether the account is locked now (Devise's access_locked?): password sign-in is refused. */
export function isAccessLocked(user: Pick<UserRow, 'locked_until'>): boolean {
  return user.locked_until !== null && user.locked_until > nowIso()
}

export interface PasswordSignInOptions {
  /**
   * Count a wrong password toward locking the account, as GitLab's OAuth password grant does.
   * Git's basic auth does not (GitLab tries the secret as a token first, so a wrong "password"
   * there is often a mistyped token); failed-authentication bans guard it instead.
   */
  readonly countFailures: boolean
}

/**
 * Checks `password` for `user` (undefined when the login named no one), as GitLab's
 * find_with_user_password with Devise lockable: a locked account is refused whatever the
 * password; with `countFailures`, a wrong password counts and the `max_login_attempts`-th locks
 * the account for `failed_login_attempts_unlock_period_in_minutes`, a right one clears the count;
 * a lock that has run out is cleared first. Exactly one password hash is computed on every path,
 * so the time taken tells nobody whether the login exists or is locked. Returns the user signed
 * in, or null.
 */
export function signInWithPassword(
  ctx: ServerContext,
  user: UserRow | undefined,
  password: string,
  options: PasswordSignInOptions,
): UserRow | null {
  const matches = verifyPassword(password, user?.password_hash ?? null)
  if (!user) return null
  if (isAccessLocked(user)) return null
  if (!options.countFailures) return matches ? user : null
  if (matches) {
    if (user.failed_attempts > 0 || user.locked_until !== null) unlockUser(ctx.db, user.id)
    return user
  }
  // Not locked now, so a lock on the row has run out: counting starts again (Devise's lock_expired?).
  if (user.locked_until !== null) unlockUser(ctx.db, user.id)
  recordFailedSignIn(ctx.db, user.id, ctx.settings.get('max_login_attempts'), lockEnd(ctx))
  return null
}

function lockEnd(ctx: ServerContext): string {
  const minutes = ctx.settings.get('failed_login_attempts_unlock_period_in_minutes')
  return new Date(Date.parse(nowIso()) + minutes * 60_000).toISOString()
}
