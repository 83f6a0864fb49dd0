import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { MergeRequestDiffVersion, MergeRequestDiffVersionDetail } from '../../../shared/api/merge-request'
import { callerOf } from '../../platform/caller'
import { notFound } from '../../platform/http/errors'
import { paginateArray } from '../../platform/http/pagination'
import { currentUser } from '../../platform/http/resolve'
import { loadMergeRequest, loadMrProject, projectPathOf } from './routes'
import { diffVersion, diffVersions } from './versions'
import { diffVersionDetailEntity, diffVersionEntity } from './versions-entity'

const MrParams = Type.Object({ id: Type.String(), merge_request_iid: Type.Integer() })
const VersionParams = Type.Object({ id: Type.String(), merge_request_iid: Type.Integer(), version_id: Type.Integer() })
const PageQuery = Type.Object({ page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) })
const VersionQuery = Type.Object({ unidiff: Type.Optional(Type.Boolean({ default: false })) })

/**
 * GitLab's merge request diff versions: `GET …/versions` (newest first) and `GET …/versions/:version_id`.
 * Authenticated, as every merge request call (the spec).
 */
const versions: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects/:id/merge_requests/:merge_request_iid/versions',
    { schema: { params: MrParams, querystring: PageQuery, response: { 200: Type.Array(MergeRequestDiffVersion) } } },
    async (request, reply) => {
      currentUser(request)
      const project = loadMrProject(request, request.params.id)
      const mr = loadMergeRequest(request, project, request.params.merge_request_iid)
      const rows = await diffVersions(callerOf(request), project, mr)
      return paginateArray(request, reply, request.server.burrow.baseUrl(request), rows.map(diffVersionEntity))
    },
  )

  app.get(
    '/projects/:id/merge_requests/:merge_request_iid/versions/:version_id',
    {
      schema: {
        params: VersionParams,
        querystring: VersionQuery,
        response: { 200: MergeRequestDiffVersionDetail },
      },
    },
    async (request) => {
      currentUser(request)
      const project = loadMrProject(request, request.params.id)
      const mr = loadMergeRequest(request, project, request.params.merge_request_iid)
      const caller = callerOf(request)
      const detail = await diffVersion(caller, project, mr, request.params.version_id)
      // GitLab's answer to a missing record (ActiveRecord::RecordNotFound).
      if (!detail) throw notFound()
      return diffVersionDetailEntity(
        detail,
        `${caller.baseUrl}/${projectPathOf(request, project)}`,
        request.query.unidiff === true,
      )
    },
  )
}

export default versions
