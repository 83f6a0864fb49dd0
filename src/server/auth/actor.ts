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
