import type { Caller } from '../../platform/caller'
import type { PersonalAccessTokenRow } from '../../platform/db/rows'

/** Whether the caller may read, rotate or revoke a personal access token: their own, or any for an administrator. */
export function canManageToken(caller: Caller, token: PersonalAccessTokenRow): boolean {
  return caller.perms.isAdmin || token.user_id === caller.user?.id
}
