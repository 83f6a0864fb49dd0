import * as Api from '../../../shared/api/index'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { callerOf } from '../../platform/caller'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import {
  findEpicById,
  findEpicIssueById,
  groupAccessLevels,
  listEpics,
  namespacesById,
  type EpicFilter,
  type EpicIssueRow,
  type EpicOrder,
  type EpicRow,
} from './queries'
import type { Wildcard } from '../issues'
import { findNamespaceById, groupAndDescendantIds, namespaceAncestors } from '../namespaces'
import type { NamespaceRow, UserRow } from '../../platform/db/rows'
import { findUserByUsername } from '../users'
import type { EpicOrigin } from './entity'
import { checkUnmodifiedSince } from '../../platform/http/conditional'
import {
  apiMessage,
  forbidden,
  invalidParam,
  missingParam,
  notFound,
  notModified,
  paramError,
} from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadGroup } from '../../platform/http/resolve'
import { awardEmojiRoutes } from '../award-emoji'
import {
  assignIssueToEpic,
  createEpic,
  createEpicFromParams,
  destroyEpic,
  epicIssuesPage,
  epicParticipantIds,
  loadEpic,
  moveChildEpic,
  moveEpicIssue,
  parentProblem,
  presentEpic,
  presentEpicIssueLink,
  presentEpics,
  presentLinkedEpic,
  unlinkIssue,
  updateEpic,
  updateEpicFromParams,
} from './service'
import { isSubscribed, subscribe, unsubscribe } from '../subscriptions'
import { markTodo } from '../todos'
import { textParam } from '../../platform/http/text-param'
import {
  boolOf,
  datetimeOf,
  given,
  intOf,
  listOf,
  paramsOf,
  pathId,
  titleOf,
  wildcardOf,
} from '../../platform/http/loose-params'
import { canAdminEpics, canDestroyEpics, canReadEpicWith, requireAdminEpics, requireEpicsFeature } from './policy'

type Query = Readonly<Record<string, unknown>>

const IdParams = Type.Object({ id: Type.String() })
const EpicParams = Type.Object({ id: Type.String(), epic_iid: Type.Integer() })
const EpicIssueParams = Type.Object({ id: Type.String(), epic_iid: Type.Integer(), epic_issue_id: Type.Integer() })
const ChildParams = Type.Object({ id: Type.String(), epic_iid: Type.Integer(), child_epic_id: Type.Integer() })

const ORDERS: readonly EpicOrder[] = ['created_at', 'updated_at', 'title']

function labelsFilter(raw: unknown): Wildcard<readonly string[]> | undefined {
  const titles = listOf('labels', raw)
  if (titles.length === 0) return undefined
  if (titles.length === 1) {
    const w = wildcardOf(titles[0])
    if (w) return { kind: w }
    if (/^no[ +]label$/i.test(titles[0])) return { kind: 'none' }
  }
  return { kind: 'value', value: titles }
}

function userIdByName(request: FastifyRequest, username: string): number {
  return findUserByUsername(request.server.burrow.db, username)?.id ?? -1
}

/**
 * Groups a group's epic list covers: the group, its readable descendants (include_descendant_groups,
 * default true) and its ancestors (include_ancestor_groups, default false).
 */
function listGroups(request: FastifyRequest, group: NamespaceRow, q: Query): number[] {
  const db = request.server.burrow.db
  const ids = [group.id]
  if (boolOf('include_descendant_groups', q.include_descendant_groups, true)) {
    const below = groupAndDescendantIds(db, group.id).filter((id) => id !== group.id)
    ids.push(...[...namespacesById(db, below).values()].filter((g) => request.perms.canReadGroup(g)).map((g) => g.id))
  }
  if (boolOf('include_ancestor_groups', q.include_ancestor_groups, false))
    ids.push(
      ...namespaceAncestors(db, group.id)
        .filter((g) => request.perms.canReadGroup(g))
        .map((g) => g.id),
    )
  return ids
}

/** Parses the list parameters (GitLab's EpicsFinder set) into a filter. */
function filterOf(request: FastifyRequest, group: NamespaceRow, q: Query): EpicFilter {
  if (given(q.author_id) && given(q.author_username))
    throw paramError('author_id, author_username are mutually exclusive')
  const groupIds = listGroups(request, group, q)
  const user = request.actor.user
  let confidentialGroupIds: number[] | null = null
  if (!request.perms.isAdmin) {
    const levels = user ? groupAccessLevels(request.server.burrow.db, user.id, groupIds) : new Map<number, number>()
    confidentialGroupIds = groupIds.filter((id) => (levels.get(id) ?? 0) >= AccessLevel.REPORTER)
  }
  const state = given(q.state) ? textParam('state', q.state) : 'all'
  if (!['opened', 'closed', 'all'].includes(state)) throw invalidParam('state', 'does not have a valid value')
  const orderBy = (given(q.order_by) ? textParam('order_by', q.order_by) : 'created_at') as EpicOrder
  if (!ORDERS.includes(orderBy)) throw invalidParam('order_by', 'does not have a valid value')
  const sort = given(q.sort) ? textParam('sort', q.sort) : 'desc'
  if (sort !== 'asc' && sort !== 'desc') throw invalidParam('sort', 'does not have a valid value')
  let myReactionEmoji: Wildcard<string> | undefined
  if (given(q.my_reaction_emoji)) {
    const w = wildcardOf(q.my_reaction_emoji)
    myReactionEmoji = w ? { kind: w } : { kind: 'value', value: textParam('my_reaction_emoji', q.my_reaction_emoji) }
  }
  const not = q.not !== null && typeof q.not === 'object' ? (q.not as Query) : undefined
  const iids = listOf('iids', q.iids)
  return {
    groupIds,
    confidentialGroupIds,
    viewerId: user?.id ?? null,
    state: state === 'all' ? undefined : (state as 'opened' | 'closed'),
    authorId: given(q.author_id)
      ? intOf('author_id', q.author_id)
      : given(q.author_username)
        ? userIdByName(request, textParam('author_username', q.author_username))
        : undefined,
    labels: labelsFilter(q.labels),
    confidential: given(q.confidential) ? boolOf('confidential', q.confidential, false) : undefined,
    myReactionEmoji,
    createdAfter: datetimeOf('created_after', q.created_after),
    createdBefore: datetimeOf('created_before', q.created_before),
    updatedAfter: datetimeOf('updated_after', q.updated_after),
    updatedBefore: datetimeOf('updated_before', q.updated_before),
    search: given(q.search) ? textParam('search', q.search) : undefined,
    iids: iids.length > 0 ? iids.map((v) => intOf('iids', v)) : undefined,
    not: not
      ? {
          authorIds: [
            ...listOf('not[author_id]', not.author_id).map((v) => intOf('not[author_id]', v)),
            ...listOf('not[author_username]', not.author_username).map((u) => userIdByName(request, u)),
          ],
          labels: listOf('not[labels]', not.labels),
        }
      : undefined,
    orderBy,
    sort,
  }
}

function origin(group: NamespaceRow): EpicOrigin {
  return { kind: 'group', groupId: group.id }
}

/** Feature, caller, group and readable epic for `/groups/:id/epics/:epic_iid/...`. */
function epicOf(request: FastifyRequest<{ Params: { id: string; epic_iid: number } }>): {
  user: UserRow
  group: NamespaceRow
  epic: EpicRow
} {
  const user = requireEpicsFeature(callerOf(request))
  const group = loadGroup(request, request.params.id)
  return { user, group, epic: loadEpic(callerOf(request), group, request.params.epic_iid) }
}

/** A child epic named by its global id: one the caller can read, in the group's epic list scope. */
function childOf(request: FastifyRequest, group: NamespaceRow, id: number): EpicRow {
  const db = request.server.burrow.db
  const child = findEpicById(db, id)
  const childGroup = child ? findNamespaceById(db, child.group_id) : undefined
  if (
    !child ||
    !childGroup ||
    !groupAndDescendantIds(db, group.id).includes(child.group_id) ||
    !canReadEpicWith(request.perms, childGroup, child)
  )
    throw notFound('Epic')
  return child
}

function childrenOf(request: FastifyRequest, group: NamespaceRow, epic: EpicRow): EpicRow[] {
  const db = request.server.burrow.db
  const q = { include_descendant_groups: true } as const
  const f = filterOf(request, group, q)
  return listEpics(db, { ...f, parentId: epic.id, orderBy: 'relative_position', sort: 'asc' }, { limit: -1, offset: 0 })
    .rows
}

function sendList(request: FastifyRequest, reply: FastifyReply, group: NamespaceRow): Api.Epic[] {
  const q = paramsOf(request.query)
  const filter = filterOf(request, group, q)
  const page = pageOf(q)
  const { rows, total } = listEpics(request.server.burrow.db, filter, { limit: page.perPage, offset: page.offset })
  setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
  return presentEpics(callerOf(request), rows, {
    origin: origin(group),
    withLabelsDetails: boolOf('with_labels_details', q.with_labels_details, false),
  })
}

/** Epics (PREMIUM): CRUD, epic issues, child epics, subscriptions, to-dos and award emoji. */
const epics: FastifyPluginAsyncTypebox = async (app) => {
  const epicList = { 200: Type.Array(Api.Epic) }
  for (const prefix of ['/groups/:id/epics', '/groups/:id/-/epics']) {
    app.get(prefix, { schema: { params: IdParams, response: epicList } }, async (request, reply) => {
      requireEpicsFeature(callerOf(request))
      return sendList(request, reply, loadGroup(request, request.params.id))
    })

    app.get(`${prefix}/:epic_iid`, { schema: { params: EpicParams, response: { 200: Api.Epic } } }, async (request) => {
      const { group, epic } = epicOf(request)
      return presentEpic(callerOf(request), epic, origin(group))
    })
  }

  app.post(
    '/groups/:id/epics',
    { schema: { params: IdParams, response: { 201: Api.Epic } } },
    async (request, reply) => {
      requireEpicsFeature(callerOf(request))
      const group = loadGroup(request, request.params.id)
      const epic = createEpicFromParams(callerOf(request), group, paramsOf(request.body))
      return reply.code(201).send(presentEpic(callerOf(request), epic, origin(group)))
    },
  )

  app.put(
    '/groups/:id/epics/:epic_iid',
    { schema: { params: EpicParams, response: { 200: Api.Epic } } },
    async (request) => {
      const { group, epic } = epicOf(request)
      requireAdminEpics(callerOf(request), group)
      checkUnmodifiedSince(request, epic.updated_at)
      return presentEpic(
        callerOf(request),
        updateEpicFromParams(callerOf(request), group, epic, paramsOf(request.body)),
        origin(group),
      )
    },
  )

  app.delete('/groups/:id/epics/:epic_iid', { schema: { params: EpicParams } }, async (request, reply) => {
    const { group, epic } = epicOf(request)
    if (!canDestroyEpics(request.perms, group.id)) throw forbidden()
    checkUnmodifiedSince(request, epic.updated_at)
    destroyEpic(request.server.burrow.db, epic)
    return reply.code(204).send()
  })

  // ---- Epic issues.

  app.get(
    '/groups/:id/epics/:epic_iid/issues',
    { schema: { params: EpicParams, response: { 200: Type.Array(Api.EpicIssue) } } },
    async (request, reply) => {
      const { group, epic } = epicOf(request)
      const page = pageOf(request.query)
      const { rows, total } = epicIssuesPage(
        callerOf(request),
        epic,
        { kind: 'group', groupId: group.id },
        { limit: page.perPage, offset: page.offset },
      )
      setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
      return rows
    },
  )

  // One parameter name per position: the POST's `:epic_issue_id` is the issue's global id, as GitLab's `:issue_id`.
  app.post(
    '/groups/:id/epics/:epic_iid/issues/:epic_issue_id',
    { schema: { params: EpicIssueParams, response: { 201: Api.EpicIssueLink } } },
    async (request, reply) => {
      const { group, epic } = epicOf(request)
      const link = assignIssueToEpic(callerOf(request), group, epic, request.params.epic_issue_id)
      return reply
        .code(201)
        .send(presentEpicIssueLink(callerOf(request), link, findEpicById(request.server.burrow.db, epic.id) as EpicRow))
    },
  )

  const linkOf = (
    request: FastifyRequest<{ Params: { id: string; epic_iid: number; epic_issue_id: number } }>,
  ): { group: NamespaceRow; epic: EpicRow; link: EpicIssueRow } => {
    const { group, epic } = epicOf(request)
    requireAdminEpics(callerOf(request), group)
    const link = findEpicIssueById(request.server.burrow.db, request.params.epic_issue_id)
    if (!link || link.epic_id !== epic.id) throw notFound()
    return { group, epic, link }
  }

  app.put(
    '/groups/:id/epics/:epic_iid/issues/:epic_issue_id',
    { schema: { params: EpicIssueParams, response: { 200: Type.Array(Api.EpicIssue) } } },
    async (request) => {
      const { group, epic, link } = linkOf(request)
      const body = paramsOf(request.body)
      const before = given(body.move_before_id) ? intOf('move_before_id', body.move_before_id) : undefined
      const after = given(body.move_after_id) ? intOf('move_after_id', body.move_after_id) : undefined
      if (!moveEpicIssue(request.server.burrow.db, epic, link, before, after))
        throw apiMessage(400, { error: 'Issue could not be moved!' })
      return epicIssuesPage(callerOf(request), epic, { kind: 'group', groupId: group.id }, { limit: -1, offset: 0 })
        .rows
    },
  )

  app.delete(
    '/groups/:id/epics/:epic_iid/issues/:epic_issue_id',
    { schema: { params: EpicIssueParams, response: { 200: Api.EpicIssueLink } } },
    async (request) => {
      const { epic, link } = linkOf(request)
      const out = presentEpicIssueLink(callerOf(request), link, epic)
      unlinkIssue(request.server.burrow.db, link, currentUser(request).id)
      return out
    },
  )

  // ---- Child epics (GitLab's epic links).

  app.get(
    '/groups/:id/epics/:epic_iid/epics',
    { schema: { params: EpicParams, response: { 200: Type.Array(Api.Epic) } } },
    async (request) => {
      const { group, epic } = epicOf(request)
      return presentEpics(callerOf(request), childrenOf(request, group, epic), { origin: origin(group) })
    },
  )

  app.post(
    '/groups/:id/epics/:epic_iid/epics/:child_epic_id',
    { schema: { params: ChildParams, response: { 201: Api.Epic } } },
    async (request, reply) => {
      const { user, group, epic } = epicOf(request)
      requireAdminEpics(callerOf(request), group)
      const child = childOf(request, group, request.params.child_epic_id)
      if (!canAdminEpics(request.perms, child.group_id)) throw forbidden()
      const db = request.server.burrow.db
      if (child.parent_id === epic.id) throw apiMessage(409, 'Epic(s) already assigned')
      const problem = parentProblem(
        db,
        { id: child.id, group_id: child.group_id, confidential: child.confidential === 1 },
        epic,
      )
      if (problem)
        throw apiMessage(
          409,
          `&${child.iid} cannot be added: ${problem.message.replace(/^This epic cannot be added\. /, '')}`,
        )
      const updated = updateEpic(db, child, { parentId: epic.id }, user.id)
      return reply.code(201).send(presentEpics(callerOf(request), [updated], { origin: origin(group) })[0])
    },
  )

  app.post(
    '/groups/:id/epics/:epic_iid/epics',
    { schema: { params: EpicParams, response: { 201: Api.LinkedEpic } } },
    async (request, reply) => {
      const { user, group, epic } = epicOf(request)
      requireAdminEpics(callerOf(request), group)
      const body = paramsOf(request.body)
      if (!given(body.title)) throw missingParam('title')
      const child = createEpic(request.server.burrow.db, {
        groupId: group.id,
        authorId: user.id,
        title: titleOf(body.title),
        confidential: given(body.confidential)
          ? boolOf('confidential', body.confidential, false)
          : epic.confidential === 1,
        parentId: epic.id,
      })
      return reply.code(201).send(presentLinkedEpic(callerOf(request), child, epic))
    },
  )

  app.put(
    '/groups/:id/epics/:epic_iid/epics/:child_epic_id',
    { schema: { params: ChildParams, response: { 200: Type.Array(Api.Epic) } } },
    async (request) => {
      const { group, epic } = epicOf(request)
      requireAdminEpics(callerOf(request), group)
      const child = childOf(request, group, request.params.child_epic_id)
      if (child.parent_id !== epic.id) throw notFound('Epic')
      const body = paramsOf(request.body)
      const before = given(body.move_before_id) ? intOf('move_before_id', body.move_before_id) : undefined
      const after = given(body.move_after_id) ? intOf('move_after_id', body.move_after_id) : undefined
      if (!moveChildEpic(request.server.burrow.db, epic, child, before, after))
        throw apiMessage(400, { error: 'Epic could not be moved!' })
      return presentEpics(callerOf(request), childrenOf(request, group, epic), { origin: origin(group) })
    },
  )

  app.delete(
    '/groups/:id/epics/:epic_iid/epics/:child_epic_id',
    { schema: { params: ChildParams, response: { 200: Api.Epic } } },
    async (request) => {
      const { user, group, epic } = epicOf(request)
      requireAdminEpics(callerOf(request), group)
      const child = childOf(request, group, request.params.child_epic_id)
      if (child.parent_id !== epic.id) throw notFound('Epic')
      const updated = updateEpic(request.server.burrow.db, child, { parentId: null }, user.id)
      return presentEpics(callerOf(request), [updated], { origin: origin(group) })[0]
    },
  )

  // ---- Subscriptions and to-dos.

  for (const action of ['subscribe', 'unsubscribe'] as const) {
    app.post(
      `/groups/:id/epics/:epic_iid/${action}`,
      { schema: { params: EpicParams, response: { 201: Api.Epic } } },
      async (request, reply) => {
        const { user, group, epic } = epicOf(request)
        const db = request.server.burrow.db
        const subscribed = isSubscribed(db, 'Epic', epic.id, user.id, epicParticipantIds(db, epic))
        if (subscribed === (action === 'subscribe')) throw notModified()
        if (action === 'subscribe') subscribe(db, 'Epic', epic.id, user.id, null)
        else unsubscribe(db, 'Epic', epic.id, user.id, null)
        return reply.code(201).send(presentEpic(callerOf(request), epic, origin(group)))
      },
    )
  }

  app.post(
    '/groups/:id/epics/:epic_iid/todo',
    { schema: { params: EpicParams, response: { 201: Api.Todo } } },
    async (request, reply) => {
      const { user, group, epic } = epicOf(request)
      const todo = markTodo(request.server.burrow.db, request.server.burrow.baseUrl(request), user, {
        type: 'Epic',
        id: epic.id,
        title: epic.title,
        group,
        present: () => presentEpics(callerOf(request), [epic], { origin: { kind: 'none' } })[0],
      })
      return reply.code(201).send(todo)
    },
  )

  await app.register(
    awardEmojiRoutes('/groups/:id/epics/:epic_iid', (request, params) => {
      requireEpicsFeature(callerOf(request))
      const iid = pathId(params.epic_iid, 'Epic')
      const group = loadGroup(request, params.id)
      return { type: 'Epic', id: loadEpic(callerOf(request), group, iid).id }
    }),
  )
}

export default epics
