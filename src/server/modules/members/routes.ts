import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import {
  directMemberWithUser,
  findDirectMember,
  findEffectiveMember,
  listDirectMembers,
  listEffectiveMembers,
  listUserMemberships,
  sourceNames,
  usersByIds,
  type MemberFilter,
  type MemberWithUser,
} from './queries'
import type { MemberSourceType, UserRow } from '../../platform/db/rows'
import { findUserById, findUserByUsername } from '../users'
import { memberEntity, userMembershipEntity, type MemberEntity } from './entity'
import { checkUnmodifiedSince } from '../../platform/http/conditional'
import accessRequests from './access-requests-routes'
import billableMembers from './billable-routes'
import { ApiError, conflict, forbidden, invalidParam, notFound, paramError } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadUser, requireAdmin } from '../../platform/http/resolve'
import {
  addMember,
  assertCanAssign,
  canManageMembers,
  changeMember,
  isLastOwner,
  loadSource,
  parseExpiresAt,
  removeMember,
  validateAccessLevel,
  type MemberSource,
  type SourceKind,
} from './service'

const SourceParams = Type.Object({ id: Type.String() })
const MemberParams = Type.Object({ id: Type.String(), user_id: Type.Integer() })

const ListQuery = Type.Object({
  query: Type.Optional(Type.String()),
  state: Type.Optional(Type.Union([Type.Literal('awaiting'), Type.Literal('active')])),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})

const AddBody = Type.Object({
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

/**
 * An integer array given as `name[]=1&name[]=2`, a JSON array or `name=1,2` (GitLab's
 * CommaSeparatedToIntegerArray). Undefined when absent; 400 `name is invalid` otherwise.
 */
export function integerList(params: Readonly<Record<string, unknown>>, name: string): number[] | undefined {
  const raw = params[name]
  if (raw === undefined || raw === null || raw === '') return undefined
  const parts = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]))
  const out: number[] = []
  for (const p of parts) {
    if (typeof p === 'string' && p.trim() === '') continue
    const n = typeof p === 'number' ? p : typeof p === 'string' && /^\s*-?\d+\s*$/.test(p) ? Number(p) : Number.NaN
    if (!Number.isInteger(n)) throw invalidParam(name)
    out.push(n)
  }
  return out
}

function filterOf(params: Readonly<Record<string, unknown>>): MemberFilter {
  return {
    query: typeof params.query === 'string' && params.query !== '' ? params.query : undefined,
    userIds: integerList(params, 'user_ids'),
    skipUserIds: integerList(params, 'skip_users'),
  }
}

function serialize(request: FastifyRequest, rows: readonly MemberWithUser[]): MemberEntity[] {
  const baseUrl = request.server.burrow.baseUrl(request)
  const creators = usersByIds(
    request.server.burrow.db,
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
  if (raw === undefined || raw === null || raw === '')
    throw paramError('user_id, username are missing, at least one parameter must be provided')
  if (body.username !== undefined && body.username !== '') throw paramError('user_id, username are mutually exclusive')
  const text = Array.isArray(raw) ? raw.join(',') : String(raw)
  const ids = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
  if (ids.length === 0) throw paramError('user_id, username are missing, at least one parameter must be provided')
  return { ids, multiple: text.includes(',') }
}

function routesFor(kind: SourceKind): FastifyPluginAsyncTypebox {
  return async (app) => {
    const base = `/${kind}/:id/members`

    app.get(base, { schema: { params: SourceParams, querystring: ListQuery } }, async (request, reply) => {
      currentUser(request)
      const source = loadSource(request, kind, request.params.id)
      const params = request.query as Record<string, unknown>
      const page = pageOf(params)
      const { rows, total } =
        request.query.state === 'awaiting'
          ? { rows: [], total: 0 }
          : listDirectMembers(request.server.burrow.db, source.ref, filterOf(params), {
              limit: page.perPage,
              offset: page.offset,
            })
      setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
      return serialize(request, rows)
    })

    app.get(`${base}/all`, { schema: { params: SourceParams, querystring: ListQuery } }, async (request, reply) => {
      currentUser(request)
      const source = loadSource(request, kind, request.params.id)
      const params = request.query as Record<string, unknown>
      const page = pageOf(params)
      const { rows, total } =
        request.query.state === 'awaiting'
          ? { rows: [], total: 0 }
          : listEffectiveMembers(request.server.burrow.db, source.ref, filterOf(params), {
              limit: page.perPage,
              offset: page.offset,
            })
      setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
      return serialize(request, rows)
    })

    app.get(`${base}/:user_id`, { schema: { params: MemberParams } }, async (request) => {
      currentUser(request)
      const source = loadSource(request, kind, request.params.id)
      const row = directMemberWithUser(request.server.burrow.db, source.ref, request.params.user_id)
      if (!row) throw memberNotFound()
      return serialize(request, [row])[0]
    })

    app.get(`${base}/all/:user_id`, { schema: { params: MemberParams } }, async (request) => {
      currentUser(request)
      const source = loadSource(request, kind, request.params.id)
      const row = findEffectiveMember(request.server.burrow.db, source.ref, request.params.user_id)
      if (!row) throw memberNotFound()
      return serialize(request, [row])[0]
    })

    app.post(base, { schema: { params: SourceParams, body: AddBody } }, async (request, reply) => {
      currentUser(request)
      const source = loadSource(request, kind, request.params.id)
      if (!canManageMembers(request, source)) throw forbidden()
      const body = request.body as Record<string, unknown>
      const level = request.body.access_level
      const who = requestedUserIds(body)
      const db = request.server.burrow.db
      if ('ids' in who && who.multiple) {
        // Several users at once answer with a status object, per user errors keyed by username or id.
        return reply.code(201).send(addSeveral(request, source, who.ids, level, body.expires_at))
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
      assertCanAssign(request, source, level)
      const member = addMember(request, source, user, level, expiresAt)
      const row: MemberWithUser = { user, member }
      return reply.code(201).send(serialize(request, [row])[0])
    })

    app.put(`${base}/:user_id`, { schema: { params: MemberParams, body: UpdateBody } }, async (request) => {
      currentUser(request)
      const source = loadSource(request, kind, request.params.id)
      if (!canManageMembers(request, source)) throw forbidden()
      const db = request.server.burrow.db
      const member = findDirectMember(db, source.ref, request.params.user_id)
      if (!member) throw memberNotFound()
      checkUnmodifiedSince(request, member.updated_at)
      const level = request.body.access_level
      validateAccessLevel(level)
      const expiresAt = parseExpiresAt((request.body as Record<string, unknown>).expires_at)
      assertCanAssign(request, source, level, member.access_level)
      // GitLab's policy forbids demoting the last owner, administrators included.
      if (level !== member.access_level && isLastOwner(request, source, member)) throw forbidden()
      const user = findUserById(db, member.user_id) as UserRow
      const updated = changeMember(request, source, member, user, level, expiresAt)
      return serialize(request, [{ user, member: updated }])[0]
    })

    app.delete(
      `${base}/:user_id`,
      { schema: { params: MemberParams, querystring: DeleteQuery } },
      async (request, reply) => {
        const caller = currentUser(request)
        const source = loadSource(request, kind, request.params.id)
        const db = request.server.burrow.db
        const member = findDirectMember(db, source.ref, request.params.user_id)
        if (!member) throw memberNotFound()
        const leaving = member.user_id === caller.id
        if (!leaving) {
          if (!canManageMembers(request, source)) throw forbidden()
          // Only Owners remove Owners (project Maintainers manage members up to Maintainer).
          if (
            !request.perms.isAdmin &&
            member.access_level === 50 &&
            source.project &&
            request.perms.projectAccess(source.project) < 50
          )
            throw forbidden()
        }
        if (isLastOwner(request, source, member)) throw forbidden()
        checkUnmodifiedSince(request, member.updated_at)
        const user = findUserById(db, member.user_id) as UserRow
        removeMember(request, source, member, user, request.query.skip_subresources === true)
        return reply.code(204).send()
      },
    )
  }
}

/** POST with comma-separated user ids: adds each, collecting errors as GitLab's CreateService. */
function addSeveral(
  request: FastifyRequest,
  source: MemberSource,
  ids: readonly string[],
  level: number,
  rawExpiresAt: unknown,
): Record<string, unknown> {
  const db = request.server.burrow.db
  const errors: Record<string, string> = {}
  validateAccessLevel(level)
  assertCanAssign(request, source, level)
  const expiresAt = parseExpiresAt(rawExpiresAt) ?? null
  for (const id of ids) {
    const user = /^\d+$/.test(id) ? findUserById(db, Number(id)) : undefined
    if (!user) {
      errors[id] = 'User not found'
      continue
    }
    if (findDirectMember(db, source.ref, user.id)) {
      errors[user.username] = 'Member already exists'
      continue
    }
    addMember(request, source, user, level, expiresAt)
  }
  return Object.keys(errors).length === 0 ? { status: 'success' } : { status: 'error', message: errors }
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
      { schema: { params: SourceParams, querystring: MembershipQuery } },
      async (request, reply) => {
        requireAdmin(request)
        const user = loadUser(request, request.params.id)
        const page = pageOf(request.query as Record<string, unknown>)
        const db = request.server.burrow.db
        const { rows, total } = listUserMemberships(db, user.id, request.query.type as MemberSourceType | undefined, {
          limit: page.perPage,
          offset: page.offset,
        })
        const names = sourceNames(db, rows)
        setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
        return rows.map((r) => userMembershipEntity(r, names.get(`${r.source_type}:${r.source_id}`)))
      },
    )
  }
}

export default members
