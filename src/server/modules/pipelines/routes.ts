import * as Api from '../../../shared/api/index'
import { TestReport, TestReportSummary } from '../../../shared/api/test-report'
import { pipelineTestReport, pipelineTestReportSummary } from './test-reports'
import { callerOf } from '../../platform/caller'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import {
  CI_STATUSES,
  PIPELINE_ORDERS,
  PIPELINE_SOURCES,
  deletePipelineRow,
  findProjectPipeline,
  latestPipelineFor,
  listJobs,
  listPipelines,
  mergeRequestSource,
  pipelineJobs,
  type PipelineFilter,
  type PipelineRow,
} from './queries'
import type { ProjectRow } from '../../platform/db/rows'
import { findUserByUsername } from '../users'
import { isValidRef } from '../../platform/git/git'
import { projectGitDir, repoExists } from '../../platform/git/project-repo'
import { resolveCommit } from '../../platform/git/refs'
import { notFound, validationFailed } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser } from '../../platform/http/resolve'
import { recordAudit } from '../audit-events'
import { jobScopes, loadBuildsProject } from './common-routes'
import { presentJobs, presentPipeline, presentPipelines } from './present'
import { projectFullPath } from './ci-context'
import { removeArtifactFiles } from './artifacts'
import {
  cancelPipeline,
  createPipeline,
  createPipelinesOnPush,
  pipelineInputVariables,
  retryPipeline,
  type PipelineVariable,
} from './service'
import { onPush } from '../../platform/git/push-listeners'

const Literals = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)))

const ProjectParams = Type.Object({ id: Type.String() })
const PipelineParams = Type.Object({ id: Type.String(), pipeline_id: Type.Integer() })
const MrParams = Type.Object({ id: Type.String(), merge_request_iid: Type.Integer() })
const PageQuery = Type.Object({ page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) })

const ListQuery = Type.Object({
  scope: Type.Optional(Literals(['running', 'pending', 'finished', 'branches', 'tags'] as const)),
  status: Type.Optional(Literals(CI_STATUSES)),
  ref: Type.Optional(Type.String()),
  sha: Type.Optional(Type.String()),
  yaml_errors: Type.Optional(Type.Boolean()),
  username: Type.Optional(Type.String()),
  updated_after: Type.Optional(Type.String({ format: 'date-time' })),
  updated_before: Type.Optional(Type.String({ format: 'date-time' })),
  created_after: Type.Optional(Type.String({ format: 'date-time' })),
  created_before: Type.Optional(Type.String({ format: 'date-time' })),
  order_by: Type.Optional(Literals(PIPELINE_ORDERS)),
  sort: Type.Optional(Literals(['asc', 'desc'] as const)),
  source: Type.Optional(Literals(PIPELINE_SOURCES)),
  name: Type.Optional(Type.String()),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})

const VariableInput = Type.Object({
  key: Type.String(),
  value: Type.String(),
  variable_type: Type.Optional(Literals(['env_var', 'file'] as const)),
})
const CreateBody = Type.Object({
  ref: Type.String(),
  variables: Type.Optional(Type.Array(VariableInput)),
})

/** No project has id 0 (ids start at 1): a pipeline filter on it lists nothing. */
const NO_PROJECT = 0

const JobsQuery = Type.Object({
  scope: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
  include_retried: Type.Optional(Type.Boolean()),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})

function loadPipeline(request: FastifyRequest, project: ProjectRow, id: number): PipelineRow {
  const pipeline = findProjectPipeline(request.server.burrow.db, project.id, id)
  if (!pipeline) throw notFound()
  return pipeline
}

function sendPipelines(
  request: FastifyRequest<{ Querystring: Static<typeof PageQuery> }>,
  reply: FastifyReply,
  filter: PipelineFilter,
): Api.PipelineBasic[] {
  const page = pageOf(request.query)
  const { rows, total } = listPipelines(request.server.burrow.db, filter, { limit: page.perPage, offset: page.offset })
  setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
  return presentPipelines(callerOf(request), rows)
}

/**
 * The Pipelines API (list with GitLab's filters, latest, one, create, retry, cancel, delete,
 * jobs, variables, a merge request's pipelines). Registers what makes pipelines happen: one per
 * pushed branch or tag with a CI configuration. Other modules follow pipelines and jobs through
 * ci-events (deployments, merges when a pipeline succeeds, security reports).
 */
const pipelines: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow
  onPush(ctx, createPipelinesOnPush)

  app.get(
    '/projects/:id/pipelines',
    {
      schema: {
        params: ProjectParams,
        querystring: ListQuery,
        response: { 200: Type.Array(Api.PipelineBasic) },
      },
    },
    async (request, reply) => {
      const project = loadBuildsProject(request, request.params.id)
      const q = request.query
      let userId: number | undefined
      if (q.username !== undefined) userId = findUserByUsername(ctx.db, q.username)?.id ?? -1
      return sendPipelines(request, reply, {
        projectId: project.id,
        scope: q.scope,
        status: q.status,
        ref: q.ref,
        sha: q.sha,
        yamlErrors: q.yaml_errors,
        userId,
        source: q.source,
        updatedAfter: q.updated_after,
        updatedBefore: q.updated_before,
        createdAfter: q.created_after,
        createdBefore: q.created_before,
        orderBy: q.order_by ?? 'id',
        sort: q.sort ?? 'desc',
      })
    },
  )

  app.get(
    '/projects/:id/pipelines/latest',
    {
      schema: {
        params: ProjectParams,
        querystring: Type.Object({ ref: Type.Optional(Type.String()) }),
        response: { 200: Api.Pipeline },
      },
    },
    async (request) => {
      const project = loadBuildsProject(request, request.params.id)
      const ref = request.query.ref ?? project.default_branch ?? 'main'
      const pipeline = latestPipelineFor(ctx.db, project.id, ref)
      if (!pipeline) throw notFound()
      return presentPipeline(callerOf(request), pipeline)
    },
  )

  app.get(
    '/projects/:id/pipelines/:pipeline_id',
    { schema: { params: PipelineParams, response: { 200: Api.Pipeline } } },
    async (request) => {
      const project = loadBuildsProject(request, request.params.id)
      return presentPipeline(callerOf(request), loadPipeline(request, project, request.params.pipeline_id))
    },
  )

  app.get(
    '/projects/:id/pipelines/:pipeline_id/test_report',
    { schema: { params: PipelineParams, response: { 200: TestReport } } },
    async (request) => {
      const project = loadBuildsProject(request, request.params.id)
      return pipelineTestReport(ctx, loadPipeline(request, project, request.params.pipeline_id))
    },
  )

  app.get(
    '/projects/:id/pipelines/:pipeline_id/test_report_summary',
    { schema: { params: PipelineParams, response: { 200: TestReportSummary } } },
    async (request) => {
      const project = loadBuildsProject(request, request.params.id)
      return pipelineTestReportSummary(ctx, loadPipeline(request, project, request.params.pipeline_id))
    },
  )

  app.post(
    '/projects/:id/pipeline',
    { schema: { params: ProjectParams, body: CreateBody, response: { 201: Api.Pipeline } } },
    async (request, reply) => {
      const user = currentUser(request)
      const project = loadBuildsProject(request, request.params.id, AccessLevel.DEVELOPER)
      const ref = request.body.ref
      const gitDir = projectGitDir(ctx, project)
      const exists = isValidRef(ref) && repoExists(gitDir)
      const branch = exists ? await resolveCommit(gitDir, `refs/heads/${ref}`).catch(() => null) : null
      const tag = exists && !branch ? await resolveCommit(gitDir, `refs/tags/${ref}`).catch(() => null) : null
      const sha = branch ?? tag
      if (!sha) throw validationFailed({ base: ['Reference not found'] })
      const variables: PipelineVariable[] = (request.body.variables ?? []).map((v) => ({
        key: v.key,
        value: v.value,
        variable_type: v.variable_type ?? 'env_var',
      }))
      const result = await createPipeline(ctx, {
        project,
        ref,
        tag: !branch,
        sha,
        source: 'api',
        user,
        variables,
        honourSkipCi: false,
        saveOnErrors: false,
        baseUrl: ctx.baseUrl(request),
        caller: callerOf(request),
      })
      if ('errors' in result) throw validationFailed({ base: [...result.errors] })
      return reply.code(201).send(presentPipeline(callerOf(request), result.pipeline))
    },
  )

  app.post(
    '/projects/:id/pipelines/:pipeline_id/retry',
    { schema: { params: PipelineParams, response: { 201: Api.Pipeline } } },
    async (request, reply) => {
      const user = currentUser(request)
      const project = loadBuildsProject(request, request.params.id, AccessLevel.DEVELOPER)
      const pipeline = loadPipeline(request, project, request.params.pipeline_id)
      return reply
        .code(201)
        .send(presentPipeline(callerOf(request), await retryPipeline(ctx, pipeline, user, callerOf(request))))
    },
  )

  app.post(
    '/projects/:id/pipelines/:pipeline_id/cancel',
    { schema: { params: PipelineParams, response: { 200: Api.Pipeline } } },
    async (request, reply) => {
      currentUser(request)
      const project = loadBuildsProject(request, request.params.id, AccessLevel.DEVELOPER)
      const pipeline = loadPipeline(request, project, request.params.pipeline_id)
      return reply
        .code(200)
        .send(presentPipeline(callerOf(request), await cancelPipeline(ctx, pipeline, callerOf(request))))
    },
  )

  app.delete('/projects/:id/pipelines/:pipeline_id', { schema: { params: PipelineParams } }, async (request, reply) => {
    currentUser(request)
    const project = loadBuildsProject(request, request.params.id, AccessLevel.OWNER)
    const pipeline = loadPipeline(request, project, request.params.pipeline_id)
    const jobs = pipelineJobs(ctx.db, pipeline.id)
    deletePipelineRow(ctx.db, pipeline.id)
    removeArtifactFiles(ctx, jobs)
    recordAudit(callerOf(request), {
      entityType: 'Project',
      entityId: project.id,
      entityPath: projectFullPath(ctx, project),
      targetId: pipeline.id,
      targetType: 'Ci::Pipeline',
      targetDetails: String(pipeline.id),
      change: {
        custom_message: `Deleted pipeline in ${pipeline.ref} with status ${pipeline.status} and SHA ${pipeline.sha}`,
      },
    })
    return reply.code(204).send()
  })

  app.get(
    '/projects/:id/pipelines/:pipeline_id/jobs',
    {
      schema: {
        params: PipelineParams,
        querystring: JobsQuery,
        response: { 200: Type.Array(Api.Job) },
      },
    },
    async (request, reply) => {
      const project = loadBuildsProject(request, request.params.id)
      const pipeline = loadPipeline(request, project, request.params.pipeline_id)
      const page = pageOf(request.query)
      const { rows, total } = listJobs(
        ctx.db,
        {
          pipelineId: pipeline.id,
          statuses: jobScopes(request.query.scope),
          includeRetried: request.query.include_retried === true,
          sort: 'asc',
        },
        { limit: page.perPage, offset: page.offset },
      )
      setPageHeaders(request, reply, ctx.baseUrl(request), page, total)
      return presentJobs(callerOf(request), rows)
    },
  )

  app.get(
    '/projects/:id/pipelines/:pipeline_id/variables',
    { schema: { params: PipelineParams, response: { 200: Type.Array(Api.PipelineVariable) } } },
    async (request) => {
      currentUser(request)
      const project = loadBuildsProject(request, request.params.id, AccessLevel.DEVELOPER)
      const pipeline = loadPipeline(request, project, request.params.pipeline_id)
      return pipelineInputVariables(request.server.burrow, pipeline).map((v) => ({
        variable_type: v.variable_type,
        key: v.key,
        value: v.value,
      }))
    },
  )

  app.get(
    '/projects/:id/merge_requests/:merge_request_iid/pipelines',
    {
      schema: {
        params: MrParams,
        querystring: PageQuery,
        response: { 200: Type.Array(Api.PipelineBasic) },
      },
    },
    async (request, reply) => {
      currentUser(request)
      const project = loadBuildsProject(request, request.params.id)
      const mr = mergeRequestSource(ctx.db, project.id, request.params.merge_request_iid)
      if (!mr) throw notFound('Merge Request')
      // A merge request whose source project was deleted has no pipelines left to list.
      return sendPipelines(request, reply, {
        projectId: mr.source_project_id ?? NO_PROJECT,
        ref: mr.source_branch,
        orderBy: 'id',
        sort: 'desc',
      })
    },
  )
}

export default pipelines
