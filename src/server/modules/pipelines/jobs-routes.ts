import * as Api from '../../../shared/api/index'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { findJobArtifact } from './artifacts-queries'
import {
  CI_STATUSES,
  deleteTrace,
  findProjectJob,
  latestSuccessfulJob,
  listJobs,
  readTrace,
  runnerJobProjectIds,
  updateJobRow,
  type JobRow,
} from './queries'
import { callerOf } from '../../platform/caller'
import { canReadRunner, loadRunner } from '../runners'
import type { ProjectRow } from '../../platform/db/rows'
import { apiMessage, forbidden, notFound, unauthorized } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { DOWNLOAD, rawContentHeaders } from '../../platform/http/raw-content'
import { currentUser } from '../../platform/http/resolve'
import { presentJobs, presentRunnerJobs } from './present'
import { runningJobOfToken } from './jobs'
import { deploymentTargets } from './ci-events'
import { eraseJobArtifacts, readArtifactFile } from './artifacts'
import { cancelJob, jobPlayable, jobRetryable, playJob, retryJob } from './service'
import { jobScopes, jobToken, loadBuildsProject } from './common-routes'

const ProjectParams = Type.Object({ id: Type.String() })
const JobTokenQuery = Type.Object({ job_token: Type.Optional(Type.String()) })
const JobParams = Type.Object({ id: Type.String(), job_id: Type.Integer() })
const RefParams = Type.Object({ id: Type.String(), ref_name: Type.String() })

const RunnerParams = Type.Object({ id: Type.Integer() })
const RunnerJobsQuery = Type.Object({
  status: Type.Optional(Type.Union(CI_STATUSES.map((s) => Type.Literal(s)))),
  order_by: Type.Optional(Type.Literal('id')),
  sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})

const ListQuery = Type.Object({
  scope: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})

function loadJob(request: FastifyRequest, project: ProjectRow, id: number): JobRow {
  const job = findProjectJob(request.server.burrow.db, project.id, id)
  if (!job) throw notFound()
  return job
}

/**
 * Cancelling, retrying and playing a job that deploys to a protected environment needs the right
 * to deploy there (GitLab's `update_build` is prevented otherwise): 403.
 */
function assertMayUpdateJob(request: FastifyRequest, project: ProjectRow, job: JobRow): void {
  const ctx = request.server.burrow
  if (job.environment && deploymentTargets(ctx).refuses(ctx.db, request.perms, project.id, job.environment))
    throw forbidden()
}

function sendArtifact(
  reply: import('fastify').FastifyReply,
  request: FastifyRequest,
  job: JobRow,
): Promise<unknown> | unknown {
  const archive = findJobArtifact(request.server.burrow.db, job.id, 'archive')
  if (!archive) throw notFound()
  return rawContentHeaders(reply, archive.filename, DOWNLOAD).send(readArtifactFile(request.server.burrow, archive))
}

/**
 * The Jobs API of a project (list, one job, its log, cancel, retry, play, erase and artifacts)
 * and the jobs a runner ran (`GET /runners/:id/jobs`).
 */
const jobs: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow

  app.get(
    '/runners/:id/jobs',
    {
      schema: {
        params: RunnerParams,
        querystring: RunnerJobsQuery,
        response: { 200: Type.Array(Api.RunnerJob) },
      },
    },
    async (request, reply) => {
      currentUser(request)
      const { perms, baseUrl } = callerOf(request)
      const { runner, projectIds } = loadRunner(ctx.db, request.params.id)
      if (!perms.isAdmin && !canReadRunner(perms, runner, projectIds)) throw forbidden('No access granted')
      if (!perms.isAdmin && runner.runner_type === 'instance_type') throw forbidden('No access granted')
      // Jobs are limited to projects where the caller is at least a Reporter (administrators see all).
      const visible = perms.isAdmin
        ? null
        : runnerJobProjectIds(ctx.db, runner.id).filter((id) => perms.canInProject({ id }, AccessLevel.REPORTER))
      const page = pageOf(request.query)
      const { rows, total } = listJobs(
        ctx.db,
        {
          runnerId: runner.id,
          projectIds: visible,
          statuses: request.query.status ? [request.query.status] : undefined,
          includeRetried: true,
          sort: request.query.sort ?? 'desc',
        },
        { limit: page.perPage, offset: page.offset },
      )
      setPageHeaders(request, reply, baseUrl, page, total)
      return presentRunnerJobs(callerOf(request), rows)
    },
  )

  app.get(
    '/projects/:id/jobs',
    {
      schema: {
        params: ProjectParams,
        querystring: ListQuery,
        response: { 200: Type.Array(Api.Job) },
      },
    },
    async (request, reply) => {
      currentUser(request)
      const project = loadBuildsProject(request, request.params.id)
      const page = pageOf(request.query)
      const { rows, total } = listJobs(
        ctx.db,
        { projectId: project.id, statuses: jobScopes(request.query.scope), includeRetried: true, sort: 'desc' },
        {
          limit: page.perPage,
          offset: page.offset,
        },
      )
      setPageHeaders(request, reply, ctx.baseUrl(request), page, total)
      return presentJobs(callerOf(request), rows)
    },
  )

  // GitLab's "Retrieve job for a job token": a running job's CI_JOB_TOKEN (the JOB-TOKEN header or
  // `job_token`) names it; a request authenticated otherwise has no job (404), an anonymous one or a
  // token of no running job is 401.
  app.get(
    '/job',
    { schema: { querystring: JobTokenQuery, response: { 200: Api.Job } }, config: { scopes: [] } },
    async (request) => {
      const token = jobToken(request, request.query.job_token)
      if (token === '' && request.actor.user) throw notFound('Job')
      const job = runningJobOfToken(ctx, token)
      if (!job) throw unauthorized()
      return presentJobs(callerOf(request), [job])[0]
    },
  )

  app.get(
    '/projects/:id/jobs/:job_id',
    { schema: { params: JobParams, response: { 200: Api.Job } } },
    async (request) => {
      currentUser(request)
      const project = loadBuildsProject(request, request.params.id)
      return presentJobs(callerOf(request), [loadJob(request, project, request.params.job_id)])[0]
    },
  )

  app.get('/projects/:id/jobs/:job_id/trace', { schema: { params: JobParams } }, async (request, reply) => {
    currentUser(request)
    const project = loadBuildsProject(request, request.params.id)
    const job = loadJob(request, project, request.params.job_id)
    return reply
      .header('Content-Type', 'text/plain')
      .header('Content-Disposition', `infile; filename="${job.id}.log"`)
      .send(readTrace(ctx.db, job.id) ?? Buffer.alloc(0))
  })

  app.post(
    '/projects/:id/jobs/:job_id/cancel',
    { schema: { params: JobParams, response: { 201: Api.Job } } },
    async (request, reply) => {
      currentUser(request)
      const project = loadBuildsProject(request, request.params.id, AccessLevel.DEVELOPER)
      const target = loadJob(request, project, request.params.job_id)
      assertMayUpdateJob(request, project, target)
      const job = await cancelJob(ctx, target, callerOf(request))
      return reply.code(201).send(presentJobs(callerOf(request), [job])[0])
    },
  )

  app.post(
    '/projects/:id/jobs/:job_id/retry',
    { schema: { params: JobParams, response: { 201: Api.Job } } },
    async (request, reply) => {
      const user = currentUser(request)
      const project = loadBuildsProject(request, request.params.id, AccessLevel.DEVELOPER)
      const job = loadJob(request, project, request.params.job_id)
      assertMayUpdateJob(request, project, job)
      if (!jobRetryable(job)) throw forbidden('Job is not retryable')
      return reply
        .code(201)
        .send(presentJobs(callerOf(request), [await retryJob(ctx, job, user, callerOf(request))])[0])
    },
  )

  app.post(
    '/projects/:id/jobs/:job_id/play',
    { schema: { params: JobParams, response: { 200: Api.Job } } },
    async (request, reply) => {
      const user = currentUser(request)
      const project = loadBuildsProject(request, request.params.id, AccessLevel.DEVELOPER)
      const job = loadJob(request, project, request.params.job_id)
      assertMayUpdateJob(request, project, job)
      if (!jobPlayable(job)) throw apiMessage(400, '400 Bad request - Unplayable Job')
      return reply.code(200).send(presentJobs(callerOf(request), [await playJob(ctx, job, user, callerOf(request))])[0])
    },
  )

  app.post(
    '/projects/:id/jobs/:job_id/erase',
    { schema: { params: JobParams, response: { 201: Api.Job } } },
    async (request, reply) => {
      currentUser(request)
      const project = loadBuildsProject(request, request.params.id, AccessLevel.MAINTAINER)
      const job = loadJob(request, project, request.params.job_id)
      if (!['success', 'failed', 'canceled'].includes(job.status) || job.erased_at)
        throw forbidden('Job is not erasable!')
      eraseJobArtifacts(ctx, job)
      deleteTrace(ctx.db, job.id)
      const erased = updateJobRow(ctx.db, job.id, { erased_at: new Date().toISOString(), artifacts_expire_at: null })
      return reply.code(201).send(presentJobs(callerOf(request), [erased])[0])
    },
  )

  app.get('/projects/:id/jobs/:job_id/artifacts', { schema: { params: JobParams } }, async (request, reply) => {
    const project = loadBuildsProject(request, request.params.id)
    return sendArtifact(reply, request, loadJob(request, project, request.params.job_id))
  })

  app.delete('/projects/:id/jobs/:job_id/artifacts', { schema: { params: JobParams } }, async (request, reply) => {
    currentUser(request)
    const project = loadBuildsProject(request, request.params.id, AccessLevel.MAINTAINER)
    const job = loadJob(request, project, request.params.job_id)
    // The log stays: GitLab deletes the artifacts, not the trace.
    eraseJobArtifacts(ctx, job, ['trace'])
    updateJobRow(ctx.db, job.id, { artifacts_expire_at: null })
    return reply.code(204).send()
  })

  app.get(
    '/projects/:id/jobs/artifacts/:ref_name/download',
    {
      schema: { params: RefParams, querystring: Type.Object({ job: Type.String() }) },
    },
    async (request, reply) => {
      const project = loadBuildsProject(request, request.params.id)
      // The newest successful job of that name on the ref.
      const row = latestSuccessfulJob(ctx.db, project.id, request.params.ref_name, request.query.job)
      if (!row) throw notFound()
      return sendArtifact(reply, request, row)
    },
  )
}

export default jobs
