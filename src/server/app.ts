import { join } from 'node:path'
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyRequest,
  type FastifySchemaValidationError,
} from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { ANONYMOUS, type Actor } from './platform/auth/actor'
import { secretBox } from './platform/auth/encryption'
import { acceptedScopes, authenticate, checkScopes } from './platform/auth/authenticate'
import { Permissions } from './platform/auth/permissions'
import { createContext, type ServerContext, type ServerOptions } from './platform/context'
import { openDatabase } from './platform/db/connection'
import type { UserRow } from './platform/db/rows'
import { ApiError, tooManyRequests } from './platform/http/errors'
import { stripJsonFormat } from './platform/http/format'
import { multipartFields, parseMultipartParts } from './platform/http/multipart'
import { parseParams, parseQuery, throwQueryError } from './platform/http/querystring'
import { exactJsonContentType, normaliseBooleans } from './platform/http/wire'
import { jsonEtag } from './platform/http/etag'
import { securityHeaders } from './platform/http/security-headers'
import { responseSerializerCompiler } from './platform/http/serializer'
import { RateLimiter } from './platform/http/rate-limit'
import { refuseWritesToArchivedProjects } from './platform/http/archived'
import { apiRoutes, fillRegistries } from './modules/index'
import { touchUserActivity } from './platform/db/platform-queries'
import oauthRoutes from './modules/tokens/oauth-routes'
import alertsNotify from './modules/alerts/routes'
import graphqlRoutes from './modules/graphql/routes'
import uploadRoutes from './modules/users/uploads-routes'
import smartHttp from './modules/git-http/routes'
import { firstRefusal } from './platform/git/push-policy'
import { onPush } from './platform/git/push-listeners'
import { recordPushEvents } from './modules/events'
import { protectedBranchPushPolicy } from './modules/branches'
import { protectedTagPushPolicy } from './modules/protected-tags'
import { ensureRootUser } from './modules/tokens'
import { startMaintenance } from './maintenance'
import { Settings } from './platform/settings'

export type { ServerOptions } from './platform/context'

/** `/not/labels/0` → `not[labels]`: the parameter name as the client wrote it. */
function paramName(instancePath: string, extra?: unknown): string {
  const parts = instancePath.split('/').filter((p) => p !== '' && !/^\d+$/.test(p))
  if (typeof extra === 'string') parts.push(extra)
  if (parts.length === 0) return 'params'
  return (
    parts[0] +
    parts
      .slice(1)
      .map((p) => `[${p}]`)
      .join('')
  )
}

/** Grape-style validation messages: `title is missing`, `state does not have a valid value`. */
function validationMessage(errors: readonly FastifySchemaValidationError[]): string {
  const seen = new Set<string>()
  for (const e of errors) {
    if (e.keyword === 'required') seen.add(`${paramName(e.instancePath, e.params.missingProperty)} is missing`)
    else if (e.keyword === 'enum' || e.keyword === 'const' || e.keyword === 'anyOf')
      seen.add(`${paramName(e.instancePath)} does not have a valid value`)
    else seen.add(`${paramName(e.instancePath)} is invalid`)
  }
  return [...seen].join(', ')
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}

/** Query and body merged (body wins), as Grape's `params`: clients send inputs either way. */
function mergedParams(request: FastifyRequest): Record<string, unknown> {
  const query = (request.query ?? {}) as Record<string, unknown>
  const body = request.body
  if (isPlainObject(body)) return { ...query, ...body }
  return { ...query }
}

/**
 * Builds a Burrow Server: a Fastify instance with the database open and migrated, every
 * route registered and nothing listening. Tests call `inject`; the CLI calls `listen`.
 */
export async function buildApp(options: ServerOptions): Promise<FastifyInstance> {
  fillRegistries()
  const db = openDatabase(options.dataDir)
  const secrets = secretBox(options.dataDir)
  const settings = new Settings(db, secrets, options.settings)
  const ctx: ServerContext = createContext(db, options, settings, secrets)
  if (options.rootToken) ensureRootUser(ctx, options.rootToken)

  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 16 * 1024 * 1024,
    rewriteUrl: (req) => stripJsonFormat(req.url ?? '/'),
    routerOptions: {
      querystringParser: (s: string) => parseQuery(s),
      ignoreTrailingSlash: true,
      maxParamLength: 1000,
    },
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, useDefaults: true, allErrors: true } },
    schemaErrorFormatter: (errors) => new Error(validationMessage(errors)),
  }).withTypeProvider<TypeBoxTypeProvider>()

  // Response schemas serialize through a copy fast-json-stringify needs no validators for (http/serializer.ts).
  app.setSerializerCompiler(responseSerializerCompiler)
  app.decorate('burrow', ctx)
  app.decorateRequest('actor', null as never)
  app.decorateRequest('perms', null as never)

  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8')
    if (text.trim() === '') return done(null, {})
    try {
      done(null, JSON.parse(text))
    } catch {
      done(new ApiError(400, { error: 'The request body is not valid JSON' }), undefined)
    }
  })
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseParams(typeof body === 'string' ? body : body.toString('utf8')))
    } catch (error) {
      done(error as ApiError, undefined)
    }
  })
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (req, body, done) => {
    let fields: Record<string, unknown> | null
    try {
      fields = multipartFields(req.headers['content-type'], body)
    } catch (error) {
      return done(error as ApiError, undefined)
    }
    if (!fields) return done(new ApiError(400, { error: 'The multipart body is malformed' }), undefined)
    // Fields become params as text; file parts are also kept as bytes for binary uploads (avatars).
    req.uploads = parseMultipartParts(req.headers['content-type'], body)?.filter((p) => p.filename !== null)
    done(null, fields)
  })
  // Bodies we do not interpret (git packs, uploads) reach their routes as buffers.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body))

  const limiter = new RateLimiter()
  /** Counts the request toward its user's or, unauthenticated, its address's limit; 429 past it. */
  const throttle = (request: FastifyRequest, user: UserRow | null): void => {
    const s = settings.all()
    const wait = user
      ? limiter.hit(
          `user:${user.id}`,
          s.throttle_authenticated_api_requests_per_period,
          s.throttle_authenticated_api_period_in_seconds,
        )
      : limiter.hit(
          `ip:${request.ip}`,
          s.throttle_unauthenticated_api_requests_per_period,
          s.throttle_unauthenticated_api_period_in_seconds,
        )
    if (wait > 0) throw tooManyRequests(wait)
  }
  app.addHook('onRequest', async (request) => {
    request.actor = ANONYMOUS
    request.perms = new Permissions(db, null)
    throwQueryError(request.query)
  })
  app.addHook('preValidation', async (request) => {
    const params = mergedParams(request)
    request.query = params
    // Raw bodies (git packs, uploads) stay as they are; structured ones become the merged params.
    if (request.body === undefined || request.body === null || isPlainObject(request.body)) {
      if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'DELETE') request.body = params
      else if (request.method === 'DELETE' && request.body !== undefined) request.body = params
    }
    await normaliseBooleans(request)
    let actor: Actor
    try {
      actor = request.routeOptions.config?.ownAuthentication ? ANONYMOUS : authenticate(ctx, request, params)
    } catch (error) {
      // A refused credential leaves the request unauthenticated: it counts as one, as in Rack::Attack.
      if (error instanceof ApiError && error.statusCode === 401) throttle(request, null)
      throw error
    }
    request.actor = actor
    request.perms = new Permissions(db, actor.user)
    throttle(request, actor.user)
    checkScopes(actor, acceptedScopes(request.method, request.routeOptions.config?.scopes))
    if (actor.user) {
      const today = new Date().toISOString().slice(0, 10)
      if (actor.user.last_activity_on !== today) touchUserActivity(db, actor.user.id, today)
    }
  })

  app.addHook('onSend', exactJsonContentType)
  // After the content type is settled: ETags and 304s for JSON GETs (GitLab's Rack::ETag).
  app.addHook('onSend', jsonEtag)
  // Last, so it sees the Cache-Control jsonEtag and the routes chose.
  app.addHook('onSend', securityHeaders)

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      reply.headers(error.headers)
      if (error.body === null) return reply.code(error.statusCode).send()
      return reply.code(error.statusCode).send(error.body)
    }
    if ((error as FastifyError).validation) return reply.code(400).send({ error: error.message })
    const status = (error as FastifyError).statusCode
    if (status !== undefined && status >= 400 && status < 500) return reply.code(status).send({ error: error.message })
    request.log.error(error)
    return reply.code(500).send({ message: '500 Internal Server Error' })
  })
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: '404 Not Found' }))

  onPush(ctx, recordPushEvents)
  await app.register(oauthRoutes)
  await app.register(alertsNotify)
  await app.register(graphqlRoutes)
  await app.register(uploadRoutes)
  await app.register(smartHttp, {
    hooksDir: join(options.dataDir, 'hooks'),
    pushPolicy: firstRefusal(
      protectedBranchPushPolicy(ctx, join(options.dataDir, 'hooks')),
      protectedTagPushPolicy(ctx),
    ),
  })
  await app.register(
    async (api) => {
      api.addHook('preHandler', refuseWritesToArchivedProjects)
      for (const plugin of apiRoutes) await api.register(plugin)
    },
    { prefix: '/api/v4' },
  )
  app.addHook('onClose', startMaintenance(ctx))
  app.addHook('onClose', async () => {
    db.close()
  })
  return app
}
