import * as Api from '../../../shared/api/index'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { findGeoNode, listGeoNodes, type GeoNodeRow } from './queries'
import { geoNodeEntity } from './entity'
import { ApiError, notFound } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { requireAdmin } from '../../platform/http/resolve'
import {
  createGeoNode,
  currentNode,
  destroyGeoNode,
  geoNodeStatus,
  isCurrentNode,
  namespaceIdsOf,
  repairGeoNode,
  refuseOnSecondary,
  updateGeoNode,
} from './service'
import { callerOf } from '../../platform/caller'

const PageQuery = Type.Object({ page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) })
const IdParams = Type.Object({ id: Type.Integer() })
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Optional(Type.Union([t, Type.Null()]))
const Attributes = {
  internal_url: Nullable(Type.String()),
  enabled: Type.Optional(Type.Boolean()),
  files_max_capacity: Type.Optional(Type.Integer()),
  repos_max_capacity: Type.Optional(Type.Integer()),
  verification_max_capacity: Type.Optional(Type.Integer()),
  container_repositories_max_capacity: Type.Optional(Type.Integer()),
  sync_object_storage: Type.Optional(Type.Boolean()),
  selective_sync_type: Nullable(Type.String()),
  // Arrays, or comma-separated text (Grape's CommaSeparatedToArray): parsed by the service.
  selective_sync_shards: Type.Optional(Type.Unknown()),
  selective_sync_namespace_ids: Type.Optional(Type.Unknown()),
  minimum_reverification_interval: Type.Optional(Type.Integer()),
}
const CreateBody = Type.Object({
  name: Type.String(),
  url: Type.String(),
  primary: Type.Optional(Type.Boolean()),
  ...Attributes,
})
const UpdateBody = Type.Object({ name: Type.String(), url: Type.String(), ...Attributes })

/**
 * Replication (Geo) nodes, administrators only. Nodes are changed (POST, PUT, DELETE, repair)
 * anywhere but on a secondary: the instance whose node name (`geo_node_name`, else its external
 * URL) is a recorded secondary's is read-only. Status records are counted from this instance's data (services/geo-nodes.ts).
 */
const geoNodes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow

  const present = (request: FastifyRequest, nodes: readonly GeoNodeRow[]): Api.GeoNode[] => {
    const namespaces = namespaceIdsOf(ctx, nodes)
    const baseUrl = ctx.baseUrl(request)
    return nodes.map((n) =>
      geoNodeEntity(n, {
        baseUrl,
        namespaceIds: namespaces.get(n.id) ?? [],
        current: isCurrentNode(callerOf(request), n),
      }),
    )
  }
  const nodeOf = (id: number): GeoNodeRow => {
    const node = findGeoNode(ctx.db, id)
    if (!node) throw notFound('GeoNode')
    return node
  }

  app.post('/geo_nodes', { schema: { body: CreateBody, response: { 201: Api.GeoNode } } }, async (request, reply) => {
    requireAdmin(request)
    refuseOnSecondary(callerOf(request))
    const node = createGeoNode(callerOf(request), request.body)
    return reply.code(201).send(present(request, [node])[0])
  })

  app.get(
    '/geo_nodes',
    { schema: { querystring: PageQuery, response: { 200: Type.Array(Api.GeoNode) } } },
    async (request, reply) => {
      requireAdmin(request)
      const page = pageOf(request.query)
      const { rows, total } = listGeoNodes(ctx.db, { limit: page.perPage, offset: page.offset })
      setPageHeaders(request, reply, ctx.baseUrl(request), page, total)
      return present(request, rows)
    },
  )

  // `/statuses` is where @gitbeaker/rest asks for the same list.
  const statusList = { 200: Type.Array(Api.GeoNodeStatus) }
  for (const path of ['/geo_nodes/status', '/geo_nodes/statuses']) {
    app.get(path, { schema: { querystring: PageQuery, response: statusList } }, async (request, reply) => {
      requireAdmin(request)
      const page = pageOf(request.query)
      const { rows, total } = listGeoNodes(ctx.db, { limit: page.perPage, offset: page.offset })
      setPageHeaders(request, reply, ctx.baseUrl(request), page, total)
      const now = new Date()
      return rows.map((n) => geoNodeStatus(ctx, n, now))
    })
  }

  app.get(
    '/geo_nodes/current/failures',
    { schema: { querystring: PageQuery, response: { 200: Type.Array(Api.GeoProjectFailure) } } },
    async (request, reply) => {
      requireAdmin(request)
      const here = currentNode(callerOf(request))
      if (!here) throw new ApiError(404, { message: '404 Geo node not found' })
      if (here.is_primary === 1)
        throw new ApiError(403, { message: '403 Forbidden - Failures can only be requested from a secondary node' })
      // Nothing is ever recorded as failed (see geoNodeStatus): the list is empty.
      setPageHeaders(request, reply, ctx.baseUrl(request), pageOf(request.query), 0)
      return []
    },
  )

  app.get('/geo_nodes/:id', { schema: { params: IdParams, response: { 200: Api.GeoNode } } }, async (request) => {
    requireAdmin(request)
    return present(request, [nodeOf(request.params.id)])[0]
  })

  app.get(
    '/geo_nodes/:id/status',
    { schema: { params: IdParams, response: { 200: Api.GeoNodeStatus } } },
    async (request) => {
      requireAdmin(request)
      return geoNodeStatus(ctx, nodeOf(request.params.id))
    },
  )

  app.put(
    '/geo_nodes/:id',
    { schema: { params: IdParams, body: UpdateBody, response: { 200: Api.GeoNode } } },
    async (request) => {
      requireAdmin(request)
      refuseOnSecondary(callerOf(request))
      const node = updateGeoNode(callerOf(request), nodeOf(request.params.id), request.body)
      return present(request, [node])[0]
    },
  )

  app.delete('/geo_nodes/:id', { schema: { params: IdParams } }, async (request, reply) => {
    requireAdmin(request)
    refuseOnSecondary(callerOf(request))
    destroyGeoNode(callerOf(request), nodeOf(request.params.id))
    return reply.code(204).send()
  })

  app.post(
    '/geo_nodes/:id/repair',
    { schema: { params: IdParams, response: { 200: Api.GeoNode } } },
    async (request, reply) => {
      requireAdmin(request)
      refuseOnSecondary(callerOf(request))
      const node = repairGeoNode(callerOf(request), nodeOf(request.params.id))
      return reply.code(200).send(present(request, [node])[0])
    },
  )
}

export default geoNodes
