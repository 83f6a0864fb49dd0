/**
 * The wire model (src/shared/api) against what Burrow Server really answers: a server seeded with
 * the demo content, every GET route of the table called as an administrator and as a plain user
 * (a Developer of the project and its group), and the answers of the writes the fixtures make,
 * each checked strictly (an unnamed field is an error) against the table's schema.
 */
import Fastify, { type FastifyInstance } from 'fastify'
import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiErrorBody } from '../../src/shared/api/index'
import { seedInstance } from '../../src/server/seed/index'
import { responseSerializerCompiler } from '../../src/server/platform/http/serializer'
import { namesRoute, registeredRoutes, type PrintedRoute } from '../helpers/routes'
import { makeServer } from '../helpers/server'
import { ROUTES, type CheckedRoute, type RouteEntry, type SkippedRoute } from './api-route-schemas'
import { API, buildConformanceWorld, type ConformanceWorld, type WorldIds } from './conformance-world'

const NOW = new Date('2025-06-02T09:30:00Z')

const isChecked = (e: RouteEntry): e is CheckedRoute => 'schema' in e
const isSkipped = (e: RouteEntry): e is SkippedRoute => 'skip' in e
const CHECKED = ROUTES.filter(isChecked)
const READS = CHECKED.filter((e) => e.url !== undefined)
const WRITES = CHECKED.filter((e) => e.url === undefined)

/** Each mismatch as `path: message (value)`, the unknown-property ones named once. */
function mismatches(schema: TSchema, value: unknown): string[] {
  const lines = new Set<string>()
  for (const e of Value.Errors(schema, value)) {
    if (e.keyword === 'boolean') continue
    const where = e.instancePath || '/'
    if (e.keyword === 'additionalProperties')
      lines.add(`${where}: unknown properties ${JSON.stringify(e.params.additionalProperties)}`)
    else lines.add(`${where}: ${e.message} (got ${JSON.stringify(valueAt(value, e.instancePath))?.slice(0, 80)})`)
    if (lines.size >= 25) break
  }
  return [...lines]
}

/** The value a JSON pointer names. */
function valueAt(value: unknown, pointer: string): unknown {
  let current = value
  for (const part of pointer.split('/').slice(1)) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')]
  }
  return current
}

/** Fails with the route, the URL and every mismatch when `body` does not match `schema`. */
function expectConforms(what: string, schema: TSchema, body: unknown): void {
  if (Value.Check(schema, body)) return
  expect.fail(`${what} does not match its schema:\n  ${mismatches(schema, body).join('\n  ')}`)
}

/** A url template with its `{key}`s filled from the world. */
function fill(url: string, ids: WorldIds): string {
  return url.replace(/\{(\w+)\}/g, (_, key: string) => {
    if (ids[key] === undefined) throw new Error(`the world has no ${key} (for ${url})`)
    return encodeURIComponent(String(ids[key]))
  })
}

/**
 * A Fastify app whose route `/echo/<n>` answers the body it is sent, with the status it is told,
 * serialized as a route declaring entry n's schemas as `schema.response` is, with the server's
 * serializer compiler: what Fastify sends for a route declaring them.
 */
async function echoApp(entries: readonly CheckedRoute[]): Promise<FastifyInstance> {
  const app = Fastify()
  app.setSerializerCompiler(responseSerializerCompiler)
  entries.forEach((entry, n) => {
    const response = { '2xx': entry.schema, ...entry.others }
    app.post(`/echo/${n}`, { schema: { response } }, async (request, reply) => {
      const { status, body } = request.body as { status: number; body: unknown }
      return reply.code(status).send(body)
    })
  })
  await app.ready()
  return app
}

/** Fails when Fastify, serializing with the entry's schema, would send something else than the server did (a field dropped or coerced). */
async function expectSerializedAlike(what: string, entry: CheckedRoute, status: number, body: unknown): Promise<void> {
  const res = await echo.inject({ method: 'POST', url: `/echo/${CHECKED.indexOf(entry)}`, payload: { status, body } })
  expect(JSON.parse(res.body), `${what}, serialized with its schema`).toEqual(body)
}

let world: ConformanceWorld
let echo: FastifyInstance

beforeAll(async () => {
  // A second storage, so the demo seeds a finished repository storage move and moves can be scheduled.
  const server = await makeServer({ storages: ['default', 'archive'] })
  await seedInstance(server.app.burrow, { profile: 'demo', now: NOW })
  world = await buildConformanceWorld(server, (route) => WRITES.some((e) => e.route === route))
  echo = await echoApp(CHECKED)
}, 240_000)

afterAll(async () => {
  await echo?.close()
  await world?.server.close()
})

describe('the route table', () => {
  const apiRoutes = (): PrintedRoute[] =>
    registeredRoutes(world.server.app.printRoutes({ commonPrefix: false })).filter((r) => r.url.startsWith(`${API}/`))

  it('names every GET route of the API, each checked or skipped with a reason', () => {
    const named = ROUTES.map((e) => e.route)
    const missing = apiRoutes().filter((r) => r.method === 'GET' && !named.some((n) => namesRoute(n, r)))
    expect(missing.map((r) => `${r.method} ${r.url}`)).toEqual([])
  })

  it('names only routes the server registers', () => {
    const registered = apiRoutes()
    const unknown = ROUTES.map((e) => e.route).filter((n) => !registered.some((r) => namesRoute(n, r)))
    expect(unknown).toEqual([])
  })

  it('gives every skipped route a reason', () => {
    expect(ROUTES.filter(isSkipped).filter((e) => e.skip.trim() === '')).toEqual([])
  })
})

describe.each([
  ['an administrator', 'admin'],
  ['a plain user', 'user'],
] as const)('GET answers to %s', (_, actor) => {
  const calls = READS.flatMap((e) => [e.url ?? []].flat().map((url) => [`${e.route} (${url})`, e, url] as const))
  it.each(calls)('%s', async (_name, entry, template) => {
    const url = fill(template, world.ids)
    const res = await world.call(world.tokens[actor], 'GET', url)
    const body = JSON.parse(res.body) as unknown
    const what = `${actor} GET ${url} (${entry.route})`
    if (actor === 'user' && entry.userRefused) {
      expect(res.statusCode, `${what}: ${res.body}`).toBeGreaterThanOrEqual(400)
      expectConforms(what, ApiErrorBody, body)
      return
    }
    expect(res.statusCode, `${what}: ${res.body}`).toBe(200)
    expectConforms(what, entry.schema, body)
    await expectSerializedAlike(what, entry, res.statusCode, body)
    // An empty list matches any item schema: it would prove nothing.
    if (actor === 'admin' && Array.isArray(body) && !entry.mayBeEmpty)
      expect(body.length, `${what} is empty`).toBeGreaterThan(0)
  })
})

describe('write answers', () => {
  it.each(WRITES.map((e) => [e.route, e] as const))('%s', async (route, entry) => {
    const answers = world.writes.get(route) ?? []
    expect(answers.length, `the fixtures never called ${route}`).toBeGreaterThan(0)
    for (const answer of answers) {
      const what = `${route} (${answer.status} to ${answer.url})`
      expectConforms(what, entry.others?.[answer.status] ?? entry.schema, answer.body)
      await expectSerializedAlike(what, entry, answer.status, answer.body)
    }
  })

  it('covers every other status the table names', () => {
    const seen = (route: string, status: string): boolean =>
      (world.writes.get(route) ?? []).some((a) => String(a.status) === status)
    const missing = WRITES.flatMap((e) =>
      Object.keys(e.others ?? {})
        .filter((status) => !seen(e.route, status))
        .map((status) => `${e.route} ${status}`),
    )
    expect(missing).toEqual([])
  })
})
