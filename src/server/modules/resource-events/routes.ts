import type { FastifyRequest } from 'fastify'
import { callerOf } from '../../platform/caller'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type TSchema } from 'typebox'
import * as Api from '../../../shared/api/index'
import { milestonesById } from '../issues'
import { findLabelById, type LabelRow } from '../labels'
import type { MilestoneRow } from '../milestones'
import { findNamespaceById, findProjectById } from '../namespaces'
import {
  findResourceEvent,
  listResourceEvents,
  type LabelEventRow,
  type MilestoneEventRow,
  type ResourceEventRow,
  type ResourceEventTable,
  type StateEventRow,
} from './queries'
import { labelBasicEntity } from '../labels'
import { labelEventEntity, milestoneEventEntity, stateEventEntity } from './entity'
import { userRef, usersByIds } from '../users'
import { notFound } from '../../platform/http/errors'
import { paginateArray } from '../../platform/http/pagination'
import { currentUser } from '../../platform/http/resolve'
import { presentMilestones } from '../milestones'
import { loadNoteable, noteableKinds, paramsSchema, type Noteable, type NoteableKind } from '../notes'

/** One of GitLab's three resource event APIs. */
interface EventFamily {
  readonly table: ResourceEventTable
  /** GitLab's model name, in its `404 … Not Found`. */
  readonly model: string
  /** The noteable families it is served under. */
  readonly segments: readonly NoteableKind['segment'][]
  /** GitLab types `event_id` as an integer for state events (400 when it is not), a string elsewhere (404). */
  readonly integerId: boolean
  /** The wire schema of one event. */
  readonly schema: TSchema
  /** Which events the caller may see, in order, and how each is shown. */
  present(
    request: FastifyRequest,
    rows: readonly ResourceEventRow[],
  ): { row: ResourceEventRow; entity: Readonly<Record<string, unknown>> }[]
}

function usersOf(request: FastifyRequest, rows: readonly ResourceEventRow[]) {
  const users = usersByIds(request.server.burrow.db, [...new Set(rows.map((r) => (r as { user_id: number }).user_id))])
  const baseUrl = request.server.burrow.baseUrl(request)
  return (id: number) => {
    const user = users.get(id)
    return user ? userRef(user, baseUrl) : null
  }
}

/** Labels and milestones belong to a project or a group; the caller must be able to read it (GitLab's read_label / read_milestone). */
function canReadOwner(
  request: FastifyRequest,
  owner: { readonly project_id: number | null; readonly group_id: number | null },
): boolean {
  const db = request.server.burrow.db
  if (owner.project_id !== null) {
    const project = findProjectById(db, owner.project_id)
    return project !== undefined && request.perms.canReadProject(project)
  }
  const group = owner.group_id !== null ? findNamespaceById(db, owner.group_id) : undefined
  return group !== undefined && request.perms.canReadGroup(group)
}

const labelEvents: EventFamily = {
  table: 'resource_label_events',
  model: 'ResourceLabelEvent',
  schema: Api.ResourceLabelEvent,
  segments: ['issues', 'merge_requests', 'epics'],
  integerId: false,
  present(request, rows) {
    const user = usersOf(request, rows)
    const labels = new Map<number, LabelRow | undefined>()
    const out: ReturnType<EventFamily['present']> = []
    for (const row of rows as readonly LabelEventRow[]) {
      let label: LabelRow | undefined
      if (row.label_id !== null) {
        if (!labels.has(row.label_id)) labels.set(row.label_id, findLabelById(request.server.burrow.db, row.label_id))
        label = labels.get(row.label_id)
        // A label of a project or group the caller cannot read is not shown, nor its event (a moved issue keeps its old events).
        if (label && !canReadOwner(request, label)) continue
      }
      out.push({ row, entity: labelEventEntity(row, user(row.user_id), label ? labelBasicEntity(label) : null) })
    }
    return out
  },
}

const milestoneEvents: EventFamily = {
  table: 'resource_milestone_events',
  model: 'ResourceMilestoneEvent',
  schema: Api.ResourceMilestoneEvent,
  segments: ['issues', 'merge_requests'],
  integerId: false,
  present(request, rows) {
    const user = usersOf(request, rows)
    const events = rows as readonly MilestoneEventRow[]
    const milestones = milestonesById(request.server.burrow.db, [
      ...new Set(events.map((r) => r.milestone_id).filter((id): id is number => id !== null)),
    ])
    const readable = [...milestones.values()].filter((m) => canReadOwner(request, m))
    const shown = new Map(presentMilestones(callerOf(request), readable).map((m) => [m.id, m]))
    const out: ReturnType<EventFamily['present']> = []
    for (const row of events) {
      const milestone: MilestoneRow | undefined =
        row.milestone_id !== null ? milestones.get(row.milestone_id) : undefined
      if (milestone && !shown.has(milestone.id)) continue
      out.push({
        row,
        entity: milestoneEventEntity(row, user(row.user_id), milestone ? (shown.get(milestone.id) ?? null) : null),
      })
    }
    return out
  },
}

const stateEvents: EventFamily = {
  table: 'resource_state_events',
  model: 'ResourceStateEvent',
  schema: Api.ResourceStateEvent,
  segments: ['issues', 'merge_requests', 'epics'],
  integerId: true,
  present(request, rows) {
    const user = usersOf(request, rows)
    return (rows as readonly StateEventRow[]).map((row) => ({ row, entity: stateEventEntity(row, user(row.user_id)) }))
  },
}

const PageQuery = Type.Object({ page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) })

function refOf(noteable: Noteable) {
  return { type: noteable.type as 'Issue' | 'MergeRequest' | 'Epic', id: noteable.id }
}

/**
 * GitLab's resource label, milestone and state events: who added or removed which label or
 * milestone, and who closed, reopened or merged, on issues, merge requests and epics. Read-only;
 * signed-in callers only (GitLab authenticates these APIs even on public projects); the item is
 * loaded as its notes are, so what the caller cannot read answers 404.
 */
const resourceEvents: FastifyPluginAsyncTypebox = async (app) => {
  for (const family of [labelEvents, milestoneEvents, stateEvents]) {
    const segment = family.table
    const eventList = { 200: Type.Array(family.schema) }
    const oneEvent = { 200: family.schema }
    for (const kind of noteableKinds().filter((k) => family.segments.includes(k.segment))) {
      const base = `/${kind.parent}/:id/${kind.segment}/:${kind.param}/${segment}`
      const params = paramsSchema(kind)
      const eventParams = paramsSchema(kind, { event_id: family.integerId ? Type.Integer() : Type.String() })

      app.get(base, { schema: { params, querystring: PageQuery, response: eventList } }, async (request, reply) => {
        currentUser(request)
        const noteable = loadNoteable(request, kind, request.params)
        // An item's events are few: all are read and those the caller may not see left out before
        // paging, so the page and its count show nothing of them.
        const { rows } = listResourceEvents(request.server.burrow.db, family.table, refOf(noteable), -1, 0)
        return paginateArray(
          request,
          reply,
          request.server.burrow.baseUrl(request),
          family.present(request, rows).map((e) => e.entity),
        )
      })

      app.get(`${base}/:event_id`, { schema: { params: eventParams, response: oneEvent } }, async (request) => {
        currentUser(request)
        const noteable = loadNoteable(request, kind, request.params)
        const raw = String(request.params.event_id)
        const row = /^\d+$/.test(raw)
          ? findResourceEvent(request.server.burrow.db, family.table, refOf(noteable), Number(raw))
          : undefined
        if (!row) throw notFound()
        const [shown] = family.present(request, [row])
        if (!shown) throw notFound(family.model)
        return shown.entity
      })
    }
  }
}

export default resourceEvents
