import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static, type TSchema } from 'typebox'
import * as Api from '../../../shared/api/index'
import { callerOf, type Caller } from '../../platform/caller'
import { notFound } from '../../platform/http/errors'
import { paginateArray } from '../../platform/http/pagination'
import { currentUser } from '../../platform/http/resolve'
import { loadNoteable, noteableKinds, paramsSchema, type Noteable, type NoteableKind } from '../notes'
import {
  findResourceEvent,
  listResourceEvents,
  type ResourceEventRows,
  type ResourceEventTable,
  type ResourceRef,
} from './queries'
import { presentLabelEvents, presentMilestoneEvents, presentStateEvents } from './service'

/** The Fastify instance a TypeBox plugin receives. */
type TypeboxApp = Parameters<FastifyPluginAsyncTypebox>[0]

/**
 * One of GitLab's resource event APIs: `T` is its table, `S` the wire schema of one event
 * (src/shared/api/event.ts; its presenter must answer `Static<S>`).
 */
interface EventFamily<T extends ResourceEventTable, S extends TSchema> {
  /** The table, also the last URL segment (`…/issues/:issue_iid/resource_label_events`). */
  readonly table: T
  /** GitLab's model name, in its `404 … Not Found`. */
  readonly model: string
  /** The noteable families it is served under. */
  readonly segments: readonly NoteableKind['segment'][]
  /** GitLab types `event_id` as an integer for state events (400 when it is not), a string elsewhere (404). */
  readonly integerId: boolean
  readonly schema: S
  /** The events the caller may see, in order, as the API shows them. */
  present(caller: Caller, rows: readonly ResourceEventRows[T][]): Static<S>[]
}

const LABEL_EVENTS: EventFamily<'resource_label_events', typeof Api.ResourceLabelEvent> = {
  table: 'resource_label_events',
  model: 'ResourceLabelEvent',
  segments: ['issues', 'merge_requests', 'epics'],
  integerId: false,
  schema: Api.ResourceLabelEvent,
  present: presentLabelEvents,
}

const MILESTONE_EVENTS: EventFamily<'resource_milestone_events', typeof Api.ResourceMilestoneEvent> = {
  table: 'resource_milestone_events',
  model: 'ResourceMilestoneEvent',
  segments: ['issues', 'merge_requests'],
  integerId: false,
  schema: Api.ResourceMilestoneEvent,
  present: presentMilestoneEvents,
}

const STATE_EVENTS: EventFamily<'resource_state_events', typeof Api.ResourceStateEvent> = {
  table: 'resource_state_events',
  model: 'ResourceStateEvent',
  segments: ['issues', 'merge_requests', 'epics'],
  integerId: true,
  schema: Api.ResourceStateEvent,
  present: presentStateEvents,
}

const PageQuery = Type.Object({ page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) })

function refOf(noteable: Noteable): ResourceRef {
  return { type: noteable.type as ResourceRef['type'], id: noteable.id }
}

/** The list and single-event routes of one event family, under each noteable family it serves. */
function eventFamilyRoutes<T extends ResourceEventTable, S extends TSchema>(
  app: TypeboxApp,
  family: EventFamily<T, S>,
): void {
  // Fastify's type provider cannot resolve a reply type from a schema that is a type parameter, so
  // the routes see it as a plain TSchema: the handlers' answers are typed Static<S> instead, and
  // each family's presenter is checked against its own schema where the family is declared.
  const schema: TSchema = family.schema
  const eventList = { 200: Type.Array(schema) }
  const oneEvent = { 200: schema }
  for (const kind of noteableKinds().filter((k) => family.segments.includes(k.segment))) {
    const base = `/${kind.parent}/:id/${kind.segment}/:${kind.param}/${family.table}`
    const params = paramsSchema(kind)
    const eventParams = paramsSchema(kind, { event_id: family.integerId ? Type.Integer() : Type.String() })

    app.get(
      base,
      { schema: { params, querystring: PageQuery, response: eventList } },
      async (request, reply): Promise<Static<S>[]> => {
        currentUser(request)
        const caller = callerOf(request)
        const noteable = loadNoteable(request, kind, request.params)
        // An item's events are few: all are read and those the caller may not see left out before
        // paging, so the page and its count show nothing of them.
        const { rows } = listResourceEvents(caller.db, family.table, refOf(noteable), -1, 0)
        return paginateArray(request, reply, caller.baseUrl, family.present(caller, rows))
      },
    )

    app.get(
      `${base}/:event_id`,
      { schema: { params: eventParams, response: oneEvent } },
      async (request): Promise<Static<S>> => {
        currentUser(request)
        const caller = callerOf(request)
        const noteable = loadNoteable(request, kind, request.params)
        const raw = String(request.params.event_id)
        const row = /^\d+$/.test(raw)
          ? findResourceEvent(caller.db, family.table, refOf(noteable), Number(raw))
          : undefined
        if (!row) throw notFound()
        const [shown] = family.present(caller, [row])
        if (!shown) throw notFound(family.model)
        return shown
      },
    )
  }
}

/**
 * GitLab's resource label, milestone and state events: who added or removed which label or
 * milestone, and who closed, reopened or merged, on issues, merge requests and epics. Read-only;
 * signed-in callers only (GitLab authenticates these APIs even on public projects); the item is
 * loaded as its notes are, so what the caller cannot read answers 404.
 */
const resourceEvents: FastifyPluginAsyncTypebox = async (app) => {
  eventFamilyRoutes(app, LABEL_EVENTS)
  eventFamilyRoutes(app, MILESTONE_EVENTS)
  eventFamilyRoutes(app, STATE_EVENTS)
}

export default resourceEvents
