/**
 * Every route the conformance table checks declares the table's schemas as its `schema.response`,
 * so Fastify serializes with what the conformance test proved the route answers (issue 8). A new
 * route of the table without its schemas fails here.
 */
import type { RouteOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { namesRoute } from '../helpers/routes'
import { makeServer, type TestServer } from '../helpers/server'
import { ROUTES, type CheckedRoute, type RouteEntry } from './api-route-schemas'

/** A route as the server registers it, with its response schemas by status. */
interface RegisteredRoute {
  readonly method: string
  readonly url: string
  readonly response: Readonly<Record<string, unknown>> | undefined
}

/** Every route the server registers, seen by an `onRoute` hook on each Fastify instance it makes. */
const registered = vi.hoisted((): RegisteredRoute[] => [])

vi.mock('fastify', async (importOriginal) => {
  const real = await importOriginal<typeof import('fastify')>()
  const recording = ((options?: Parameters<typeof real.default>[0]) => {
    const app = real.default(options)
    app.addHook('onRoute', (route: RouteOptions) => {
      const response = (route.schema as { response?: Record<string, unknown> } | undefined)?.response
      for (const method of [route.method].flat()) registered.push({ method, url: route.url, response })
    })
    return app
  }) as unknown as typeof real.default
  return { ...real, default: recording, fastify: recording }
})

const isChecked = (e: RouteEntry): e is CheckedRoute => 'schema' in e
const json = (schema: unknown): string => JSON.stringify(schema)

/** The statuses of `response` whose schema is `schema`, or the 2xx ones when none is given. */
function statusesOf(response: Readonly<Record<string, unknown>>, schema: unknown): string[] {
  return Object.keys(response).filter((status) => /^2/.test(status) && json(response[status]) === json(schema))
}

/** What is wrong with a route's declared response schemas against its table entry, or null when nothing is. */
function mismatch(entry: CheckedRoute, route: RegisteredRoute): string | null {
  const response = route.response
  if (!response) return 'declares no schema.response'
  if (statusesOf(response, entry.schema).length === 0)
    return `declares no 2xx response equal to the table's schema (has ${Object.keys(response).join(', ')})`
  for (const [status, schema] of Object.entries(entry.others ?? {}))
    if (json(response[status]) !== json(schema)) return `declares no ${status} response equal to the table's`
  return null
}

let server: TestServer
beforeAll(async () => {
  server = await makeServer()
  await server.app.ready()
})
afterAll(() => server?.close())

const routeOf = (entry: RouteEntry): RegisteredRoute | undefined =>
  registered.find((r) => r.url.startsWith('/api/v4/') && namesRoute(entry.route, r))

describe('response schemas of the routes the conformance table checks', () => {
  const checked = ROUTES.filter(isChecked)

  it('are declared, and are the table schemas', () => {
    const wrong = checked.flatMap((e) => {
      const route = routeOf(e)
      const problem = route ? mismatch(e, route) : 'is not registered'
      return problem ? [`${e.route} ${problem}`] : []
    })
    expect(wrong).toEqual([])
  })
})
