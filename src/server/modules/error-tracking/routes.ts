import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { findClientKey, findErrorTrackingSetting, listClientKeys } from './queries'
import type { ProjectRow } from '../../platform/db/rows'
import { clientKeyEntity, errorTrackingSettingEntity } from './entity'
import { notFound } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadProject } from '../../platform/http/resolve'
import { createClientKey, destroyClientKey, updateErrorTrackingSetting } from './service'

const IdParams = Type.Object({ id: Type.String() })
const KeyParams = Type.Object({ id: Type.String(), key_id: Type.Integer() })
const PageQuery = Type.Object({ page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) })
const PatchBody = Type.Object({ active: Type.Boolean(), integrated: Type.Optional(Type.Boolean()) })
const PutBody = Type.Object({ active: Type.Boolean(), integrated: Type.Boolean() })

/** Integrated error tracking: the project setting and client keys, for Maintainers (GitLab's admin_operations). */
const errorTracking: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow

  const maintainedProject = (request: FastifyRequest, id: string): ProjectRow => {
    currentUser(request)
    return loadProject(request, id, AccessLevel.MAINTAINER)
  }

  app.get('/projects/:id/error_tracking/settings', { schema: { params: IdParams } }, async (request) => {
    const project = maintainedProject(request, request.params.id)
    const setting = findErrorTrackingSetting(ctx.db, project.id)
    if (!setting) throw notFound('Error Tracking Setting')
    return errorTrackingSettingEntity(setting)
  })

  // GitLab answers 404 to PATCH until the setting exists, which only its UI could create; the
  // spec makes PATCH the way to set it, so PATCH creates the setting the first time, as PUT does.
  app.patch(
    '/projects/:id/error_tracking/settings',
    { schema: { params: IdParams, body: PatchBody } },
    async (request) => {
      const project = maintainedProject(request, request.params.id)
      return errorTrackingSettingEntity(
        updateErrorTrackingSetting(request, project, request.body.active, request.body.integrated),
      )
    },
  )

  app.put('/projects/:id/error_tracking/settings', { schema: { params: IdParams, body: PutBody } }, async (request) => {
    const project = maintainedProject(request, request.params.id)
    return errorTrackingSettingEntity(
      updateErrorTrackingSetting(request, project, request.body.active, request.body.integrated),
    )
  })

  app.get(
    '/projects/:id/error_tracking/client_keys',
    { schema: { params: IdParams, querystring: PageQuery } },
    async (request, reply) => {
      const project = maintainedProject(request, request.params.id)
      const page = pageOf(request.query as Record<string, unknown>)
      const { rows, total } = listClientKeys(ctx.db, ctx.secrets, project.id, {
        limit: page.perPage,
        offset: page.offset,
      })
      setPageHeaders(request, reply, ctx.baseUrl(request), page, total)
      const baseUrl = ctx.baseUrl(request)
      return rows.map((k) => clientKeyEntity(baseUrl, k))
    },
  )

  app.post('/projects/:id/error_tracking/client_keys', { schema: { params: IdParams } }, async (request, reply) => {
    const project = maintainedProject(request, request.params.id)
    return reply.code(201).send(clientKeyEntity(ctx.baseUrl(request), createClientKey(request, project)))
  })

  // GitLab answers the deletion with the deleted key (200).
  app.delete('/projects/:id/error_tracking/client_keys/:key_id', { schema: { params: KeyParams } }, async (request) => {
    const project = maintainedProject(request, request.params.id)
    const key = findClientKey(ctx.db, ctx.secrets, project.id, request.params.key_id)
    if (!key) throw notFound()
    destroyClientKey(request, project, key)
    return clientKeyEntity(ctx.baseUrl(request), key)
  })
}

export default errorTracking
