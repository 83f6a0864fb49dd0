import * as Api from '../../../shared/api/index'
import { onGitPushReply } from '../../platform/git/push-listeners'
import { mergeRequestPushReply } from './push-options'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { callerOf } from '../../platform/caller'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { issueViewerOf } from '../../platform/auth/issue-read-queries'
import { MergeRequestReviewer } from '../../../shared/api/merge-request'
import { approvalsEntity, reviewerEntity, type MergeRequestPipelineFields } from './entity'
import {
  approvalsOf,
  findMergeRequestById,
  findMergeRequestByIid,
  hasDeployment,
  listMergeRequests,
  participantIds,
  reviewersOf,
  type MergeRequestFilter,
  type MergeRequestRow,
  type NegatableFilter,
  type UserFilter,
} from './queries'
import { findProjectById, groupAndDescendantIds, projectIdsIn } from '../namespaces'
import { findProjectWithNamespace } from '../projects'
import type { ProjectRow, UserRow } from '../../platform/db/rows'
import { findUserByUsername, userRef, usersByIds } from '../users'
import { diffEntity } from '../repository'
import { projectRef } from '../projects'
import { commitEntity, logCommits } from '../../platform/git/commits'
import { type DiffLimits, diffTrees } from '../../platform/git/diff'
import { projectGitDir, repoExists } from '../../platform/git/project-repo'
import { checkUnmodifiedSince } from '../../platform/http/conditional'
import {
  apiMessage,
  forbidden,
  invalidParam,
  missingParam,
  noneGiven,
  notFound,
  notModified,
  paramError,
  unauthorized,
} from '../../platform/http/errors'
import { pageOf, paginateArray, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadGroup, loadProject } from '../../platform/http/resolve'
import { cancelAutoMerge, headPipelineOf, mergeWhenPipelineSucceeds } from './auto-merge'
import { onPipelineStatus, presentPipeline, presentPipelines } from '../pipelines'
import { buildMergeRef, closableIssues, startRebase } from './merge'
import { mergeOrSchedule } from './merge-orchestration'
import {
  approveMergeRequest,
  canApproveMergeRequest,
  unapproveMergeRequest,
  createMergeRequest,
  targetProjectFor,
  destroyMergeRequest,
  presentMergeRequestDetail,
  presentMergeRequests,
  presentSimpleMergeRequests,
  updateMergeRequest,
  type MergeRequestInput,
} from './service'
import {
  ensureMergeabilityChecked,
  mergeabilityIdle,
  queueMergeabilityCheck,
  registerMergeRequestRefresh,
} from './mergeability'
import { awardEmojiRoutes } from '../award-emoji'
import { linkDeployedMergeRequests } from '../environments'
import { presentIssues } from '../issues'
import { canPushToBranch, listProtectedBranches } from '../branches'
import { isSubscribed, subscribe, unsubscribe } from '../subscriptions'
import { timeTrackingRoutes } from '../time-tracking'
import { createTodo, mergeRequestTodoEntity, pendingTodoFor } from '../todos'
import { textParam } from '../../platform/http/text-param'
import { boolOf, datetimeOf, intListOf, listOf, paramsOf, pathId } from '../../platform/http/loose-params'
import { canReadMergeRequestsWith } from './policy'
import { diffLimitsOf, UNLIMITED_DIFF } from './versions'

const IdParams = Type.Object({ id: Type.String() })
const MrParams = Type.Object({ id: Type.String(), merge_request_iid: Type.Integer() })
const IdList = Type.Union([Type.Array(Type.Integer()), Type.Integer()])
const StringList = Type.Union([Type.Array(Type.String()), Type.String()])

const WriteFields = {
  title: Type.Optional(Type.String()),
  description: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  target_branch: Type.Optional(Type.String()),
  assignee_id: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  assignee_ids: Type.Optional(IdList),
  reviewer_ids: Type.Optional(IdList),
  labels: Type.Optional(StringList),
  milestone_id: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  remove_source_branch: Type.Optional(Type.Boolean()),
  allow_collaboration: Type.Optional(Type.Boolean()),
  allow_maintainer_to_push: Type.Optional(Type.Boolean()),
  squash: Type.Optional(Type.Boolean()),
}
const CreateBody = Type.Object({
  ...WriteFields,
  source_branch: Type.Optional(Type.String()),
  target_project_id: Type.Optional(Type.Integer()),
  approvals_before_merge: Type.Optional(Type.Integer()),
})
const UpdateBody = Type.Object({
  ...WriteFields,
  add_labels: Type.Optional(StringList),
  remove_labels: Type.Optional(StringList),
  state_event: Type.Optional(Type.Union([Type.Literal('close'), Type.Literal('reopen')])),
  discussion_locked: Type.Optional(Type.Boolean()),
})
// The parameters of which an update needs one (GitLab's at_least_one_of, in its order).
const UPDATE_PARAMS = [
  'title',
  'description',
  'target_branch',
  'state_event',
  'labels',
  'add_labels',
  'remove_labels',
  'assignee_id',
  'assignee_ids',
  'reviewer_ids',
  'milestone_id',
  'remove_source_branch',
  'squash',
  'discussion_locked',
  'allow_collaboration',
  'allow_maintainer_to_push',
]
const ShowQuery = Type.Object({
  render_html: Type.Optional(Type.Boolean()),
  include_diverged_commits_count: Type.Optional(Type.Boolean()),
  include_rebase_in_progress: Type.Optional(Type.Boolean()),
  with_merge_status_recheck: Type.Optional(Type.Boolean()),
})
const MergeBody = Type.Object({
  merge_commit_message: Type.Optional(Type.String()),
  squash_commit_message: Type.Optional(Type.String()),
  squash: Type.Optional(Type.Boolean()),
  should_remove_source_branch: Type.Optional(Type.Boolean()),
  merge_when_pipeline_succeeds: Type.Optional(Type.Boolean()),
  auto_merge: Type.Optional(Type.Boolean()),
  sha: Type.Optional(Type.String()),
})

// List parameters are mostly strings on purpose: user filters take ids or `None`/`Any`, labels and
// `in` take comma lists; filterOf parses them and answers GitLab's 400s.
const ListValue = Type.Optional(Type.Union([Type.String(), Type.Integer()]))
const ListArray = Type.Optional(
  Type.Union([Type.Array(Type.Union([Type.String(), Type.Integer()])), Type.String(), Type.Integer()]),
)
const NotFilter = Type.Object({
  labels: ListArray,
  milestone: ListValue,
  author_id: ListValue,
  author_username: ListValue,
  assignee_id: ListValue,
  assignee_username: ListArray,
  reviewer_id: ListValue,
  reviewer_username: ListValue,
  my_reaction_emoji: ListValue,
})
const ListQuery = Type.Object({
  state: ListValue,
  order_by: ListValue,
  sort: ListValue,
  milestone: ListValue,
  view: ListValue,
  labels: ListArray,
  with_labels_details: Type.Optional(Type.Boolean()),
  with_merge_status_recheck: Type.Optional(Type.Boolean()),
  created_after: ListValue,
  created_before: ListValue,
  updated_after: ListValue,
  updated_before: ListValue,
  scope: ListValue,
  author_id: ListValue,
  author_username: ListValue,
  assignee_id: ListValue,
  assignee_username: ListArray,
  approver_ids: ListArray,
  approved_by_ids: ListArray,
  reviewer_id: ListValue,
  reviewer_username: ListValue,
  my_reaction_emoji: ListValue,
  source_branch: ListValue,
  target_branch: ListValue,
  search: ListValue,
  in: ListValue,
  wip: ListValue,
  not: Type.Optional(NotFilter),
  environment: ListValue,
  deployed_before: ListValue,
  deployed_after: ListValue,
  iids: ListArray,
  non_archived: Type.Optional(Type.Boolean()),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})

function idsOf(value: unknown): number[] | undefined {
  if (value === undefined) return undefined
  return (Array.isArray(value) ? value : [value]).map(Number).filter((n) => Number.isInteger(n))
}

function toInput(body: Readonly<Record<string, unknown>>): MergeRequestInput {
  const b = body as MergeRequestInput & Record<string, unknown>
  return {
    ...b,
    assignee_ids: idsOf(body.assignee_ids),
    reviewer_ids: idsOf(body.reviewer_ids),
    labels: body.labels !== undefined ? listOf('labels', body.labels) : undefined,
    add_labels: body.add_labels !== undefined ? listOf('add_labels', body.add_labels) : undefined,
    remove_labels: body.remove_labels !== undefined ? listOf('remove_labels', body.remove_labels) : undefined,
  }
}

// ---- access -----------------------------------------------------------------------------------

/** The caller may read merge requests of the project (merge_requests_access_level). */
function canReadMergeRequests(request: FastifyRequest, project: ProjectRow): boolean {
  return canReadMergeRequestsWith(request.perms, project)
}

/** The project of a merge request route, 403 when the caller may not read its merge requests. */
export function loadMrProject(request: FastifyRequest, id: string, minLevel?: number): ProjectRow {
  const project = loadProject(request, id, minLevel)
  if (!canReadMergeRequests(request, project)) throw forbidden()
  return project
}

/** The merge request `!iid` of the project, or 404. */
export function loadMergeRequest(request: FastifyRequest, project: ProjectRow, iid: number): MergeRequestRow {
  const mr = findMergeRequestByIid(request.server.burrow.db, project.id, iid)
  if (!mr) throw notFound('Merge Request')
  return mr
}

/** `namespace/path` of a project, for web URLs. */
export function projectPathOf(request: FastifyRequest, project: ProjectRow): string {
  const p = findProjectWithNamespace(request.server.burrow.db, project.id)
  return p ? `${p.ns_full_path}/${p.path}` : project.path
}

async function detail(
  request: FastifyRequest,
  project: ProjectRow,
  mr: MergeRequestRow,
  q: { include_diverged_commits_count?: boolean; include_rebase_in_progress?: boolean } = {},
): Promise<Api.MergeRequestDetail> {
  // first_deployed_to_production_at comes from the deployments that shipped it, linked on demand.
  await linkDeployedMergeRequests(request.server.burrow, [project.id])
  const current = findMergeRequestById(request.server.burrow.db, mr.id) ?? mr
  const fields = await presentMergeRequestDetail(
    callerOf(request),
    project,
    { ...mr, first_deployed_to_production_at: current.first_deployed_to_production_at },
    {
      includeDivergedCommitsCount: q.include_diverged_commits_count,
      includeRebaseInProgress: q.include_rebase_in_progress,
    },
  )
  return { ...fields, ...mergeRequestPipelineFields(request, mr) }
}

/**
 * The merge request fields that come from CI: `pipeline` (PipelineBasic) and `head_pipeline`
 * (Pipeline) of the head pipeline, and when its builds started and finished.
 */
function mergeRequestPipelineFields(request: FastifyRequest, mr: MergeRequestRow): MergeRequestPipelineFields {
  const head = headPipelineOf(request.server.burrow.db, mr)
  return {
    pipeline: head ? presentPipelines(callerOf(request), [head])[0] : null,
    head_pipeline: head ? presentPipeline(callerOf(request), head) : null,
    latest_build_started_at: head?.started_at ?? null,
    latest_build_finished_at: head?.finished_at ?? null,
  }
}

// ---- list filters ---------------------------------------------------------------------------

function userFilter(request: FastifyRequest, raw: unknown, name: string): UserFilter | undefined {
  if (raw === undefined || raw === '') return undefined
  const text = textParam(name, raw)
  if (/^none$/i.test(text)) return 'None'
  if (/^any$/i.test(text)) return 'Any'
  if (!/^\d+$/.test(text)) throw invalidParam(name)
  return Number(text)
}

function usernameFilter(request: FastifyRequest, raw: unknown, param: string): UserFilter | undefined {
  if (raw === undefined || raw === '') return undefined
  const name = textParam(param, Array.isArray(raw) ? raw[0] : raw)
  if (/^none$/i.test(name)) return 'None'
  if (/^any$/i.test(name)) return 'Any'
  return findUserByUsername(request.server.burrow.db, name)?.id ?? -1
}

function exclusive(q: Readonly<Record<string, unknown>>, a: string, b: string): void {
  if (q[a] !== undefined && q[b] !== undefined) throw paramError(`${a}, ${b} are mutually exclusive`)
}

function negatable(request: FastifyRequest, q: Readonly<Record<string, unknown>>): NegatableFilter {
  exclusive(q, 'author_id', 'author_username')
  exclusive(q, 'assignee_id', 'assignee_username')
  exclusive(q, 'reviewer_id', 'reviewer_username')
  let authorIds: number[] | undefined
  if (q.author_id !== undefined) {
    if (!/^\d+$/.test(textParam('author_id', q.author_id))) throw invalidParam('author_id')
    authorIds = [Number(q.author_id)]
  } else if (q.author_username !== undefined) {
    authorIds = [
      findUserByUsername(request.server.burrow.db, textParam('author_username', q.author_username))?.id ?? -1,
    ]
  }
  return {
    labels: q.labels !== undefined ? listOf('labels', q.labels) : undefined,
    milestone: q.milestone !== undefined ? textParam('milestone', q.milestone) : undefined,
    authorIds,
    assignee:
      userFilter(request, q.assignee_id, 'assignee_id') ??
      usernameFilter(request, q.assignee_username, 'assignee_username'),
    reviewer:
      userFilter(request, q.reviewer_id, 'reviewer_id') ??
      usernameFilter(request, q.reviewer_username, 'reviewer_username'),
    myReactionEmoji:
      q.my_reaction_emoji !== undefined ? textParam('my_reaction_emoji', q.my_reaction_emoji) : undefined,
  }
}

function idOrSpecial(raw: unknown, name: string): readonly number[] | 'None' | 'Any' | undefined {
  if (raw === undefined) return undefined
  const items = listOf(name, raw)
  if (items.length === 1 && /^none$/i.test(items[0])) return 'None'
  if (items.length === 1 && /^any$/i.test(items[0])) return 'Any'
  const ids = items.map((s) => s.trim()).filter((s) => s !== '')
  if (ids.some((s) => !/^\d+$/.test(s))) throw invalidParam(name)
  return ids.map(Number)
}

const STATES = ['opened', 'closed', 'locked', 'merged', 'all']
const ORDERS = ['created_at', 'updated_at', 'title', 'merged_at']

function filterOf(
  request: FastifyRequest,
  q: Readonly<Record<string, unknown>>,
  projectIds: readonly number[] | undefined,
  defaultScope: string,
  crossProject = false,
): MergeRequestFilter {
  const user = request.actor.user
  const state = q.state === undefined ? 'all' : textParam('state', q.state)
  if (!STATES.includes(state)) throw invalidParam('state', 'does not have a valid value')
  const orderBy = q.order_by === undefined ? 'created_at' : textParam('order_by', q.order_by)
  if (!ORDERS.includes(orderBy)) throw invalidParam('order_by', 'does not have a valid value')
  const sort = q.sort === undefined ? 'desc' : textParam('sort', q.sort)
  if (sort !== 'asc' && sort !== 'desc') throw invalidParam('sort', 'does not have a valid value')
  const scope = textParam('scope', q.scope ?? defaultScope).replace(/-/g, '_')
  if (!['created_by_me', 'assigned_to_me', 'all'].includes(scope))
    throw invalidParam('scope', 'does not have a valid value')
  if (q.wip !== undefined && q.wip !== 'yes' && q.wip !== 'no') throw invalidParam('wip', 'does not have a valid value')
  if (q.view !== undefined && q.view !== 'simple') throw invalidParam('view', 'does not have a valid value')
  const approvedBy = idOrSpecial(q.approved_by_ids, 'approved_by_ids')
  if (Array.isArray(approvedBy) && approvedBy.length > 5)
    throw paramError('approved_by_ids should have at most 5 items')
  const base = negatable(request, q)
  let authorIds = base.authorIds
  let assignee = base.assignee
  // The scope narrows whatever author/assignee filter was given (GitLab applies both).
  if (scope === 'created_by_me')
    authorIds = authorIds === undefined || authorIds.includes(user?.id ?? -1) ? [user?.id ?? -1] : [-1]
  if (scope === 'assigned_to_me') assignee = assignee === undefined || assignee === user?.id ? (user?.id ?? -1) : -1
  const not = q.not && typeof q.not === 'object' ? negatable(request, q.not as Record<string, unknown>) : undefined
  const searchIn = q.in !== undefined ? listOf('in', q.in) : undefined
  if (searchIn?.some((f) => f !== 'title' && f !== 'description'))
    throw invalidParam('in', 'does not have a valid value')
  return {
    ...base,
    authorIds,
    assignee,
    viewer: issueViewerOf(user),
    projectIds,
    state: state === 'all' ? undefined : (state as MergeRequestFilter['state']),
    iids: intListOf('iids', q.iids),
    sourceBranch: q.source_branch !== undefined ? textParam('source_branch', q.source_branch) : undefined,
    targetBranch: q.target_branch !== undefined ? textParam('target_branch', q.target_branch) : undefined,
    createdAfter: datetimeOf('created_after', q.created_after),
    createdBefore: datetimeOf('created_before', q.created_before),
    updatedAfter: datetimeOf('updated_after', q.updated_after),
    updatedBefore: datetimeOf('updated_before', q.updated_before),
    search: q.search !== undefined && q.search !== '' ? textParam('search', q.search) : undefined,
    searchIn: searchIn as ('title' | 'description')[] | undefined,
    wip: q.wip === undefined ? undefined : q.wip === 'yes',
    approvedBy,
    approvers: idOrSpecial(q.approver_ids, 'approver_ids'),
    nonArchived: crossProject && (q.non_archived === undefined || boolOf('non_archived', q.non_archived, false)),
    deployment:
      q.environment !== undefined || q.deployed_before !== undefined || q.deployed_after !== undefined
        ? {
            environment: q.environment !== undefined ? textParam('environment', q.environment) : undefined,
            before: datetimeOf('deployed_before', q.deployed_before),
            after: datetimeOf('deployed_after', q.deployed_after),
          }
        : undefined,
    not,
    orderBy: orderBy as MergeRequestFilter['orderBy'],
    sort,
  }
}

async function sendList(
  request: FastifyRequest,
  reply: FastifyReply,
  filter: MergeRequestFilter,
  relativeTo: { kind: 'project' | 'group'; path: string } | null,
): Promise<Api.MergeRequestListItem[]> {
  const q = paramsOf(request.query)
  const page = pageOf(q)
  const db = request.server.burrow.db
  if (filter.deployment) await linkDeployedMergeRequests(request.server.burrow, filter.projectIds)
  const listed = listMergeRequests(db, filter, { limit: page.perPage, offset: page.offset })
  const total = listed.total
  let rows = listed.rows
  if (boolOf('with_merge_status_recheck', q.with_merge_status_recheck, false)) {
    for (const r of rows) if (r.state === 'opened') queueMergeabilityCheck(request.server.burrow, r.id)
    rows = rows.map((r) => (r.state === 'opened' ? { ...r, merge_status: 'checking' as const } : r))
  }
  setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
  if (q.view === 'simple') return presentSimpleMergeRequests(callerOf(request), rows)
  return presentMergeRequests(callerOf(request), rows, {
    relativeTo,
    withLabelDetails: boolOf('with_labels_details', q.with_labels_details, false),
  })
}

/** GitLab's Approvals entity of the merge request, as the caller sees it. */
function presentApprovals(request: FastifyRequest, mr: MergeRequestRow): Api.MergeRequestApprovals {
  const approvers = approvalsOf(request.server.burrow.db, mr.id)
  const me = request.actor.user
  const hasApproved = me !== null && approvers.some((u) => u.id === me.id)
  const canApproveNow = me !== null && !hasApproved && canApprove(request, mr, me)
  return approvalsEntity(
    mr,
    approvers,
    { hasApproved, canApprove: canApproveNow },
    request.server.burrow.baseUrl(request),
  )
}

function canApprove(request: FastifyRequest, mr: MergeRequestRow, user: UserRow): boolean {
  const project = findProjectById(request.server.burrow.db, mr.project_id) as ProjectRow
  return canApproveMergeRequest(callerOf(request), project, mr, user)
}

function diffLimits(request: FastifyRequest, raw: boolean): DiffLimits {
  return raw ? UNLIMITED_DIFF : diffLimitsOf(request.server.burrow)
}

async function mrDiffs(
  request: FastifyRequest,
  project: ProjectRow,
  mr: MergeRequestRow,
  raw: boolean,
): Promise<{ diffs: ReturnType<typeof diffEntity>[]; overflow: boolean }> {
  const gitDir = projectGitDir(request.server.burrow, project)
  if (!repoExists(gitDir) || !mr.head_sha || !mr.base_sha) return { diffs: [], overflow: false }
  const limits = diffLimits(request, raw)
  const files = await diffTrees(gitDir, mr.base_sha, mr.head_sha, limits).catch(() => [])
  const all = raw
    ? files
    : await diffTrees(gitDir, mr.base_sha, mr.head_sha, diffLimits(request, true)).catch(() => files)
  const overflow = all.length > files.length || files.some((f) => f.tooLarge)
  return { diffs: files.map((f) => diffEntity(f)), overflow }
}

/** Merge request routes: lists, CRUD, merge, rebase, merge ref, approvals, diffs, time tracking. */
const mergeRequests: FastifyPluginAsyncTypebox = async (app) => {
  registerMergeRequestRefresh(app.burrow)
  onGitPushReply(app.burrow, mergeRequestPushReply)
  onPipelineStatus(app.burrow, mergeWhenPipelineSucceeds)
  // The spec: every merge request call is authenticated, public projects' included.
  app.addHook('preHandler', async (request) => {
    if (!request.actor.user) throw unauthorized()
  })
  // preClose: the root onClose hook closes the database, and background jobs still need it.
  app.addHook('preClose', async () => mergeabilityIdle(app.burrow))

  app.get(
    '/merge_requests',
    { schema: { querystring: ListQuery, response: { 200: Type.Array(Api.MergeRequestListItem) } } },
    async (request, reply) => {
      const q = paramsOf(request.query)
      return sendList(request, reply, filterOf(request, q, undefined, 'created_by_me', true), null)
    },
  )

  app.get(
    '/projects/:id/merge_requests',
    {
      schema: {
        params: IdParams,
        querystring: ListQuery,
        response: { 200: Type.Array(Api.MergeRequestListItem) },
      },
    },
    async (request, reply) => {
      const project = loadMrProject(request, request.params.id)
      const filter = filterOf(request, paramsOf(request.query), [project.id], 'all')
      return sendList(request, reply, filter, { kind: 'project', path: projectPathOf(request, project) })
    },
  )

  app.get(
    '/groups/:id/merge_requests',
    {
      schema: {
        params: IdParams,
        querystring: ListQuery,
        response: { 200: Type.Array(Api.MergeRequestListItem) },
      },
    },
    async (request, reply) => {
      const group = loadGroup(request, request.params.id)
      const db = request.server.burrow.db
      const projectIds = projectIdsIn(db, groupAndDescendantIds(db, group.id))
      const filter = filterOf(request, paramsOf(request.query), projectIds, 'all', true)
      return sendList(request, reply, filter, { kind: 'group', path: group.full_path })
    },
  )

  // The merge requests a deployment shipped (GitLab's Deployments API), with the list parameters.
  app.get(
    '/projects/:id/deployments/:deployment_id/merge_requests',
    {
      schema: {
        params: Type.Object({ id: Type.String(), deployment_id: Type.Integer() }),
        querystring: ListQuery,
        response: { 200: Type.Array(Api.MergeRequestListItem) },
      },
    },
    async (request, reply) => {
      const project = loadMrProject(request, request.params.id, AccessLevel.REPORTER)
      if (!hasDeployment(request.server.burrow.db, project.id, request.params.deployment_id))
        throw notFound('Deployment')
      const filter = filterOf(request, paramsOf(request.query), [project.id], 'all')
      return sendList(
        request,
        reply,
        { ...filter, deployment: { ...filter.deployment, deploymentId: request.params.deployment_id } },
        { kind: 'project', path: projectPathOf(request, project) },
      )
    },
  )

  app.post(
    '/projects/:id/merge_requests',
    { schema: { params: IdParams, body: CreateBody, response: { 201: Api.MergeRequestDetail } } },
    async (request, reply) => {
      const user = currentUser(request)
      const body = request.body
      const missing = (['source_branch', 'target_branch', 'title'] as const).filter(
        (k) => body[k] === undefined || body[k] === '',
      )
      if (missing.length > 0) throw missingParam(...missing)
      const source = loadMrProject(request, request.params.id, AccessLevel.DEVELOPER)
      // A target other than the source (404 unseen, 403 with its merge requests closed to the caller)
      // must be in the source's fork network; a fork's merge requests go to its upstream by default.
      const requested =
        body.target_project_id === undefined
          ? undefined
          : loadMrProject(request, textParam('target_project_id', body.target_project_id))
      const caller = callerOf(request)
      const target = targetProjectFor(caller, source, requested)
      const mr = await createMergeRequest(caller, source, target, toInput(body), user)
      queueMergeabilityCheck(request.server.burrow, mr.id)
      return reply
        .code(201)
        .send(
          await detail(
            request,
            target,
            findMergeRequestByIid(request.server.burrow.db, target.id, mr.iid) as MergeRequestRow,
          ),
        )
    },
  )

  app.get(
    '/projects/:id/merge_requests/:merge_request_iid',
    {
      schema: { params: MrParams, querystring: ShowQuery, response: { 200: Api.MergeRequestDetail } },
    },
    async (request) => {
      const project = loadMrProject(request, request.params.id)
      let mr = loadMergeRequest(request, project, request.params.merge_request_iid)
      if (request.query.with_merge_status_recheck && mr.state === 'opened')
        queueMergeabilityCheck(request.server.burrow, mr.id)
      else ensureMergeabilityChecked(request.server.burrow, mr)
      mr = loadMergeRequest(request, project, mr.iid)
      return detail(request, project, mr, request.query)
    },
  )

  app.put(
    '/projects/:id/merge_requests/:merge_request_iid',
    { schema: { params: MrParams, body: UpdateBody, response: { 200: Api.MergeRequestDetail } } },
    async (request) => {
      const user = currentUser(request)
      const project = loadMrProject(request, request.params.id)
      const mr = loadMergeRequest(request, project, request.params.merge_request_iid)
      // Authors may edit their own merge requests; everyone else needs Developer.
      if (mr.author_id !== user.id && !request.perms.canInProject(project, AccessLevel.DEVELOPER)) throw forbidden()
      checkUnmodifiedSince(request, mr.updated_at)
      const keys = Object.keys(request.body).filter((k) => k !== 'id' && k !== 'merge_request_iid')
      if (keys.length === 0) throw noneGiven(UPDATE_PARAMS)
      const row = await updateMergeRequest(callerOf(request), project, mr, toInput(request.body), user)
      if (row.state === 'opened' && (row.target_branch !== mr.target_branch || mr.state !== 'opened'))
        queueMergeabilityCheck(request.server.burrow, row.id)
      return detail(
        request,
        project,
        findMergeRequestByIid(request.server.burrow.db, project.id, mr.iid) as MergeRequestRow,
      )
    },
  )

  app.delete(
    '/projects/:id/merge_requests/:merge_request_iid',
    { schema: { params: MrParams } },
    async (request, reply) => {
      currentUser(request)
      const project = loadMrProject(request, request.params.id, AccessLevel.OWNER)
      const mr = loadMergeRequest(request, project, request.params.merge_request_iid)
      checkUnmodifiedSince(request, mr.updated_at)
      destroyMergeRequest(callerOf(request), mr)
      return reply.code(204).send()
    },
  )

  app.put(
    '/projects/:id/merge_requests/:merge_request_iid/merge',
    { schema: { params: MrParams, body: MergeBody, response: { 200: Api.MergeRequestDetail } } },
    async (request) => {
      const user = currentUser(request)
      const project = loadMrProject(request, request.params.id)
      const mr = loadMergeRequest(request, project, request.params.merge_request_iid)
      const b = request.body
      const options = {
        mergeCommitMessage: b.merge_commit_message,
        squashCommitMessage: b.squash_commit_message,
        squash: b.squash,
        shouldRemoveSourceBranch: b.should_remove_source_branch,
        sha: b.sha,
      }
      // With a head pipeline still running, "merge when the pipeline succeeds" waits for it; without
      // one (or once it has finished) the merge happens now, as GitLab does.
      const { row } = await mergeOrSchedule(
        callerOf(request),
        project,
        mr,
        user,
        options,
        b.merge_when_pipeline_succeeds === true || b.auto_merge === true,
      )
      return detail(request, project, row)
    },
  )

  app.get(
    '/projects/:id/merge_requests/:merge_request_iid/merge_ref',
    { schema: { params: MrParams, response: { 200: Api.MergeRef } } },
    async (request) => {
      const user = currentUser(request)
      const project = loadMrProject(request, request.params.id, AccessLevel.DEVELOPER)
      const mr = loadMergeRequest(request, project, request.params.merge_request_iid)
      return { commit_id: await buildMergeRef(request.server.burrow, project, mr, user) }
    },
  )

  app.put(
    '/projects/:id/merge_requests/:merge_request_iid/rebase',
    {
      schema: {
        params: MrParams,
        body: Type.Object({ skip_ci: Type.Optional(Type.Boolean()) }),
        response: { 202: Api.RebaseStarted },
      },
    },
    async (request, reply) => {
      const user = currentUser(request)
      const project = loadMrProject(request, request.params.id)
      const mr = loadMergeRequest(request, project, request.params.merge_request_iid)
      // A merge request whose source project was deleted has no branch left to rebase.
      if (mr.source_project_id === null) throw forbidden()
      const rules = listProtectedBranches(request.server.burrow.db, mr.source_project_id)
      if (!canPushToBranch(request.perms, project, rules, mr.source_branch)) throw forbidden()
      if (mr.state !== 'opened') throw forbidden()
      if (mr.rebase_in_progress === 1)
        throw apiMessage(
          409,
          'Failed to enqueue the rebase operation, possibly due to a long-lived transaction. Try again later.',
        )
      startRebase(request.server.burrow, project, mr, user)
      return reply.code(202).send({ rebase_in_progress: true })
    },
  )

  app.post(
    '/projects/:id/merge_requests/:merge_request_iid/cancel_merge_when_pipeline_succeeds',
    { schema: { params: MrParams, response: { 201: Api.MergeRequestDetail } } },
    async (request, reply) => {
      currentUser(request)
      const project = loadMrProject(request, request.params.id)
      const mr = loadMergeRequest(request, project, request.params.merge_request_iid)
      if (!request.perms.canInProject(project, AccessLevel.DEVELOPER)) throw unauthorized()
      if (mr.state === 'merged' || mr.state === 'closed') throw apiMessage(405, 'Method Not Allowed')
      if (mr.merge_when_pipeline_succeeds !== 1) throw apiMessage(406, '406 Not Acceptable')
      const row = cancelAutoMerge(request.server.burrow.db, mr, currentUser(request))
      return reply.code(201).send(await detail(request, project, row))
    },
  )

  app.get(
    '/projects/:id/merge_requests/:merge_request_iid/closes_issues',
    { schema: { params: MrParams, response: { 200: Type.Array(Api.Issue) } } },
    async (request, reply) => {
      const project = loadMrProject(request, request.params.id)
      const mr = loadMergeRequest(request, project, request.params.merge_request_iid)
      const issues = closableIssues(callerOf(request), project, mr).map((c) => c.issue)
      const entities = presentIssues(callerOf(request), issues, { origin: { kind: 'project', projectId: project.id } })
      return paginateArray(request, reply, request.server.burrow.baseUrl(request), entities)
    },
  )

  for (const [action, wanted] of [
    ['subscribe', true],
    ['unsubscribe', false],
  ] as const) {
    app.post(
      `/projects/:id/merge_requests/:merge_request_iid/${action}`,
      { schema: { params: MrParams, response: { 201: Api.MergeRequestDetail } } },
      async (request, reply) => {
        const user = currentUser(request)
        const project = loadMrProject(request, request.params.id)
        const mr = loadMergeRequest(request, project, request.params.merge_request_iid)
        const db = request.server.burrow.db
        if (isSubscribed(db, 'MergeRequest', mr.id, user.id, participantIds(db, mr)) === wanted) throw notModified()
        if (wanted) subscribe(db, 'MergeRequest', mr.id, user.id, project.id)
        else unsubscribe(db, 'MergeRequest', mr.id, user.id, project.id)
        return reply.code(201).send(await detail(request, project, mr))
      },
    )
  }

  app.get(
    '/projects/:id/merge_requests/:merge_request_iid/changes',
    {
      schema: {
        params: MrParams,
        querystring: Type.Object({
          access_raw_diffs: Type.Optional(Type.Boolean()),
          unidiff: Type.Optional(Type.Boolean()),
        }),
        response: { 200: Api.MergeRequestChanges },
      },
    },
    async (request) => {
      const project = loadMrProject(request, request.params.id)
      const mr = loadMergeRequest(request, project, request.params.merge_request_iid)
      const { diffs, overflow } = await mrDiffs(request, project, mr, request.query.access_raw_diffs === true)
      return { ...(await detail(request, project, mr)), overflow, changes: diffs }
    },
  )

  app.get(
    '/projects/:id/merge_requests/:merge_request_iid/diffs',
    { schema: { params: MrParams, response: { 200: Type.Array(Api.Diff) } } },
    async (request, reply) => {
      const project = loadMrProject(request, request.params.id)
      const mr = loadMergeRequest(request, project, request.params.merge_request_iid)
      const { diffs } = await mrDiffs(request, project, mr, false)
      return paginateArray(request, reply, request.server.burrow.baseUrl(request), diffs)
    },
  )

  app.get(
    '/projects/:id/merge_requests/:merge_request_iid/commits',
    { schema: { params: MrParams, response: { 200: Type.Array(Api.Commit) } } },
    async (request, reply) => {
      const project = loadMrProject(request, request.params.id)
      const mr = loadMergeRequest(request, project, request.params.merge_request_iid)
      const gitDir = projectGitDir(request.server.burrow, project)
      const commits =
        repoExists(gitDir) && mr.head_sha && mr.base_sha
          ? await logCommits(gitDir, [mr.head_sha, `^${mr.base_sha}`, '--']).catch(() => [])
          : []
      const webUrl = `${request.server.burrow.baseUrl(request)}/${projectPathOf(request, project)}`
      return paginateArray(
        request,
        reply,
        request.server.burrow.baseUrl(request),
        commits.map((c) => commitEntity(c, webUrl)),
      )
    },
  )

  app.get(
    '/projects/:id/merge_requests/:merge_request_iid/participants',
    { schema: { params: MrParams, response: { 200: Type.Array(Api.UserRef) } } },
    async (request, reply) => {
      const project = loadMrProject(request, request.params.id)
      const mr = loadMergeRequest(request, project, request.params.merge_request_iid)
      const db = request.server.burrow.db
      const ids = participantIds(db, mr)
      const found = usersByIds(db, ids)
      const users = ids.flatMap((id) => found.get(id) ?? [])
      const baseUrl = request.server.burrow.baseUrl(request)
      return paginateArray(
        request,
        reply,
        baseUrl,
        users.map((u) => userRef(u, baseUrl)),
      )
    },
  )

  app.get(
    '/projects/:id/merge_requests/:merge_request_iid/reviewers',
    { schema: { params: MrParams, response: { 200: Type.Array(MergeRequestReviewer) } } },
    async (request) => {
      const project = loadMrProject(request, request.params.id)
      const mr = loadMergeRequest(request, project, request.params.merge_request_iid)
      const baseUrl = callerOf(request).baseUrl
      return reviewersOf(request.server.burrow.db, mr.id).map((r) => reviewerEntity(r, baseUrl))
    },
  )

  app.get(
    '/projects/:id/merge_requests/:merge_request_iid/approvals',
    { schema: { params: MrParams, response: { 200: Api.MergeRequestApprovals } } },
    async (request) => {
      const project = loadMrProject(request, request.params.id)
      return presentApprovals(request, loadMergeRequest(request, project, request.params.merge_request_iid))
    },
  )

  app.get(
    '/projects/:id/merge_requests/:merge_request_iid/approval_state',
    { schema: { params: MrParams, response: { 200: Api.MergeRequestApprovalState } } },
    async (request) => {
      const project = loadMrProject(request, request.params.id)
      loadMergeRequest(request, project, request.params.merge_request_iid)
      return { approval_rules_overwritten: false, rules: [] }
    },
  )

  app.post(
    '/projects/:id/merge_requests/:merge_request_iid/approve',
    {
      schema: {
        params: MrParams,
        body: Type.Object({ sha: Type.Optional(Type.String()), approval_password: Type.Optional(Type.String()) }),
        response: { 201: Api.MergeRequestApprovals },
      },
    },
    async (request, reply) => {
      const user = currentUser(request)
      const project = loadMrProject(request, request.params.id)
      const mr = loadMergeRequest(request, project, request.params.merge_request_iid)
      if (request.body.sha !== undefined && request.body.sha !== mr.head_sha)
        throw apiMessage(409, `SHA does not match HEAD of source branch: ${mr.head_sha ?? ''}`)
      if (!approveMergeRequest(callerOf(request), project, mr, user)) throw unauthorized()
      return reply.code(201).send(presentApprovals(request, mr))
    },
  )

  app.post(
    '/projects/:id/merge_requests/:merge_request_iid/unapprove',
    { schema: { params: MrParams, response: { 201: Api.MergeRequestApprovals } } },
    async (request, reply) => {
      const user = currentUser(request)
      const project = loadMrProject(request, request.params.id)
      const mr = loadMergeRequest(request, project, request.params.merge_request_iid)
      if (!unapproveMergeRequest(callerOf(request), mr, user)) throw notFound()
      return reply.code(201).send(presentApprovals(request, mr))
    },
  )

  app.post(
    '/projects/:id/merge_requests/:merge_request_iid/todo',
    { schema: { params: MrParams, response: { 201: Api.MergeRequestTodo } } },
    async (request, reply) => {
      const user = currentUser(request)
      const project = loadMrProject(request, request.params.id)
      const mr = loadMergeRequest(request, project, request.params.merge_request_iid)
      const db = request.server.burrow.db
      if (pendingTodoFor(db, user.id, 'MergeRequest', mr.id, 'marked')) throw notModified()
      const todo = createTodo(db, {
        userId: user.id,
        authorId: user.id,
        projectId: project.id,
        targetType: 'MergeRequest',
        targetId: mr.id,
        action: 'marked',
      })
      const p = findProjectWithNamespace(db, project.id)
      const [target] = presentMergeRequests(callerOf(request), [mr], {
        relativeTo: { kind: 'project', path: projectPathOf(request, project) },
      })
      const author = userRef(user, request.server.burrow.baseUrl(request))
      return reply.code(201).send(mergeRequestTodoEntity(todo, { project: p ? projectRef(p) : null, author, target }))
    },
  )

  // Time tracking: the estimate lives on the merge request, spent time in `timelogs`. Changing it is
  // GitLab's admin_merge_request: Developers, not Reporters.
  await app.register(
    timeTrackingRoutes('/projects/:id/merge_requests/:merge_request_iid', (request, params, access) => {
      if (access === 'write') currentUser(request)
      const project = loadMrProject(request, params.id, access === 'write' ? AccessLevel.DEVELOPER : undefined)
      const mr = loadMergeRequest(request, project, pathId(params.merge_request_iid, 'Merge Request'))
      return { type: 'MergeRequest', id: mr.id, projectId: mr.project_id }
    }),
  )

  await app.register(
    awardEmojiRoutes('/projects/:id/merge_requests/:merge_request_iid', (request, params) => {
      const iid = pathId(params.merge_request_iid, 'Merge Request')
      return { type: 'MergeRequest', id: loadMergeRequest(request, loadMrProject(request, params.id), iid).id }
    }),
  )
}

export default mergeRequests
