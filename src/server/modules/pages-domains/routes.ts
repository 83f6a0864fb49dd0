import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { findProjectPagesDomain, listAllPagesDomains, listProjectPagesDomains, type PagesDomainRow } from './queries'
import type { ProjectRow } from '../../platform/db/rows'
import { pagesDomainBasicEntity, pagesDomainEntity } from './entity'
import { ApiError, notFound, paramError } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadProject, requireAdmin } from '../../platform/http/resolve'
import { createPagesDomain, destroyPagesDomain, leafCertificate, updatePagesDomainAttributes } from './service'

const IdParams = Type.Object({ id: Type.String() })
const DomainParams = Type.Object({ id: Type.String(), domain: Type.String() })
const PageQuery = Type.Object({ page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) })
const GlobalQuery = Type.Object({
  domain: Type.Optional(Type.String()),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})
// Certificates and keys come as strings or as uploaded files (multipart parts become their text).
const Pem = Type.Optional(Type.Union([Type.String(), Type.Null()]))
const CreateBody = Type.Object({
  domain: Type.String(),
  certificate: Pem,
  key: Pem,
  auto_ssl_enabled: Type.Optional(Type.Boolean()),
})
const UpdateBody = Type.Object({ certificate: Pem, key: Pem, auto_ssl_enabled: Type.Optional(Type.Boolean()) })

/** Custom domains of Pages sites: the administrators' instance-wide list and the project endpoints (Maintainer). */
const pagesDomains: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow

  /** The Pages feature is an instance setting; while it is off, every endpoint answers 404. */
  const requirePages = (): void => {
    if (!ctx.settings.get('pages_enabled')) throw new ApiError(404, { message: '404 Not Found' })
  }
  const maintainedProject = (request: FastifyRequest, id: string): ProjectRow => {
    currentUser(request)
    const project = loadProject(request, id, AccessLevel.MAINTAINER)
    requirePages()
    return project
  }
  const domainOf = (project: ProjectRow, domain: string): PagesDomainRow => {
    const row = findProjectPagesDomain(ctx.db, project.id, domain)
    if (!row) throw notFound('PagesDomain')
    return row
  }
  const present = (d: PagesDomainRow): Readonly<Record<string, unknown>> => pagesDomainEntity(d, leafCertificate(d))

  app.get('/pages/domains', { schema: { querystring: GlobalQuery } }, async (request, reply) => {
    requireAdmin(request)
    requirePages()
    const page = pageOf(request.query as Record<string, unknown>)
    const domain = request.query.domain || undefined
    const { rows, total } = listAllPagesDomains(ctx.db, domain, { limit: page.perPage, offset: page.offset })
    if (domain !== undefined && rows.length === 0) throw notFound('PagesDomain')
    setPageHeaders(request, reply, ctx.baseUrl(request), page, total)
    return rows.map((d) => pagesDomainBasicEntity(d, leafCertificate(d)))
  })

  app.get(
    '/projects/:id/pages/domains',
    { schema: { params: IdParams, querystring: PageQuery } },
    async (request, reply) => {
      const project = maintainedProject(request, request.params.id)
      const page = pageOf(request.query as Record<string, unknown>)
      const { rows, total } = listProjectPagesDomains(ctx.db, project.id, { limit: page.perPage, offset: page.offset })
      setPageHeaders(request, reply, ctx.baseUrl(request), page, total)
      return rows.map(present)
    },
  )

  app.get('/projects/:id/pages/domains/:domain', { schema: { params: DomainParams } }, async (request) => {
    const project = maintainedProject(request, request.params.id)
    return present(domainOf(project, request.params.domain))
  })

  app.post(
    '/projects/:id/pages/domains',
    { schema: { params: IdParams, body: CreateBody } },
    async (request, reply) => {
      const project = maintainedProject(request, request.params.id)
      const body = request.body
      // Grape's all_or_none_of: a certificate needs its key and a key its certificate.
      if ((body.certificate === undefined) !== (body.key === undefined))
        throw paramError('certificate, key provide all or none of parameters')
      return reply.code(201).send(present(createPagesDomain(request, project, body)))
    },
  )

  app.put(
    '/projects/:id/pages/domains/:domain',
    { schema: { params: DomainParams, body: UpdateBody } },
    async (request) => {
      const project = maintainedProject(request, request.params.id)
      return present(
        updatePagesDomainAttributes(request, project, domainOf(project, request.params.domain), request.body),
      )
    },
  )

  app.delete('/projects/:id/pages/domains/:domain', { schema: { params: DomainParams } }, async (request, reply) => {
    const project = maintainedProject(request, request.params.id)
    destroyPagesDomain(request, project, domainOf(project, request.params.domain))
    return reply.code(204).send()
  })
}

export default pagesDomains
