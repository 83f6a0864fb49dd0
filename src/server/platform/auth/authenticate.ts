import type { ServerContext } from '../context'
import type { UserRow } from '../db/rows'
import {
  findOAuthTokenByDigest,
  findPersonalTokenByDigest,
  findUserById,
  findUserByIdOrUsername,
  touchPersonalToken,
} from '../db/platform-queries'
import { ApiError, forbidden, insufficientScope, unauthorized } from '../http/errors'
import { ANONYMOUS, type Actor, type AuthMethod, type TokenScope } from './actor'
import { signInWithPassword } from './password'
import { digestToken } from './secrets'

/**
 * What authentication reads of a request: its headers (tokens, sudo) and the client's address
 * (the failed-authentication ban). Fastify's request has this shape.
 */
export interface AuthenticatedRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>
  readonly ip: string
}

interface PresentedToken {
  readonly value: string
  /** `private` for PRIVATE-TOKEN / private_token; `oauth` for access_token; `bearer` may be either. */
  readonly via: 'private' | 'oauth' | 'bearer'
}

function header(request: AuthenticatedRequest, name: string): string | undefined {
  const v = request.headers[name]
  return Array.isArray(v) ? v[0] : v
}

function presentedToken(
  request: AuthenticatedRequest,
  params: Readonly<Record<string, unknown>>,
): PresentedToken | null {
  const privateHeader = header(request, 'private-token')
  if (privateHeader) return { value: privateHeader, via: 'private' }
  if (typeof params.private_token === 'string' && params.private_token)
    return { value: params.private_token, via: 'private' }
  const authorization = header(request, 'authorization')
  if (authorization) {
    const m = /^Bearer\s+(.+)$/i.exec(authorization.trim())
    if (m) return { value: m[1].trim(), via: 'bearer' }
  }
  if (typeof params.access_token === 'string' && params.access_token)
    return { value: params.access_token, via: 'oauth' }
  return null
}

function expired(expiresAt: string | null): boolean {
  if (!expiresAt) return false
  return (
    expiresAt < new Date().toISOString().slice(0, 10) ||
    (expiresAt.length > 10 && expiresAt <= new Date().toISOString())
  )
}

/** Personal, impersonation or project access token → actor, or null when the value is not such a token. */
function fromPersonalToken(ctx: ServerContext, value: string): Actor | null {
  const token = findPersonalTokenByDigest(ctx.db, digestToken(value))
  if (!token) return null
  if (token.revoked || expired(token.expires_at)) throw unauthorized()
  if (token.impersonation && !ctx.settings.get('impersonation_enabled')) throw unauthorized()
  const user = findUserById(ctx.db, token.user_id)
  if (!user) throw unauthorized()
  touchPersonalToken(ctx.db, token)
  const method: AuthMethod = token.impersonation
    ? 'impersonation_token'
    : user.user_type === 'project_bot'
      ? 'project_access_token'
      : 'personal_access_token'
  return { user, method, scopes: JSON.parse(token.scopes) as TokenScope[], tokenId: token.id, sudoBy: null }
}

function fromOAuthToken(ctx: ServerContext, value: string): Actor | null {
  const token = findOAuthTokenByDigest(ctx.db, digestToken(value))
  if (!token) return null
  if (token.revoked_at || Date.parse(token.created_at) + token.expires_in * 1000 < Date.now()) throw unauthorized()
  const user = findUserById(ctx.db, token.user_id)
  if (!user) throw unauthorized()
  return { user, method: 'oauth', scopes: JSON.parse(token.scopes) as TokenScope[], tokenId: token.id, sudoBy: null }
}

function assertActive(user: UserRow): void {
  if (user.state === 'blocked' || user.state === 'banned') throw forbidden('Your account has been blocked.')
  if (user.state === 'deactivated') {
    throw forbidden(
      'Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account',
    )
  }
}

/**
 * Resolves the caller from every transport GitLab accepts (PRIVATE-TOKEN header, private_token
 * query, Authorization: Bearer, access_token query), then applies sudo. Throws 401 for a
 * presented but unusable token, and 429 while the caller's address is banned for too many of
 * those (auth/failed-auth-ban.ts); no token at all yields the anonymous actor.
 */
export function authenticate(
  ctx: ServerContext,
  request: AuthenticatedRequest,
  params: Readonly<Record<string, unknown>>,
): Actor {
  const presented = presentedToken(request, params)
  if (!presented) {
    if (sudoTarget(request, params) !== undefined) throw unauthorized()
    return ANONYMOUS
  }
  const actor = ctx.failedAuthBan.attempt(request.ip, () => {
    const personal = presented.via !== 'oauth' ? fromPersonalToken(ctx, presented.value) : null
    return personal ?? (presented.via !== 'private' ? fromOAuthToken(ctx, presented.value) : null)
  })
  if (!actor) throw unauthorized()
  assertActive(actor.user as UserRow)
  return applySudo(ctx, request, params, actor)
}

function sudoTarget(request: AuthenticatedRequest, params: Readonly<Record<string, unknown>>): string | undefined {
  const h = header(request, 'sudo')
  if (h !== undefined && h !== '') return h
  const q = params.sudo
  if (typeof q === 'string' && q !== '') return q
  if (typeof q === 'number') return String(q)
  return undefined
}

function applySudo(
  ctx: ServerContext,
  request: AuthenticatedRequest,
  params: Readonly<Record<string, unknown>>,
  actor: Actor,
): Actor {
  const target = sudoTarget(request, params)
  if (target === undefined) return actor
  const admin = actor.user as UserRow
  if (!admin.is_admin) throw forbidden('Must be admin to use sudo')
  if (!actor.scopes.includes('sudo')) throw insufficientScope('sudo')
  const user = findUserByIdOrUsername(ctx.db, target)
  if (!user) throw new ApiError(404, { message: `404 User with ID or username '${target}' Not Found` })
  return { ...actor, user, sudoBy: admin }
}

/** Scopes any one of which the route accepts: its own, or the method's default. */
export function acceptedScopes(method: string, routeScopes: readonly TokenScope[] | undefined): readonly TokenScope[] {
  if (routeScopes) return routeScopes
  return method === 'GET' || method === 'HEAD' ? ['api', 'read_api'] : ['api']
}

/** 403 insufficient_scope unless the token carries one of the accepted scopes (an empty list accepts any). */
export function checkScopes(actor: Actor, accepted: readonly TokenScope[]): void {
  if (actor.method === 'none' || accepted.length === 0) return
  if (accepted.some((s) => actor.scopes.includes(s))) return
  throw insufficientScope(accepted.join(' '))
}

/**
 * Resolves a secret presented outside the API headers (git's HTTP basic auth password): a
 * personal/project/impersonation token, an OAuth access token, or the user's password (never
 * that of a locked account). Returns null when it matches nothing; throws 401/403 for unusable
 * tokens or blocked users.
 */
export function authenticateSecret(ctx: ServerContext, login: string, secret: string): Actor | null {
  let actor = fromPersonalToken(ctx, secret) ?? fromOAuthToken(ctx, secret)
  if (!actor && login) {
    const user = signInWithPassword(ctx, findUserByIdOrUsername(ctx.db, login), secret, { countFailures: false })
    if (user) actor = { user, method: 'personal_access_token', scopes: ['api'], tokenId: null, sudoBy: null }
  }
  if (actor) assertActive(actor.user as UserRow)
  return actor
}
