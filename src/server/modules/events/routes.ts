import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { Type, type Static } from 'typebox'
import { listEvents, restrictedEvents, type EventFilter, type EventViewer } from './queries'
import { NOTE_EVENT_TARGET_TYPES } from '../notes/queries'
import { activityEvent, type ActivityEvent } from './entity'
import { invalidParam } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadProject, loadUser } from '../../platform/http/resolve'
import { ReadableItems } from '../../platform/auth/readable'

/** Filter values of `action`: GitLab's stored actions, plus the spec's `commented on` spelling. */
const ACTIONS = [
  'approved',
  'closed',
  'commented',
  'commented on',
  'created',
  'destroyed',
  'expired',
  'joined',
  'left',
  'merged',
  'pushed',
  'reopened',
  'updated',
] as const

/** Filter values of `target_type` → the stored (capitalised) target types they select. */
const TARGET_TYPES: Readonly<Record<string, readonly string[]>> = {
  issue: ['Issue'],
  milestone: ['Milestone'],
  merge_request: ['MergeRequest'],
  // Notes are stored under their concrete class, as GitLab's STI notes are.
  note: NOTE_EVENT_TARGET_TYPES,
  project: ['Project'],
  snippet: ['Snippet'],
  user: ['User'],
  epic: ['Epic'],
  wiki: ['WikiPage::Meta'],
  design: ['DesignManagement::Design'],
}

const DATE = '^\\d{4}-\\d{2}-\\d{2}$'

const EventQuery = Type.Object({
  action: Type.Optional(Type.Enum([...ACTIONS])),
  target_type: Type.Optional(Type.Enum(Object.keys(TARGET_TYPES))),
  before: Type.Optional(Type.String({ pattern: DATE })),
  after: Type.Optional(Type.String({ pattern: DATE })),
  sort: Type.Optional(Type.Enum(['asc', 'desc'])),
  scope: Type.Optional(Type.String()),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})
type EventQuery = Static<typeof EventQuery>

// Named `:id` like every other `/projects/:id/...` route, so the router sees one parameter name.
const ProjectParams = Type.Object({ id: Type.String() })
const UserParams = Type.Object({ id: Type.String() })

/** A real calendar date (`2023-02-30` passes the pattern but is not one). */
function checkedDate(name: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined
  const date = new Date(`${value}T00:00:00.000Z`)
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) throw invalidParam(name)
  return date
}

/**
 * The filter part shared by the three endpoints. Like GitLab, `before` keeps events created
 * before the start of that day and `after` those created after its end.
 */
function queryFilter(q: EventQuery): Omit<EventFilter, 'viewer'> {
  const before = checkedDate('before', q.before)
  const after = checkedDate('after', q.after)
  const action = q.action === 'commented on' ? 'commented' : q.action
  return {
    actions: action ? [action] : undefined,
    targetTypes: q.target_type ? TARGET_TYPES[q.target_type] : undefined,
    createdBefore: before?.toISOString(),
    createdAfter: after ? new Date(after.getTime() + 86_400_000 - 1).toISOString() : undefined,
    sort: q.sort === 'asc' ? 'asc' : 'desc',
  }
}

function viewerOf(request: FastifyRequest): EventViewer {
  const user = request.actor.user
  if (!user) return { kind: 'anonymous' }
  if (request.perms.isAdmin) return { kind: 'admin' }
  return { kind: 'user', userId: user.id, external: user.external === 1 }
}

/**
 * The events of `filter` that name what the caller may not read (a confidential issue, an internal
 * note, a feature limited to members or off for everyone…), decided by the shared item rule.
 */
function hiddenEventIds(request: FastifyRequest, filter: EventFilter): number[] {
  const readable = new ReadableItems(request.server.burrow.db, request.perms)
  return restrictedEvents(request.server.burrow.db, filter, request.perms.isAdmin)
    .filter((e) => !readable.event(e))
    .map((e) => e.id)
}

function respond(request: FastifyRequest, reply: FastifyReply, filter: EventFilter): ActivityEvent[] {
  const { db } = request.server.burrow
  const baseUrl = request.server.burrow.baseUrl(request)
  const page = pageOf(request.query as Record<string, unknown>)
  // Hidden before paging, so neither the page nor its total count reveals them.
  const { rows, total } = listEvents(
    db,
    { ...filter, hiddenIds: hiddenEventIds(request, filter) },
    page.perPage,
    page.offset,
  )
  setPageHeaders(request, reply, baseUrl, page, total)
  return rows.map((row) => activityEvent(row, baseUrl))
}

/**
 * onSend hook giving JSON responses GitLab's exact `Content-Type: application/json`:
 * python-gitlab 3.12 only decodes single-object responses whose type is exactly that, and
 * Fastify's default appends `; charset=utf-8`. Registered per plugin until the app does it.
 */

/** Activity events: the caller's own, a user's contributions, and a project's events. */
const events: FastifyPluginAsync = async (app) => {
  // `read_user` is enough for reading the caller's and a user's events, as on GitLab.
  const scopes = ['api', 'read_api', 'read_user'] as const

  app.get('/events', { schema: { querystring: EventQuery }, config: { scopes } }, async (request, reply) => {
    const user = currentUser(request)
    const q = request.query as EventQuery
    const base = queryFilter(q)
    // scope=all: every event in the projects the caller can see; otherwise the caller's own.
    if (q.scope === 'all')
      return respond(request, reply, { ...base, viewer: viewerOf(request), projectEventsOnly: true })
    return respond(request, reply, { ...base, viewer: viewerOf(request), authorId: user.id })
  })

  app.get(
    '/users/:id/events',
    { schema: { params: UserParams, querystring: EventQuery }, config: { scopes } },
    async (request, reply) => {
      const { id } = request.params as Static<typeof UserParams>
      const target = loadUser(request, id)
      const base = queryFilter(request.query as EventQuery)
      const caller = request.actor.user
      // A private profile hides its activity from everyone but its owner and administrators.
      if (target.private_profile && caller?.id !== target.id && !request.perms.isAdmin) {
        const page = pageOf(request.query as Record<string, unknown>)
        setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, 0)
        return []
      }
      return respond(request, reply, { ...base, viewer: viewerOf(request), authorId: target.id })
    },
  )

  // Project events are a project read: `read_user` does not reach them (GitLab's ProjectEvents API).
  app.get(
    '/projects/:id/events',
    { schema: { params: ProjectParams, querystring: EventQuery } },
    async (request, reply) => {
      const { id } = request.params as Static<typeof ProjectParams>
      const project = loadProject(request, id)
      const base = queryFilter(request.query as EventQuery)
      // Readability of the project was checked above; what its events name is checked in respond.
      return respond(request, reply, { ...base, viewer: { kind: 'admin' }, projectId: project.id })
    },
  )
}

export default events
