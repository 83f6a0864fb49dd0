import * as Api from '../../../shared/api/index'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from 'typebox'
import { callerOf } from '../../platform/caller'
import type { ProjectRow } from '../../platform/db/rows'
import { missingParam, paramError } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadProject } from '../../platform/http/resolve'
import { CLUSTER_ACCESS } from './policy'
import {
  clusterOf,
  clustersPage,
  createCluster,
  destroyCluster,
  presentClusters,
  updateClusterAttributes,
  type PlatformParams,
} from './service'

const IdParams = Type.Object({ id: Type.String() })
const ClusterParams = Type.Object({ id: Type.String(), cluster_id: Type.Integer() })
const PageQuery = Type.Object({ page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) })
const NullableString = Type.Optional(Type.Union([Type.String(), Type.Null()]))
const Platform = Type.Object({
  api_url: Type.Optional(Type.String()),
  token: Type.Optional(Type.String()),
  ca_cert: NullableString,
  namespace: NullableString,
  authorization_type: Type.Optional(
    Type.Union([Type.Literal('rbac'), Type.Literal('abac'), Type.Literal('unknown_authorization')]),
  ),
})
const Common = {
  domain: NullableString,
  management_project_id: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  enabled: Type.Optional(Type.Boolean()),
  managed: Type.Optional(Type.Boolean()),
  environment_scope: Type.Optional(Type.String()),
  namespace_per_environment: Type.Optional(Type.Boolean()),
  // The spec names the platform `platform_cluster`; GitLab and its clients say `platform_kubernetes`.
  platform_cluster_attributes: Type.Optional(Platform),
  platform_kubernetes_attributes: Type.Optional(Platform),
}
const CreateBody = Type.Object({ name: Type.String(), ...Common })
const UpdateBody = Type.Object({ name: Type.Optional(Type.String()), ...Common })

/** Which platform key the client used, and its attributes. */
function platformOf(body: Static<typeof UpdateBody>): {
  readonly key: string
  readonly attrs: PlatformParams | undefined
} {
  if (body.platform_cluster_attributes !== undefined)
    return { key: 'platform_cluster_attributes', attrs: body.platform_cluster_attributes }
  if (body.platform_kubernetes_attributes !== undefined)
    return { key: 'platform_kubernetes_attributes', attrs: body.platform_kubernetes_attributes }
  return { key: 'platform_cluster_attributes', attrs: undefined }
}

/** The project of `:id`, for a signed-in caller with the clusters' role (401, 404 or 403 otherwise). */
function maintainedProject(request: FastifyRequest, id: string): ProjectRow {
  currentUser(request)
  return loadProject(request, id, CLUSTER_ACCESS)
}

/** Certificate-based project clusters; every call needs Maintainer (the spec's and GitLab's rule). */
const clusters: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects/:id/clusters',
    {
      schema: {
        params: IdParams,
        querystring: PageQuery,
        response: { 200: Type.Array(Api.Cluster) },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request)
      const project = maintainedProject(request, request.params.id)
      const page = pageOf(request.query)
      const { rows, total } = clustersPage(caller, project, page)
      setPageHeaders(request, reply, caller.baseUrl, page, total)
      return presentClusters(caller, rows, false)
    },
  )

  app.get(
    '/projects/:id/clusters/:cluster_id',
    { schema: { params: ClusterParams, response: { 200: Api.Cluster } } },
    async (request) => {
      const caller = callerOf(request)
      const project = maintainedProject(request, request.params.id)
      return presentClusters(caller, [clusterOf(caller, project, request.params.cluster_id)], true)[0]
    },
  )

  app.post(
    '/projects/:id/clusters/user',
    { schema: { params: IdParams, body: CreateBody, response: { 201: Api.Cluster } } },
    async (request, reply) => {
      const project = maintainedProject(request, request.params.id)
      const body = request.body
      const { key, attrs } = platformOf(body)
      if (!attrs) throw missingParam(key)
      if (attrs.api_url === undefined) throw missingParam(`${key}[api_url]`)
      if (attrs.api_url.trim() === '') throw paramError(`${key}[api_url] is empty`)
      if (attrs.token === undefined) throw missingParam(`${key}[token]`)
      const caller = callerOf(request)
      const cluster = createCluster(caller, project, {
        ...body,
        platform: { ...attrs, api_url: attrs.api_url, token: attrs.token },
      })
      return reply.code(201).send(presentClusters(caller, [cluster], true)[0])
    },
  )

  app.put(
    '/projects/:id/clusters/:cluster_id',
    { schema: { params: ClusterParams, body: UpdateBody, response: { 200: Api.Cluster } } },
    async (request) => {
      const caller = callerOf(request)
      const project = maintainedProject(request, request.params.id)
      const cluster = clusterOf(caller, project, request.params.cluster_id)
      const updated = updateClusterAttributes(caller, project, cluster, {
        ...request.body,
        platform: platformOf(request.body).attrs,
      })
      return presentClusters(caller, [updated], true)[0]
    },
  )

  app.delete('/projects/:id/clusters/:cluster_id', { schema: { params: ClusterParams } }, async (request, reply) => {
    const caller = callerOf(request)
    const project = maintainedProject(request, request.params.id)
    destroyCluster(caller, project, clusterOf(caller, project, request.params.cluster_id))
    return reply.code(204).send()
  })
}

export default clusters
