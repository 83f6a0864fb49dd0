import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { isRecord, type JsonObject } from '../../../shared/json'
import { authenticate } from '../../platform/auth/authenticate'
import { Permissions } from '../../platform/auth/permissions'
import type { ProjectRow, UserRow } from '../../platform/db/rows'
import { ApiError, badRequest, forbidden, notFound, unauthorized } from '../../platform/http/errors'
import { LEGACY_IDENTIFIER } from './entity'
import { jsonDepth } from './payload'
import { isAlertResponder } from './policy'
import type { HttpIntegrationRow } from './queries'
import { activeIntegration, projectAtPath, receiveAlertPayload, tokenMatches } from './service'

/** GitLab nests groups at most 20 deep: a project path has at most 21 segments. */
const MAX_PATH_SEGMENTS = 21
/** Gitlab::Utils::DeepSize's default depth limit for payloads. */
const MAX_PAYLOAD_DEPTH = 100

// The project path arrives as `p0`…`pN` (one route per depth), the alert's name and endpoint after it.
const PathParams = Type.Record(Type.String(), Type.String())
// Only a token in the query (`private_token`, `access_token`) is read from it.
const AnyQuery = Type.Record(Type.String(), Type.Unknown())

/** A notify request as its schema types it. */
type NotifyRequest = FastifyRequest<{
  Params: Record<string, string | undefined>
  Querystring: Record<string, unknown>
}>

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name]
  return Array.isArray(v) ? v[0] : v
}

/** The key a monitoring tool presents: `Authorization: Bearer <key>`, or Basic with a blank user. */
function presentedKey(request: FastifyRequest): string | null {
  const authorization = header(request, 'authorization')?.trim()
  if (!authorization) return null
  const bearer = /^Bearer\s+(.+)$/i.exec(authorization)
  if (bearer) return bearer[1].trim()
  const basic = /^Basic\s+(.+)$/i.exec(authorization)
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    return colon >= 0 ? decoded.slice(colon + 1) : null
  }
  return null
}

// A raw (unparsed) body is a Buffer, which is no payload object.
function isPlainObject(value: unknown): value is JsonObject {
  return isRecord(value) && !Buffer.isBuffer(value)
}

/** Bytes of the payload as sent (the Content-Length when given). */
function payloadBytes(request: FastifyRequest, body: unknown): number {
  const length = Number(header(request, 'content-length'))
  if (Number.isInteger(length) && length >= 0) return length
  return Buffer.byteLength(JSON.stringify(body))
}

/**
 * Checks who sends an alert: the monitoring tool holding the integration's key, or a signed-in
 * Developer (or above) sending a test alert with their own token. Anything else is 401/403.
 */
function assertMaySend(
  request: FastifyRequest,
  query: Readonly<Record<string, unknown>>,
  project: ProjectRow,
  integration: HttpIntegrationRow,
): void {
  const ctx = request.server.burrow
  const key = presentedKey(request)
  if (key !== null && tokenMatches(ctx, integration, key)) return
  let user: UserRow | null
  try {
    user = authenticate(ctx, request, query).user
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 401) throw unauthorized()
    throw error
  }
  if (!user) throw unauthorized()
  const perms = new Permissions(ctx.db, user)
  if (!perms.canReadProject(project) || !isAlertResponder(perms, project)) throw forbidden()
}

/**
 * GitLab's alert receiving endpoints, outside the API: `POST /{project}/alerts/notify/{name}/
 * {endpoint}.json` for an HTTP integration and `POST /{project}/alerts/notify.json` for the
 * legacy single endpoint. The body is the alert payload (JSON object). Checks run in GitLab's
 * order: payload size (400), an active integration (403), the key (401). Answers 200 with
 * `[{iid, title}]` of the alerts the payload created, grouped or resolved.
 */
const alertsNotify: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow

  const handler = async (request: NotifyRequest, reply: FastifyReply, endpoint: string): Promise<FastifyReply> => {
    const segments: string[] = []
    for (let i = 0; i < MAX_PATH_SEGMENTS; i += 1) {
      const segment = request.params[`p${i}`]
      if (segment !== undefined) segments.push(segment)
    }
    const project = projectAtPath(ctx, segments.join('/'))
    const type = String(header(request, 'content-type') ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase()
    if (type !== 'application/json')
      throw new ApiError(415, {
        message: '415 Unsupported Media Type - alert payloads are JSON (Content-Type: application/json)',
      })
    const body = request.body
    if (!isPlainObject(body)) throw badRequest('the alert payload must be a JSON object')
    if (
      payloadBytes(request, body) > ctx.settings.get('max_alert_payload_bytes') ||
      jsonDepth(body, MAX_PAYLOAD_DEPTH) > MAX_PAYLOAD_DEPTH
    ) {
      throw badRequest('Payload size exceeded')
    }
    const integration = activeIntegration(ctx, project, endpoint)
    assertMaySend(request, request.query, project, integration)
    const alerts = receiveAlertPayload(ctx, project, integration, body)
    return reply.code(200).send(alerts.map((a) => ({ iid: a.iid, title: a.title })))
  }

  // One route per project path depth: find-my-way parameters never span a '/', and these
  // parametric routes win over git smart HTTP's catch-all.
  const config = { ownAuthentication: true, scopes: [] as const }
  const schema = { params: PathParams, querystring: AnyQuery }
  for (let depth = 2; depth <= MAX_PATH_SEGMENTS; depth += 1) {
    const prefix = Array.from({ length: depth }, (_, i) => `/:p${i}`).join('')
    app.post(`${prefix}/alerts/notify/:name/:endpoint`, { config, schema }, async (request, reply) => {
      const endpoint = (request.params.endpoint ?? '').replace(/\.json$/, '')
      if (!/^[A-Za-z0-9]+$/.test(endpoint)) throw notFound()
      return handler(request, reply, endpoint)
    })
    app.post(`${prefix}/alerts/notify`, { config, schema }, async (request, reply) =>
      handler(request, reply, LEGACY_IDENTIFIER),
    )
    app.post(`${prefix}/alerts/notify.json`, { config, schema }, async (request, reply) =>
      handler(request, reply, LEGACY_IDENTIFIER),
    )
  }
}

export default alertsNotify
