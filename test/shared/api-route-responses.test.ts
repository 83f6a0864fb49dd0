/**
 * Every route the conformance table checks declares the table's schemas as its `schema.response`,
 * so Fastify serializes with what the conformance test proved the route answers (issue 8). A new
 * route of the table without its schemas fails here. Beyond the table, every /api/v4 route declares
 * a `schema.response` or is named in NO_JSON_BODY with why it answers no JSON, so a new JSON route
 * without a schema fails here too.
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

/** The /api/v4 routes (`METHOD /path` as registered) that answer no JSON, so declare no response schema, by why. */
const NO_JSON_BODY: Readonly<Record<string, readonly string[]>> = {
  '204, no body': [
    'DELETE /api/v4/projects/:id/share/:group_id',
    'DELETE /api/v4/groups/:id/share/:group_id',
    'DELETE /api/v4/groups/:id/members/:user_id',
    'DELETE /api/v4/projects/:id/members/:user_id',
    'DELETE /api/v4/groups/:id/access_requests/:user_id',
    'DELETE /api/v4/projects/:id/access_requests/:user_id',
    'DELETE /api/v4/groups/:id/billable_members/:user_id',
    'DELETE /api/v4/users/:id',
    'DELETE /api/v4/personal_access_tokens/self',
    'DELETE /api/v4/personal_access_tokens/:id',
    'DELETE /api/v4/users/:user_id/impersonation_tokens/:impersonation_token_id',
    'DELETE /api/v4/projects/:id/access_tokens/:token_id',
    'DELETE /api/v4/groups/:id/access_tokens/:token_id',
    'DELETE /api/v4/projects/:id/repository/tags/:tag_name',
    'DELETE /api/v4/projects/:id/repository/branches/:branch',
    'DELETE /api/v4/projects/:id/protected_branches/:name',
    'DELETE /api/v4/projects/:id/repository/files/:file_path',
    'DELETE /api/v4/groups/:id/labels/:label_id',
    'DELETE /api/v4/groups/:id/labels',
    'DELETE /api/v4/projects/:id/labels/:label_id',
    'DELETE /api/v4/projects/:id/labels',
    'DELETE /api/v4/projects/:id/milestones/:milestone_id',
    'DELETE /api/v4/groups/:id/milestones/:milestone_id',
    'DELETE /api/v4/projects/:id/issues/:issue_iid',
    'DELETE /api/v4/projects/:id/issues/:issue_iid/award_emoji/:award_id',
    'DELETE /api/v4/projects/:id/snippets/:snippet_id',
    'DELETE /api/v4/projects/:id/snippets/:snippet_id/award_emoji/:award_id',
    'DELETE /api/v4/projects/:id/issues/:issue_iid/discussions/:discussion_id/notes/:note_id',
    'DELETE /api/v4/projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id/notes/:note_id',
    'DELETE /api/v4/projects/:id/snippets/:snippet_id/discussions/:discussion_id/notes/:note_id',
    'DELETE /api/v4/groups/:id/epics/:epic_id/discussions/:discussion_id/notes/:note_id',
    'DELETE /api/v4/projects/:id/repository/commits/:sha/discussions/:discussion_id/notes/:note_id',
    'DELETE /api/v4/projects/:id/issues/:issue_iid/notes/:note_id',
    'DELETE /api/v4/projects/:id/issues/:issue_iid/notes/:note_id/award_emoji/:award_id',
    'DELETE /api/v4/projects/:id/merge_requests/:merge_request_iid/notes/:note_id',
    'DELETE /api/v4/projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji/:award_id',
    'DELETE /api/v4/projects/:id/snippets/:snippet_id/notes/:note_id',
    'DELETE /api/v4/projects/:id/snippets/:snippet_id/notes/:note_id/award_emoji/:award_id',
    'DELETE /api/v4/groups/:id/epics/:epic_id/notes/:note_id',
    'DELETE /api/v4/groups/:id/epics/:epic_iid/notes/:note_id/award_emoji/:award_id',
    'DELETE /api/v4/projects/:id/merge_requests/:merge_request_iid',
    'DELETE /api/v4/projects/:id/merge_requests/:merge_request_iid/award_emoji/:award_id',
    'DELETE /api/v4/groups/:id/epics/:epic_iid',
    'DELETE /api/v4/groups/:id/epics/:epic_iid/award_emoji/:award_id',
    'POST /api/v4/todos/mark_as_done',
    'DELETE /api/v4/projects/:id/environments/:environment_id',
    'DELETE /api/v4/projects/:id/deployments/:deployment_id',
    'DELETE /api/v4/projects/:id/protected_environments/:name',
    'DELETE /api/v4/projects/:id/clusters/:cluster_id',
    'DELETE /api/v4/projects/:id/pages/domains/:domain',
    'DELETE /api/v4/runners/:id',
    'DELETE /api/v4/projects/:id/runners/:runner_id',
    'DELETE /api/v4/projects/:id/pipelines/:pipeline_id',
    'DELETE /api/v4/projects/:id/pipeline_schedules/:pipeline_schedule_id',
    'DELETE /api/v4/projects/:id/jobs/:job_id/artifacts',
    'DELETE /api/v4/projects/:id/variables/:key',
    'DELETE /api/v4/geo_nodes/:id',
    'DELETE /api/v4/projects/:id/boards/:board_id',
    'DELETE /api/v4/projects/:id/boards/:board_id/lists/:list_id',
    'DELETE /api/v4/projects/:id/wikis/:slug',
    'DELETE /api/v4/projects/:id/badges/:badge_id',
    'DELETE /api/v4/groups/:id/badges/:badge_id',
    'DELETE /api/v4/groups/:id/variables/:key',
    'DELETE /api/v4/projects/:id/protected_tags/:name',
    'DELETE /api/v4/projects/:id/fork',
    'DELETE /api/v4/projects/:id/merge_requests/:merge_request_iid/draft_notes/:draft_note_id',
    'PUT /api/v4/projects/:id/merge_requests/:merge_request_iid/draft_notes/:draft_note_id/publish',
    'POST /api/v4/projects/:id/merge_requests/:merge_request_iid/draft_notes/bulk_publish',
    'DELETE /api/v4/projects/:id/hooks/:hook_id',
    'PUT /api/v4/projects/:id/hooks/:hook_id/url_variables/:key',
    'DELETE /api/v4/projects/:id/hooks/:hook_id/url_variables/:key',
    'PUT /api/v4/projects/:id/hooks/:hook_id/custom_headers/:key',
    'DELETE /api/v4/projects/:id/hooks/:hook_id/custom_headers/:key',
    'DELETE /api/v4/groups/:id/hooks/:hook_id',
    'PUT /api/v4/groups/:id/hooks/:hook_id/url_variables/:key',
    'DELETE /api/v4/groups/:id/hooks/:hook_id/url_variables/:key',
    'PUT /api/v4/groups/:id/hooks/:hook_id/custom_headers/:key',
    'DELETE /api/v4/groups/:id/hooks/:hook_id/custom_headers/:key',
    'DELETE /api/v4/hooks/:hook_id',
    'PUT /api/v4/hooks/:hook_id/url_variables/:key',
    'DELETE /api/v4/hooks/:hook_id/url_variables/:key',
    'PUT /api/v4/hooks/:hook_id/custom_headers/:key',
    'DELETE /api/v4/hooks/:hook_id/custom_headers/:key',
  ],
  'commits the changelog to its branch and answers 200 with no body, like GitLab': [
    'POST /api/v4/projects/:id/repository/changelog',
  ],
  'raw or binary content (file, archive, trace, artifacts)': [
    'GET /api/v4/projects/:id/repository/blobs/:sha/raw',
    'GET /api/v4/projects/:id/repository/archive',
    'GET /api/v4/projects/:id/repository/archive.:format',
    'GET /api/v4/projects/:id/repository/files/:file_path/raw',
    'GET /api/v4/projects/:id/snippets/:snippet_id/raw',
    'GET /api/v4/projects/:id/jobs/:job_id/trace',
    'GET /api/v4/projects/:id/jobs/:job_id/artifacts',
    'GET /api/v4/projects/:id/jobs/artifacts/:ref_name/download',
    'GET /api/v4/projects/:id/releases/:tag_name/downloads/*',
  ],
  'a redirect to the latest release (and below it)': [
    'GET /api/v4/projects/:id/releases/permalink/latest',
    'GET /api/v4/projects/:id/releases/permalink/latest/*',
  ],
  'runner protocol, spoken by gitlab-runner (no REST v4 resource)': [
    'POST /api/v4/runners/verify',
    'DELETE /api/v4/runners',
    'POST /api/v4/jobs/request',
    'PUT /api/v4/jobs/:id',
    'PATCH /api/v4/jobs/:id/trace',
    'GET /api/v4/jobs/:id/artifacts',
    'POST /api/v4/jobs/:id/artifacts',
  ],
}

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

describe('response schemas of every /api/v4 route', () => {
  const exempt = new Set(Object.values(NO_JSON_BODY).flat())
  // HEAD twins of GET routes answer no body.
  const api = () => registered.filter((r) => r.url.startsWith('/api/v4/') && r.method !== 'HEAD')
  const named = (r: RegisteredRoute): string => `${r.method} ${r.url}`

  it('are declared, unless the route answers no JSON', () => {
    expect(
      api()
        .filter((r) => !r.response && !exempt.has(named(r)))
        .map(named),
    ).toEqual([])
  })

  it('exempt only registered routes that declare none', () => {
    const undeclared = new Set(
      api()
        .filter((r) => !r.response)
        .map(named),
    )
    expect([...exempt].filter((route) => !undeclared.has(route))).toEqual([])
  })
})
