import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from 'typebox'
import * as Api from '../../../shared/api/index'
import { callerOf } from '../../platform/caller'
import { NOTE_EVENT_TARGET_TYPES, type EventFilter } from './queries'
import { activityEvent, type ActivityEvent } from './entity'
import { eventViewerOf, listReadableEvents } from './listing'
import { invalidParam } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadProject, loadUser } from '../../platform/http/resolve'

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

/** What the three endpoints answer: a page of events. */
const EVENT_LIST = { 200: Type.Array(Api.ActivityEvent) }

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

function respond(
  request: FastifyRequest,
  reply: FastifyReply,
  query: EventQuery,
  filter: EventFilter,
): ActivityEvent[] {
  const caller = callerOf(request)
  const page = pageOf(query)
  const { rows, total } = listReadableEvents(caller, filter, page.perPage, page.offset)
  setPageHeaders(request, reply, caller.baseUrl, page, total)
  return rows.map((row) => activityEvent(row, caller.baseUrl))
}

/** Activity events: the caller's own, a user's contributions, and a project's events. */
const events: FastifyPluginAsyncTypebox = async (app) => {
  // `read_user` is enough for reading the caller's and a user's events, as on GitLab.
  const scopes = ['api', 'read_api', 'read_user'] as const

  app.get(
    '/events',
    { schema: { querystring: EventQuery, response: EVENT_LIST }, config: { scopes } },
    async (request, reply) => {
      const user = currentUser(request)
      const q = request.query
      const base = { ...queryFilter(q), viewer: eventViewerOf(callerOf(request)) }
      // scope=all: every event in the projects the caller can see; otherwise the caller's own.
      if (q.scope === 'all') return respond(request, reply, q, { ...base, projectEventsOnly: true })
      return respond(request, reply, q, { ...base, authorId: user.id })
    },
  )

  app.get(
    '/users/:id/events',
    { schema: { params: UserParams, querystring: EventQuery, response: EVENT_LIST }, config: { scopes } },
    async (request, reply) => {
      const target = loadUser(request, request.params.id)
      const base = queryFilter(request.query)
      const caller = callerOf(request)
      // A private profile hides its activity from everyone but its owner and administrators.
      if (target.private_profile && caller.user?.id !== target.id && !caller.perms.isAdmin) {
        setPageHeaders(request, reply, caller.baseUrl, pageOf(request.query), 0)
        return []
      }
      return respond(request, reply, request.query, { ...base, viewer: eventViewerOf(caller), authorId: target.id })
    },
  )

  // Project events are a project read: `read_user` does not reach them (GitLab's ProjectEvents API).
  app.get(
    '/projects/:id/events',
    { schema: { params: ProjectParams, querystring: EventQuery, response: EVENT_LIST } },
    async (request, reply) => {
      const project = loadProject(request, request.params.id)
      const base = queryFilter(request.query)
      // Readability of the project was checked above; what its events name is checked in respond.
      return respond(request, reply, request.query, { ...base, viewer: { kind: 'admin' }, projectId: project.id })
    },
  )
}

export default events
