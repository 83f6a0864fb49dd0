import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { findProjectWithNamespace, type ProjectWithNamespaceRow } from '../projects/queries'
import {
  findVulnerability,
  findingsByVulnerability,
  identifiersOfFindings,
  listFindings,
  listVulnerabilities,
  scannersByIds,
  type FindingRow,
  type VulnerabilityRow,
} from './queries'
import { findingEntity, vulnerabilityEntity } from './entity'
import { forbidden, notFound, notModified } from '../../platform/http/errors'
import { listParam } from '../../platform/http/list-param'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { requireWritable } from '../../platform/http/archived'
import { currentUser, loadProject } from '../../platform/http/resolve'
import { CONFIDENCES, REPORT_TYPES, SEVERITIES } from './report'
import { onArtifactStored } from '../pipelines/ci-events'
import {
  createVulnerabilityFromFinding,
  ingestReportArtifact,
  transitionVulnerability,
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

function withNamespace(request: FastifyRequest, projectId: number): ProjectWithNamespaceRow {
  const project = findProjectWithNamespace(request.server.burrow.db, projectId)
  if (!project) throw notFound('Project')
  return project
}

/**
 * The project of `:id` for the security endpoints: every call needs a signed-in caller (401),
 * the project must be visible (404) and the caller needs the Security Dashboard (Developer, 403).
 */
function securityProject(request: FastifyRequest, id: string): ProjectWithNamespaceRow {
  currentUser(request)
  const project = loadProject(request, id, AccessLevel.DEVELOPER)
  return withNamespace(request, project.id)
}

/**
 * A vulnerability by id: 404 when missing or its project is hidden from the caller, 403 when
 * the caller's role is below `minLevel` (Developer reads, Maintainer changes state: since
 * GitLab 17.0 Developers no longer change a vulnerability's status).
 */
function loadVulnerability(
  request: FastifyRequest,
  id: number,
  minLevel: number,
): { vulnerability: VulnerabilityRow; project: ProjectWithNamespaceRow } {
  currentUser(request)
  const vulnerability = findVulnerability(request.server.burrow.db, id)
  const project = vulnerability
    ? findProjectWithNamespace(request.server.burrow.db, vulnerability.project_id)
    : undefined
  if (!vulnerability || !project || !request.perms.canReadProject(project)) throw notFound('Vulnerability')
  if (!request.perms.canInProject(project, minLevel)) throw forbidden()
  return { vulnerability, project }
}

/**
 * Vulnerabilities (project list, create from a finding, single, state actions) and findings;
 * registers the reading of security report artifacts uploaded by default-branch pipelines.
 */
const vulnerabilities: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow
  onArtifactStored(ctx, ingestReportArtifact)

  const present = (
    rows: readonly VulnerabilityRow[],
    project: ProjectWithNamespaceRow,
  ): Readonly<Record<string, unknown>>[] => {
    const findings = findingsByVulnerability(
      ctx.db,
      rows.map((r) => r.id),
    )
    return rows.map((v) => vulnerabilityEntity(v, findings.get(v.id), project))
  }

  app.get(
    '/projects/:id/vulnerabilities',
    { schema: { params: IdParams, querystring: PageQuery } },
    async (request, reply) => {
      const project = securityProject(request, request.params.id)
      const page = pageOf(request.query as Record<string, unknown>)
      const { rows, total } = listVulnerabilities(ctx.db, project.id, page.perPage, page.offset)
      setPageHeaders(request, reply, ctx.baseUrl(request), page, total)
      return present(rows, project)
    },
  )

  app.post(
    '/projects/:id/vulnerabilities',
    { schema: { params: IdParams, body: CreateBody } },
    async (request, reply) => {
      const project = securityProject(request, request.params.id)
      const vulnerability = createVulnerabilityFromFinding(request, project, request.body.finding_id)
      return reply.code(201).send(present([vulnerability], project)[0])
    },
  )

  app.get('/vulnerabilities/:id', { schema: { params: VulnerabilityParams } }, async (request) => {
    const { vulnerability, project } = loadVulnerability(request, request.params.id, AccessLevel.DEVELOPER)
    return present([vulnerability], project)[0]
  })

  for (const action of ['confirm', 'resolve', 'dismiss', 'revert'] as const satisfies readonly VulnerabilityAction[]) {
    app.post(
      `/vulnerabilities/:id/${action}`,
      { schema: { params: VulnerabilityParams, body: ActionBody } },
      async (request, reply) => {
        const { vulnerability, project } = loadVulnerability(request, request.params.id, AccessLevel.MAINTAINER)
        requireWritable(project)
        const updated = transitionVulnerability(request, project, vulnerability, action, request.body.comment)
        if (!updated) throw notModified()
        return reply.code(201).send(present([updated], project)[0])
      },
    )
  }

  app.get(
    '/projects/:id/vulnerability_findings',
    { schema: { params: IdParams, querystring: FindingsQuery } },
    async (request, reply) => {
      const project = securityProject(request, request.params.id)
      const q = request.query
      const page = pageOf(q as Record<string, unknown>)
      const { rows, total } = listFindings(
        ctx.db,
        {
          projectId: project.id,
          reportTypes: listParam('report_type', q.report_type, REPORT_TYPES),
          severities: listParam('severity', q.severity, SEVERITIES),
          confidences: listParam('confidence', q.confidence, CONFIDENCES),
          pipelineId: q.pipeline_id,
          hideDismissed: (q.scope ?? 'dismissed') === 'dismissed',
        },
        page.perPage,
        page.offset,
      )
      setPageHeaders(request, reply, ctx.baseUrl(request), page, total)
      return presentFindings(request, rows, project)
    },
  )

  function presentFindings(
    request: FastifyRequest,
    rows: readonly FindingRow[],
    project: ProjectWithNamespaceRow,
  ): Readonly<Record<string, unknown>>[] {
    const scanners = scannersByIds(ctx.db, [...new Set(rows.map((r) => r.scanner_id))])
    const identifiers = identifiersOfFindings(
      ctx.db,
      rows.map((r) => r.id),
    )
    const attached = rows.filter((r) => r.vulnerability_id !== null).map((r) => r.vulnerability_id as number)
    const states = new Map(attached.map((id) => [id, findVulnerability(ctx.db, id)?.state ?? 'detected']))
    const base = `${ctx.baseUrl(request)}/${project.ns_full_path}/${project.path}/-/security/vulnerabilities`
    return rows.map((f) =>
      findingEntity(f, {
        scanner: scanners.get(f.scanner_id),
        identifiers: identifiers.get(f.id) ?? [],
        project,
        state: f.vulnerability_id !== null ? (states.get(f.vulnerability_id) ?? 'detected') : 'detected',
        webUrl: f.vulnerability_id !== null ? `${base}/${f.vulnerability_id}` : `${base}`,
      }),
    )
  }
}

export default vulnerabilities
