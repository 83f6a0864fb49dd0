import * as Api from '../../../shared/api/index'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { canHoldScopes, TOKEN_SCOPES, type TokenScope } from '../../platform/auth/actor'
import { callerOf } from '../../platform/caller'
import type { PersonalAccessTokenRow, UserRow } from '../../platform/db/rows'
import { callerLevel, groupSource, projectSource, type MemberSource } from '../members'
import { botAccessLevels, findPersonalTokenById, listPersonalTokens, type TokenListFilter } from './queries'
import { findUserById } from '../users'
import { impersonationToken, personalAccessToken, projectAccessToken, withTokenValue } from './entity'
import {
  apiMessage,
  badRequest,
  invalidParam,
  missingParam,
  notFound,
  unauthorized,
  validationFailed,
} from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadGroup, loadProject, requireAdmin } from '../../platform/http/resolve'
import { listOf } from '../../platform/http/loose-params'
import { canManageToken } from './policy'
import {
  issueResourceToken,
  issueToken,
  resourceAuditEntity,
  revokeResourceToken,
  revokeToken,
  rotateToken,
} from './service'

const TokenIdParams = Type.Object({ id: Type.Integer() })
const UserIdParams = Type.Object({ user_id: Type.Integer() })
const UserTokenParams = Type.Object({ user_id: Type.Integer(), impersonation_token_id: Type.Integer() })
const ResourceParams = Type.Object({ id: Type.String() })
const ResourceTokenParams = Type.Object({ id: Type.String(), token_id: Type.Integer() })

const StateFilter = Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('inactive')]))

const PatListQuery = Type.Object({
  user_id: Type.Optional(Type.Integer()),
  state: StateFilter,
  revoked: Type.Optional(Type.Boolean()),
  created_before: Type.Optional(Type.String()),
  created_after: Type.Optional(Type.String()),
  last_used_before: Type.Optional(Type.String()),
  last_used_after: Type.Optional(Type.String()),
  expires_before: Type.Optional(Type.String()),
  expires_after: Type.Optional(Type.String()),
  search: Type.Optional(Type.String()),
})
type PatListQuery = Static<typeof PatListQuery>

const ImpersonationListQuery = Type.Object({
  state: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('active'), Type.Literal('inactive')])),
})

// `scopes` is read by parseScopes: an array or a comma-separated string.
const CreateBody = Type.Object({
  scopes: Type.Optional(Type.Unknown()),
  name: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  expires_at: Type.Optional(Type.Union([Type.String(), Type.Null()])),
})

const ResourceCreateBody = Type.Object({
  scopes: Type.Optional(Type.Unknown()),
  name: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  expires_at: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  access_level: Type.Optional(
    Type.Union([Type.Literal(10), Type.Literal(20), Type.Literal(30), Type.Literal(40), Type.Literal(50)]),
  ),
})

const RotateBody = Type.Object({ expires_at: Type.Optional(Type.Union([Type.String(), Type.Null()])) })

/** Tokens created without an expiry date get GitLab's default lifetime. */
const DEFAULT_TOKEN_LIFETIME_DAYS = 365
/** Rotated tokens live a week unless the caller says otherwise, as in GitLab. */
const ROTATED_TOKEN_LIFETIME_DAYS = 7

function daysFromNow(days: number): string {
  const d = new Date()
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/**
 * `scopes` as GitLab accepts it (an array, or a comma-separated string), validated against the
 * known scopes: 400 `scopes is missing` / `scopes does not have a valid value`.
 */
function parseScopes(raw: unknown): TokenScope[] {
  if (raw === undefined || raw === null) throw missingParam('scopes')
  const list = listOf('scopes', raw)
  if (list.length === 0) throw missingParam('scopes')
  if (!list.every((s) => TOKEN_SCOPES.includes(s as TokenScope)))
    throw invalidParam('scopes', 'does not have a valid value')
  return [...new Set(list)] as TokenScope[]
}

/** GitLab's PersonalAccessToken validation error for scopes its owner cannot hold (`Scopes …`). */
const UNAVAILABLE_SCOPES = 'can only contain available scopes'

/** `expires_at` as `YYYY-MM-DD`; absent means the default lifetime; past dates are refused. */
function parseExpiresAt(raw: unknown, defaultDays: number): string {
  if (raw === undefined || raw === null || raw === '') return daysFromNow(defaultDays)
  const text = String(raw)
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(Date.parse(text.slice(0, 10)))) throw invalidParam('expires_at')
  const date = text.slice(0, 10)
  if (date <= new Date().toISOString().slice(0, 10)) throw validationFailed({ expires_at: ['must be in the future'] })
  if (date > daysFromNow(400)) throw validationFailed({ expires_at: ['must expire in 400 days'] })
  return date
}

/** `name` of a new token: 400 `name is missing` when absent or blank. */
function parseTokenName(raw: unknown): string {
  if (raw === undefined || raw === null || String(raw).trim() === '') throw missingParam('name')
  return String(raw)
}

/** The rotated token's expiry: the given date, or a week from now. */
function rotationExpiry(raw: unknown): string {
  return parseExpiresAt(raw, ROTATED_TOKEN_LIFETIME_DAYS)
}

function timeParam(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined
  const t = Date.parse(value)
  if (Number.isNaN(t)) throw invalidParam(name)
  return new Date(t).toISOString()
}

function dateParam(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) throw invalidParam(name)
  return value
}

function rangeFilters(q: PatListQuery): TokenListFilter {
  return {
    state: q.state,
    revoked: q.revoked,
    createdBefore: timeParam('created_before', q.created_before),
    createdAfter: timeParam('created_after', q.created_after),
    lastUsedBefore: timeParam('last_used_before', q.last_used_before),
    lastUsedAfter: timeParam('last_used_after', q.last_used_after),
    expiresBefore: dateParam('expires_before', q.expires_before),
    expiresAfter: dateParam('expires_after', q.expires_after),
    search: q.search,
  }
}

/** The token the caller authenticated with, when it is a personal/impersonation/project token. */
function tokenInUse(request: FastifyRequest): PersonalAccessTokenRow {
  const actor = request.actor
  currentUser(request)
  if (actor.method === 'oauth' || actor.method === 'none' || actor.tokenId === null)
    throw notFound('Personal Access Token')
  const token = findPersonalTokenById(callerOf(request).db, actor.tokenId)
  if (!token) throw notFound('Personal Access Token')
  return token
}

/**
 * A token the caller may manage through /personal_access_tokens/:id: their own, or any for an
 * administrator. Per GitLab's docs, others get 401 whether or not the token exists; administrators
 * get 404 for a missing one.
 */
function manageableToken(request: FastifyRequest, id: number): PersonalAccessTokenRow {
  currentUser(request)
  const caller = callerOf(request)
  const token = findPersonalTokenById(caller.db, id)
  if (caller.perms.isAdmin) {
    if (!token) throw notFound('Personal Access Token')
    return token
  }
  if (!token || !canManageToken(caller, token)) throw unauthorized()
  return token
}

function ownerEntity(
  request: FastifyRequest,
  token: PersonalAccessTokenRow,
): { type: 'User'; id: number; path: string } {
  const owner = findUserById(callerOf(request).db, token.user_id)
  return { type: 'User', id: token.user_id, path: owner?.username ?? String(token.user_id) }
}

function loadTargetUser(request: FastifyRequest, userId: number): UserRow {
  const user = findUserById(callerOf(request).db, userId)
  if (!user) throw notFound('User')
  return user
}

/** The Fastify instance a TypeBox plugin receives. */
type TypeboxApp = Parameters<FastifyPluginAsyncTypebox>[0]

/** Where a family of resource access tokens lives, and who may manage them. */
interface TokenResourceFamily {
  /** `projects` or `groups`, the first segment of the routes. */
  readonly segment: 'projects' | 'groups'
  /**
   * The project (Maintainers) or group (Owners) whose access tokens the caller manages. GitLab's
   * access token API authenticates every call first, so an anonymous caller gets 401 even for a
   * resource it cannot see.
   */
  load(request: FastifyRequest, id: string): MemberSource
}

const PROJECT_TOKENS: TokenResourceFamily = {
  segment: 'projects',
  load(request, id) {
    currentUser(request)
    return projectSource(callerOf(request).db, loadProject(request, id, AccessLevel.MAINTAINER))
  },
}

const GROUP_TOKENS: TokenResourceFamily = {
  segment: 'groups',
  load(request, id) {
    currentUser(request)
    return groupSource(loadGroup(request, id, AccessLevel.OWNER))
  },
}

/** An access token of this project or group (its owner is a bot member of it), or 404. */
function loadResourceToken(
  request: FastifyRequest,
  resource: MemberSource,
  tokenId: number,
): { token: PersonalAccessTokenRow; level: number } {
  const { db } = callerOf(request)
  const token = findPersonalTokenById(db, tokenId)
  const bot = token ? findUserById(db, token.user_id) : undefined
  const level =
    token && bot?.user_type === 'project_bot'
      ? botAccessLevels(db, resource.ref, [token.user_id]).get(token.user_id)
      : undefined
  if (!token || level === undefined)
    throw notFound(`Could not find ${resource.project ? 'project' : 'group'} access token with token_id: ${tokenId}`)
  return { token, level }
}

/**
 * GitLab's resource access token API for one family (`/projects/:id/access_tokens` for
 * Maintainers, `/groups/:id/access_tokens` for Owners): list, read, create, revoke, rotate.
 */
function resourceTokenRoutes(app: TypeboxApp, family: TokenResourceFamily): void {
  const base = `/${family.segment}/:id/access_tokens`

  app.get(
    base,
    {
      schema: {
        params: ResourceParams,
        querystring: ImpersonationListQuery,
        response: { 200: Type.Array(Api.ProjectAccessToken) },
      },
    },
    async (request, reply) => {
      const resource = family.load(request, request.params.id)
      const { state } = request.query
      const page = pageOf(request.query)
      const { db } = callerOf(request)
      const filter: TokenListFilter = { botsOf: resource.ref, state: state === 'all' ? undefined : state }
      const { rows, total } = listPersonalTokens(db, filter, page.perPage, page.offset)
      const levels = botAccessLevels(
        db,
        resource.ref,
        rows.map((t) => t.user_id),
      )
      setPageHeaders(request, reply, callerOf(request).baseUrl, page, total)
      return rows.map((t) => projectAccessToken(t, levels.get(t.user_id) ?? AccessLevel.NO_ACCESS))
    },
  )

  app.get(
    `${base}/:token_id`,
    { schema: { params: ResourceTokenParams, response: { 200: Api.ProjectAccessToken } } },
    async (request) => {
      const resource = family.load(request, request.params.id)
      const { token, level } = loadResourceToken(request, resource, request.params.token_id)
      return projectAccessToken(token, level)
    },
  )

  app.post(
    base,
    {
      schema: {
        params: ResourceParams,
        body: ResourceCreateBody,
        response: { 201: Api.ProjectAccessTokenWithToken },
      },
    },
    async (request, reply) => {
      const resource = family.load(request, request.params.id)
      const body = request.body
      const name = parseTokenName(body.name)
      const scopes = parseScopes(body.scopes)
      // The token's owner is a new bot, never an administrator.
      if (!canHoldScopes({ is_admin: 0 }, scopes)) throw badRequest(`Scopes ${UNAVAILABLE_SCOPES}`)
      const expiresAt = parseExpiresAt(body.expires_at, DEFAULT_TOKEN_LIFETIME_DAYS)
      const level = body.access_level ?? AccessLevel.MAINTAINER
      const caller = callerOf(request)
      if (callerLevel(caller, resource) < level) {
        throw badRequest(
          "Access level of the token can't be greater the access level of the user who created the token",
        )
      }
      const issued = issueResourceToken(
        caller,
        resource,
        { name, description: body.description, scopes, expiresAt },
        level,
      )
      reply.code(201)
      return withTokenValue(projectAccessToken(issued.row, level), issued.value)
    },
  )

  app.delete(`${base}/:token_id`, { schema: { params: ResourceTokenParams } }, async (request, reply) => {
    const resource = family.load(request, request.params.id)
    const { token } = loadResourceToken(request, resource, request.params.token_id)
    revokeResourceToken(callerOf(request), resource, token)
    return reply.code(204).send()
  })

  app.post(
    `${base}/:token_id/rotate`,
    {
      schema: {
        params: ResourceTokenParams,
        body: RotateBody,
        response: { 200: Api.ProjectAccessTokenWithToken },
      },
    },
    async (request, reply) => {
      const resource = family.load(request, request.params.id)
      const { token, level } = loadResourceToken(request, resource, request.params.token_id)
      if (token.revoked) throw badRequest('token already revoked')
      const expiresAt = rotationExpiry(request.body.expires_at)
      const issued = rotateToken(callerOf(request), token, expiresAt, resourceAuditEntity(resource))
      return reply.code(200).send(withTokenValue(projectAccessToken(issued.row, level), issued.value))
    },
  )
}

/** Personal, impersonation, project and group access tokens. */
const tokens: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow

  // --- Personal access tokens -------------------------------------------------------------

  app.get(
    '/personal_access_tokens',
    { schema: { querystring: PatListQuery, response: { 200: Type.Array(Api.PersonalAccessToken) } } },
    async (request, reply) => {
      const user = currentUser(request)
      const q = request.query
      let owner: Pick<TokenListFilter, 'userId' | 'impersonation'>
      if (callerOf(request).perms.isAdmin) owner = { userId: q.user_id }
      else if (q.user_id !== undefined && q.user_id !== user.id) throw unauthorized()
      else owner = { userId: user.id, impersonation: false }
      const page = pageOf(q)
      const { rows, total } = listPersonalTokens(ctx.db, { ...rangeFilters(q), ...owner }, page.perPage, page.offset)
      setPageHeaders(request, reply, ctx.baseUrl(request), page, total)
      return rows.map(personalAccessToken)
    },
  )

  app.get(
    '/personal_access_tokens/self',
    { schema: { response: { 200: Api.PersonalAccessToken } }, config: { scopes: [] } },
    async (request) => personalAccessToken(tokenInUse(request)),
  )

  app.get(
    '/personal_access_tokens/:id',
    { schema: { params: TokenIdParams, response: { 200: Api.PersonalAccessToken } } },
    async (request) => {
      return personalAccessToken(manageableToken(request, request.params.id))
    },
  )

  app.delete('/personal_access_tokens/self', async (request, reply) => {
    const token = tokenInUse(request)
    revokeToken(callerOf(request), token, ownerEntity(request, token))
    return reply.code(204).send()
  })

  app.delete('/personal_access_tokens/:id', { schema: { params: TokenIdParams } }, async (request, reply) => {
    currentUser(request)
    const token = findPersonalTokenById(ctx.db, request.params.id)
    if (!token) throw notFound('Personal Access Token')
    if (!canManageToken(callerOf(request), token)) throw badRequest()
    revokeToken(callerOf(request), token, ownerEntity(request, token))
    return reply.code(204).send()
  })

  const rotate = async (
    request: FastifyRequest,
    token: PersonalAccessTokenRow,
    body: Static<typeof RotateBody> | undefined,
  ): Promise<Api.PersonalAccessTokenWithToken> => {
    if (token.revoked) throw badRequest('token already revoked')
    const expiresAt = rotationExpiry(body?.expires_at)
    const issued = rotateToken(callerOf(request), token, expiresAt, ownerEntity(request, token))
    return withTokenValue(personalAccessToken(issued.row), issued.value)
  }

  app.post(
    '/personal_access_tokens/self/rotate',
    { schema: { body: RotateBody, response: { 200: Api.PersonalAccessTokenWithToken } } },
    async (request, reply) => {
      const body = await rotate(request, tokenInUse(request), request.body)
      return reply.code(200).send(body)
    },
  )

  app.post(
    '/personal_access_tokens/:id/rotate',
    {
      schema: {
        params: TokenIdParams,
        body: RotateBody,
        response: { 200: Api.PersonalAccessTokenWithToken },
      },
    },
    async (request, reply) => {
      const token = manageableToken(request, request.params.id)
      const body = await rotate(request, token, request.body)
      return reply.code(200).send(body)
    },
  )

  app.get(
    '/users/:user_id/personal_access_tokens',
    {
      schema: {
        params: UserIdParams,
        querystring: PatListQuery,
        response: { 200: Type.Array(Api.PersonalAccessToken) },
      },
    },
    async (request, reply) => {
      requireAdmin(request)
      const user = loadTargetUser(request, request.params.user_id)
      const q = request.query
      const page = pageOf(q)
      const { rows, total } = listPersonalTokens(
        ctx.db,
        { ...rangeFilters(q), userId: user.id, impersonation: false },
        page.perPage,
        page.offset,
      )
      setPageHeaders(request, reply, ctx.baseUrl(request), page, total)
      return rows.map(personalAccessToken)
    },
  )

  app.post(
    '/users/:user_id/personal_access_tokens',
    {
      schema: {
        params: UserIdParams,
        body: CreateBody,
        response: { 201: Api.PersonalAccessTokenWithToken },
      },
    },
    async (request, reply) => {
      requireAdmin(request)
      const user = loadTargetUser(request, request.params.user_id)
      const body = request.body
      const name = parseTokenName(body.name)
      const scopes = parseScopes(body.scopes)
      if (!canHoldScopes(user, scopes)) throw apiMessage(400, `Scopes ${UNAVAILABLE_SCOPES}`)
      const expiresAt = parseExpiresAt(body.expires_at, DEFAULT_TOKEN_LIFETIME_DAYS)
      const issued = issueToken(callerOf(request), user, { name, description: body.description, scopes, expiresAt })
      reply.code(201)
      return withTokenValue(personalAccessToken(issued.row), issued.value)
    },
  )

  // --- Impersonation tokens (administrators only) -----------------------------------------

  app.get(
    '/users/:user_id/impersonation_tokens',
    {
      schema: {
        params: UserIdParams,
        querystring: ImpersonationListQuery,
        response: { 200: Type.Array(Api.ImpersonationToken) },
      },
    },
    async (request, reply) => {
      requireAdmin(request)
      const user = loadTargetUser(request, request.params.user_id)
      const { state } = request.query
      const page = pageOf(request.query)
      const filter: TokenListFilter = {
        userId: user.id,
        impersonation: true,
        state: state === 'all' ? undefined : state,
      }
      const { rows, total } = listPersonalTokens(ctx.db, filter, page.perPage, page.offset)
      setPageHeaders(request, reply, ctx.baseUrl(request), page, total)
      return rows.map(impersonationToken)
    },
  )

  app.post(
    '/users/:user_id/impersonation_tokens',
    {
      schema: {
        params: UserIdParams,
        body: CreateBody,
        response: { 201: Api.ImpersonationTokenWithToken },
      },
    },
    async (request, reply) => {
      requireAdmin(request)
      const user = loadTargetUser(request, request.params.user_id)
      const body = request.body
      const name = parseTokenName(body.name)
      const scopes = parseScopes(body.scopes)
      if (!canHoldScopes(user, scopes)) throw validationFailed({ scopes: [UNAVAILABLE_SCOPES] })
      const expiresAt = parseExpiresAt(body.expires_at, DEFAULT_TOKEN_LIFETIME_DAYS)
      const issued = issueToken(callerOf(request), user, {
        name,
        description: body.description,
        scopes,
        expiresAt,
        impersonation: true,
      })
      reply.code(201)
      return withTokenValue(impersonationToken(issued.row), issued.value)
    },
  )

  const loadImpersonationToken = (
    request: FastifyRequest,
    params: Static<typeof UserTokenParams>,
  ): { user: UserRow; token: PersonalAccessTokenRow } => {
    requireAdmin(request)
    const user = loadTargetUser(request, params.user_id)
    const token = findPersonalTokenById(ctx.db, params.impersonation_token_id)
    if (!token || token.user_id !== user.id || token.impersonation !== 1) throw notFound('Impersonation Token')
    return { user, token }
  }

  app.get(
    '/users/:user_id/impersonation_tokens/:impersonation_token_id',
    { schema: { params: UserTokenParams, response: { 200: Api.ImpersonationToken } } },
    async (request) => {
      return impersonationToken(loadImpersonationToken(request, request.params).token)
    },
  )

  app.delete(
    '/users/:user_id/impersonation_tokens/:impersonation_token_id',
    { schema: { params: UserTokenParams } },
    async (request, reply) => {
      const { user, token } = loadImpersonationToken(request, request.params)
      revokeToken(callerOf(request), token, { type: 'User', id: user.id, path: user.username })
      return reply.code(204).send()
    },
  )

  // --- Project (Maintainer or above) and group (Owner) access tokens -----------------------

  resourceTokenRoutes(app, PROJECT_TOKENS)
  resourceTokenRoutes(app, GROUP_TOKENS)
}

export default tokens
