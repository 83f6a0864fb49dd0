import type { UserRow } from '../db/rows'

export type TokenScope =
  | 'api'
  | 'read_api'
  | 'read_user'
  | 'read_repository'
  | 'write_repository'
  | 'sudo'
  | 'admin_mode'
  | 'create_runner'
  | 'ai_features'
  | 'k8s_proxy'

export const TOKEN_SCOPES: readonly TokenScope[] = [
  'api',
  'read_api',
  'read_user',
  'read_repository',
  'write_repository',
  'sudo',
  'admin_mode',
  'create_runner',
  'ai_features',
  'k8s_proxy',
]

/** Scopes only an administrator's token may carry (GitLab's ADMIN_SCOPES). */
export const ADMIN_SCOPES: readonly TokenScope[] = ['sudo', 'admin_mode']

/**
 * Whether `owner` may hold a token with every one of `scopes` (GitLab's `available_scopes_for`):
 * the administrator scopes are for administrators only, so no one else's token can ask for sudo.
 */
export function canHoldScopes(owner: Pick<UserRow, 'is_admin'>, scopes: readonly TokenScope[]): boolean {
  return owner.is_admin === 1 || !scopes.some((scope) => ADMIN_SCOPES.includes(scope))
}

/** How the caller authenticated. */
export type AuthMethod = 'none' | 'personal_access_token' | 'impersonation_token' | 'project_access_token' | 'oauth'

/** Who is calling, with which token and scopes, after sudo has been applied. */
export interface Actor {
  readonly user: UserRow | null
  readonly method: AuthMethod
  readonly scopes: readonly TokenScope[]
  readonly tokenId: number | null
  /** The administrator who used sudo, when the call runs as another user. */
  readonly sudoBy: UserRow | null
}

export const ANONYMOUS: Actor = { user: null, method: 'none', scopes: [], tokenId: null, sudoBy: null }
