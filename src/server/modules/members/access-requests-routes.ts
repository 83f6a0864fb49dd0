import * as Api from '../../../shared/api/index'
import { callerOf } from '../../platform/caller'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { findAccessRequest, insertAccessRequest, listAccessRequests } from './queries'
import { findUserById } from '../users'
import type { UserRow } from '../../platform/db/rows'
import { accessRequestEntity, memberEntity } from './entity'
import { forbidden, notFound, validationFailed } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser } from '../../platform/http/resolve'
import {
  approveAccessRequest,
  assertCanAssign,
  callerLevel,
  dropAccessRequest,
  requireManageMembers,
  validateAccessLevel,
  type SourceKind,
} from './service'
import { loadSource } from './source-routes'

const SourceParams = Type.Object({ id: Type.String() })
const RequesterParams = Type.Object({ id: Type.String(), user_id: Type.Integer() })
const PageQuery = Type.Object({ page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) })
const ApproveBody = Type.Object({ access_level: Type.Integer({ default: AccessLevel.DEVELOPER }) })

function routesFor(kind: SourceKind): FastifyPluginAsyncTypebox {
  return async (app) => {
    const base = `/${kind}/:id/access_requests`

    // Pending requests are visible to those who could approve them.
    const requestList = { 200: Type.Array(Api.AccessRequest) }
    app.get(
      base,
      { schema: { params: SourceParams, querystring: PageQuery, response: requestList } },
      async (request, reply) => {
        currentUser(request)
        const source = loadSource(request, kind, request.params.id)
        requireManageMembers(callerOf(request), source)
        const page = pageOf(request.query)
        const baseUrl = callerOf(request).baseUrl
        const { rows, total } = listAccessRequests(callerOf(request).db, source.ref, {
          limit: page.perPage,
          offset: page.offset,
        })
        setPageHeaders(request, reply, baseUrl, page, total)
        return rows.map((r) => accessRequestEntity(r.user, r.request, baseUrl))
      },
    )

    app.post(
      base,
      { schema: { params: SourceParams, response: { 201: Api.AccessRequest } } },
      async (request, reply) => {
        const user = currentUser(request)
        const source = loadSource(request, kind, request.params.id)
        const db = callerOf(request).db
        const enabled = source.project ? source.project.request_access_enabled : source.group?.request_access_enabled
        // GitLab's request_access policy: only for people without access, and only where enabled.
        if (!enabled || callerLevel(callerOf(request), source) > AccessLevel.NO_ACCESS) throw forbidden()
        if (findAccessRequest(db, source.ref, user.id)) throw validationFailed({ user: ['already exists in source'] })
        const created = insertAccessRequest(db, source.ref, user.id)
        return reply.code(201).send(accessRequestEntity(user, created, callerOf(request).baseUrl))
      },
    )

    app.put(
      `${base}/:user_id/approve`,
      { schema: { params: RequesterParams, body: ApproveBody, response: { 201: Api.Member } } },
      async (request, reply) => {
        currentUser(request)
        const source = loadSource(request, kind, request.params.id)
        const db = callerOf(request).db
        if (!findAccessRequest(db, source.ref, request.params.user_id)) throw notFound()
        const level = request.body.access_level
        requireManageMembers(callerOf(request), source)
        validateAccessLevel(level)
        assertCanAssign(callerOf(request), source, level)
        const user = findUserById(db, request.params.user_id) as UserRow
        const caller = callerOf(request)
        const member = approveAccessRequest(caller, source, user, level)
        const creators = new Map<number, UserRow>(caller.user ? [[caller.user.id, caller.user]] : [])
        return reply.code(201).send(memberEntity({ user, member }, creators, caller.baseUrl))
      },
    )

    app.delete(`${base}/:user_id`, { schema: { params: RequesterParams } }, async (request, reply) => {
      const caller = currentUser(request)
      const source = loadSource(request, kind, request.params.id)
      if (!findAccessRequest(callerOf(request).db, source.ref, request.params.user_id)) throw notFound()
      // The requester may withdraw; anyone else needs the right to manage members.
      if (caller.id !== request.params.user_id) requireManageMembers(callerOf(request), source)
      dropAccessRequest(callerOf(request), source, request.params.user_id)
      return reply.code(204).send()
    })
  }
}

/** Access requests of groups and projects: list, request, approve, deny/withdraw. */
const accessRequests: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(routesFor('groups'))
  await app.register(routesFor('projects'))
}

export default accessRequests
