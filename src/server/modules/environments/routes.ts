import * as Api from '../../../shared/api/index'
import { callerOf } from '../../platform/caller'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { onJobEnqueue, onJobStatus, provideDeploymentTargets } from '../pipelines'
import { environmentTargets, refuseProtectedDeployment, trackDeployment } from './deployments'
import { AccessLevel } from '../../platform/auth/access'
import {
  DEPLOYMENT_ORDERS,
  DEPLOYMENT_STATUSES,
  ENVIRONMENT_TIERS,
  deleteDeployment,
  findDeployment,
  findEnvironment,
  findEnvironmentByName,
  lastDeployments,
  listDeployments,
  listEnvironments,
  type DeploymentRow,
  type EnvironmentRow,
} from './queries'
import type { ProjectRow } from '../../platform/db/rows'
import { environmentBasic, environmentEntity } from './entity'
import { GitError } from '../../platform/git/git'
import { projectGitDir, repoExists } from '../../platform/git/project-repo'
import { resolveCommit } from '../../platform/git/refs'
import {
  ApiError,
  apiMessage,
  badRequest,
  forbidden,
  invalidParam,
  notFound,
  paramError,
  validationFailed,
} from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadProject } from '../../platform/http/resolve'
import {
  EnvironmentValidationError,
  canDeployToEnvironment,
  createDeployment,
  createEnvironment,
  destroyEnvironment,
  ensureEnvironment,
  presentDeployments,
  presentEnvironmentDetail,
  scheduleReviewAppsDeletion,
  stopEnvironment,
  updateDeploymentStatus,
  updateEnvironmentAttributes,
} from './service'

// GitLab: Reporters read environments and deployments, Developers create, update, stop and
// deploy, Maintainers delete deployments; protected environments narrow who may deploy.
const READ = AccessLevel.REPORTER
const WRITE = AccessLevel.DEVELOPER
const MIN_SEARCH_LENGTH = 3
const DAY_MS = 24 * 60 * 60 * 1000

const IdParams = Type.Object({ id: Type.String() })
const EnvParams = Type.Object({ id: Type.String(), environment_id: Type.Integer() })
const DeploymentParams = Type.Object({ id: Type.String(), deployment_id: Type.Integer() })
const Tier = Type.Union(ENVIRONMENT_TIERS.map((t) => Type.Literal(t)))
const NullableString = Type.Optional(Type.Union([Type.String(), Type.Null()]))

const ListQuery = Type.Object({
  name: Type.Optional(Type.String()),
  search: Type.Optional(Type.String()),
  states: Type.Optional(Type.Union([Type.Literal('available'), Type.Literal('stopping'), Type.Literal('stopped')])),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})
const CreateBody = Type.Object({
  name: Type.String(),
  external_url: NullableString,
  tier: Type.Optional(Tier),
  description: NullableString,
  slug: Type.Optional(Type.Unknown()),
})
const UpdateBody = Type.Object({
  name: Type.Optional(Type.String()),
  external_url: NullableString,
  tier: Type.Optional(Tier),
  description: NullableString,
  slug: Type.Optional(Type.Unknown()),
})
const ReviewAppsQuery = Type.Object({
  before: Type.Optional(Type.String()),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  dry_run: Type.Optional(Type.Boolean()),
})
const StopBody = Type.Object({ force: Type.Optional(Type.Boolean()) })

const DeploymentStatusInput = Type.Union([
  Type.Literal('running'),
  Type.Literal('success'),
  Type.Literal('failed'),
  Type.Literal('canceled'),
])
const DeploymentListQuery = Type.Object({
  order_by: Type.Optional(Type.Union(DEPLOYMENT_ORDERS.map((o) => Type.Literal(o)))),
  sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  updated_after: Type.Optional(Type.String()),
  updated_before: Type.Optional(Type.String()),
  finished_after: Type.Optional(Type.String()),
  finished_before: Type.Optional(Type.String()),
  environment: Type.Optional(Type.String()),
  status: Type.Optional(Type.Union(DEPLOYMENT_STATUSES.map((s) => Type.Literal(s)))),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})
const DeploymentCreateBody = Type.Object({
  environment: Type.String(),
  sha: Type.String(),
  ref: Type.String(),
  tag: Type.Boolean(),
  status: DeploymentStatusInput,
})
const DeploymentUpdateBody = Type.Object({ status: DeploymentStatusInput })

/** The caller (401 when anonymous) and the project where they hold `level` (404 unseen, 403 lower). */
function projectFor(request: FastifyRequest, id: string, level: number): ProjectRow {
  currentUser(request)
  return loadProject(request, id, level)
}

function environmentOf(request: FastifyRequest, project: ProjectRow, id: number): EnvironmentRow {
  const env = findEnvironment(request.server.burrow.db, project.id, id)
  if (!env) throw notFound('Environment')
  return env
}

/** Grape's `absence` validator on `slug`. */
function refuseSlug(body: { readonly slug?: unknown }): void {
  if (body.slug !== undefined) throw paramError('slug is automatically generated and cannot be changed')
}

/** Model validation errors as GitLab renders them: 400 `{"message": {"name": [...]}}`. */
function validated<T>(run: () => T): T {
  try {
    return run()
  } catch (error) {
    if (error instanceof EnvironmentValidationError) throw validationFailed(error.errors)
    throw error
  }
}

/** An ISO 8601 datetime parameter as a stored timestamp, or 400 `<name> is invalid`. */
function timeParam(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined
  const t = new Date(raw)
  if (Number.isNaN(t.getTime())) throw invalidParam(name)
  return t.toISOString()
}

/** Whether `rev` names a commit of the project's repository (malformed input names none). */
async function commitExists(request: FastifyRequest, project: ProjectRow, rev: string): Promise<boolean> {
  const gitDir = projectGitDir(request.server.burrow, project)
  if (!repoExists(gitDir)) return false
  try {
    return (await resolveCommit(gitDir, rev)) !== null
  } catch (error) {
    if (error instanceof GitError) return false
    throw error
  }
}

const environmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.burrow.db

  app.get(
    '/projects/:id/environments',
    {
      schema: {
        params: IdParams,
        querystring: ListQuery,
        response: { 200: Type.Array(Api.Environment) },
      },
    },
    async (request, reply) => {
      const project = projectFor(request, request.params.id, READ)
      const q = request.query
      if (q.name !== undefined && q.search !== undefined) throw paramError('name, search cannot be used together')
      if (q.search !== undefined && q.search !== '' && q.search.length < MIN_SEARCH_LENGTH)
        throw badRequest(`Search query is less than ${MIN_SEARCH_LENGTH} characters`)
      const page = pageOf(q as Record<string, unknown>)
      const { rows, total } = listEnvironments(
        db,
        { projectId: project.id, name: q.name, search: q.search || undefined, states: q.states },
        { limit: page.perPage, offset: page.offset },
      )
      setPageHeaders(request, reply, app.burrow.baseUrl(request), page, total)
      return rows.map(environmentEntity)
    },
  )

  app.get(
    '/projects/:id/environments/:environment_id',
    { schema: { params: EnvParams, response: { 200: Api.EnvironmentDetail } } },
    async (request) => {
      const project = projectFor(request, request.params.id, READ)
      return presentEnvironmentDetail(callerOf(request), environmentOf(request, project, request.params.environment_id))
    },
  )

  app.post(
    '/projects/:id/environments',
    { schema: { params: IdParams, body: CreateBody, response: { 201: Api.Environment } } },
    async (request, reply) => {
      const project = projectFor(request, request.params.id, WRITE)
      refuseSlug(request.body)
      const env = validated(() => createEnvironment(callerOf(request), project, request.body))
      return reply.code(201).send(environmentEntity(env))
    },
  )

  app.put(
    '/projects/:id/environments/:environment_id',
    { schema: { params: EnvParams, body: UpdateBody, response: { 200: Api.Environment } } },
    async (request) => {
      const project = projectFor(request, request.params.id, WRITE)
      const env = environmentOf(request, project, request.params.environment_id)
      refuseSlug(request.body)
      return environmentEntity(
        validated(() => updateEnvironmentAttributes(callerOf(request), project, env, request.body)),
      )
    },
  )

  app.delete(
    '/projects/:id/environments/review_apps',
    {
      schema: {
        params: IdParams,
        querystring: ReviewAppsQuery,
        response: { 200: Api.ReviewAppsDeletion },
      },
    },
    async (request) => {
      const project = projectFor(request, request.params.id, READ)
      const q = request.query
      const before = timeParam('before', q.before) ?? new Date(Date.now() - 30 * DAY_MS).toISOString()
      const empty = { scheduled_entries: [], unprocessable_entries: [] }
      if (!request.perms.canInProject(project, WRITE)) {
        throw new ApiError(401, {
          message: { ...empty, message: 'You do not have permission to destroy environments in this project' },
        })
      }
      const result = scheduleReviewAppsDeletion(callerOf(request), project, {
        before,
        limit: q.limit ?? 100,
        dryRun: q.dry_run ?? true,
      })
      const body = {
        scheduled_entries: result.scheduled.map(environmentBasic),
        unprocessable_entries: result.unprocessable.map(environmentBasic),
      }
      // Nothing to delete is an empty answer (200), as the spec has it; a refusal is a review app the caller may not delete.
      if (result.unprocessable.length > 0) {
        throw apiMessage(400, {
          ...body,
          message:
            'No environments found for scheduled deletion. Either your query did not match any environments (default parameters match environments that are 30 days or older), or you have insufficient permissions to delete matching environments.',
        })
      }
      return body
    },
  )

  app.delete(
    '/projects/:id/environments/:environment_id',
    { schema: { params: EnvParams } },
    async (request, reply) => {
      const project = projectFor(request, request.params.id, READ)
      const env = environmentOf(request, project, request.params.environment_id)
      if (!canDeployToEnvironment(db, request.perms, project, env.name)) throw forbidden()
      destroyEnvironment(callerOf(request), project, env)
      return reply.code(204).send()
    },
  )

  app.post(
    '/projects/:id/environments/:environment_id/stop',
    { schema: { params: EnvParams, body: StopBody, response: { 200: Api.Environment } } },
    async (request, reply) => {
      const project = projectFor(request, request.params.id, READ)
      const env = environmentOf(request, project, request.params.environment_id)
      if (!canDeployToEnvironment(db, request.perms, project, env.name)) throw forbidden()
      return reply
        .code(200)
        .send(environmentEntity(await stopEnvironment(callerOf(request), project, env, request.body.force === true)))
    },
  )
}

/** GitLab's Deployments API: what a CI job records, also writable for deployments made elsewhere. */
const deploymentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.burrow.db

  const deploymentOf = (project: ProjectRow, id: number): DeploymentRow => {
    const deployment = findDeployment(db, project.id, id)
    if (!deployment) throw notFound('Deployment')
    return deployment
  }

  app.get(
    '/projects/:id/deployments',
    {
      schema: {
        params: IdParams,
        querystring: DeploymentListQuery,
        response: { 200: Type.Array(Api.Deployment) },
      },
    },
    async (request, reply) => {
      const project = projectFor(request, request.params.id, READ)
      const q = request.query
      let environmentId: number | undefined
      if (q.environment !== undefined) {
        const env = findEnvironmentByName(db, project.id, q.environment)
        environmentId = env ? env.id : -1
      }
      const page = pageOf(q as Record<string, unknown>)
      const { rows, total } = listDeployments(
        db,
        {
          projectId: project.id,
          environmentId,
          status: q.status,
          updatedAfter: timeParam('updated_after', q.updated_after),
          updatedBefore: timeParam('updated_before', q.updated_before),
          finishedAfter: timeParam('finished_after', q.finished_after),
          finishedBefore: timeParam('finished_before', q.finished_before),
        },
        { by: q.order_by ?? 'id', sort: q.sort ?? 'asc' },
        { limit: page.perPage, offset: page.offset },
      )
      setPageHeaders(request, reply, app.burrow.baseUrl(request), page, total)
      return presentDeployments(callerOf(request), rows)
    },
  )

  app.get(
    '/projects/:id/deployments/:deployment_id',
    { schema: { params: DeploymentParams, response: { 200: Api.Deployment } } },
    async (request) => {
      const project = projectFor(request, request.params.id, READ)
      return presentDeployments(callerOf(request), [deploymentOf(project, request.params.deployment_id)])[0]
    },
  )

  app.post(
    '/projects/:id/deployments',
    { schema: { params: IdParams, body: DeploymentCreateBody, response: { 201: Api.Deployment } } },
    async (request, reply) => {
      const user = currentUser(request)
      const project = projectFor(request, request.params.id, WRITE)
      const body = request.body
      if (!canDeployToEnvironment(db, request.perms, project, body.environment)) throw forbidden()
      const errors: Record<string, string[]> = {}
      if (!(await commitExists(request, project, body.sha))) errors.sha = ['The commit does not exist']
      if (!(await commitExists(request, project, body.ref))) errors.ref = ['The branch or tag does not exist']
      if (Object.keys(errors).length > 0) throw validationFailed(errors)
      const deployment = validated(() =>
        db.transaction(() => {
          const env = ensureEnvironment(db, project.id, body.environment)
          return createDeployment(db, {
            projectId: project.id,
            environmentId: env.id,
            ref: body.ref,
            sha: body.sha,
            tag: body.tag,
            userId: user.id,
            deployableId: null,
            status: body.status,
          })
        })(),
      )
      return reply.code(201).send(presentDeployments(callerOf(request), [deployment])[0])
    },
  )

  app.put(
    '/projects/:id/deployments/:deployment_id',
    {
      schema: {
        params: DeploymentParams,
        body: DeploymentUpdateBody,
        response: { 200: Api.Deployment },
      },
    },
    async (request) => {
      const project = projectFor(request, request.params.id, READ)
      const deployment = deploymentOf(project, request.params.deployment_id)
      const env = findEnvironment(db, project.id, deployment.environment_id)
      if (!env || !canDeployToEnvironment(db, request.perms, project, env.name)) throw forbidden()
      if (deployment.deployable_id !== null)
        throw forbidden('Deployments created using GitLab CI can not be updated using the API')
      return presentDeployments(callerOf(request), [updateDeploymentStatus(db, deployment.id, request.body.status)])[0]
    },
  )

  app.delete(
    '/projects/:id/deployments/:deployment_id',
    { schema: { params: DeploymentParams } },
    async (request, reply) => {
      const project = projectFor(request, request.params.id, AccessLevel.MAINTAINER)
      const deployment = deploymentOf(project, request.params.deployment_id)
      if (deployment.status === 'running') throw apiMessage(400, 'Cannot destroy running deployment')
      if (lastDeployments(db, [deployment.environment_id]).get(deployment.environment_id)?.id === deployment.id) {
        throw apiMessage(400, 'Deployment currently deployed to environment')
      }
      deleteDeployment(db, deployment.id)
      return reply.code(204).send()
    },
  )
}

/**
 * Project environments and deployments (GitLab's Environments and Deployments APIs). Registers
 * what CI does with environments: deployments follow jobs with an environment, jobs deploying to
 * a protected environment their user may not deploy to are refused, and CI learns the
 * environments' slugs, tiers and protections.
 */
const environments: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow
  onJobStatus(ctx, trackDeployment)
  onJobEnqueue(ctx, refuseProtectedDeployment)
  provideDeploymentTargets(ctx, environmentTargets)
  await app.register(environmentRoutes)
  await app.register(deploymentRoutes)
}

export default environments
