import type { Permissions } from '../../platform/auth/permissions'
import type { UserRow } from '../../platform/db/rows'

// What an administrator may do to an account in its current state, as GitLab's Users API decides
// it: each rule answers the 403 message of a refusal, or null when the action is allowed.

/** Days a user must have been inactive before an administrator may deactivate them (GitLab's rule). */
export const DEACTIVATION_MIN_INACTIVE_DAYS = 90

/** True when the user has not been active in the last 90 days, so may be deactivated. */
export function canBeDeactivated(user: UserRow, now = new Date()): boolean {
  if (!user.last_activity_on) return true
  const cutoff = new Date(now)
  cutoff.setUTCDate(cutoff.getUTCDate() - DEACTIVATION_MIN_INACTIVE_DAYS)
  return user.last_activity_on <= cutoff.toISOString().slice(0, 10)
}

/** Whether the caller sees a user's full profile (a private profile shows only to its owner and administrators). */
export function canReadProfile(perms: Permissions, viewer: UserRow | null, user: UserRow): boolean {
  return user.private_profile === 0 || perms.isAdmin || viewer?.id === user.id
}

/** Why a user may not be blocked. */
export function blockRefusal(user: UserRow): string | null {
  if (user.state === 'ldap_blocked') return 'LDAP blocked users cannot be modified by the API'
  if (user.user_type !== 'human' && user.user_type !== 'project_bot' && user.user_type !== 'service_account')
    return 'An internal user cannot be blocked'
  return null
}

/** Why a user may not be unblocked. */
export function unblockRefusal(user: UserRow): string | null {
  if (user.state === 'ldap_blocked') return 'LDAP blocked users cannot be unblocked by the API'
  if (user.state === 'deactivated') return 'Deactivated users cannot be unblocked by the API'
  return null
}

/** Why a user may not be deactivated (an already deactivated user is no refusal: nothing to do). */
export function deactivateRefusal(user: UserRow, now = new Date()): string | null {
  if (user.state === 'blocked' || user.state === 'ldap_blocked')
    return 'A blocked user cannot be deactivated by the API'
  if (user.state === 'deactivated') return null
  if (user.user_type !== 'human' && user.user_type !== 'service_account') return 'Internal users cannot be deactivated'
  if (!canBeDeactivated(user, now))
    return `The user you are trying to deactivate has been active in the past ${DEACTIVATION_MIN_INACTIVE_DAYS} days and cannot be deactivated`
  return null
}

/** Why a user may not be activated. */
export function activateRefusal(user: UserRow): string | null {
  if (user.state === 'blocked' || user.state === 'ldap_blocked')
    return 'A blocked user must be unblocked to be activated'
  return null
}
