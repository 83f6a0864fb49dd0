import type { FastifyPluginAsync } from 'fastify'
import { canHoldScopes, TOKEN_SCOPES, type TokenScope } from '../../platform/auth/actor'
import { signInWithPassword } from '../../platform/auth/password'
import { digestToken, generateToken } from '../../platform/auth/secrets'
import { findOAuthTokenByDigest, findOAuthTokenByRefreshDigest, insertOAuthToken, revokeOAuthToken } from './queries'
import { findUserByEmail, findUserById, findUserByUsername, recordSignIn } from '../users'
import { ApiError } from '../../platform/http/errors'
import { paramsOf } from '../../platform/http/loose-params'

/** Access tokens issued here live two hours, as GitLab's. */
export const OAUTH_EXPIRES_IN = 7200

function oauthError(error: string, description: string, status = 400): ApiError {
  return new ApiError(status, { error, error_description: description })
}

const INVALID_GRANT =
  'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.'

function invalidScope(): ApiError {
  return oauthError('invalid_scope', 'The requested scope is invalid, unknown, or malformed.')
}

function parseScopes(raw: unknown): TokenScope[] {
  if (raw === undefined || raw === null || raw === '') return ['api']
  const names = String(raw)
    .split(/[\s+]+/)
    .filter(Boolean)
  for (const name of names) if (!TOKEN_SCOPES.includes(name as TokenScope)) throw invalidScope()
  return names as TokenScope[]
}

/**
 * OAuth2 token endpoint (Doorkeeper's shape): the resource owner password grant and the
 * refresh_token grant, plus token info and revocation.
 */
const oauth: FastifyPluginAsync = async (app) => {
  const { db, failedAuthBan } = app.burrow

  app.post('/oauth/token', { config: { scopes: [] } }, async (request, reply) => {
    const p = paramsOf(request.body)
    const grant = p.grant_type
    let userId: number
    let scopes: TokenScope[]
    if (grant === 'password') {
      const login = typeof p.username === 'string' ? p.username : ''
      const password = typeof p.password === 'string' ? p.password : ''
      const found = findUserByUsername(db, login) ?? (login.includes('@') ? findUserByEmail(db, login) : undefined)
      const user = failedAuthBan.attempt(request.ip, () =>
        signInWithPassword(app.burrow, found, password, { countFailures: true }),
      )
      if (!user || user.state !== 'active') throw oauthError('invalid_grant', INVALID_GRANT)
      userId = user.id
      scopes = parseScopes(p.scope)
      // Checked once the password is: who is an administrator is nobody else's business.
      if (!canHoldScopes(user, scopes)) throw invalidScope()
      recordSignIn(db, user.id, request.ip)
    } else if (grant === 'refresh_token') {
      const refresh = typeof p.refresh_token === 'string' ? p.refresh_token : ''
      const previous = failedAuthBan.attempt(
        request.ip,
        () => (refresh ? findOAuthTokenByRefreshDigest(db, digestToken(refresh)) : undefined) ?? null,
      )
      if (!previous) throw oauthError('invalid_grant', INVALID_GRANT)
      const user = findUserById(db, previous.user_id)
      if (!user || user.state !== 'active') throw oauthError('invalid_grant', INVALID_GRANT)
      revokeOAuthToken(db, previous.id)
      userId = user.id
      scopes = JSON.parse(previous.scopes) as TokenScope[]
    } else if (grant === undefined || grant === '') {
      throw oauthError('invalid_request', 'Missing required parameter: grant_type.')
    } else {
      throw oauthError(
        'unsupported_grant_type',
        'The authorization grant type is not supported by the authorization server.',
      )
    }
    const accessToken = generateToken('')
    const refreshToken = generateToken('')
    const row = insertOAuthToken(
      db,
      userId,
      digestToken(accessToken),
      digestToken(refreshToken),
      scopes,
      OAUTH_EXPIRES_IN,
    )
    reply.header('Cache-Control', 'no-store')
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: OAUTH_EXPIRES_IN,
      refresh_token: refreshToken,
      scope: scopes.join(' '),
      created_at: Math.floor(Date.parse(row.created_at) / 1000),
    }
  })

  app.get('/oauth/token/info', { config: { scopes: [] } }, async (request) => {
    const header = request.headers.authorization ?? ''
    const m = /^Bearer\s+(.+)$/i.exec(header)
    const q = paramsOf(request.query).access_token
    const value = m ? m[1] : typeof q === 'string' ? q : ''
    const token = value ? findOAuthTokenByDigest(db, digestToken(value)) : undefined
    const remaining = token
      ? Math.floor((Date.parse(token.created_at) + token.expires_in * 1000 - Date.now()) / 1000)
      : -1
    if (!token || token.revoked_at || remaining <= 0)
      throw oauthError('invalid_token', 'The access token is invalid', 401)
    const scopes = JSON.parse(token.scopes) as string[]
    return {
      resource_owner_id: token.user_id,
      scope: scopes,
      scopes,
      expires_in: remaining,
      expires_in_seconds: remaining,
      application: { uid: null },
      created_at: Math.floor(Date.parse(token.created_at) / 1000),
    }
  })

  app.post('/oauth/revoke', { config: { scopes: [] } }, async (request) => {
    const p = paramsOf(request.body)
    const value = typeof p.token === 'string' ? p.token : ''
    const digest = digestToken(value)
    const token = findOAuthTokenByDigest(db, digest) ?? findOAuthTokenByRefreshDigest(db, digest)
    if (token) revokeOAuthToken(db, token.id)
    return {}
  })
}

export default oauth
