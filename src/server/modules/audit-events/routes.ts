import * as Api from '../../../shared/api/index'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from 'typebox'
import { callerOf } from '../../platform/caller'
import { findAuditEvent, listAuditEvents, type AuditEventFilter, type AuditEventRow } from './queries'
import { auditEvent } from './entity'
import { groupAuditReach, projectAuditReach, type AuditReach } from './policy'
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

function respond(
  request: FastifyRequest,
  reply: FastifyReply,
  query: ScopedQuery,
  filter: AuditEventFilter,
): Api.AuditEvent[] {
  const { db, baseUrl } = callerOf(request)
  const page = pageOf(query)
  const { rows, total } = listAuditEvents(db, filter, page.perPage, page.offset)
  setPageHeaders(request, reply, baseUrl, page, total)
  return rows.map(auditEvent)
}

/** The filter of a group's or project's audit log for a caller of `reach` (403 without one). */
function reachFilter(reach: AuditReach, userId: number, filter: AuditEventFilter): AuditEventFilter {
  if (reach === 'all') return filter
  if (reach === 'own') return { ...filter, authorId: userId }
  throw forbidden()
}

function found(row: AuditEventRow | undefined): Api.AuditEvent {
  if (!row) throw notFound('Audit Event')
  return auditEvent(row)
}

/**
 * Audit events: instance-wide for administrators, per group and per project for their owners
 * and maintainers; developers see only their own actions.
 */
const auditEvents: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.burrow

  app.get(
    '/audit_events',
    { schema: { querystring: InstanceQuery, response: { 200: Type.Array(Api.AuditEvent) } } },
    async (request, reply) => {
      requireAdmin(request)
      const q = request.query
      if (q.entity_id !== undefined && q.entity_type === undefined) throw missingParam('entity_type')
      return respond(request, reply, q, { ...dateRange(q), entityType: q.entity_type, entityId: q.entity_id })
    },
  )

  app.get('/audit_events/:id', { schema: { params: IdParams, response: { 200: Api.AuditEvent } } }, async (request) => {
    requireAdmin(request)
    return found(findAuditEvent(db, request.params.id))
  })

  app.get(
    '/groups/:id/audit_events',
    {
      schema: {
        params: SourceParams,
        querystring: ScopedQuery,
        response: { 200: Type.Array(Api.AuditEvent) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request)
      const group = loadGroup(request, request.params.id)
      const filter = { ...dateRange(request.query), entityType: 'Group', entityId: group.id }
      const reach = groupAuditReach(callerOf(request).perms, group.id)
      return respond(request, reply, request.query, reachFilter(reach, user.id, filter))
    },
  )

  app.get(
    '/groups/:id/audit_events/:audit_event_id',
    { schema: { params: SourceEventParams, response: { 200: Api.AuditEvent } } },
    async (request) => {
      currentUser(request)
      const group = loadGroup(request, request.params.id)
      if (groupAuditReach(callerOf(request).perms, group.id) !== 'all') throw forbidden()
      return found(findAuditEvent(db, request.params.audit_event_id, { type: 'Group', id: group.id }))
    },
  )

  app.get(
    '/projects/:id/audit_events',
    {
      schema: {
        params: SourceParams,
        querystring: ScopedQuery,
        response: { 200: Type.Array(Api.AuditEvent) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request)
      const project = loadProject(request, request.params.id)
      const filter = { ...dateRange(request.query), entityType: 'Project', entityId: project.id }
      const reach = projectAuditReach(callerOf(request).perms, project)
      return respond(request, reply, request.query, reachFilter(reach, user.id, filter))
    },
  )

  app.get(
    '/projects/:id/audit_events/:audit_event_id',
    { schema: { params: SourceEventParams, response: { 200: Api.AuditEvent } } },
    async (request) => {
      currentUser(request)
      const project = loadProject(request, request.params.id)
      if (projectAuditReach(callerOf(request).perms, project) !== 'all') throw forbidden()
      return found(findAuditEvent(db, request.params.audit_event_id, { type: 'Project', id: project.id }))
    },
  )
}

export default auditEvents
