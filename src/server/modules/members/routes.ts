import * as Api from '../../../shared/api/index'
import { callerOf } from '../../platform/caller'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from 'typebox'
import { intListOf } from '../../platform/http/loose-params'
import {
  directMemberWithUser,
  findDirectMember,
  findEffectiveMember,
  listDirectMembers,
  listEffectiveMembers,
  listUserMemberships,
  sourceNames,
  type MemberFilter,
  type MemberWithUser,
} from './queries'
import type { MemberSourceType, UserRow } from '../../platform/db/rows'
import { findUserById, findUserByUsername, usersByIds } from '../users'
import { memberEntity, userMembershipEntity, type MemberEntity } from './entity'
import { checkUnmodifiedSince } from '../../platform/http/conditional'
import accessRequests from './access-requests-routes'
import billableMembers from './billable-routes'
import {
  ApiError,
  conflict,
  forbidden,
  invalidParam,
  noneGiven,
  notFound,
  paramError,
} from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadUser, requireAdmin } from '../../platform/http/resolve'
import {
  addMember,
  addSeveralMembers,
  assertCanAssign,
  canManageMembers,
  changeMember,
  isLastOwner,
  parseExpiresAt,
  removeMember,
  validateAccessLevel,
  type SourceKind,
} from './service'
import { loadSource } from './source-routes'

const SourceParams = Type.Object({ id: Type.String() })
const MemberParams = Type.Object({ id: Type.String(), user_id: Type.Integer() })

// user_ids and skip_users: GitLab's integer arrays in any of their forms (read by intListOf).
const ListQuery = Type.Object({
  query: Type.Optional(Type.String()),
  user_ids: Type.Optional(Type.Unknown()),
  skip_users: Type.Optional(Type.Unknown()),
  state: Type.Optional(Type.Union([Type.Literal('awaiting'), Type.Literal('active')])),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})

// user_id: an id or comma-separated ids (read by requestedUserIds).
const AddBody = Type.Object({
  user_id: Type.Optional(Type.Unknown()),
  access_level: Type.Integer(),
  expires_at: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  username: Type.Optional(Type.String()),
})

const UpdateBody = Type.Object({
  access_level: Type.Integer(),
  expires_at: Type.Optional(Type.Union([Type.String(), Type.Null()])),
})

const DeleteQuery = Type.Object({
  skip_subresources: Type.Optional(Type.Boolean()),
  unassign_issuables: Type.Optional(Type.Boolean()),
})

function filterOf(params: Static<typeof ListQuery>): MemberFilter {
  return {
    query: params.query !== undefined && params.query !== '' ? params.query : undefined,
    userIds: intListOf('user_ids', params.user_ids),
    skipUserIds: intListOf('skip_users', params.skip_users),
  }
}

function serialize(request: FastifyRequest, rows: readonly MemberWithUser[]): MemberEntity[] {
  const baseUrl = callerOf(request).baseUrl
  const creators = usersByIds(
    callerOf(request).db,
    rows.map((r) => r.member.created_by_id ?? -1),
  )
  return rows.map((r) => memberEntity(r, creators, baseUrl))
}

function memberNotFound(): ApiError {
  return new ApiError(404, { message: '404 Member Not Found' })
}

/** The user(s) named by POST's `user_id` (an id or comma-separated ids) or `username`. */
function requestedUserIds(
  body: Readonly<Record<string, unknown>>,
): { ids: string[]; multiple: boolean } | { username: string } {
  const raw = body.user_id
  if ((raw === undefined || raw === null || raw === '') && typeof body.username === 'string' && body.username !== '')
    return { username: body.username }
  if (raw === undefined || raw === null || raw === '') throw noneGiven(['user_id', 'username'])
  if (body.username !== undefined && body.username !== '') throw paramError('user_id, username are mutually exclusive')
  const text = Array.isArray(raw) ? raw.join(',') : String(raw)
  const ids = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
  if (ids.length === 0) throw noneGiven(['user_id', 'username'])
  return { ids, multiple: text.includes(',') }
}

function routesFor(kind: SourceKind): FastifyPluginAsyncTypebox {
  return async (app) => {
    const base = `/${kind}/:id/members`

    const memberList = { 200: Type.Array(Api.Member) }
    // Direct members, and members with those inherited from ancestor groups (`/all`): one shape.
    for (const [url, list] of [
      [base, listDirectMembers],
      [`${base}/all`, listEffectiveMembers],
    ] as const) {
      app.get(
        url,
        { schema: { params: SourceParams, querystring: ListQuery, response: memberList } },
        async (request, reply) => {
          currentUser(request)
          const source = loadSource(request, kind, request.params.id)
          const params = request.query
          const page = pageOf(params)
          const { rows, total } =
            params.state === 'awaiting'
              ? { rows: [], total: 0 }
              : list(callerOf(request).db, source.ref, filterOf(params), { limit: page.perPage, offset: page.offset })
          setPageHeaders(request, reply, callerOf(request).baseUrl, page, total)
          return serialize(request, rows)
        },
      )
    }

    app.get(
      `${base}/:user_id`,
      { schema: { params: MemberParams, response: { 200: Api.Member } } },
      async (request) => {
        currentUser(request)
        const source = loadSource(request, kind, request.params.id)
        const row = directMemberWithUser(callerOf(request).db, source.ref, request.params.user_id)
        if (!row) throw memberNotFound()
        return serialize(request, [row])[0]
      },
    )

    app.get(
      `${base}/all/:user_id`,
      { schema: { params: MemberParams, response: { 200: Api.Member } } },
      async (request) => {
        currentUser(request)
        const source = loadSource(request, kind, request.params.id)
        const row = findEffectiveMember(callerOf(request).db, source.ref, request.params.user_id)
        if (!row) throw memberNotFound()
        return serialize(request, [row])[0]
      },
    )

    const added = { 201: Type.Union([Api.Member, Api.MemberBatchResult]) }
    app.post(base, { schema: { params: SourceParams, body: AddBody, response: added } }, async (request, reply) => {
      currentUser(request)
      const source = loadSource(request, kind, request.params.id)
      if (!canManageMembers(callerOf(request), source)) throw forbidden()
      const body = request.body
      const level = request.body.access_level
      const who = requestedUserIds(body)
      const db = callerOf(request).db
      if ('ids' in who && who.multiple) {
        // Several users at once answer with a status object, per user errors keyed by username or id.
        return reply.code(201).send(addSeveralMembers(callerOf(request), source, who.ids, level, body.expires_at))
      }
      let user: UserRow | undefined
      if ('ids' in who) {
        if (!/^\d+$/.test(who.ids[0])) throw invalidParam('user_id')
        // As GitLab: an existing membership is reported before the user is even looked up.
        if (findDirectMember(db, source.ref, Number(who.ids[0]))) throw conflict('Member already exists')
        user = findUserById(db, Number(who.ids[0]))
      } else {
        user = findUserByUsername(db, who.username)
        if (user && findDirectMember(db, source.ref, user.id)) throw conflict('Member already exists')
      }
      if (!user) throw notFound('User')
      validateAccessLevel(level)
      const expiresAt = parseExpiresAt(body.expires_at) ?? null
      assertCanAssign(callerOf(request), source, level)
      const member = addMember(callerOf(request), source, user, level, expiresAt)
      const row: MemberWithUser = { user, member }
      return reply.code(201).send(serialize(request, [row])[0])
    })

    app.put(
      `${base}/:user_id`,
      { schema: { params: MemberParams, body: UpdateBody, response: { 200: Api.Member } } },
      async (request) => {
        currentUser(request)
        const source = loadSource(request, kind, request.params.id)
        if (!canManageMembers(callerOf(request), source)) throw forbidden()
        const db = callerOf(request).db
        const member = findDirectMember(db, source.ref, request.params.user_id)
        if (!member) throw memberNotFound()
        checkUnmodifiedSince(request, member.updated_at)
        const level = request.body.access_level
        validateAccessLevel(level)
        const expiresAt = parseExpiresAt(request.body.expires_at)
        assertCanAssign(callerOf(request), source, level, member.access_level)
        // GitLab's policy forbids demoting the last owner, administrators included.
        if (level !== member.access_level && isLastOwner(callerOf(request), source, member)) throw forbidden()
        const user = findUserById(db, member.user_id) as UserRow
        const updated = changeMember(callerOf(request), source, member, user, level, expiresAt)
        return serialize(request, [{ user, member: updated }])[0]
      },
    )

    app.delete(
      `${base}/:user_id`,
      { schema: { params: MemberParams, querystring: DeleteQuery } },
      async (request, reply) => {
        const caller = currentUser(request)
        const source = loadSource(request, kind, request.params.id)
        const db = callerOf(request).db
        const member = findDirectMember(db, source.ref, request.params.user_id)
        if (!member) throw memberNotFound()
        const leaving = member.user_id === caller.id
        if (!leaving) {
          if (!canManageMembers(callerOf(request), source)) throw forbidden()
          // Only Owners remove Owners (project Maintainers manage members up to Maintainer).
          if (
            !callerOf(request).perms.isAdmin &&
            member.access_level === 50 &&
            source.project &&
            callerOf(request).perms.projectAccess(source.project) < 50
          )
            throw forbidden()
        }
        if (isLastOwner(callerOf(request), source, member)) throw forbidden()
        checkUnmodifiedSince(request, member.updated_at)
        const user = findUserById(db, member.user_id) as UserRow
        removeMember(callerOf(request), source, member, user, request.query.skip_subresources === true)
        return reply.code(204).send()
      },
    )
  }
}

const MembershipQuery = Type.Object({
  type: Type.Optional(Type.Union([Type.Literal('Project'), Type.Literal('Namespace')])),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})

/**
 * Group and project member routes (one implementation for both), the admin user memberships
 * list, and the access-request and billable-member families, registered together.
 */
const members: FastifyPluginAsyncTypebox = async (app) => {
  // python-gitlab decodes single objects only under the exact `application/json` type.
  await app.register(routesFor('groups'))
  await app.register(routesFor('projects'))
  await app.register(accessRequests)
  await app.register(billableMembers)

  // Another family may own /users/:id/*; register ours only where nobody has.
  if (!app.hasRoute({ method: 'GET', url: '/users/:id/memberships' })) {
    app.get(
      '/users/:id/memberships',
      {
        schema: {
          params: SourceParams,
          querystring: MembershipQuery,
          response: { 200: Type.Array(Api.UserMembership) },
        },
      },
      async (request, reply) => {
        requireAdmin(request)
        const user = loadUser(request, request.params.id)
        const page = pageOf(request.query)
        const db = callerOf(request).db
        const { rows, total } = listUserMemberships(db, user.id, request.query.type as MemberSourceType | undefined, {
          limit: page.perPage,
          offset: page.offset,
        })
        const names = sourceNames(db, rows)
        setPageHeaders(request, reply, callerOf(request).baseUrl, page, total)
        return rows.map((r) => userMembershipEntity(r, names.get(`${r.source_type}:${r.source_id}`)))
      },
    )
  }
}

export default members
