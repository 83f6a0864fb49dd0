import { callerOf } from '../../platform/caller'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { digestToken, generateToken } from '../../platform/auth/secrets'
import { namespaceAncestors } from '../namespaces/queries'
import { CI_STATUSES, listJobs } from '../pipelines/queries'
import {
  findRunnerById,
  isRunnerInProject,
  listRunners,
  runnerProjectIds,
  updateRunnerRow,
  type RunnerFilter,
  type RunnerRow,
  type RunnerScope,
  type RunnerStatusFilter,
  type RunnerType,
} from './queries'
import { apiMessage, forbidden, missingParam, notFound, paramError, validationFailed } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadGroup, loadProject, requireAdmin } from '../../platform/http/resolve'
import { presentJobs } from '../pipelines/present'
import {
  assignRunner,
  canCreateRunner,
  canReadRunner,
  canUpdateRunner,
  createUserRunner,
  instanceRegistrationToken,
  presentRunnerDetail,
  presentRunners,
  resetRunnersToken,
  unassignRunner,
  unregisterRunner,
  updateRunner,
  type RunnerAttributes,
  type RunnerOwnerScope,
} from './service'
import { recordAudit } from '../audit-events'

const TYPES = ['instance_type', 'group_type', 'project_type'] as const
const STATUSES = ['active', 'paused', 'online', 'offline', 'never_contacted', 'stale'] as const
// Every value the deprecated `scope` accepts on some list (GitLab's AVAILABLE_SCOPES).
const SCOPES = ['specific', 'shared', ...TYPES, ...STATUSES] as const

const Literals = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)))

const IdParams = Type.Object({ id: Type.Integer() })
const ProjectParams = Type.Object({ id: Type.String() })
const ProjectRunnerParams = Type.Object({ id: Type.String(), runner_id: Type.Integer() })
const TagList = Type.Union([Type.Array(Type.String()), Type.String()])
const MaintenanceNote = Type.Optional(Type.String({ maxLength: 1024 }))
const AccessLevelParam = Type.Optional(Literals(['not_protected', 'ref_protected'] as const))

const ListQuery = Type.Object({
  scope: Type.Optional(Literals(SCOPES)),
  type: Type.Optional(Literals(TYPES)),
  status: Type.Optional(Literals(STATUSES)),
  paused: Type.Optional(Type.Boolean()),
  tag_list: Type.Optional(TagList),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})

const UpdateBody = Type.Object({
  description: Type.Optional(Type.String()),
  active: Type.Optional(Type.Boolean()),
  paused: Type.Optional(Type.Boolean()),
  tag_list: Type.Optional(TagList),
  run_untagged: Type.Optional(Type.Boolean()),
  locked: Type.Optional(Type.Boolean()),
  access_level: AccessLevelParam,
  maximum_timeout: Type.Optional(Type.Union([Type.Null(), Type.Integer()])),
  maintenance_note: MaintenanceNote,
  maintainer_note: MaintenanceNote,
})

/** What a new runner is told to be, in `POST /user/runners` and the runner API's `POST /runners`. */
export const NewRunnerParams = {
  description: Type.Optional(Type.String()),
  maintenance_note: MaintenanceNote,
  // GitLab's old name for maintenance_note.
  maintainer_note: MaintenanceNote,
  active: Type.Optional(Type.Boolean()),
  paused: Type.Optional(Type.Boolean()),
  locked: Type.Optional(Type.Boolean()),
  access_level: AccessLevelParam,
  run_untagged: Type.Optional(Type.Boolean()),
  tag_list: Type.Optional(TagList),
  maximum_timeout: Type.Optional(Type.Integer()),
}
type NewRunnerBody = Static<Type.TObject<typeof NewRunnerParams>>

/** A new runner's attributes from its parameters; `paused` and the deprecated `active` may not come together. */
export function newRunnerAttributes(b: NewRunnerBody): RunnerAttributes {
  if (b.active !== undefined && b.paused !== undefined) throw paramError('active, paused are mutually exclusive')
  return {
    description: b.description,
    maintenanceNote: b.maintenance_note ?? b.maintainer_note,
    active: b.paused !== undefined ? !b.paused : b.active,
    locked: b.locked,
    runUntagged: b.run_untagged,
    tagList: tagListOf(b.tag_list),
    accessLevel: b.access_level,
    maximumTimeout: b.maximum_timeout,
  }
}

const CreateBody = Type.Object({
  runner_type: Literals(TYPES),
  group_id: Type.Optional(Type.Integer()),
  project_id: Type.Optional(Type.Integer()),
  ...NewRunnerParams,
})

const JobsQuery = Type.Object({
  status: Type.Optional(Literals(CI_STATUSES)),
  order_by: Type.Optional(Type.Literal('id')),
  sort: Type.Optional(Literals(['asc', 'desc'] as const)),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})

/** `tag_list` as an array or comma-separated text (Grape's CommaSeparatedToArray). */
export function tagListOf(raw: string | readonly string[] | undefined): string[] | undefined {
  if (raw === undefined) return undefined
  const items = typeof raw === 'string' ? [raw] : raw
  return items
    .flatMap((t) => t.split(','))
    .map((t) => t.trim())
    .filter((t) => t !== '')
}

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
  request: FastifyRequest,
  reply: import('fastify').FastifyReply,
  filter: RunnerFilter,
): Readonly<Record<string, unknown>>[] {
  const page = pageOf(request.query as Record<string, unknown>)
  const { rows, total } = listRunners(request.server.burrow.db, filter, { limit: page.perPage, offset: page.offset })
  setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
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

function loadRunner(request: FastifyRequest, id: number): { runner: RunnerRow; projectIds: number[] } {
  const runner = findRunnerById(request.server.burrow.db, id)
  if (!runner) throw notFound('Runner')
  return { runner, projectIds: runnerProjectIds(request.server.burrow.db, [id]).get(id) ?? [] }
}

/** Group ids of a project's group and its ancestors (none for a personal project). */
function projectGroupIds(request: FastifyRequest, namespaceId: number): number[] {
  const db = request.server.burrow.db
  const ns = db.prepare('SELECT kind FROM namespaces WHERE id = ?').get(namespaceId) as { kind: string } | undefined
  if (ns?.kind !== 'group') return []
  return [namespaceId, ...namespaceAncestors(db, namespaceId).map((g) => g.id)]
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

  app.get('/runners', { schema: { querystring: ListQuery } }, async (request, reply) => {
    const user = currentUser(request)
    return sendRunners(request, reply, filterOf({ kind: 'owned', userId: user.id }, request.query, STATUSES))
  })

  // GitLab 15.10+'s runner creation (Users API, "Create a runner linked to a user"): the runner
  // then verifies and asks for jobs with the returned token, like a registered one.
  app.post(
    '/user/runners',
    { schema: { body: CreateBody }, config: { scopes: ['api', 'create_runner'] } },
    async (request, reply) => {
      currentUser(request)
      const b = request.body
      const scope = creationScope(request, b)
      if (!canCreateRunner(request.perms, scope)) throw forbidden('Insufficient permissions')
      const attributes = newRunnerAttributes(b)
      checkMaximumTimeout(b.maximum_timeout)
      const { runner, token } = createUserRunner(request, scope, attributes)
      return reply.code(201).send({ id: runner.id, token, token_expires_at: null })
    },
  )

  app.get('/runners/all', { schema: { querystring: ListQuery } }, async (request, reply) => {
    requireAdmin(request)
    return sendRunners(request, reply, filterOf({ kind: 'all' }, request.query, SCOPES))
  })

  app.get('/runners/:id', { schema: { params: IdParams } }, async (request) => {
    currentUser(request)
    const { runner, projectIds } = loadRunner(request, request.params.id)
    if (!canReadRunner(request.perms, runner, projectIds)) throw forbidden('No access granted')
    return presentRunnerDetail(request, runner)
  })

  app.put('/runners/:id', { schema: { params: IdParams, body: UpdateBody } }, async (request) => {
    currentUser(request)
    const b = request.body
    const keys = [
      'description',
      'active',
      'paused',
      'tag_list',
      'run_untagged',
      'locked',
      'access_level',
      'maximum_timeout',
      'maintenance_note',
      'maintainer_note',
    ] as const
    if (!keys.some((k) => b[k] !== undefined)) {
      throw paramError(
        'description, active, paused, tag_list, run_untagged, locked, access_level, maximum_timeout, maintenance_note are missing, at least one parameter must be provided',
      )
    }
    if (b.active !== undefined && b.paused !== undefined) throw paramError('active, paused are mutually exclusive')
    const { runner, projectIds } = loadRunner(request, request.params.id)
    if (!canUpdateRunner(request.perms, runner, projectIds)) throw forbidden('No access granted')
    checkMaximumTimeout(b.maximum_timeout)
    const updated = updateRunner(request, runner, {
      description: b.description,
      active: b.paused !== undefined ? !b.paused : b.active,
      tagList: tagListOf(b.tag_list),
      runUntagged: b.run_untagged,
      locked: b.locked,
      accessLevel: b.access_level,
      maximumTimeout: b.maximum_timeout,
      maintenanceNote: b.maintenance_note ?? b.maintainer_note,
    })
    return presentRunnerDetail(request, updated)
  })

  app.delete('/runners/:id', { schema: { params: IdParams } }, async (request, reply) => {
    currentUser(request)
    const { runner, projectIds } = loadRunner(request, request.params.id)
    if (!request.perms.isAdmin) {
      if (projectIds.length > 1) throw forbidden('Runner associated with more than one project')
      if (!canUpdateRunner(request.perms, runner, projectIds)) throw forbidden('No access granted')
    }
    unregisterRunner(request, runner)
    return reply.code(204).send()
  })

  app.get('/runners/:id/jobs', { schema: { params: IdParams, querystring: JobsQuery } }, async (request, reply) => {
    currentUser(request)
    const { runner, projectIds } = loadRunner(request, request.params.id)
    if (!request.perms.isAdmin && !canReadRunner(request.perms, runner, projectIds))
      throw forbidden('No access granted')
    if (!request.perms.isAdmin && runner.runner_type === 'instance_type') throw forbidden('No access granted')
    const db = ctx.db
    // Jobs are limited to projects where the caller is at least a Reporter (administrators see all).
    let visible: number[] | null = null
    if (!request.perms.isAdmin) {
      const ids = (
        db.prepare('SELECT DISTINCT project_id FROM ci_builds WHERE runner_id = ?').all(runner.id) as {
          project_id: number
        }[]
      ).map((r) => r.project_id)
      visible = ids.filter((id) => request.perms.canInProject({ id }, AccessLevel.REPORTER))
    }
    const page = pageOf(request.query as Record<string, unknown>)
    const { rows, total } = listJobs(
      db,
      {
        runnerId: runner.id,
        projectIds: visible,
        statuses: request.query.status ? [request.query.status] : undefined,
        includeRetried: true,
        sort: request.query.sort ?? 'desc',
      },
      { limit: page.perPage, offset: page.offset },
    )
    setPageHeaders(request, reply, ctx.baseUrl(request), page, total)
    return presentJobs(request, rows, 'runner')
  })

  app.post('/runners/:id/reset_authentication_token', { schema: { params: IdParams } }, async (request, reply) => {
    currentUser(request)
    const { runner, projectIds } = loadRunner(request, request.params.id)
    if (!canUpdateRunner(request.perms, runner, projectIds)) throw forbidden('No access granted')
    const token = generateToken('glrt-')
    updateRunnerRow(ctx.db, runner.id, { token_digest: digestToken(token) })
    recordAudit(callerOf(request), {
      entityType: 'User',
      entityId: request.actor.user?.id ?? 0,
      entityPath: request.actor.user?.username ?? '',
      targetId: runner.id,
      targetType: 'Ci::Runner',
      targetDetails: runner.description || `#${runner.id}`,
      change: { custom_message: 'Reset CI runner authentication token' },
    })
    return reply.code(201).send({ token, token_expires_at: null })
  })

  app.post('/runners/reset_registration_token', async (request, reply) => {
    requireAdmin(request)
    return reply.code(201).send({ token: resetRunnersToken(request, { kind: 'instance' }), token_expires_at: null })
  })

  // ---- projects and groups ----

  app.get(
    '/projects/:id/runners',
    { schema: { params: ProjectParams, querystring: ListQuery } },
    async (request, reply) => {
      currentUser(request)
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      const scope: RunnerScope = {
        kind: 'project',
        projectId: project.id,
        groupIds: projectGroupIds(request, project.namespace_id),
      }
      return sendRunners(request, reply, filterOf(scope, request.query, SCOPES))
    },
  )

  app.post(
    '/projects/:id/runners',
    { schema: { params: ProjectParams, body: Type.Object({ runner_id: Type.Integer() }) } },
    async (request, reply) => {
      currentUser(request)
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      const { runner, projectIds } = loadRunner(request, request.body.runner_id)
      if (runner.runner_type === 'group_type') throw forbidden('Runner is a group runner')
      if (!request.perms.isAdmin) {
        if (runner.locked === 1) throw forbidden('Runner is locked')
        if (!canUpdateRunner(request.perms, runner, projectIds)) throw forbidden('No access granted')
      }
      if (runner.runner_type !== 'project_type') throw apiMessage(400, 'Runner is not a project runner')
      if (isRunnerInProject(ctx.db, runner.id, project.id))
        throw validationFailed({ 'runner_projects.project_id': ['has already been taken'] })
      assignRunner(request, runner, project)
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
      unassignRunner(request, runner, project)
      return reply.code(204).send()
    },
  )

  app.post(
    '/projects/:id/runners/reset_registration_token',
    { schema: { params: ProjectParams } },
    async (request, reply) => {
      currentUser(request)
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      return reply
        .code(201)
        .send({ token: resetRunnersToken(request, { kind: 'project', project }), token_expires_at: null })
    },
  )

  app.get(
    '/groups/:id/runners',
    { schema: { params: ProjectParams, querystring: ListQuery } },
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
    { schema: { params: ProjectParams } },
    async (request, reply) => {
      currentUser(request)
      const group = loadGroup(request, request.params.id, AccessLevel.OWNER)
      return reply
        .code(201)
        .send({ token: resetRunnersToken(request, { kind: 'group', group }), token_expires_at: null })
    },
  )
}

export default runners
