import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { digestToken, generateToken } from '../../platform/auth/secrets'
import { findJobArtifact } from '../pipelines/artifacts-queries'
import { appendTrace, findJobById, readTrace, writeTrace, type JobRow } from '../pipelines/queries'
import { findRunnerByTokenDigest, touchRunner, updateRunnerRow, type RunnerInfo, type RunnerRow } from './queries'
import { ApiError, apiMessage, forbidden } from '../../platform/http/errors'
import { parseMultipartParts } from '../../platform/http/multipart'
import { DOWNLOAD, rawContentHeaders } from '../../platform/http/raw-content'
import { assignJob, finishJob } from '../pipelines/jobs'
import {
  ARTIFACT_FILE_FORMATS,
  ARTIFACT_FILE_TYPES,
  ArtifactError,
  readArtifactFile,
  storeArtifact,
} from '../pipelines/artifacts'
import { registerRunner, unregisterRunner } from './service'
import { NewRunnerParams, newRunnerAttributes } from './routes'

const Literals = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)))

const Info = Type.Optional(
  Type.Object(
    {
      name: Type.Optional(Type.String()),
      version: Type.Optional(Type.String()),
      revision: Type.Optional(Type.String()),
      platform: Type.Optional(Type.String()),
      architecture: Type.Optional(Type.String()),
      executor: Type.Optional(Type.String()),
    },
    { additionalProperties: true },
  ),
)

const TokenBody = Type.Object({ token: Type.String() })
const JobParams = Type.Object({ id: Type.Integer() })

const RegisterBody = Type.Object({ token: Type.String(), info: Info, ...NewRunnerParams })

const RequestBody = Type.Object({
  token: Type.String(),
  last_update: Type.Optional(Type.String()),
  info: Info,
  session: Type.Optional(Type.Object({}, { additionalProperties: true })),
  job_age: Type.Optional(Type.Integer()),
  system_id: Type.Optional(Type.String()),
})

const UpdateBody = Type.Object({
  token: Type.Optional(Type.String()),
  state: Type.Optional(Literals(['running', 'success', 'failed'] as const)),
  trace: Type.Optional(Type.String()),
  checksum: Type.Optional(Type.String()),
  failure_reason: Type.Optional(Type.String()),
  exit_code: Type.Optional(Type.Integer()),
  output: Type.Optional(Type.Object({}, { additionalProperties: true })),
  info: Info,
})

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name]
  return Array.isArray(v) ? v[0] : v
}

function runnerInfo(request: FastifyRequest, info: Readonly<Record<string, unknown>> | undefined): RunnerInfo {
  const text = (k: string): string | undefined => (typeof info?.[k] === 'string' ? (info[k] as string) : undefined)
  return {
    name: text('name'),
    version: text('version'),
    revision: text('revision'),
    platform: text('platform'),
    architecture: text('architecture'),
    executor: text('executor'),
    ip_address: request.ip,
  }
}

/** The runner whose authentication token was sent, or 403 (GitLab's authenticate_runner!). */
function authenticateRunner(request: FastifyRequest, token: string): RunnerRow {
  const runner = findRunnerByTokenDigest(request.server.burrow.db, digestToken(token))
  if (!runner) throw forbidden()
  return runner
}

/** The job token a request carries: the `token` parameter or the JOB-TOKEN header. */
function jobToken(request: FastifyRequest): string {
  const params = request.query as Record<string, unknown>
  const body = request.body as Record<string, unknown> | undefined
  const fromParams =
    typeof body?.token === 'string' ? body.token : typeof params.token === 'string' ? params.token : undefined
  return fromParams ?? header(request, 'job-token') ?? ''
}

/**
 * The job named by `:id` whose token was sent (GitLab's authenticate_job!): 403 for an unknown
 * job or a wrong token, and, when it must be running, 403 with a Job-Status header otherwise,
 * which tells the runner to stop.
 */
function authenticateJob(request: FastifyRequest, id: number, requireRunning = true): JobRow {
  const job = findJobById(request.server.burrow.db, id)
  const token = jobToken(request)
  if (!job || !job.token_digest || token === '' || digestToken(token) !== job.token_digest) throw forbidden()
  if (job.erased_at) throw forbidden('Job has been erased!')
  if (requireRunning && job.status !== 'running')
    throw new ApiError(403, { message: '403 Forbidden - Job is not running' }, { 'Job-Status': job.status })
  return job
}

/**
 * The API runners talk to: registration (`POST /runners` with a registration token), token
 * verification and reset, unregistration, and the job cycle — `POST /jobs/request`, `PUT
 * /jobs/:id`, `PATCH /jobs/:id/trace`, artifact upload and download.
 */
const runnerApi: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow

  app.post('/runners', { schema: { body: RegisterBody } }, async (request, reply) => {
    const b = request.body
    const registered = registerRunner(request, {
      ...newRunnerAttributes(b),
      token: b.token,
      info: runnerInfo(request, b.info),
    })
    if (!registered) throw forbidden()
    return reply.code(201).send({ id: registered.runner.id, token: registered.token, token_expires_at: null })
  })

  app.delete('/runners', { schema: { body: TokenBody } }, async (request, reply) => {
    const runner = authenticateRunner(request, request.body.token)
    unregisterRunner(request, runner)
    return reply.code(204).send()
  })

  app.post(
    '/runners/verify',
    { schema: { body: Type.Object({ token: Type.String(), system_id: Type.Optional(Type.String()) }) } },
    async (request, reply) => {
      const runner = authenticateRunner(request, request.body.token)
      touchRunner(ctx.db, runner.id, { ip_address: request.ip })
      return reply.code(200).send(200)
    },
  )

  app.post('/runners/reset_authentication_token', { schema: { body: TokenBody } }, async (request, reply) => {
    const runner = authenticateRunner(request, request.body.token)
    const token = generateToken('glrt-')
    updateRunnerRow(ctx.db, runner.id, { token_digest: digestToken(token) })
    return reply.code(201).send({ token, token_expires_at: null })
  })

  // Long polling is optional for runners: an empty answer comes at once, with the queue marker
  // the runner sends back as last_update.
  app.post('/jobs/request', { schema: { body: RequestBody } }, async (request, reply) => {
    const runner = authenticateRunner(request, request.body.token)
    const assigned = await assignJob(request, runner, runnerInfo(request, request.body.info))
    if (!assigned) return reply.code(204).header('X-GitLab-Last-Update', String(Date.now())).send()
    return reply.code(201).send(assigned.body)
  })

  app.put('/jobs/:id', { schema: { params: JobParams, body: UpdateBody } }, async (request, reply) => {
    const job = authenticateJob(request, request.params.id)
    if (job.runner_id !== null) touchRunner(ctx.db, job.runner_id, { ip_address: request.ip })
    const b = request.body
    // Runners before the incremental log API sent the whole log here.
    if (b.trace !== undefined) writeTrace(ctx.db, job.id, Buffer.from(b.trace, 'utf8'))
    const ok = await finishJob(request, job, { state: b.state, failureReason: b.failure_reason, exitCode: b.exit_code })
    if (!ok) {
      const now = findJobById(ctx.db, job.id) as JobRow
      throw new ApiError(403, { message: '403 Forbidden - Job is not running' }, { 'Job-Status': now.status })
    }
    return reply.code(200).header('X-GitLab-Trace-Update-Interval', '30').send(200)
  })

  app.patch('/jobs/:id/trace', { schema: { params: JobParams } }, async (request, reply) => {
    const job = authenticateJob(request, request.params.id)
    const range = header(request, 'content-range')
    if (range === undefined) throw apiMessage(400, '400 Missing header Content-Range')
    const body = Buffer.isBuffer(request.body)
      ? request.body
      : typeof request.body === 'string'
        ? Buffer.from(request.body)
        : Buffer.alloc(0)
    const size = readTrace(ctx.db, job.id)?.length ?? 0
    const m = /^(?:bytes )?(\d+)-(\d+)?/.exec(range)
    if (!m || Number(m[1]) !== size) {
      throw new ApiError(416, { message: '416 Range Not Satisfiable' }, { Range: `0-${size}` })
    }
    const newSize = body.length > 0 ? appendTrace(ctx.db, job.id, body) : size
    if (job.runner_id !== null) touchRunner(ctx.db, job.runner_id, { ip_address: request.ip })
    return reply
      .code(202)
      .headers({ 'Job-Status': job.status, Range: `0-${newSize}`, 'X-GitLab-Trace-Update-Interval': '30' })
      .send()
  })

  app.get('/jobs/:id/artifacts', { schema: { params: JobParams } }, async (request, reply) => {
    const db = ctx.db
    const job = findJobById(db, request.params.id)
    const token = jobToken(request)
    const presented =
      token === ''
        ? undefined
        : (db.prepare('SELECT * FROM ci_builds WHERE token_digest = ?').get(digestToken(token)) as JobRow | undefined)
    // The job's own token, or the token of a running job of the same pipeline downloading its dependencies.
    const allowed =
      job &&
      presented &&
      (presented.id === job.id || (presented.pipeline_id === job.pipeline_id && presented.status === 'running'))
    if (!job || !allowed) throw forbidden()
    const archive = findJobArtifact(db, job.id, 'archive')
    if (!archive) throw apiMessage(404, '404 Not Found')
    return rawContentHeaders(reply, archive.filename, DOWNLOAD).send(readArtifactFile(ctx, archive))
  })

  // Uploads are multipart with a binary file part: this plugin keeps the raw body and reads the
  // parts itself (the app's multipart parser turns files into text).
  const uploadRoutes: FastifyPluginAsyncTypebox = async (uploads) => {
    uploads.removeContentTypeParser('multipart/form-data')
    uploads.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (_req, body, done) => done(null, body))
    const UploadQuery = Type.Object({
      token: Type.Optional(Type.String()),
      artifact_type: Type.Optional(Literals(ARTIFACT_FILE_TYPES)),
      artifact_format: Type.Optional(Literals(ARTIFACT_FILE_FORMATS)),
      expire_in: Type.Optional(Type.String()),
    })
    uploads.post(
      '/jobs/:id/artifacts',
      { schema: { params: JobParams, querystring: UploadQuery } },
      async (request, reply) => {
        const parts = parseMultipartParts(request.headers['content-type'], request.body)
        if (!parts) throw apiMessage(400, '400 Bad request - file is missing')
        const field = (name: string): string | undefined => {
          const part = parts.find((p) => p.name === name && p.filename === null)
          return part ? part.content.toString('utf8') : undefined
        }
        // Multipart fields may carry what the query string did not.
        const q = request.query
        const token = q.token ?? field('token')
        if (token !== undefined) (request.query as Record<string, unknown>).token = token
        const job = authenticateJob(request, request.params.id)
        const file = parts.find((p) => p.name === 'file')
        if (!file) throw apiMessage(400, '400 Bad request - file is missing')
        const type = q.artifact_type ?? field('artifact_type') ?? 'archive'
        const format = q.artifact_format ?? field('artifact_format') ?? (type === 'archive' ? 'zip' : 'raw')
        if (!(ARTIFACT_FILE_TYPES as readonly string[]).includes(type))
          throw apiMessage(400, 'artifact_type does not have a valid value')
        if (!(ARTIFACT_FILE_FORMATS as readonly string[]).includes(format))
          throw apiMessage(400, 'artifact_format does not have a valid value')
        try {
          await storeArtifact(ctx, job, {
            fileType: type,
            fileFormat: format,
            filename: file.filename ?? (type === 'archive' ? 'artifacts.zip' : `${type}.json`),
            content: file.content,
            expireIn: q.expire_in ?? field('expire_in'),
          })
        } catch (error) {
          if (error instanceof ArtifactError) throw apiMessage(400, error.message)
          throw error
        }
        return reply.code(201).send(201)
      },
    )
  }
  await app.register(uploadRoutes)
}

export default runnerApi
