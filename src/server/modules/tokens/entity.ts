import type { ImpersonationToken, PersonalAccessToken, ProjectAccessToken } from '../../../shared/api/token'
import type { PersonalAccessTokenRow } from '../../platform/db/rows'

/** True when the token is neither revoked nor past its expiry date. */
export function tokenActive(token: PersonalAccessTokenRow, today = new Date().toISOString().slice(0, 10)): boolean {
  return token.revoked === 0 && (token.expires_at === null || token.expires_at.slice(0, 10) > today)
}

/** GitLab's PersonalAccessToken entity. */
export function personalAccessToken(token: PersonalAccessTokenRow): PersonalAccessToken {
  return {
    id: token.id,
    name: token.name,
    revoked: token.revoked === 1,
    created_at: token.created_at,
    description: token.description,
    scopes: JSON.parse(token.scopes) as string[],
    user_id: token.user_id,
    last_used_at: token.last_used_at,
    active: tokenActive(token),
    expires_at: token.expires_at,
  }
}

/** GitLab's ImpersonationToken entity: a personal access token that says whether it impersonates. */
export function impersonationToken(token: PersonalAccessTokenRow): ImpersonationToken {
  return { ...personalAccessToken(token), impersonation: token.impersonation === 1 }
}

/** GitLab's ResourceAccessToken entity (project access tokens): the bot's access level added. */
export function projectAccessToken(token: PersonalAccessTokenRow, accessLevel: number): ProjectAccessToken {
  return { ...personalAccessToken(token), access_level: accessLevel }
}

/** Any token entity with the secret value, which is shown only when the token is created or rotated. */
export function withTokenValue<T extends PersonalAccessToken>(
  entity: T,
  value: string,
): T & { readonly token: string } {
  return { ...entity, token: value }
}
