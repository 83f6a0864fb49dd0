import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import { Type, type Static } from 'typebox'
import type { TokenScope } from '../../platform/auth/actor'
import type { UserRow } from '../../platform/db/rows'
import {
  customAttributesByUser,
  followCounts,
  followCountsByUser,
  identitiesByUser,
  isFollowing,
  listUsers,
  listUsersKeyset,
  soleOwnedGroupIds,
  unlockUser,
  updateUser,
  userNamespaceIds,
  type UserListFilter,
  type UserOrderColumn,
} from './queries'
import { userAdmin, userBasic, userPublic, userSelf, type UserExtras } from './entity'
import { checkUnmodifiedSince } from '../../platform/http/conditional'
import { checkAvatar, removeUserAvatar, saveUserAvatar } from './avatars'
import { forbidden, invalidParam, paramError } from '../../platform/http/errors'
import { keysetOf, pageOf, setKeysetHeaders, setPageHeaders, wantsKeyset } from '../../platform/http/pagination'
import { currentUser, loadUser, requireAdmin } from '../../platform/http/resolve'
import {
  canBeDeactivated,
  createUser,
  DEACTIVATION_MIN_INACTIVE_DAYS,
  modifyUser,
  removeUser,
  setUserState,
  soleOwnerConflict,
  type UserAttributes,
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

/** Renders users as the caller may see them in a list: admin entity for administrators, basic for others. */
function renderList(request: FastifyRequest, rows: readonly UserRow[], withCustomAttributes: boolean): unknown[] {
  const { db } = request.server.burrow
  const baseUrl = request.server.burrow.baseUrl(request)
  const ids = rows.map((u) => u.id)
  const attrs = withCustomAttributes ? customAttributesByUser(db, ids) : null
  if (!request.perms.isAdmin) return rows.map((u) => userBasic(u, baseUrl))
  const identities = identitiesByUser(db, ids)
  const namespaces = userNamespaceIds(db, ids)
  const follows = followCountsByUser(db, ids)
  return rows.map((u) =>
    userAdmin(u, baseUrl, {
      identities: identities.get(u.id) ?? [],
      namespaceId: namespaces.get(u.id) ?? null,
      customAttributes: attrs ? (attrs.get(u.id) ?? []) : undefined,
      followers: follows.get(u.id)?.followers ?? 0,
      following: follows.get(u.id)?.following ?? 0,
    }),
  )
}

/** Everything the single views need about one user, in a few queries. */
function extrasFor(request: FastifyRequest, user: UserRow, withCustomAttributes: boolean): UserExtras {
  const { db } = request.server.burrow
  const viewer = request.actor.user
  const counts = followCounts(db, user.id)
  return {
    identities: identitiesByUser(db, [user.id]).get(user.id) ?? [],
    customAttributes: withCustomAttributes ? (customAttributesByUser(db, [user.id]).get(user.id) ?? []) : undefined,
    followers: counts.followers,
    following: counts.following,
    isFollowed: viewer ? isFollowing(db, viewer.id, user.id) : undefined,
    canReadProfile: user.private_profile === 0 || request.perms.isAdmin || viewer?.id === user.id,
    namespaceId: userNamespaceIds(db, [user.id]).get(user.id) ?? null,
  }
}

/** The Users API: listing, single get, the caller's own account, and administration. */
const users: FastifyPluginAsync = async (app) => {
  const ctx = app.burrow
  // python-gitlab decodes single objects only under the exact `application/json` type.

  app.get(
    '/users',
    { schema: { querystring: ListQuery }, config: { scopes: READ_USER_SCOPES } },
    async (request, reply) => {
      const q = request.query as ListQuery
      const admin = request.perms.isAdmin
      if (q.extern_uid !== undefined && q.provider !== undefined) requireAdmin(request)
      // Anonymous callers may only look one user up by username, never enumerate the instance.
      if (!request.actor.user && (q.username === undefined || q.username === ''))
        throw forbidden('Not authorized to access /api/v4/users')
      const filter = listFilter(q, admin)
      const withCustom = admin && q.with_custom_attributes === true
      const baseUrl = ctx.baseUrl(request)
      if (wantsKeyset(q)) {
        const keyset = keysetOf({ ...q, sort: q.sort ?? 'desc' })
        const rows = listUsersKeyset(ctx.db, filter, keyset.sort, keyset.cursor, keyset.perPage)
        setKeysetHeaders(request, reply, baseUrl, keyset, rows)
        return renderList(request, rows, withCustom)
      }
      if (q.pagination !== undefined && q.pagination !== 'offset')
        throw invalidParam('pagination', 'does not have a valid value')
      const page = pageOf(q)
      const orderBy: UserOrderColumn = admin ? (q.order_by ?? 'id') : 'id'
      const sort = admin ? (q.sort ?? 'desc') : 'desc'
      const { rows, total } = listUsers(ctx.db, filter, { orderBy, sort }, page.perPage, page.offset)
      setPageHeaders(request, reply, baseUrl, page, total)
      return renderList(request, rows, withCustom)
    },
  )

  app.get('/user', { config: { scopes: READ_USER_SCOPES } }, async (request) => {
    const user = currentUser(request)
    const extras = extrasFor(request, user, false)
    const baseUrl = ctx.baseUrl(request)
    return request.perms.isAdmin ? userAdmin(user, baseUrl, extras) : userSelf(user, baseUrl, extras)
  })

  app.get('/user/status', { config: { scopes: READ_USER_SCOPES } }, async (request) => {
    currentUser(request)
    return emptyStatus()
  })

  app.get(
    '/users/:id',
    { schema: { params: UserIdParams, querystring: SingleQuery }, config: { scopes: READ_USER_SCOPES } },
    async (request) => {
      const { id } = request.params as Static<typeof UserIdParams>
      const q = request.query as Static<typeof SingleQuery>
      const user = loadUser(request, id)
      const admin = request.perms.isAdmin
      const extras = extrasFor(request, user, admin && q.with_custom_attributes === true)
      const baseUrl = ctx.baseUrl(request)
      return admin ? userAdmin(user, baseUrl, extras) : userPublic(user, baseUrl, extras)
    },
  )

  app.get(
    '/users/:id/status',
    { schema: { params: UserIdParams }, config: { scopes: READ_USER_SCOPES } },
    async (request) => {
      loadUser(request, (request.params as Static<typeof UserIdParams>).id)
      return emptyStatus()
    },
  )

  app.post('/users', { schema: { body: UserBody } }, async (request, reply) => {
    requireAdmin(request)
    const body = request.body as Static<typeof UserBody>
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
    const avatar = request.uploads?.find((p) => p.name === 'avatar')
    if (avatar) checkAvatar(avatar)
    let user = createUser(ctx, request, body as UserAttributes)
    if (avatar) user = updateUser(ctx.db, user.id, { avatar_url: saveUserAvatar(ctx, user.id, avatar) })
    reply.code(201)
    return userAdmin(user, ctx.baseUrl(request), extrasFor(request, user, false))
  })

  app.put('/users/:id', { schema: { params: UserIdParams, body: UserBody } }, async (request) => {
    requireAdmin(request)
    const user = loadUser(request, (request.params as Static<typeof UserIdParams>).id)
    checkUnmodifiedSince(request, user.updated_at)
    const avatar = request.uploads?.find((p) => p.name === 'avatar')
    if (avatar) checkAvatar(avatar)
    let updated = modifyUser(ctx, request, user, request.body as UserAttributes)
    if (avatar) updated = updateUser(ctx.db, user.id, { avatar_url: saveUserAvatar(ctx, user.id, avatar) })
    return userAdmin(updated, ctx.baseUrl(request), extrasFor(request, updated, false))
  })

  app.delete('/users/:id', { schema: { params: UserIdParams, querystring: DeleteQuery } }, async (request, reply) => {
    requireAdmin(request)
    const user = loadUser(request, (request.params as Static<typeof UserIdParams>).id)
    checkUnmodifiedSince(request, user.updated_at)
    const hardDelete = (request.query as Static<typeof DeleteQuery>).hard_delete === true
    if (!hardDelete && soleOwnedGroupIds(ctx.db, user.id).length > 0) throw soleOwnerConflict()
    if (user.user_type === 'ghost') throw forbidden('An internal user cannot be removed')
    removeUser(ctx, request, user, hardDelete)
    removeUserAvatar(ctx, user.id)
    return reply.code(204).send()
  })

  app.post('/users/:id/block', { schema: { params: UserIdParams } }, async (request, reply) => {
    requireAdmin(request)
    const user = loadUser(request, (request.params as Static<typeof UserIdParams>).id)
    if (user.state === 'ldap_blocked') throw forbidden('LDAP blocked users cannot be modified by the API')
    if (user.user_type !== 'human' && user.user_type !== 'project_bot' && user.user_type !== 'service_account') {
      throw forbidden('An internal user cannot be blocked')
    }
    if (user.state !== 'blocked') setUserState(ctx, request, user, 'blocked', 'Blocked user')
    return reply.code(201).send(true)
  })

  app.post('/users/:id/unblock', { schema: { params: UserIdParams } }, async (request, reply) => {
    requireAdmin(request)
    const user = loadUser(request, (request.params as Static<typeof UserIdParams>).id)
    if (user.state === 'ldap_blocked') throw forbidden('LDAP blocked users cannot be unblocked by the API')
    if (user.state === 'deactivated') throw forbidden('Deactivated users cannot be unblocked by the API')
    if (user.state === 'blocked' || user.state === 'banned')
      setUserState(ctx, request, user, 'active', 'Unblocked user')
    return reply.code(201).send(true)
  })

  // GitLab unlocks a locked account from its Admin Area only (Admin::UsersController#unlock); this
  // is that action for API clients, shaped like block and unblock.
  app.post('/users/:id/unlock', { schema: { params: UserIdParams } }, async (request, reply) => {
    requireAdmin(request)
    const user = loadUser(request, (request.params as Static<typeof UserIdParams>).id)
    unlockUser(ctx.db, user.id)
    return reply.code(201).send(true)
  })

  app.post('/users/:id/deactivate', { schema: { params: UserIdParams } }, async (request, reply) => {
    requireAdmin(request)
    const user = loadUser(request, (request.params as Static<typeof UserIdParams>).id)
    if (user.state === 'blocked' || user.state === 'ldap_blocked')
      throw forbidden('A blocked user cannot be deactivated by the API')
    if (user.state !== 'deactivated') {
      if (user.user_type !== 'human' && user.user_type !== 'service_account')
        throw forbidden('Internal users cannot be deactivated')
      if (!canBeDeactivated(user)) {
        throw forbidden(
          `The user you are trying to deactivate has been active in the past ${DEACTIVATION_MIN_INACTIVE_DAYS} days and cannot be deactivated`,
        )
      }
      setUserState(ctx, request, user, 'deactivated', 'Deactivated user')
    }
    return reply.code(201).send(true)
  })

  app.post('/users/:id/activate', { schema: { params: UserIdParams } }, async (request, reply) => {
    requireAdmin(request)
    const user = loadUser(request, (request.params as Static<typeof UserIdParams>).id)
    if (user.state === 'blocked' || user.state === 'ldap_blocked')
      throw forbidden('A blocked user must be unblocked to be activated')
    if (user.state === 'deactivated') setUserState(ctx, request, user, 'active', 'Activated user')
    return reply.code(201).send(true)
  })
}

/** The status of a user who has set none (Burrow keeps no statuses). */
function emptyStatus(): Readonly<Record<string, unknown>> {
  return { emoji: null, availability: 'not_set', message: null, message_html: '', clear_status_at: null }
}

export default users
