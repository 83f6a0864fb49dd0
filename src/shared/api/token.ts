/**
 * Access tokens: personal, impersonation (administrators) and project access tokens. The secret
 * `token` appears only in the answer that creates or rotates one.
 */
import { Type, type Static } from 'typebox'
import { AccessLevelValue, Entity, IsoDate, Nullable, Timestamp } from './common'

const personalFields = {
  id: Type.Integer(),
  name: Type.String(),
  revoked: Type.Boolean(),
  created_at: Timestamp,
  description: Nullable(Type.String()),
  scopes: Type.Array(Type.String()),
  user_id: Type.Integer(),
  last_used_at: Nullable(Timestamp),
  active: Type.Boolean(),
  expires_at: Nullable(IsoDate),
}

/** GitLab's PersonalAccessToken entity. */
export const PersonalAccessToken = Entity(personalFields)
export type PersonalAccessToken = Static<typeof PersonalAccessToken>

/** A personal access token as created or rotated, with its secret. */
export const PersonalAccessTokenWithToken = Entity({ ...personalFields, token: Type.String() })
export type PersonalAccessTokenWithToken = Static<typeof PersonalAccessTokenWithToken>

/** GitLab's ImpersonationToken entity: a personal access token that says whether it impersonates. */
export const ImpersonationToken = Entity({ ...personalFields, impersonation: Type.Boolean() })
export type ImpersonationToken = Static<typeof ImpersonationToken>

export const ImpersonationTokenWithToken = Entity({
  ...personalFields,
  impersonation: Type.Boolean(),
  token: Type.String(),
})
export type ImpersonationTokenWithToken = Static<typeof ImpersonationTokenWithToken>

/** GitLab's ResourceAccessToken entity (project access tokens): the bot's access level added. */
export const ProjectAccessToken = Entity({ ...personalFields, access_level: AccessLevelValue })
export type ProjectAccessToken = Static<typeof ProjectAccessToken>

export const ProjectAccessTokenWithToken = Entity({
  ...personalFields,
  access_level: AccessLevelValue,
  token: Type.String(),
})
export type ProjectAccessTokenWithToken = Static<typeof ProjectAccessTokenWithToken>
