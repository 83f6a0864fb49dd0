/**
 * Every route the conformance table checks declares the table's schemas as its `schema.response`,
 * so Fastify serializes with what the conformance test proved the route answers (issue 8). Routes
 * not there yet are listed in UNDECLARED, which only shrinks: a listed route that declares its
 * schemas fails the test until it leaves the list.
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

/** Checked routes whose `schema.response` is still to be declared. */
const UNDECLARED = new Set<string>([
  'GET /events',
  'GET /projects/:id/events',
  'GET /users/:id/events',
  'GET /projects/:id/access_tokens',
  'POST /projects/:id/access_tokens',
  'POST /projects/:id/archive',
  'POST /projects/:id/unarchive',
  'POST /projects/:id/star',
  'POST /projects/:id/unstar',
  'GET /projects/:id/members',
  'GET /projects/:id/members/all',
  'GET /groups/:id/members',
  'GET /groups/:id/members/all',
  'POST /projects/:id/members',
  'POST /groups/:id/members',
  'GET /projects/:id/access_requests',
  'GET /groups/:id/access_requests',
  'POST /projects/:id/access_requests',
  'POST /groups/:id/access_requests',
  'GET /projects/:id/labels',
  'POST /projects/:id/labels',
  'GET /groups/:id/labels',
  'POST /groups/:id/labels',
  'POST /projects/:id/milestones',
  'GET /projects/:id/milestones/:milestone_id/issues',
  'GET /projects/:id/milestones/:milestone_id/merge_requests',
  'POST /groups/:id/milestones',
  'GET /groups/:id/milestones/:milestone_id/issues',
  'GET /groups/:id/milestones/:milestone_id/merge_requests',
  'POST /projects/:id/merge_requests/:merge_request_iid/subscribe',
  'POST /projects/:id/merge_requests/:merge_request_iid/unsubscribe',
  'GET /projects/:id/issues/:issue_iid/notes',
  'POST /projects/:id/issues/:issue_iid/notes',
  'GET /projects/:id/issues/:issue_iid/discussions',
  'POST /projects/:id/issues/:issue_iid/discussions',
  'GET /projects/:id/merge_requests/:merge_request_iid/notes',
  'POST /projects/:id/merge_requests/:merge_request_iid/notes',
  'GET /projects/:id/merge_requests/:merge_request_iid/discussions',
  'POST /projects/:id/merge_requests/:merge_request_iid/discussions',
  'GET /projects/:id/snippets/:snippet_id/notes',
  'POST /projects/:id/snippets/:snippet_id/notes',
  'GET /projects/:id/snippets/:snippet_id/discussions',
  'POST /projects/:id/snippets/:snippet_id/discussions',
  'GET /groups/:id/epics/:epic_id/notes',
  'POST /groups/:id/epics/:epic_id/notes',
  'GET /groups/:id/epics/:epic_id/discussions',
  'POST /groups/:id/epics/:epic_id/discussions',
  'GET /projects/:id/issues/:issue_iid/resource_label_events',
  'GET /projects/:id/issues/:issue_iid/resource_label_events/:event_id',
  'GET /projects/:id/issues/:issue_iid/resource_milestone_events',
  'GET /projects/:id/issues/:issue_iid/resource_milestone_events/:event_id',
  'GET /projects/:id/issues/:issue_iid/resource_state_events',
  'GET /projects/:id/issues/:issue_iid/resource_state_events/:event_id',
  'GET /projects/:id/merge_requests/:merge_request_iid/resource_label_events',
  'GET /projects/:id/merge_requests/:merge_request_iid/resource_label_events/:event_id',
  'GET /projects/:id/merge_requests/:merge_request_iid/resource_milestone_events',
  'GET /projects/:id/merge_requests/:merge_request_iid/resource_milestone_events/:event_id',
  'GET /projects/:id/merge_requests/:merge_request_iid/resource_state_events',
  'GET /projects/:id/merge_requests/:merge_request_iid/resource_state_events/:event_id',
  'GET /groups/:id/epics/:epic_id/resource_label_events',
  'GET /groups/:id/epics/:epic_id/resource_label_events/:event_id',
  'GET /groups/:id/epics/:epic_id/resource_state_events',
  'GET /groups/:id/epics/:epic_id/resource_state_events/:event_id',
  'GET /groups/:id/epics',
  'GET /groups/:id/-/epics',
  'POST /groups/:id/epics/:epic_iid/subscribe',
  'POST /groups/:id/epics/:epic_iid/unsubscribe',
  'GET /geo_nodes/status',
  'GET /geo_nodes/statuses',
  'GET /project_repository_storage_moves',
  'GET /project_repository_storage_moves/:repository_storage_move_id',
  'GET /projects/:id/repository_storage_moves',
  'GET /projects/:id/repository_storage_moves/:repository_storage_move_id',
  'POST /projects/:id/repository_storage_moves',
  'GET /snippet_repository_storage_moves',
  'GET /snippet_repository_storage_moves/:repository_storage_move_id',
  'GET /snippets/:id/repository_storage_moves',
  'GET /snippets/:id/repository_storage_moves/:repository_storage_move_id',
  'POST /snippets/:id/repository_storage_moves',
  'GET /group_repository_storage_moves',
  'GET /group_repository_storage_moves/:repository_storage_move_id',
  'GET /groups/:id/repository_storage_moves',
  'GET /groups/:id/repository_storage_moves/:repository_storage_move_id',
  'POST /groups/:id/repository_storage_moves',
  'GET /groups/:id/access_tokens',
  'POST /groups/:id/access_tokens',
  'GET /projects/:id/repository/commits/:sha/discussions',
  'POST /projects/:id/repository/commits/:sha/discussions',
])

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
    const wrong = checked
      .filter((e) => !UNDECLARED.has(e.route))
      .flatMap((e) => {
        const route = routeOf(e)
        const problem = route ? mismatch(e, route) : 'is not registered'
        return problem ? [`${e.route} ${problem}`] : []
      })
    expect(wrong).toEqual([])
  })

  it('are still to be declared only for the routes listed as such', () => {
    const declared = checked.filter((e) => UNDECLARED.has(e.route) && routeOf(e)?.response !== undefined)
    expect(declared.map((e) => `${e.route} declares a response: take it off UNDECLARED`)).toEqual([])
    const unknown = [...UNDECLARED].filter((name) => !checked.some((e) => e.route === name))
    expect(unknown).toEqual([])
  })
})
