import * as Api from '../../../shared/api/index'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { callerOf, signedInUser } from '../../platform/caller'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { issueViewerOf, readableProjects } from '../../platform/auth/issue-read-queries'
import {
  assigneeIdsOf,
  findIssueById,
  HEALTH_STATUSES,
  issueStateCounts,
  listIssues,
  type HealthStatus,
  type IssueFilter,
  type IssueNotFilter,
  type IssueOrder,
  type IssueRow,
  type IssueType,
  type Wildcard,
} from './queries'
import { groupAndDescendantIds } from '../namespaces'
import { findProjectWithNamespace } from '../projects'
import type { ProjectRow } from '../../platform/db/rows'
import { findUserByUsername, userRef, usersByIds } from '../users'
import type { ReferenceOrigin } from './entity'
import { todayIso } from '../milestones'
import { checkUnmodifiedSince } from '../../platform/http/conditional'
import { requireWritable } from '../../platform/http/archived'
import {
  forbidden,
  invalidParam,
  missingParam,
  notFound,
  notModified,
  paramError,
  unauthorized,
} from '../../platform/http/errors'
import { pageOf, paginateArray, setPageHeaders } from '../../platform/http/pagination'
import { answerFromMemo } from '../../platform/http/answer-memo'
import { currentUser, loadGroup, loadProject, requireAdmin } from '../../platform/http/resolve'
import { awardEmojiRoutes } from '../award-emoji'
import {
  canAdminIssues,
  changesFromParams,
  cloneIssue,
  createIssue,
  deleteIssue,
  issueParticipantIds,
  loadIssue,
  moveIssue,
  presentIssue,
  presentIssues,
  relatedMergeRequests,
  reorderIssue,
  requireEditIssue,
  requireIssuesFeature,
  updateIssue,
} from './service'
import { isSubscribed, subscribe, unsubscribe } from '../subscriptions'
import { timeTrackingRoutes, type Trackable } from '../time-tracking'
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
  wildcardOf,
} from '../../platform/http/loose-params'

const IdParams = Type.Object({ id: Type.String() })
const IssueParams = Type.Object({ id: Type.String(), issue_iid: Type.Integer() })

type Query = Readonly<Record<string, unknown>>

const ORDERS: readonly IssueOrder[] = [
  'created_at',
  'updated_at',
  'due_date',
  'title',
  'relative_position',
  'weight',
  'milestone_due',
  'label_priority',
  'popularity',
  'priority',
]
const SCOPES: Readonly<Record<string, 'created_by_me' | 'assigned_to_me' | 'all'>> = {
  created_by_me: 'created_by_me',
  'created-by-me': 'created_by_me',
  assigned_to_me: 'assigned_to_me',
  'assigned-to-me': 'assigned_to_me',
  all: 'all',
}

// ---------------------------------------------------------------------------------------------
// List parameters → IssueFilter.

function exclusive(q: Query, a: string, b: string): void {
  if (given(q[a]) && given(q[b])) throw paramError(`${a}, ${b} are mutually exclusive`)
}

function userIdByName(username: string): (request: FastifyRequest) => number {
  return (request) => findUserByUsername(request.server.burrow.db, username)?.id ?? -1
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000)
}

function iso(d: Date): string {
  return d.toISOString().slice(0, 10)
}

/** The due_date filter's named periods as date ranges (UTC; weeks start on Monday). */
function dueDateOf(raw: unknown, now = new Date()): IssueFilter['dueDate'] {
  if (!given(raw)) return undefined
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
  switch (textParam('due_date', raw)) {
    case '0':
    case 'no_due_date':
      return 'none'
    case 'any':
      return 'any'
    case 'today':
      return { from: iso(today), to: iso(today) }
    case 'tomorrow':
      return { from: iso(addDays(today, 1)), to: iso(addDays(today, 1)) }
    case 'overdue':
      return { to: iso(addDays(today, -1)) }
    case 'week': {
      const monday = addDays(today, -((today.getUTCDay() + 6) % 7))
      return { from: iso(monday), to: iso(addDays(monday, 6)) }
    }
    case 'month': {
      const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1))
      return { from: iso(first), to: iso(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 0))) }
    }
    case 'next_month_and_previous_two_weeks':
      return {
        from: iso(addDays(today, -14)),
        to: iso(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 2, 0))),
      }
    default:
      throw invalidParam('due_date', 'does not have a valid value')
  }
}

function labelsFilter(raw: unknown): Wildcard<readonly string[]> | undefined {
  const titles = listOf('labels', raw)
  if (titles.length === 0) return undefined
  if (titles.length === 1) {
    const w = wildcardOf(titles[0])
    if (w) return { kind: w }
    // `No+Label` (deprecated) arrives as `No Label` once `+` is decoded.
    if (/^no[ +]label$/i.test(titles[0])) return { kind: 'none' }
  }
  return { kind: 'value', value: titles }
}

function notFilterOf(request: FastifyRequest, raw: unknown): IssueNotFilter | undefined {
  if (raw === undefined || raw === null || typeof raw !== 'object') return undefined
  const n = raw as Query
  const names = listOf('not[assignee_username]', n.assignee_username).map((u) => userIdByName(u)(request))
  const authorNames = listOf('not[author_username]', n.author_username).map((u) => userIdByName(u)(request))
  if (
    given(n.milestone_id) &&
    !wildcardOf(n.milestone_id) &&
    !/^(upcoming|started)$/i.test(textParam('not[milestone_id]', n.milestone_id))
  )
    throw invalidParam('not[milestone_id]', 'does not have a valid value')
  const milestoneId = given(n.milestone_id)
    ? wildcardOf(n.milestone_id)
      ? { kind: wildcardOf(n.milestone_id) as 'none' | 'any' }
      : { kind: 'value' as const, value: textParam('not[milestone_id]', n.milestone_id) }
    : undefined
  return {
    assigneeIds: [...listOf('not[assignee_id]', n.assignee_id).map((v) => intOf('not[assignee_id]', v)), ...names],
    authorIds: [...listOf('not[author_id]', n.author_id).map((v) => intOf('not[author_id]', v)), ...authorNames],
    iids: listOf('not[iids]', n.iids).map((v) => intOf('not[iids]', v)),
    labels: listOf('not[labels]', n.labels),
    milestoneTitles: given(n.milestone) ? [textParam('not[milestone]', n.milestone)] : [],
    milestoneId,
    weight: given(n.weight) ? intOf('not[weight]', n.weight) : undefined,
  }
}

/** Where a list looks and who looks. */
interface ListBase {
  readonly projectIds: readonly number[]
  readonly confidentialProjectIds: readonly number[] | null
  readonly defaultScope: 'created_by_me' | 'all'
}

/** Parses the complete list parameter set (shared by the three issue lists and issues_statistics). */
function filterOf(request: FastifyRequest, q: Query, base: ListBase): IssueFilter {
  exclusive(q, 'assignee_id', 'assignee_username')
  exclusive(q, 'author_id', 'author_username')
  exclusive(q, 'milestone_id', 'milestone')
  exclusive(q, 'iteration_id', 'iteration_title')
  const user = request.actor.user
  const scopeRaw = given(q.scope) ? textParam('scope', q.scope) : base.defaultScope
  const scope = SCOPES[scopeRaw]
  if (!scope) throw invalidParam('scope', 'does not have a valid value')
  if (scope !== 'all' && !user && base.defaultScope === 'created_by_me') throw unauthorized()

  let authorId: number | undefined
  if (given(q.author_id)) authorId = intOf('author_id', q.author_id)
  if (given(q.author_username)) authorId = userIdByName(textParam('author_username', q.author_username))(request)
  // The scope narrows whatever author or assignee filter was also given (GitLab applies both).
  if (scope === 'created_by_me' && user) authorId = authorId === undefined || authorId === user.id ? user.id : -1

  let assignee: Wildcard<number> | undefined
  if (given(q.assignee_id)) {
    const w = wildcardOf(q.assignee_id)
    assignee = w
      ? { kind: w }
      : intOf('assignee_id', q.assignee_id) === 0
        ? { kind: 'none' }
        : { kind: 'value', value: intOf('assignee_id', q.assignee_id) }
  }
  const usernames = listOf('assignee_username', q.assignee_username)
  // Community-edition rule (the spec's error 9): one assignee_username at most.
  if (usernames.length > 1)
    throw invalidParam('assignee_username', `allows one value, but found ${usernames.length}: ${usernames.join(', ')}`)
  if (usernames.length === 1) assignee = { kind: 'value', value: userIdByName(usernames[0])(request) }
  if (scope === 'assigned_to_me' && user) {
    const mine =
      assignee === undefined || (assignee.kind === 'value' && assignee.value === user.id) || assignee.kind === 'any'
    assignee = { kind: 'value', value: mine ? user.id : -1 }
  }

  let milestone: Wildcard<string> | undefined
  let milestoneSpecial: IssueFilter['milestoneSpecial']
  // milestone_id names the wildcards plainly; the milestone title takes GitLab's `#upcoming` and
  // `#started` (a milestone may well be titled "Upcoming").
  const special = (name: string, raw: unknown, prefix: '' | '#'): boolean => {
    const s = textParam(name, raw).toLowerCase()
    if (s === `${prefix}upcoming`) milestoneSpecial = 'upcoming'
    else if (s === `${prefix}started`) milestoneSpecial = 'started'
    else return false
    return true
  }
  if (given(q.milestone_id)) {
    const w = wildcardOf(q.milestone_id)
    if (w) milestone = { kind: w }
    else if (!special('milestone_id', q.milestone_id, ''))
      throw invalidParam('milestone_id', 'does not have a valid value')
  }
  if (given(q.milestone)) {
    const w = wildcardOf(q.milestone)
    if (w) milestone = { kind: w }
    else if (!special('milestone', q.milestone, '#'))
      milestone = { kind: 'value', value: textParam('milestone', q.milestone) }
  }

  let myReactionEmoji: Wildcard<string> | undefined
  if (given(q.my_reaction_emoji)) {
    const w = wildcardOf(q.my_reaction_emoji)
    myReactionEmoji = w ? { kind: w } : { kind: 'value', value: textParam('my_reaction_emoji', q.my_reaction_emoji) }
  }
  let weight: Wildcard<number> | undefined
  if (given(q.weight)) {
    const w = wildcardOf(q.weight)
    weight = w ? { kind: w } : { kind: 'value', value: intOf('weight', q.weight) }
  }
  // GitLab lowercases the value before checking it against the statuses and its two wildcards.
  let healthStatus: Wildcard<HealthStatus> | undefined
  if (given(q.health_status)) {
    const h = textParam('health_status', q.health_status).toLowerCase()
    if (h === 'none' || h === 'any') healthStatus = { kind: h }
    else if ((HEALTH_STATUSES as readonly string[]).includes(h))
      healthStatus = { kind: 'value', value: h as HealthStatus }
    else throw invalidParam('health_status', 'does not have a valid value')
  }
  // No iterations exist: `None` matches every issue, `Any` or a particular iteration none.
  const iterationRaw = given(q.iteration_id) ? q.iteration_id : q.iteration_title
  const iterationMatchesNothing = given(iterationRaw) && wildcardOf(iterationRaw) !== 'none'

  const state = given(q.state) ? textParam('state', q.state) : 'all'
  if (!['opened', 'closed', 'all'].includes(state)) throw invalidParam('state', 'does not have a valid value')
  const orderBy = (given(q.order_by) ? textParam('order_by', q.order_by) : 'created_at') as IssueOrder
  if (!ORDERS.includes(orderBy)) throw invalidParam('order_by', 'does not have a valid value')
  const sort = given(q.sort) ? textParam('sort', q.sort) : 'desc'
  if (sort !== 'asc' && sort !== 'desc') throw invalidParam('sort', 'does not have a valid value')
  if (given(q.issue_type) && !['issue', 'incident', 'test_case'].includes(textParam('issue_type', q.issue_type)))
    throw invalidParam('issue_type', 'does not have a valid value')

  let search: IssueFilter['search']
  if (given(q.search)) {
    const fields = given(q.in) ? listOf('in', q.in) : ['title', 'description']
    if (fields.some((f) => f !== 'title' && f !== 'description'))
      throw invalidParam('in', 'does not have a valid value')
    search = {
      text: textParam('search', q.search),
      inTitle: fields.includes('title'),
      inDescription: fields.includes('description'),
    }
  }
  const iids = listOf('iids', q.iids)

  return {
    projectIds: base.projectIds,
    confidentialProjectIds: base.confidentialProjectIds,
    viewerId: user?.id ?? null,
    state: state === 'all' ? undefined : (state as 'opened' | 'closed'),
    iids: iids.length > 0 ? iids.map((v) => intOf('iids', v)) : undefined,
    authorId,
    assignee,
    labels: labelsFilter(q.labels),
    milestone,
    milestoneSpecial,
    myReactionEmoji,
    weight,
    healthStatus,
    iterationMatchesNothing,
    confidential: boolOf('confidential', q.confidential),
    issueType: given(q.issue_type) ? (textParam('issue_type', q.issue_type) as IssueType) : undefined,
    createdAfter: datetimeOf('created_after', q.created_after),
    createdBefore: datetimeOf('created_before', q.created_before),
    updatedAfter: datetimeOf('updated_after', q.updated_after),
    updatedBefore: datetimeOf('updated_before', q.updated_before),
    dueDate: dueDateOf(q.due_date),
    search,
    not: notFilterOf(request, q.not),
    orderBy,
    sort,
    today: todayIso(),
  }
}

function nonArchived(q: Query): boolean {
  return boolOf('non_archived', q.non_archived, true)
}

/** Readable projects (optionally within namespaces) as a list base. */
function readableBase(
  request: FastifyRequest,
  q: Query,
  namespaceIds: readonly number[] | undefined,
  defaultScope: ListBase['defaultScope'],
): ListBase {
  const viewer = issueViewerOf(request.actor.user)
  const { ids, reporterIds } = readableProjects(request.server.burrow.db, viewer, {
    namespaceIds,
    nonArchived: nonArchived(q),
  })
  return { projectIds: ids, confidentialProjectIds: viewer?.isAdmin ? null : reporterIds, defaultScope }
}

function projectBase(request: FastifyRequest, project: ProjectRow): ListBase {
  requireIssuesFeature(callerOf(request), project)
  return {
    projectIds: [project.id],
    confidentialProjectIds: request.perms.isAdmin
      ? null
      : canAdminIssues(callerOf(request), project)
        ? [project.id]
        : [],
    defaultScope: 'all',
  }
}

function sendList(request: FastifyRequest, reply: FastifyReply, base: ListBase, origin: ReferenceOrigin): Api.Issue[] {
  const q = paramsOf(request.query)
  const filter = filterOf(request, q, base)
  const page = pageOf(q)
  const { rows, total } = listIssues(request.server.burrow.db, filter, { limit: page.perPage, offset: page.offset })
  setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
  const withLabelsDetails = boolOf('with_labels_details', q.with_labels_details, false)
  return presentIssues(callerOf(request), rows, { origin, withLabelsDetails })
}

function statistics(
  request: FastifyRequest,
  base: ListBase,
): { statistics: { counts: { all: number; closed: number; opened: number } } } {
  const counts = issueStateCounts(request.server.burrow.db, filterOf(request, paramsOf(request.query), base))
  return { statistics: { counts: { all: counts.all, closed: counts.closed, opened: counts.opened } } }
}

// ---------------------------------------------------------------------------------------------

function trackable(project: ProjectRow, issue: IssueRow): Trackable {
  return { type: 'Issue', id: issue.id, projectId: project.id }
}

/** Loads project + readable issue for `/projects/:id/issues/:issue_iid/...`. */
function issueOf(request: FastifyRequest<{ Params: { id: string; issue_iid: number } }>): {
  project: ProjectRow
  issue: IssueRow
} {
  const project = loadProject(request, request.params.id)
  return { project, issue: loadIssue(callerOf(request), project, request.params.issue_iid) }
}

function origin(project: ProjectRow): ReferenceOrigin {
  return { kind: 'project', projectId: project.id }
}

/** Issue routes: lists, CRUD, time tracking, subscriptions, to-dos, participants, award emoji. */
const issues: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/issues', { schema: { response: { 200: Type.Array(Api.Issue) } } }, async (request, reply) =>
    answerFromMemo(request, reply, () =>
      sendList(request, reply, readableBase(request, paramsOf(request.query), undefined, 'created_by_me'), {
        kind: 'none',
      }),
    ),
  )

  app.get('/issues_statistics', { schema: { response: { 200: Api.IssueStatistics } } }, async (request) =>
    statistics(request, readableBase(request, paramsOf(request.query), undefined, 'created_by_me')),
  )

  app.get(
    '/issues/:issue_id',
    { schema: { params: Type.Object({ issue_id: Type.Integer() }), response: { 200: Api.Issue } } },
    async (request) => {
      requireAdmin(request)
      const issue = findIssueById(request.server.burrow.db, request.params.issue_id)
      if (!issue) throw notFound('Issue')
      return presentIssue(callerOf(request), issue, { kind: 'none' })
    },
  )

  app.get(
    '/groups/:id/issues',
    { schema: { params: IdParams, response: { 200: Type.Array(Api.Issue) } } },
    async (request, reply) =>
      answerFromMemo(request, reply, () => {
        const group = loadGroup(request, request.params.id)
        const namespaceIds = groupAndDescendantIds(request.server.burrow.db, group.id)
        return sendList(request, reply, readableBase(request, paramsOf(request.query), namespaceIds, 'all'), {
          kind: 'group',
          groupId: group.id,
        })
      }),
  )

  app.get(
    '/groups/:id/issues_statistics',
    { schema: { params: IdParams, response: { 200: Api.IssueStatistics } } },
    async (request) => {
      const group = loadGroup(request, request.params.id)
      return statistics(
        request,
        readableBase(
          request,
          paramsOf(request.query),
          groupAndDescendantIds(request.server.burrow.db, group.id),
          'all',
        ),
      )
    },
  )

  app.get(
    '/projects/:id/issues',
    { schema: { params: IdParams, response: { 200: Type.Array(Api.Issue) } } },
    async (request, reply) =>
      answerFromMemo(request, reply, () => {
        const project = loadProject(request, request.params.id)
        return sendList(request, reply, projectBase(request, project), origin(project))
      }),
  )

  app.get(
    '/projects/:id/issues_statistics',
    { schema: { params: IdParams, response: { 200: Api.IssueStatistics } } },
    async (request) => {
      const project = loadProject(request, request.params.id)
      return statistics(request, projectBase(request, project))
    },
  )

  app.post(
    '/projects/:id/issues',
    { schema: { params: IdParams, response: { 201: Api.Issue } } },
    async (request, reply) => {
      currentUser(request)
      const project = loadProject(request, request.params.id)
      requireIssuesFeature(callerOf(request), project)
      const issue = createIssue(callerOf(request), project, paramsOf(request.body))
      return reply.code(201).send(presentIssue(callerOf(request), issue, origin(project)))
    },
  )

  app.get(
    '/projects/:id/issues/:issue_iid',
    { schema: { params: IssueParams, response: { 200: Api.Issue } } },
    async (request) => {
      const { project, issue } = issueOf(request)
      return presentIssue(callerOf(request), issue, origin(project))
    },
  )

  app.put(
    '/projects/:id/issues/:issue_iid',
    { schema: { params: IssueParams, response: { 200: Api.Issue } } },
    async (request) => {
      currentUser(request)
      const { project, issue } = issueOf(request)
      requireEditIssue(callerOf(request), project, issue)
      checkUnmodifiedSince(request, issue.updated_at)
      const changes = changesFromParams(callerOf(request), project, paramsOf(request.body))
      return presentIssue(callerOf(request), updateIssue(callerOf(request), project, issue, changes), origin(project))
    },
  )

  app.delete('/projects/:id/issues/:issue_iid', { schema: { params: IssueParams } }, async (request, reply) => {
    currentUser(request)
    const { project, issue } = issueOf(request)
    if (!request.perms.canInProject(project, AccessLevel.OWNER)) throw forbidden()
    checkUnmodifiedSince(request, issue.updated_at)
    deleteIssue(callerOf(request), issue)
    return reply.code(204).send()
  })

  // Time tracking: reading needs read access to the issue, changing it Reporter (GitLab's admin_issue).
  await app.register(
    timeTrackingRoutes('/projects/:id/issues/:issue_iid', (request, params, access) => {
      if (access === 'write') currentUser(request)
      const project = loadProject(request, params.id)
      const issue = loadIssue(callerOf(request), project, pathId(params.issue_iid, 'Issue'))
      if (access === 'write' && !canAdminIssues(callerOf(request), project)) throw forbidden()
      return trackable(project, issue)
    }),
  )

  const participants = (db: typeof app.burrow.db, issue: IssueRow): number[] => [
    issue.author_id,
    ...(assigneeIdsOf(db, [issue.id]).get(issue.id) ?? []),
  ]

  app.post(
    '/projects/:id/issues/:issue_iid/subscribe',
    { schema: { params: IssueParams, response: { 201: Api.Issue } } },
    async (request, reply) => {
      const user = currentUser(request)
      const { project, issue } = issueOf(request)
      const db = request.server.burrow.db
      if (isSubscribed(db, 'Issue', issue.id, user.id, participants(db, issue))) throw notModified()
      subscribe(db, 'Issue', issue.id, user.id, project.id)
      return reply.code(201).send(presentIssue(callerOf(request), issue, origin(project)))
    },
  )

  app.post(
    '/projects/:id/issues/:issue_iid/unsubscribe',
    { schema: { params: IssueParams, response: { 201: Api.Issue } } },
    async (request, reply) => {
      const user = currentUser(request)
      const { project, issue } = issueOf(request)
      const db = request.server.burrow.db
      if (!isSubscribed(db, 'Issue', issue.id, user.id, participants(db, issue))) throw notModified()
      unsubscribe(db, 'Issue', issue.id, user.id, project.id)
      return reply.code(201).send(presentIssue(callerOf(request), issue, origin(project)))
    },
  )

  app.post(
    '/projects/:id/issues/:issue_iid/todo',
    { schema: { params: IssueParams, response: { 201: Api.Todo } } },
    async (request, reply) => {
      const user = currentUser(request)
      const { project, issue } = issueOf(request)
      const { db } = request.server.burrow
      const todo = markTodo(db, request.server.burrow.baseUrl(request), user, {
        type: 'Issue',
        id: issue.id,
        title: issue.title,
        project: findProjectWithNamespace(db, project.id),
        present: () => presentIssues(callerOf(request), [issue], { origin: { kind: 'none' } })[0],
      })
      return reply.code(201).send(todo)
    },
  )

  app.post(
    '/projects/:id/issues/:issue_iid/move',
    { schema: { params: IssueParams, response: { 201: Api.Issue } } },
    async (request, reply) => {
      currentUser(request)
      const { project, issue } = issueOf(request)
      const raw = paramsOf(request.body).to_project_id
      if (!given(raw)) throw missingParam('to_project_id')
      const target = loadProject(request, textParam('to_project_id', raw))
      requireWritable(target)
      requireIssuesFeature(callerOf(request), target)
      const moved = moveIssue(callerOf(request), project, issue, target)
      return reply.code(201).send(presentIssue(callerOf(request), moved, origin(project)))
    },
  )

  app.post(
    '/projects/:id/issues/:issue_iid/clone',
    { schema: { params: IssueParams, response: { 201: Api.Issue } } },
    async (request, reply) => {
      currentUser(request)
      const { project, issue } = issueOf(request)
      const body = paramsOf(request.body)
      if (!given(body.to_project_id)) throw missingParam('to_project_id')
      const target = loadProject(request, textParam('to_project_id', body.to_project_id))
      requireWritable(target)
      requireIssuesFeature(callerOf(request), target)
      const withNotes = boolOf('with_notes', body.with_notes, false)
      const clone = cloneIssue(callerOf(request), project, issue, target, withNotes)
      return reply.code(201).send(presentIssue(callerOf(request), clone, origin(project)))
    },
  )

  app.put(
    '/projects/:id/issues/:issue_iid/reorder',
    { schema: { params: IssueParams, response: { 200: Api.Issue } } },
    async (request) => {
      currentUser(request)
      const { project, issue } = issueOf(request)
      if (!canAdminIssues(callerOf(request), project)) throw forbidden()
      const body = paramsOf(request.body)
      const idOf = (name: string): number | undefined => (given(body[name]) ? intOf(name, body[name]) : undefined)
      return presentIssue(
        callerOf(request),
        reorderIssue(callerOf(request), issue, idOf('move_after_id'), idOf('move_before_id')),
        origin(project),
      )
    },
  )

  // The merge requests that mention the issue, and those that close it when they merge.
  for (const [path, relation] of [
    ['related_merge_requests', 'related'],
    ['closed_by', 'closed_by'],
  ] as const) {
    app.get(
      `/projects/:id/issues/:issue_iid/${path}`,
      { schema: { params: IssueParams, response: { 200: Type.Array(Api.MergeRequest) } } },
      async (request, reply) => {
        // Every merge request call needs a signed-in caller (spec, Authentication).
        signedInUser(callerOf(request))
        const { issue } = issueOf(request)
        const mergeRequests = relatedMergeRequests(callerOf(request), issue, relation)
        return paginateArray(request, reply, request.server.burrow.baseUrl(request), mergeRequests)
      },
    )
  }

  app.get(
    '/projects/:id/issues/:issue_iid/participants',
    { schema: { params: IssueParams, response: { 200: Type.Array(Api.UserRef) } } },
    async (request, reply) => {
      const { project, issue } = issueOf(request)
      const db = request.server.burrow.db
      const ids = issueParticipantIds(db, issue, canAdminIssues(callerOf(request), project))
      const users = usersByIds(db, ids)
      const baseUrl = request.server.burrow.baseUrl(request)
      const all = ids
        .map((id) => users.get(id))
        .filter((u) => u !== undefined)
        .map((u) => userRef(u, baseUrl))
      const page = pageOf(request.query)
      setPageHeaders(request, reply, baseUrl, page, all.length)
      return all.slice(page.offset, page.offset + page.perPage)
    },
  )

  await app.register(
    awardEmojiRoutes('/projects/:id/issues/:issue_iid', (request, params) => {
      const iid = pathId(params.issue_iid, 'Issue')
      const project = loadProject(request, params.id)
      return { type: 'Issue', id: loadIssue(callerOf(request), project, iid).id }
    }),
  )
}

export default issues
