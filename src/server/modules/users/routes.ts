import * as Api from '../../../shared/api/index'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type, type Static } from 'typebox'
import type { TokenScope } from '../../platform/auth/actor'
import { callerOf } from '../../platform/caller'
import { listUsers, listUsersKeyset, type UserListFilter, type UserOrderColumn } from './queries'
import { emptyUserStatus, userAdmin, userPublic, userSelf } from './entity'
import { answerFromMemo } from '../../platform/http/answer-memo'
import { checkUnmodifiedSince } from '../../platform/http/conditional'
import { forbidden, invalidParam, paramError } from '../../platform/http/errors'
import { keysetOf, pageOf, setKeysetHeaders, setPageHeaders, wantsKeyset } from '../../platform/http/pagination'
import { currentUser, loadUser, requireAdmin } from '../../platform/http/resolve'
import { activateRefusal, blockRefusal, deactivateRefusal, unblockRefusal } from './policy'
import {
  createUser,
  modifyUser,
  removeUser,
  setUserState,
  unlockAccount,
  userExtrasFor,
  userListEntities,
} from './service'

/** `read_user` is enough to read users, as in GitLab. */
const READ_USER_SCOPES: readonly TokenScope[] = ['api', 'read_api', 'read_user']

const UserIdParams = Type.Object({ id: Type.String() })

const ListQuery = Type.Object({
  search: Type.Optional(Type.String()),
  username: Type.Optional(Type.String()),
  active: Type.Optional(Type.Boolean()),
  blocked: Type.Optional(Type.Boolean()),
  external: Type.Optional(Type.Boolean()),
  exclude_internal: Type.Optional(Type.Boolean()),
  exclude_external: Type.Optional(Type.Boolean()),
  humans: Type.Optional(Type.Boolean()),
  exclude_humans: Type.Optional(Type.Boolean()),
  without_project_bots: Type.Optional(Type.Boolean()),
  order_by: Type.Optional(
    Type.Union([
      Type.Literal('id'),
      Type.Literal('name'),
      Type.Literal('username'),
      Type.Literal('created_at'),
      Type.Literal('updated_at'),
    ]),
  ),
  sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  two_factor: Type.Optional(Type.String()),
  without_projects: Type.Optional(Type.Boolean()),
  admins: Type.Optional(Type.Boolean()),
  extern_uid: Type.Optional(Type.String()),
  provider: Type.Optional(Type.String()),
  saml_provider_id: Type.Optional(Type.Integer()),
  created_before: Type.Optional(Type.String()),
  created_after: Type.Optional(Type.String()),
  custom_attributes: Type.Optional(Type.Record(Type.String(), Type.String())),
  with_custom_attributes: Type.Optional(Type.Boolean()),
  pagination: Type.Optional(Type.String()),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})
type ListQuery = Static<typeof ListQuery>

const SingleQuery = Type.Object({ with_custom_attributes: Type.Optional(Type.Boolean()) })

const OptionalNullableInteger = Type.Optional(Type.Union([Type.Integer(), Type.Null()]))

const userAttributeSchema = {
  email: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  username: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
  reset_password: Type.Optional(Type.Boolean()),
  force_random_password: Type.Optional(Type.Boolean()),
  skip_confirmation: Type.Optional(Type.Boolean()),
  skip_reconfirmation: Type.Optional(Type.Boolean()),
  admin: Type.Optional(Type.Boolean()),
  auditor: Type.Optional(Type.Boolean()),
  external: Type.Optional(Type.Boolean()),
  can_create_group: Type.Optional(Type.Boolean()),
  private_profile: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  view_diffs_file_by_file: Type.Optional(Type.Boolean()),
  projects_limit: Type.Optional(Type.Integer()),
  theme_id: Type.Optional(Type.Integer()),
  color_scheme_id: Type.Optional(Type.Integer()),
  group_id_for_saml: Type.Optional(Type.Integer()),
  shared_runners_minutes_limit: OptionalNullableInteger,
  extra_shared_runners_minutes_limit: OptionalNullableInteger,
  extern_uid: Type.Optional(Type.String()),
  provider: Type.Optional(Type.String()),
  bio: Type.Optional(Type.String()),
  location: Type.Optional(Type.String()),
  linkedin: Type.Optional(Type.String()),
  skype: Type.Optional(Type.String()),
  twitter: Type.Optional(Type.String()),
  discord: Type.Optional(Type.String()),
  website_url: Type.Optional(Type.String()),
  organization: Type.Optional(Type.String()),
  job_title: Type.Optional(Type.String()),
  pronouns: Type.Optional(Type.String()),
  note: Type.Optional(Type.String()),
  public_email: Type.Optional(Type.String()),
  commit_email: Type.Optional(Type.String()),
}
const UserBody = Type.Object(userAttributeSchema)

const DeleteQuery = Type.Object({ hard_delete: Type.Optional(Type.Boolean()) })

/** A timestamp filter as ISO 8601, or 400 `<name> is invalid`. */
function timeParam(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined
  const t = Date.parse(value)
  if (Number.isNaN(t)) throw invalidParam(name)
  return new Date(t).toISOString()
}

/** The list filter for this caller: admin-only filters are dropped for others, as GitLab does. */
function listFilter(q: ListQuery, admin: boolean): UserListFilter {
  return {
    username: q.username,
    search: q.search,
    // Only administrators find users by a private (primary or secondary) email, as GitLab's UsersFinder.
    searchEmails: admin,
    active: q.active === true,
    blocked: q.blocked === true,
    external: q.external === true,
    excludeExternal: q.exclude_external === true,
    excludeInternal: q.exclude_internal === true,
    humans: q.humans === true,
    excludeHumans: q.exclude_humans === true,
    withoutProjectBots: q.without_project_bots === true,
    admins: admin && q.admins === true,
    twoFactor: admin && (q.two_factor === 'enabled' || q.two_factor === 'disabled') ? q.two_factor : undefined,
    withoutProjects: admin && q.without_projects === true,
    externUid: admin ? q.extern_uid : undefined,
    provider: admin ? q.provider : undefined,
    samlProviderId: admin ? q.saml_provider_id : undefined,
    createdBefore: admin ? timeParam('created_before', q.created_before) : undefined,
    createdAfter: admin ? timeParam('created_after', q.created_after) : undefined,
    customAttributes: admin ? q.custom_attributes : undefined,
  }
}

/** 403 with the policy's message when it refused. */
function refuse(refusal: string | null): void {
  if (refusal !== null) throw forbidden(refusal)
}

/** A page of `GET /users` (offset or keyset), its pagination headers set on `reply`. */
function userListPage(
  request: FastifyRequest<{ Querystring: Static<typeof ListQuery> }>,
  reply: FastifyReply,
): (Api.UserAdmin | Api.UserBasic)[] {
  const q = request.query
  const caller = callerOf(request)
  const admin = caller.perms.isAdmin
  if (q.extern_uid !== undefined && q.provider !== undefined) requireAdmin(request)
  // Anonymous callers may only look one user up by username, never enumerate the instance.
  if (!caller.user && (q.username === undefined || q.username === ''))
    throw forbidden('Not authorized to access /api/v4/users')
  const filter = listFilter(q, admin)
  const withCustom = admin && q.with_custom_attributes === true
  if (wantsKeyset(q)) {
    const keyset = keysetOf({ ...q, sort: q.sort ?? 'desc' })
    const rows = listUsersKeyset(caller.db, filter, keyset.sort, keyset.cursor, keyset.perPage)
    setKeysetHeaders(request, reply, caller.baseUrl, keyset, rows)
    return userListEntities(caller, rows, withCustom)
  }
  if (q.pagination !== undefined && q.pagination !== 'offset')
    throw invalidParam('pagination', 'does not have a valid value')
  const page = pageOf(q)
  const orderBy: UserOrderColumn = admin ? (q.order_by ?? 'id') : 'id'
  const sort = admin ? (q.sort ?? 'desc') : 'desc'
  const { rows, total } = listUsers(caller.db, filter, { orderBy, sort }, page.perPage, page.offset)
  setPageHeaders(request, reply, caller.baseUrl, page, total)
  return userListEntities(caller, rows, withCustom)
}

/** The Users API: listing, single get, the caller's own account, and administration. */
const users: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users',
    {
      schema: {
        querystring: ListQuery,
        response: { 200: Type.Array(Type.Union([Api.UserAdmin, Api.UserBasic])) },
      },
      config: { scopes: READ_USER_SCOPES },
    },
    async (request, reply) => answerFromMemo(request, reply, () => userListPage(request, reply)),
  )

  app.get(
    '/user',
    { schema: { response: { 200: Api.User } }, config: { scopes: READ_USER_SCOPES } },
    async (request) => {
      const user = currentUser(request)
      const caller = callerOf(request)
      const extras = userExtrasFor(caller, user, false)
      return caller.perms.isAdmin ? userAdmin(user, caller.baseUrl, extras) : userSelf(user, caller.baseUrl, extras)
    },
  )

  app.get(
    '/user/status',
    { schema: { response: { 200: Api.UserStatus } }, config: { scopes: READ_USER_SCOPES } },
    async (request) => {
      currentUser(request)
      return emptyUserStatus()
    },
  )

  app.get(
    '/users/:id',
    {
      schema: {
        params: UserIdParams,
        querystring: SingleQuery,
        response: { 200: Type.Union([Api.UserAdmin, Api.UserPublic]) },
      },
      config: { scopes: READ_USER_SCOPES },
    },
    async (request) => {
      const user = loadUser(request, request.params.id)
      const caller = callerOf(request)
      const admin = caller.perms.isAdmin
      const extras = userExtrasFor(caller, user, admin && request.query.with_custom_attributes === true)
      return admin ? userAdmin(user, caller.baseUrl, extras) : userPublic(user, caller.baseUrl, extras)
    },
  )

  app.get(
    '/users/:id/status',
    {
      schema: { params: UserIdParams, response: { 200: Api.UserStatus } },
      config: { scopes: READ_USER_SCOPES },
    },
    async (request) => {
      loadUser(request, request.params.id)
      return emptyUserStatus()
    },
  )

  app.post('/users', { schema: { body: UserBody, response: { 201: Api.UserAdmin } } }, async (request, reply) => {
    requireAdmin(request)
    const body = request.body
    const missing: string[] = []
    if (body.email === undefined) missing.push('email is missing')
    if (body.password === undefined && body.reset_password === undefined && body.force_random_password === undefined) {
      missing.push(
        'password, reset_password, force_random_password are missing, at least one parameter must be provided',
      )
    }
    if (body.name === undefined) missing.push('name is missing')
    if (body.username === undefined) missing.push('username is missing')
    if (missing.length > 0) throw paramError(missing.join(', '))
    const caller = callerOf(request)
    const user = createUser(
      caller,
      body,
      request.uploads?.find((p) => p.name === 'avatar'),
    )
    reply.code(201)
    return userAdmin(user, caller.baseUrl, userExtrasFor(caller, user, false))
  })

  app.put(
    '/users/:id',
    { schema: { params: UserIdParams, body: UserBody, response: { 200: Api.UserAdmin } } },
    async (request) => {
      requireAdmin(request)
      const user = loadUser(request, request.params.id)
      checkUnmodifiedSince(request, user.updated_at)
      const caller = callerOf(request)
      const updated = modifyUser(
        caller,
        user,
        request.body,
        request.uploads?.find((p) => p.name === 'avatar'),
      )
      return userAdmin(updated, caller.baseUrl, userExtrasFor(caller, updated, false))
    },
  )

  app.delete('/users/:id', { schema: { params: UserIdParams, querystring: DeleteQuery } }, async (request, reply) => {
    requireAdmin(request)
    const user = loadUser(request, request.params.id)
    checkUnmodifiedSince(request, user.updated_at)
    removeUser(callerOf(request), user, request.query.hard_delete === true)
    return reply.code(204).send()
  })

  app.post(
    '/users/:id/block',
    { schema: { params: UserIdParams, response: { 201: Api.UserStateChanged } } },
    async (request, reply) => {
      requireAdmin(request)
      const user = loadUser(request, request.params.id)
      refuse(blockRefusal(user))
      if (user.state !== 'blocked') setUserState(callerOf(request), user, 'blocked', 'Blocked user')
      return reply.code(201).send(true)
    },
  )

  app.post(
    '/users/:id/unblock',
    { schema: { params: UserIdParams, response: { 201: Api.UserStateChanged } } },
    async (request, reply) => {
      requireAdmin(request)
      const user = loadUser(request, request.params.id)
      refuse(unblockRefusal(user))
      if (user.state === 'blocked' || user.state === 'banned')
        setUserState(callerOf(request), user, 'active', 'Unblocked user')
      return reply.code(201).send(true)
    },
  )

  // GitLab unlocks a locked account from its Admin Area only (Admin::UsersController#unlock); this
  // is that action for API clients, shaped like block and unblock.
  app.post(
    '/users/:id/unlock',
    { schema: { params: UserIdParams, response: { 201: Api.UserStateChanged } } },
    async (request, reply) => {
      requireAdmin(request)
      const user = loadUser(request, request.params.id)
      unlockAccount(callerOf(request), user)
      return reply.code(201).send(true)
    },
  )

  app.post(
    '/users/:id/deactivate',
    { schema: { params: UserIdParams, response: { 201: Api.UserStateChanged } } },
    async (request, reply) => {
      requireAdmin(request)
      const user = loadUser(request, request.params.id)
      refuse(deactivateRefusal(user))
      if (user.state !== 'deactivated') setUserState(callerOf(request), user, 'deactivated', 'Deactivated user')
      return reply.code(201).send(true)
    },
  )

  app.post(
    '/users/:id/activate',
    { schema: { params: UserIdParams, response: { 201: Api.UserStateChanged } } },
    async (request, reply) => {
      requireAdmin(request)
      const user = loadUser(request, request.params.id)
      refuse(activateRefusal(user))
      if (user.state === 'deactivated') setUserState(callerOf(request), user, 'active', 'Activated user')
      return reply.code(201).send(true)
    },
  )
}

export default users
