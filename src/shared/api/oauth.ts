/**
 * OAuth2 token endpoint answers (`/oauth/token`, `/oauth/token/info`).
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable } from './common'

/** `POST /oauth/token`: a new access token and the refresh token that replaces it. */
export const OAuthTokenResponse = Entity({
  access_token: Type.String(),
  token_type: Type.String(),
  /** Seconds. */
  expires_in: Type.Integer(),
  refresh_token: Type.String(),
  /** Scopes separated by spaces. */
  scope: Type.String(),
  /** Unix seconds. */
  created_at: Type.Integer(),
})
export type OAuthTokenResponse = Static<typeof OAuthTokenResponse>

/** `GET /oauth/token/info` (Doorkeeper's token info). */
export const OAuthTokenInfo = Entity({
  resource_owner_id: Type.Integer(),
  scope: Type.Array(Type.String()),
  scopes: Type.Array(Type.String()),
  expires_in: Type.Integer(),
  expires_in_seconds: Type.Integer(),
  application: Entity({ uid: Nullable(Type.String()) }),
  created_at: Type.Integer(),
})
export type OAuthTokenInfo = Static<typeof OAuthTokenInfo>
