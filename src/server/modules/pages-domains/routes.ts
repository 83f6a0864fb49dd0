import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { PagesDomain, PagesDomainBasic } from '../../../shared/api/pages-domain'
import { callerOf } from '../../platform/caller'
import type { ProjectRow } from '../../platform/db/rows'
import { paramError } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadProject, requireAdmin } from '../../platform/http/resolve'
import { leafCertificate, pagesDomainBasicEntity, pagesDomainEntity } from './entity'
import { PAGES_DOMAIN_ACCESS, requirePagesEnabled } from './policy'
import type { PagesDomainRow } from './queries'
import {
  createPagesDomain,
  destroyPagesDomain,
  instancePagesDomainsPage,
  pagesDomainOf,
  projectPagesDomainsPage,
  updatePagesDomainAttributes,
} from './service'

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

/** The project of `:id`, for a signed-in Maintainer while Pages is on (401, 404 or 403 otherwise). */
function maintainedProject(request: FastifyRequest, id: string): ProjectRow {
  currentUser(request)
  const project = loadProject(request, id, PAGES_DOMAIN_ACCESS)
  requirePagesEnabled(request.server.burrow)
  return project
}

function present(d: PagesDomainRow): PagesDomain {
  return pagesDomainEntity(d, leafCertificate(d))
}

/** Custom domains of Pages sites: the administrators' instance-wide list and the project endpoints (Maintainer). */
const pagesDomains: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/pages/domains',
    { schema: { querystring: GlobalQuery, response: { 200: Type.Array(PagesDomainBasic) } } },
    async (request, reply) => {
      const caller = callerOf(request)
      requireAdmin(request)
      requirePagesEnabled(caller.ctx)
      const page = pageOf(request.query)
      const { rows, total } = instancePagesDomainsPage(caller, request.query.domain || undefined, page)
      setPageHeaders(request, reply, caller.baseUrl, page, total)
      return rows.map((d) => pagesDomainBasicEntity(d, leafCertificate(d)))
    },
  )

  app.get(
    '/projects/:id/pages/domains',
    { schema: { params: IdParams, querystring: PageQuery, response: { 200: Type.Array(PagesDomain) } } },
    async (request, reply) => {
      const caller = callerOf(request)
      const project = maintainedProject(request, request.params.id)
      const page = pageOf(request.query)
      const { rows, total } = projectPagesDomainsPage(caller, project, page)
      setPageHeaders(request, reply, caller.baseUrl, page, total)
      return rows.map(present)
    },
  )

  app.get(
    '/projects/:id/pages/domains/:domain',
    { schema: { params: DomainParams, response: { 200: PagesDomain } } },
    async (request) => {
      const project = maintainedProject(request, request.params.id)
      return present(pagesDomainOf(callerOf(request), project, request.params.domain))
    },
  )

  app.post(
    '/projects/:id/pages/domains',
    { schema: { params: IdParams, body: CreateBody, response: { 201: PagesDomain } } },
    async (request, reply) => {
      const project = maintainedProject(request, request.params.id)
      const body = request.body
      // Grape's all_or_none_of: a certificate needs its key and a key its certificate.
      if ((body.certificate === undefined) !== (body.key === undefined))
        throw paramError('certificate, key provide all or none of parameters')
      return reply.code(201).send(present(createPagesDomain(callerOf(request), project, body)))
    },
  )

  app.put(
    '/projects/:id/pages/domains/:domain',
    { schema: { params: DomainParams, body: UpdateBody, response: { 200: PagesDomain } } },
    async (request) => {
      const caller = callerOf(request)
      const project = maintainedProject(request, request.params.id)
      const domain = pagesDomainOf(caller, project, request.params.domain)
      return present(updatePagesDomainAttributes(caller, project, domain, request.body))
    },
  )

  app.delete('/projects/:id/pages/domains/:domain', { schema: { params: DomainParams } }, async (request, reply) => {
    const caller = callerOf(request)
    const project = maintainedProject(request, request.params.id)
    destroyPagesDomain(caller, project, pagesDomainOf(caller, project, request.params.domain))
    return reply.code(204).send()
  })
}

export default pagesDomains
