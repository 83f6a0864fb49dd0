import { header, jobToken } from './common-routes'
import { callerOf } from '../../platform/caller'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { digestToken } from '../../platform/auth/secrets'
import { ApiError, apiMessage, forbidden } from '../../platform/http/errors'
import { parseMultipartParts } from '../../platform/http/multipart'
import { DOWNLOAD, rawContentHeaders } from '../../platform/http/raw-content'
import { authenticateRunner, runnerInfo, RunnerInfoParam, touchRunner } from '../runners'
import { findJobArtifact } from './artifacts-queries'
import { ARTIFACT_FILE_FORMATS, ARTIFACT_FILE_TYPES, ArtifactError, readArtifactFile, storeArtifact } from './artifacts'
import { assignJob, authenticateJob, finishJob } from './jobs'
import { appendTrace, findJobById, findJobByTokenDigest, readTrace, writeTrace, type JobRow } from './queries'

const Literals = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)))

const JobParams = Type.Object({ id: Type.Integer() })
const TokenQuery = Type.Object({ token: Type.Optional(Type.String()) })

const RequestBody = Type.Object({
  token: Type.String(),
  last_update: Type.Optional(Type.String()),
  info: RunnerInfoParam,
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
  info: RunnerInfoParam,
})

const UploadQuery = Type.Object({
  token: Type.Optional(Type.String()),
  artifact_type: Type.Optional(Literals(ARTIFACT_FILE_TYPES)),
  artifact_format: Type.Optional(Literals(ARTIFACT_FILE_FORMATS)),
  expire_in: Type.Optional(Type.String()),
})

/** A trace chunk as sent (`PATCH /jobs/:id/trace` bodies are raw bytes). */
function traceChunk(body: unknown): Buffer {
  if (Buffer.isBuffer(body)) return body
  return typeof body === 'string' ? Buffer.from(body) : Buffer.alloc(0)
}

/**
 * The job cycle of the API runners call: `POST /jobs/request`, `PUT /jobs/:id`, `PATCH
 * /jobs/:id/trace`, artifact upload and download. Runners register through the runners module.
 */
const runnerJobs: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow

  // Long polling is optional for runners: an empty answer comes at once, with the queue marker
  // the runner sends back as last_update.
  app.post('/jobs/request', { schema: { body: RequestBody } }, async (request, reply) => {
    const runner = authenticateRunner(ctx.db, request.body.token)
    const assigned = await assignJob(callerOf(request), runner, runnerInfo(request.ip, request.body.info))
    if (!assigned) return reply.code(204).header('X-GitLab-Last-Update', String(Date.now())).send()
    return reply.code(201).send(assigned.body)
  })

  app.put(
    '/jobs/:id',
    { schema: { params: JobParams, querystring: TokenQuery, body: UpdateBody } },
    async (request, reply) => {
      const b = request.body
      const job = authenticateJob(ctx.db, request.params.id, jobToken(request, b.token ?? request.query.token))
      if (job.runner_id !== null) touchRunner(ctx.db, job.runner_id, { ip_address: request.ip })
      // Runners before the incremental log API sent the whole log here.
      if (b.trace !== undefined) writeTrace(ctx.db, job.id, Buffer.from(b.trace, 'utf8'))
      const ok = await finishJob(callerOf(request), job, {
        state: b.state,
        failureReason: b.failure_reason,
        exitCode: b.exit_code,
      })
      if (!ok) {
        const now = findJobById(ctx.db, job.id) as JobRow
        throw new ApiError(403, { message: '403 Forbidden - Job is not running' }, { 'Job-Status': now.status })
      }
      return reply.code(200).header('X-GitLab-Trace-Update-Interval', '30').send(200)
    },
  )

  app.patch('/jobs/:id/trace', { schema: { params: JobParams, querystring: TokenQuery } }, async (request, reply) => {
    const job = authenticateJob(ctx.db, request.params.id, jobToken(request, request.query.token))
    const range = header(request, 'content-range')
    if (range === undefined) throw apiMessage(400, '400 Missing header Content-Range')
    const body = traceChunk(request.body)
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

  app.get('/jobs/:id/artifacts', { schema: { params: JobParams, querystring: TokenQuery } }, async (request, reply) => {
    const job = findJobById(ctx.db, request.params.id)
    const token = jobToken(request, request.query.token)
    const presented = token === '' ? undefined : findJobByTokenDigest(ctx.db, digestToken(token))
    // The job's own token, or the token of a running job of the same pipeline downloading its dependencies.
    const allowed =
      job &&
      presented &&
      (presented.id === job.id || (presented.pipeline_id === job.pipeline_id && presented.status === 'running'))
    if (!job || !allowed) throw forbidden()
    const archive = findJobArtifact(ctx.db, job.id, 'archive')
    if (!archive) throw apiMessage(404, '404 Not Found')
    return rawContentHeaders(reply, archive.filename, DOWNLOAD).send(readArtifactFile(ctx, archive))
  })

  // Uploads are multipart with a binary file part: this plugin keeps the raw body and reads the
  // parts itself (the app's multipart parser turns files into text).
  const uploadRoutes: FastifyPluginAsyncTypebox = async (uploads) => {
    uploads.removeContentTypeParser('multipart/form-data')
    uploads.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (_req, body, done) => done(null, body))
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
        const job = authenticateJob(ctx.db, request.params.id, jobToken(request, q.token ?? field('token')))
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

export default runnerJobs
