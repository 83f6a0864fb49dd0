import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { Type, type Static } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { findAuditEvent, listAuditEvents, type AuditEventFilter, type AuditEventRow } from './queries'
import { auditEvent, type AuditEvent } from './entity'
import { forbidden, invalidParam, missingParam, notFound } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadGroup, loadProject, requireAdmin } from '../../platform/http/resolve'

const ENTITY_TYPES = ['User', 'Group', 'Project'] as const

const ScopedQuery = Type.Object({
  created_after: Type.Optional(Type.String()),
  created_before: Type.Optional(Type.String()),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})
type ScopedQuery = Static<typeof ScopedQuery>

const InstanceQuery = Type.Object({
  created_after: Type.Optional(Type.String()),
  created_before: Type.Optional(Type.String()),
  entity_type: Type.Optional(Type.Enum([...ENTITY_TYPES])),
  entity_id: Type.Optional(Type.Integer()),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})
type InstanceQuery = Static<typeof InstanceQuery>

const IdParams = Type.Object({ id: Type.Integer() })
const SourceParams = Type.Object({ id: Type.String() })
const SourceEventParams = Type.Object({ id: Type.String(), audit_event_id: Type.Integer() })

/** An ISO 8601 date-time (or a bare date) → the stored timestamp form, or 400 `<name> is invalid`. */
function timestamp(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value))
    throw invalidParam(name)
  const ms = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value)
  if (Number.isNaN(ms)) throw invalidParam(name)
  return new Date(ms).toISOString()
}

function dateRange(q: ScopedQuery): Pick<AuditEventFilter, 'createdAfter' | 'createdBefore'> {
  return {
    createdAfter: timestamp('created_after', q.created_after),
    createdBefore: timestamp('created_before', q.created_before),
  }
}

function respond(request: FastifyRequest, reply: FastifyReply, filter: AuditEventFilter): AuditEvent[] {
  const page = pageOf(request.query as Record<string, unknown>)
  const { rows, total } = listAuditEvents(request.server.burrow.db, filter, page.perPage, page.offset)
  setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
  return rows.map(auditEvent)
}

function found(row: AuditEventRow | undefined): AuditEvent {
  if (!row) throw notFound('Audit Event')
  return auditEvent(row)
}

/**
 * Audit events: instance-wide for administrators, per group and per project for their owners
 * and maintainers; developers see only their own actions.
 */
const auditEvents: FastifyPluginAsync = async (app) => {
  const { db } = app.burrow

  app.get('/audit_events', { schema: { querystring: InstanceQuery } }, async (request, reply) => {
    requireAdmin(request)
    const q = request.query as InstanceQuery
    if (q.entity_id !== undefined && q.entity_type === undefined) throw missingParam('entity_type')
    return respond(request, reply, { ...dateRange(q), entityType: q.entity_type, entityId: q.entity_id })
  })

  app.get('/audit_events/:id', { schema: { params: IdParams } }, async (request) => {
    requireAdmin(request)
    const { id } = request.params as Static<typeof IdParams>
    return found(findAuditEvent(db, id))
  })

  app.get(
    '/groups/:id/audit_events',
    { schema: { params: SourceParams, querystring: ScopedQuery } },
    async (request, reply) => {
      const user = currentUser(request)
      const group = loadGroup(request, (request.params as Static<typeof SourceParams>).id)
      const filter: AuditEventFilter = {
        ...dateRange(request.query as ScopedQuery),
        entityType: 'Group',
        entityId: group.id,
      }
      if (request.perms.canInGroup(group.id, AccessLevel.OWNER)) return respond(request, reply, filter)
      if (request.perms.groupAccess(group.id) >= AccessLevel.DEVELOPER)
        return respond(request, reply, { ...filter, authorId: user.id })
      throw forbidden()
    },
  )

  app.get('/groups/:id/audit_events/:audit_event_id', { schema: { params: SourceEventParams } }, async (request) => {
    currentUser(request)
    const params = request.params as Static<typeof SourceEventParams>
    const group = loadGroup(request, params.id)
    if (!request.perms.canInGroup(group.id, AccessLevel.OWNER)) throw forbidden()
    return found(findAuditEvent(db, params.audit_event_id, { type: 'Group', id: group.id }))
  })

  app.get(
    '/projects/:id/audit_events',
    { schema: { params: SourceParams, querystring: ScopedQuery } },
    async (request, reply) => {
      const user = currentUser(request)
      const project = loadProject(request, (request.params as Static<typeof SourceParams>).id)
      const filter: AuditEventFilter = {
        ...dateRange(request.query as ScopedQuery),
        entityType: 'Project',
        entityId: project.id,
      }
      if (request.perms.canInProject(project, AccessLevel.MAINTAINER)) return respond(request, reply, filter)
      if (request.perms.projectAccess(project) >= AccessLevel.DEVELOPER)
        return respond(request, reply, { ...filter, authorId: user.id })
      throw forbidden()
    },
  )

  app.get('/projects/:id/audit_events/:audit_event_id', { schema: { params: SourceEventParams } }, async (request) => {
    currentUser(request)
    const params = request.params as Static<typeof SourceEventParams>
    const project = loadProject(request, params.id)
    if (!request.perms.canInProject(project, AccessLevel.MAINTAINER)) throw forbidden()
    return found(findAuditEvent(db, params.audit_event_id, { type: 'Project', id: project.id }))
  })
}

export default auditEvents
