import * as Api from '../../../shared/api/index'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { callerOf } from '../../platform/caller'
import {
  apiMessage,
  forbidden,
  missingParam,
  noneGiven,
  notFound,
  paramError,
  validationFailed,
} from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadGroup, loadProject, requireAdmin } from '../../platform/http/resolve'
import { namespaceAncestors } from '../namespaces'
import {
  AccessLevelParam,
  Literals,
  MaintenanceNote,
  NewRunnerParams,
  newRunnerAttributes,
  TagListParam,
  tagListOf,
} from './params'
import { canCreateRunner, canReadRunner, canUpdateRunner } from './policy'
import {
  findRunnerById,
  isRunnerInProject,
  listRunners,
  projectGroupIds,
  runnerProjectIds,
  type RunnerFilter,
  type RunnerScope,
  type RunnerStatusFilter,
  type RunnerType,
} from './queries'
import {
  assignRunner,
  createUserRunner,
  instanceRegistrationToken,
  loadRunner,
  presentRunnerDetail,
  presentRunners,
  resetAuthenticationToken,
  resetRunnersToken,
  unassignRunner,
  unregisterRunner,
  updateRunner,
  type RunnerOwnerScope,
} from './service'

const TYPES = ['instance_type', 'group_type', 'project_type'] as const
const STATUSES = ['active', 'paused', 'online', 'offline', 'never_contacted', 'stale'] as const
// Every value the deprecated `scope` accepts on some list (GitLab's AVAILABLE_SCOPES).
const SCOPES = ['specific', 'shared', ...TYPES, ...STATUSES] as const

const IdParams = Type.Object({ id: Type.Integer() })
const ProjectParams = Type.Object({ id: Type.String() })
const ProjectRunnerParams = Type.Object({ id: Type.String(), runner_id: Type.Integer() })

type ListQuery = Static<typeof ListQuery>
const ListQuery = Type.Object({
  scope: Type.Optional(Literals(SCOPES)),
  type: Type.Optional(Literals(TYPES)),
  status: Type.Optional(Literals(STATUSES)),
  paused: Type.Optional(Type.Boolean()),
  tag_list: TagListParam,
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})

const UpdateBody = Type.Object({
  description: Type.Optional(Type.String()),
  active: Type.Optional(Type.Boolean()),
  paused: Type.Optional(Type.Boolean()),
  tag_list: TagListParam,
  run_untagged: Type.Optional(Type.Boolean()),
  locked: Type.Optional(Type.Boolean()),
  access_level: AccessLevelParam,
  maximum_timeout: Type.Optional(Type.Union([Type.Null(), Type.Integer()])),
  maintenance_note: MaintenanceNote,
  maintainer_note: MaintenanceNote,
})

const CreateBody = Type.Object({
  runner_type: Literals(TYPES),
  group_id: Type.Optional(Type.Integer()),
  project_id: Type.Optional(Type.Integer()),
  ...NewRunnerParams,
})

interface ListParams {
  readonly scope?: (typeof SCOPES)[number]
  readonly type?: RunnerType
  readonly status?: RunnerStatusFilter
  readonly paused?: boolean
  readonly tag_list?: string | string[]
}

/** The filter of a runner list; `scope` must be one of `allowedScopes` (400 `Scope contains invalid value`). */
function filterOf(scope: RunnerScope, q: ListParams, allowedScopes: readonly string[]): RunnerFilter {
  const statuses: RunnerStatusFilter[] = []
  const types: RunnerType[] = []
  if (q.scope !== undefined) {
    if (!allowedScopes.includes(q.scope)) throw apiMessage(400, 'Scope contains invalid value')
    if ((TYPES as readonly string[]).includes(q.scope)) types.push(q.scope as RunnerType)
    else statuses.push(q.scope as RunnerStatusFilter)
  }
  if (q.type) types.push(q.type)
  if (q.status) statuses.push(q.status)
  if (q.paused !== undefined) statuses.push(q.paused ? 'paused' : 'active')
  return { scope, types: [...new Set(types)], statuses, tags: tagListOf(q.tag_list) }
}

function sendRunners(
  request: FastifyRequest<{ Querystring: ListQuery }>,
  reply: FastifyReply,
  filter: RunnerFilter,
): Api.Runner[] {
  const page = pageOf(request.query)
  const { rows, total } = listRunners(request.server.burrow.db, filter, { limit: page.perPage, offset: page.offset })
  setPageHeaders(request, reply, callerOf(request).baseUrl, page, total)
  return presentRunners(rows)
}

/** GitLab's runner validation: a maximum timeout, when set, is at least ten minutes. */
function checkMaximumTimeout(seconds: number | null | undefined): void {
  if (seconds !== undefined && seconds !== null && seconds < 600)
    throw validationFailed({ maximum_timeout: ['needs to be at least 10 minutes'] })
}

/**
 * The scope `POST /user/runners` names: the group or project must exist and be visible to the
 * caller (404 otherwise, as GitLab's find_group!/find_project!), and its id must be given.
 */
function creationScope(
  request: FastifyRequest,
  body: { readonly runner_type: RunnerType; readonly group_id?: number; readonly project_id?: number },
): RunnerOwnerScope {
  if (body.runner_type === 'group_type') {
    if (body.group_id === undefined) throw missingParam('group_id')
    return { runnerType: 'group_type', groupId: loadGroup(request, body.group_id).id }
  }
  if (body.runner_type === 'project_type') {
    if (body.project_id === undefined) throw missingParam('project_id')
    return { runnerType: 'project_type', projectId: loadProject(request, body.project_id).id }
  }
  return { runnerType: 'instance_type' }
}

/**
 * The Runners API: lists (owned, all, project, group) with the type/status/scope/tag filters,
 * details, update and pause, deletion, a runner's jobs, enabling runners in projects,
 * registration token resets, and the Users API's runner creation (`POST /user/runners`).
 */
const runners: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow
  // The instance registration token exists from the first start, so administrators can read it in the settings.
  instanceRegistrationToken(ctx)

  app.get(
    '/runners',
    { schema: { querystring: ListQuery, response: { 200: Type.Array(Api.Runner) } } },
    async (request, reply) => {
      const user = currentUser(request)
      return sendRunners(request, reply, filterOf({ kind: 'owned', userId: user.id }, request.query, STATUSES))
    },
  )

  // GitLab 15.10+'s runner creation (Users API, "Create a runner linked to a user"): the runner
  // then verifies and asks for jobs with the returned token, like a registered one.
  app.post(
    '/user/runners',
    {
      schema: { body: CreateBody, response: { 201: Api.RegisteredRunner } },
      config: { scopes: ['api', 'create_runner'] },
    },
    async (request, reply) => {
      currentUser(request)
      const b = request.body
      const scope = creationScope(request, b)
      if (!canCreateRunner(callerOf(request).perms, scope)) throw forbidden('Insufficient permissions')
      const attributes = newRunnerAttributes(b)
      checkMaximumTimeout(b.maximum_timeout)
      const { runner, token } = createUserRunner(callerOf(request), scope, attributes)
      return reply.code(201).send({ id: runner.id, token, token_expires_at: null })
    },
  )

  app.get(
    '/runners/all',
    { schema: { querystring: ListQuery, response: { 200: Type.Array(Api.Runner) } } },
    async (request, reply) => {
      requireAdmin(request)
      return sendRunners(request, reply, filterOf({ kind: 'all' }, request.query, SCOPES))
    },
  )

  app.get('/runners/:id', { schema: { params: IdParams, response: { 200: Api.RunnerDetail } } }, async (request) => {
    currentUser(request)
    const { runner, projectIds } = loadRunner(ctx.db, request.params.id)
    if (!canReadRunner(callerOf(request).perms, runner, projectIds)) throw forbidden('No access granted')
    return presentRunnerDetail(callerOf(request), runner)
  })

  app.put(
    '/runners/:id',
    { schema: { params: IdParams, body: UpdateBody, response: { 200: Api.RunnerDetail } } },
    async (request) => {
      currentUser(request)
      const b = request.body
      // maintainer_note (deprecated) counts but is not named in GitLab's message.
      const named = [
        'description',
        'active',
        'paused',
        'tag_list',
        'run_untagged',
        'locked',
        'access_level',
        'maximum_timeout',
        'maintenance_note',
      ] as const
      if (![...named, 'maintainer_note' as const].some((k) => b[k] !== undefined)) throw noneGiven(named)
      if (b.active !== undefined && b.paused !== undefined) throw paramError('active, paused are mutually exclusive')
      const { runner, projectIds } = loadRunner(ctx.db, request.params.id)
      if (!canUpdateRunner(callerOf(request).perms, runner, projectIds)) throw forbidden('No access granted')
      checkMaximumTimeout(b.maximum_timeout)
      const updated = updateRunner(callerOf(request), runner, {
        description: b.description,
        active: b.paused !== undefined ? !b.paused : b.active,
        tagList: tagListOf(b.tag_list),
        runUntagged: b.run_untagged,
        locked: b.locked,
        accessLevel: b.access_level,
        maximumTimeout: b.maximum_timeout,
        maintenanceNote: b.maintenance_note ?? b.maintainer_note,
      })
      return presentRunnerDetail(callerOf(request), updated)
    },
  )

  app.delete('/runners/:id', { schema: { params: IdParams } }, async (request, reply) => {
    currentUser(request)
    const { runner, projectIds } = loadRunner(ctx.db, request.params.id)
    if (!callerOf(request).perms.isAdmin) {
      if (projectIds.length > 1) throw forbidden('Runner associated with more than one project')
      if (!canUpdateRunner(callerOf(request).perms, runner, projectIds)) throw forbidden('No access granted')
    }
    unregisterRunner(callerOf(request), runner)
    return reply.code(204).send()
  })

  app.post(
    '/runners/:id/reset_authentication_token',
    { schema: { params: IdParams, response: { 201: Api.RunnerToken } } },
    async (request, reply) => {
      currentUser(request)
      const { runner, projectIds } = loadRunner(ctx.db, request.params.id)
      if (!canUpdateRunner(callerOf(request).perms, runner, projectIds)) throw forbidden('No access granted')
      const token = resetAuthenticationToken(callerOf(request), runner)
      return reply.code(201).send({ token, token_expires_at: null })
    },
  )

  app.post(
    '/runners/reset_registration_token',
    { schema: { response: { 201: Api.RunnerToken } } },
    async (request, reply) => {
      requireAdmin(request)
      return reply
        .code(201)
        .send({ token: resetRunnersToken(callerOf(request), { kind: 'instance' }), token_expires_at: null })
    },
  )

  // ---- projects and groups ----

  app.get(
    '/projects/:id/runners',
    {
      schema: {
        params: ProjectParams,
        querystring: ListQuery,
        response: { 200: Type.Array(Api.Runner) },
      },
    },
    async (request, reply) => {
      currentUser(request)
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      const scope: RunnerScope = {
        kind: 'project',
        projectId: project.id,
        groupIds: projectGroupIds(ctx.db, project.namespace_id),
      }
      return sendRunners(request, reply, filterOf(scope, request.query, SCOPES))
    },
  )

  app.post(
    '/projects/:id/runners',
    {
      schema: {
        params: ProjectParams,
        body: Type.Object({ runner_id: Type.Integer() }),
        response: { 201: Api.Runner },
      },
    },
    async (request, reply) => {
      currentUser(request)
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      const { runner, projectIds } = loadRunner(ctx.db, request.body.runner_id)
      if (runner.runner_type === 'group_type') throw forbidden('Runner is a group runner')
      if (!callerOf(request).perms.isAdmin) {
        if (runner.locked === 1) throw forbidden('Runner is locked')
        if (!canUpdateRunner(callerOf(request).perms, runner, projectIds)) throw forbidden('No access granted')
      }
      if (runner.runner_type !== 'project_type') throw apiMessage(400, 'Runner is not a project runner')
      if (isRunnerInProject(ctx.db, runner.id, project.id))
        throw validationFailed({ 'runner_projects.project_id': ['has already been taken'] })
      assignRunner(callerOf(request), runner, project)
      return reply.code(201).send(presentRunners([runner])[0])
    },
  )

  app.delete(
    '/projects/:id/runners/:runner_id',
    { schema: { params: ProjectRunnerParams } },
    async (request, reply) => {
      currentUser(request)
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      const runner = findRunnerById(ctx.db, request.params.runner_id)
      if (!runner || !isRunnerInProject(ctx.db, runner.id, project.id)) throw notFound('Runner')
      if ((runnerProjectIds(ctx.db, [runner.id]).get(runner.id) ?? []).length <= 1) {
        throw forbidden('Only one project associated with the runner. Please remove the runner instead')
      }
      unassignRunner(callerOf(request), runner, project)
      return reply.code(204).send()
    },
  )

  app.post(
    '/projects/:id/runners/reset_registration_token',
    { schema: { params: ProjectParams, response: { 201: Api.RunnerToken } } },
    async (request, reply) => {
      currentUser(request)
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      return reply
        .code(201)
        .send({ token: resetRunnersToken(callerOf(request), { kind: 'project', project }), token_expires_at: null })
    },
  )

  app.get(
    '/groups/:id/runners',
    {
      schema: {
        params: ProjectParams,
        querystring: ListQuery,
        response: { 200: Type.Array(Api.Runner) },
      },
    },
    async (request, reply) => {
      currentUser(request)
      const group = loadGroup(request, request.params.id, AccessLevel.MAINTAINER)
      const scope: RunnerScope = {
        kind: 'group',
        groupIds: [group.id, ...namespaceAncestors(ctx.db, group.id).map((g) => g.id)],
      }
      return sendRunners(request, reply, filterOf(scope, request.query, SCOPES))
    },
  )

  app.post(
    '/groups/:id/runners/reset_registration_token',
    { schema: { params: ProjectParams, response: { 201: Api.RunnerToken } } },
    async (request, reply) => {
      currentUser(request)
      const group = loadGroup(request, request.params.id, AccessLevel.OWNER)
      return reply
        .code(201)
        .send({ token: resetRunnersToken(callerOf(request), { kind: 'group', group }), token_expires_at: null })
    },
  )
}

export default runners
