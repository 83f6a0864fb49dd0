import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Finding, Vulnerability } from '../../../shared/api/security'
import { callerOf } from '../../platform/caller'
import type { ProjectWithNamespaceRow } from '../../platform/db/platform-queries'
import type { VulnerabilityRow } from './queries'
import { SECURITY_ADMIN_ACCESS, SECURITY_READ_ACCESS } from './policy'
import { notModified } from '../../platform/http/errors'
import { listParam } from '../../platform/http/loose-params'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { requireWritable } from '../../platform/http/archived'
import { currentUser, loadProject } from '../../platform/http/resolve'
import { CONFIDENCES, REPORT_TYPES, SEVERITIES } from './report'
import { onArtifactStored } from '../pipelines'
import {
  createVulnerabilityFromFinding,
  findingsPage,
  ingestReportArtifact,
  presentFindings,
  presentVulnerabilities,
  projectWithNamespace,
  transitionVulnerability,
  vulnerabilitiesPage,
  vulnerabilityFor,
  type VulnerabilityAction,
} from './service'

const IdParams = Type.Object({ id: Type.String() })
const VulnerabilityParams = Type.Object({ id: Type.Integer() })
const PageQuery = Type.Object({ page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) })
const CreateBody = Type.Object({ finding_id: Type.Integer() })
const ListArray = Type.Optional(Type.Array(Type.String()))
const FindingsQuery = Type.Object({
  report_type: ListArray,
  scope: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('dismissed')])),
  severity: ListArray,
  confidence: ListArray,
  pipeline_id: Type.Optional(Type.Integer()),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})
const ActionBody = Type.Object({
  comment: Type.Optional(Type.String()),
  dismissal_reason: Type.Optional(Type.String()),
})

/**
 * The project of `:id` for the security endpoints: every call needs a signed-in caller (401),
 * the project must be visible (404) and the caller needs the Security Dashboard (Developer, 403).
 */
function securityProject(request: FastifyRequest, id: string): ProjectWithNamespaceRow {
  currentUser(request)
  const project = loadProject(request, id, SECURITY_READ_ACCESS)
  return projectWithNamespace(callerOf(request), project.id)
}

/** A vulnerability by id for a signed-in caller with `minLevel` on its project (401, 404 or 403 otherwise). */
function loadVulnerability(
  request: FastifyRequest,
  id: number,
  minLevel: number,
): { readonly vulnerability: VulnerabilityRow; readonly project: ProjectWithNamespaceRow } {
  currentUser(request)
  return vulnerabilityFor(callerOf(request), id, minLevel)
}

/**
 * Vulnerabilities (project list, create from a finding, single, state actions) and findings;
 * registers the reading of security report artifacts uploaded by default-branch pipelines.
 */
const vulnerabilities: FastifyPluginAsyncTypebox = async (app) => {
  onArtifactStored(app.burrow, ingestReportArtifact)

  app.get(
    '/projects/:id/vulnerabilities',
    { schema: { params: IdParams, querystring: PageQuery, response: { 200: Type.Array(Vulnerability) } } },
    async (request, reply) => {
      const caller = callerOf(request)
      const project = securityProject(request, request.params.id)
      const page = pageOf(request.query)
      const { rows, total } = vulnerabilitiesPage(caller, project, page)
      setPageHeaders(request, reply, caller.baseUrl, page, total)
      return presentVulnerabilities(caller, rows, project)
    },
  )

  app.post(
    '/projects/:id/vulnerabilities',
    { schema: { params: IdParams, body: CreateBody, response: { 201: Vulnerability } } },
    async (request, reply) => {
      const caller = callerOf(request)
      const project = securityProject(request, request.params.id)
      const vulnerability = createVulnerabilityFromFinding(caller, project, request.body.finding_id)
      return reply.code(201).send(presentVulnerabilities(caller, [vulnerability], project)[0])
    },
  )

  app.get(
    '/vulnerabilities/:id',
    { schema: { params: VulnerabilityParams, response: { 200: Vulnerability } } },
    async (request) => {
      const { vulnerability, project } = loadVulnerability(request, request.params.id, SECURITY_READ_ACCESS)
      return presentVulnerabilities(callerOf(request), [vulnerability], project)[0]
    },
  )

  for (const action of ['confirm', 'resolve', 'dismiss', 'revert'] as const satisfies readonly VulnerabilityAction[]) {
    app.post(
      `/vulnerabilities/:id/${action}`,
      { schema: { params: VulnerabilityParams, body: ActionBody, response: { 201: Vulnerability } } },
      async (request, reply) => {
        const caller = callerOf(request)
        const { vulnerability, project } = loadVulnerability(request, request.params.id, SECURITY_ADMIN_ACCESS)
        requireWritable(project)
        const updated = transitionVulnerability(caller, project, vulnerability, action, request.body.comment)
        if (!updated) throw notModified()
        return reply.code(201).send(presentVulnerabilities(caller, [updated], project)[0])
      },
    )
  }

  app.get(
    '/projects/:id/vulnerability_findings',
    { schema: { params: IdParams, querystring: FindingsQuery, response: { 200: Type.Array(Finding) } } },
    async (request, reply) => {
      const caller = callerOf(request)
      const project = securityProject(request, request.params.id)
      const q = request.query
      const page = pageOf(q)
      const filter = {
        projectId: project.id,
        reportTypes: listParam('report_type', q.report_type, REPORT_TYPES),
        severities: listParam('severity', q.severity, SEVERITIES),
        confidences: listParam('confidence', q.confidence, CONFIDENCES),
        pipelineId: q.pipeline_id,
        hideDismissed: (q.scope ?? 'dismissed') === 'dismissed',
      }
      const { rows, total } = findingsPage(caller, filter, page)
      setPageHeaders(request, reply, caller.baseUrl, page, total)
      return presentFindings(caller, rows, project)
    },
  )
}

export default vulnerabilities
