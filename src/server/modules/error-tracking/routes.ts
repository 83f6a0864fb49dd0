import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { ErrorTrackingClientKey, ErrorTrackingSettings } from '../../../shared/api/error-tracking'
import { callerOf } from '../../platform/caller'
import type { ProjectRow } from '../../platform/db/rows'
import { notFound } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadProject } from '../../platform/http/resolve'
import { clientKeyEntity, errorTrackingSettingEntity } from './entity'
import { ERROR_TRACKING_ACCESS } from './policy'
import {
  clientKey,
  clientKeysPage,
  createClientKey,
  destroyClientKey,
  errorTrackingSetting,
  updateErrorTrackingSetting,
} from './service'

const IdParams = Type.Object({ id: Type.String() })
const KeyParams = Type.Object({ id: Type.String(), key_id: Type.Integer() })
const PageQuery = Type.Object({ page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) })
const PatchBody = Type.Object({ active: Type.Boolean(), integrated: Type.Optional(Type.Boolean()) })
const PutBody = Type.Object({ active: Type.Boolean(), integrated: Type.Boolean() })

/** The project of `:id`, for a signed-in caller with error tracking's role (401, 404 or 403 otherwise). */
function trackedProject(request: FastifyRequest, id: string): ProjectRow {
  currentUser(request)
  return loadProject(request, id, ERROR_TRACKING_ACCESS)
}

/** Integrated error tracking: the project setting and client keys, for Maintainers (GitLab's admin_operations). */
const errorTracking: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects/:id/error_tracking/settings',
    { schema: { params: IdParams, response: { 200: ErrorTrackingSettings } } },
    async (request) => {
      const setting = errorTrackingSetting(callerOf(request), trackedProject(request, request.params.id))
      if (!setting) throw notFound('Error Tracking Setting')
      return errorTrackingSettingEntity(setting)
    },
  )

  // GitLab answers 404 to PATCH until the setting exists, which only its UI could create; the
  // spec makes PATCH the way to set it, so PATCH creates the setting the first time, as PUT does.
  app.patch(
    '/projects/:id/error_tracking/settings',
    { schema: { params: IdParams, body: PatchBody, response: { 200: ErrorTrackingSettings } } },
    async (request) => {
      const project = trackedProject(request, request.params.id)
      const { active, integrated } = request.body
      return errorTrackingSettingEntity(updateErrorTrackingSetting(callerOf(request), project, active, integrated))
    },
  )

  app.put(
    '/projects/:id/error_tracking/settings',
    { schema: { params: IdParams, body: PutBody, response: { 200: ErrorTrackingSettings } } },
    async (request) => {
      const project = trackedProject(request, request.params.id)
      const { active, integrated } = request.body
      return errorTrackingSettingEntity(updateErrorTrackingSetting(callerOf(request), project, active, integrated))
    },
  )

  app.get(
    '/projects/:id/error_tracking/client_keys',
    { schema: { params: IdParams, querystring: PageQuery, response: { 200: Type.Array(ErrorTrackingClientKey) } } },
    async (request, reply) => {
      const caller = callerOf(request)
      const project = trackedProject(request, request.params.id)
      const page = pageOf(request.query)
      const { rows, total } = clientKeysPage(caller, project, page)
      setPageHeaders(request, reply, caller.baseUrl, page, total)
      return rows.map((k) => clientKeyEntity(caller.baseUrl, k))
    },
  )

  app.post(
    '/projects/:id/error_tracking/client_keys',
    { schema: { params: IdParams, response: { 201: ErrorTrackingClientKey } } },
    async (request, reply) => {
      const caller = callerOf(request)
      const project = trackedProject(request, request.params.id)
      return reply.code(201).send(clientKeyEntity(caller.baseUrl, createClientKey(caller, project)))
    },
  )

  // GitLab answers the deletion with the deleted key (200).
  app.delete(
    '/projects/:id/error_tracking/client_keys/:key_id',
    { schema: { params: KeyParams, response: { 200: ErrorTrackingClientKey } } },
    async (request) => {
      const caller = callerOf(request)
      const project = trackedProject(request, request.params.id)
      const key = clientKey(caller, project, request.params.key_id)
      if (!key) throw notFound()
      destroyClientKey(caller, project, key)
      return clientKeyEntity(caller.baseUrl, key)
    },
  )
}

export default errorTracking
