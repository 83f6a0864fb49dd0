import * as Api from '../../../shared/api/index'
import { callerOf } from '../../platform/caller'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import {
  BILLABLE_SORTS,
  isBillableMember,
  listBillableMembers,
  membershipsInHierarchy,
  ownerCountWithAncestors,
  sourceNames,
  type BillableSort,
} from './queries'
import { findUserById } from '../users'
import { billableMemberEntity, billableMembershipEntity } from './entity'
import { badRequest, notFound } from '../../platform/http/errors'
import { pageOf, paginateArray, setPageHeaders } from '../../platform/http/pagination'
import { currentUser } from '../../platform/http/resolve'
import { canManageMembers, removeMember, sourceOfRow } from './service'
import { loadSource } from './source-routes'

const GroupParams = Type.Object({ id: Type.String() })
const UserParams = Type.Object({ id: Type.String(), user_id: Type.Integer() })
const ListQuery = Type.Object({
  search: Type.Optional(Type.String()),
  sort: Type.Optional(Type.Union(BILLABLE_SORTS.map((s) => Type.Literal(s)))),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})

/**
 * Billable members of top-level groups. As GitLab, subgroups and callers who may not administer
 * the group's members get a bare 400, and removal failures a 400 carrying the reason.
 */
const billableMembers: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/groups/:id/billable_members',
    {
      schema: {
        params: GroupParams,
        querystring: ListQuery,
        response: { 200: Type.Array(Api.BillableMember) },
      },
    },
    async (request, reply) => {
      currentUser(request)
      const source = loadSource(request, 'groups', request.params.id)
      if (source.group?.parent_id !== null) throw badRequest()
      if (!canManageMembers(callerOf(request), source)) throw badRequest()
      const page = pageOf(request.query)
      const sort: BillableSort = request.query.sort ?? 'id_asc'
      const search = request.query.search || undefined
      const { rows, total } = listBillableMembers(callerOf(request).db, source.ref.id, search, sort, {
        limit: page.perPage,
        offset: page.offset,
      })
      const baseUrl = callerOf(request).baseUrl
      setPageHeaders(request, reply, baseUrl, page, total)
      return rows.map((r) => billableMemberEntity(r.user, r.direct, baseUrl))
    },
  )

  app.get(
    '/groups/:id/billable_members/:user_id/memberships',
    { schema: { params: UserParams, response: { 200: Type.Array(Api.BillableMembership) } } },
    async (request, reply) => {
      currentUser(request)
      const source = loadSource(request, 'groups', request.params.id)
      if (!canManageMembers(callerOf(request), source)) throw badRequest()
      if (source.group?.parent_id !== null) throw badRequest()
      const db = callerOf(request).db
      const user = findUserById(db, request.params.user_id)
      if (!user || !isBillableMember(db, source.ref.id, user.id)) throw notFound('User')
      const rows = membershipsInHierarchy(db, source.ref.id, user.id)
      const names = sourceNames(db, rows)
      const baseUrl = callerOf(request).baseUrl
      // A user's memberships in one hierarchy are few: paging the fetched list is enough.
      return paginateArray(
        request,
        reply,
        baseUrl,
        rows.map((r) => billableMembershipEntity(r, names.get(`${r.source_type}:${r.source_id}`), baseUrl)),
      )
    },
  )

  app.delete('/groups/:id/billable_members/:user_id', { schema: { params: UserParams } }, async (request, reply) => {
    currentUser(request)
    const source = loadSource(request, 'groups', request.params.id)
    if (source.group?.parent_id !== null) throw badRequest('Invalid group provided, must be top-level')
    if (!canManageMembers(callerOf(request), source)) throw badRequest('User unauthorized to remove member')
    const db = callerOf(request).db
    const rows = membershipsInHierarchy(db, source.ref.id, request.params.user_id)
    if (rows.length === 0) throw badRequest('No member found for the given user_id')
    const lastOwner = rows.some(
      (r) =>
        r.source_type === 'Namespace' &&
        r.access_level === AccessLevel.OWNER &&
        ownerCountWithAncestors(db, r.source_id) <= 1,
    )
    if (lastOwner) throw badRequest('Members who are the last owner of a group cannot be removed')
    const user = findUserById(db, request.params.user_id)
    if (!user) throw badRequest('No member found for the given user_id')
    db.transaction(() => {
      for (const row of rows) removeMember(callerOf(request), sourceOfRow(callerOf(request), row), row, user, true)
    })()
    return reply.code(204).send()
  })
}

export default billableMembers
