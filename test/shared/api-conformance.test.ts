/**
 * The wire model (src/shared/api) against what Burrow Server really answers: a server seeded with
 * the demo content, every GET route of the table called as an administrator and as a plain user
 * (a Developer of the project and its group), and the answers of the writes the fixtures make,
 * each checked strictly (an unnamed field is an error) against the table's schema.
 */
import type { LightMyRequestResponse } from 'fastify'
import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiErrorBody } from '../../src/shared/api/index'
import { seedInstance } from '../../src/server/seed/index'
import { makeServer, ROOT_TOKEN, type TestServer } from '../helpers/server'
import { ROUTES, type CheckedRoute, type RouteEntry, type SkippedRoute } from './api-route-schemas'

type Json = Record<string, unknown>
type World = Record<string, string | number>

const NOW = new Date('2025-06-02T09:30:00Z')
const API = '/api/v4'

const isChecked = (e: RouteEntry): e is CheckedRoute => 'schema' in e
const isSkipped = (e: RouteEntry): e is SkippedRoute => 'skip' in e
const CHECKED = ROUTES.filter(isChecked)
const READS = CHECKED.filter((e) => e.url !== undefined)
const WRITES = CHECKED.filter((e) => e.url === undefined)

function entryOf(route: string): CheckedRoute {
  const entry = CHECKED.find((e) => e.route === route)
  if (!entry) throw new Error(`no schema in the table for ${route}`)
  return entry
}

/** Each mismatch as `path: message (value)`, the unknown-property ones named once. */
function mismatches(schema: TSchema, value: unknown): string[] {
  const lines = new Set<string>()
  for (const e of Value.Errors(schema, value)) {
    if (e.keyword === 'boolean') continue
    const where = e.instancePath || '/'
    if (e.keyword === 'additionalProperties') lines.add(`${where}: unknown properties ${JSON.stringify(e.params.additionalProperties)}`)
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

function fill(url: string, world: World): string {
  return url.replace(/\{(\w+)\}/g, (_, key: string) => {
    if (!(key in world)) throw new Error(`the world has no ${key} (for ${url})`)
    return encodeURIComponent(String(world[key]))
  })
}

let server: TestServer
const world: World = {}
/** Tokens of the actors: the administrator and the plain user. */
const tokens = { admin: ROOT_TOKEN, user: '' }
/** The answers of the writes the fixtures made, by route. */
const writes = new Map<string, { readonly status: number; readonly body: unknown }>()

async function call(token: string | null, method: string, url: string, payload?: Json): Promise<LightMyRequestResponse> {
  return server.request(token, { method: method as 'GET', url: `${API}${url}`, ...(payload ? { payload } : {}) })
}

async function read(url: string, token: string = tokens.admin): Promise<Json & Json[]> {
  const res = await call(token, 'GET', url)
  if (res.statusCode !== 200) throw new Error(`setup: GET ${url} answered ${res.statusCode} ${res.body}`)
  return JSON.parse(res.body) as Json & Json[]
}

/** A write the fixtures need: its answer is kept for the table's check of `route`. */
async function write(route: string, url: string, payload: Json = {}, token = tokens.admin): Promise<Json> {
  entryOf(route)
  const method = route.split(' ')[0]
  const res = await call(token, method, url, payload)
  if (res.statusCode >= 300) throw new Error(`setup: ${method} ${url} answered ${res.statusCode} ${res.body}`)
  const body = JSON.parse(res.body) as Json
  writes.set(route, { status: res.statusCode, body })
  return body
}

/** A write that creates something: its id. */
async function created(route: string, url: string, payload: Json = {}, token?: string): Promise<number> {
  return (await write(route, url, payload, token)).id as number
}

const PAT_ROUTE = 'POST /users/:user_id/personal_access_tokens'
const SCOPES = ['api', 'read_user']

/** A new user made by the administrator, with a personal access token. */
async function newUser(username: string): Promise<{ readonly id: number; readonly token: string }> {
  const password = `${username}-Passw0rd-1`
  const id = await created('POST /users', '/users', { username, name: `${username} (conformance)`, email: `${username}@example.com`, password })
  const pat = await write(PAT_ROUTE, `/users/${id}/personal_access_tokens`, { name: 'conformance', scopes: SCOPES })
  return { id, token: pat.token as string }
}

/** Ids of what the demo seeded that the table's urls name. */
async function discover(): Promise<void> {
  world.project = 'kestrel/platform/dispatch-api'
  world.group = 'kestrel'
  const project = await read(`/projects/${encodeURIComponent(String(world.project))}`)
  world.projectId = project.id as number
  const p = `/projects/${world.projectId}`
  world.defaultBranch = project.default_branch as string
  world.user = ((await read('/users?username=jonas')) as Json[])[0].id as number

  const merged = (await read(`${p}/merge_requests?state=merged&per_page=100`)) as Json[]
  const closing = merged.map((mr) => /Closes #(\d+)/.exec(String(mr.description))).find((m) => m !== null)
  world.closedIssue = Number(closing?.[1])
  const opened = (await read(`${p}/merge_requests?state=opened&per_page=100`)) as Json[]
  for (const mr of opened) {
    if (((await read(`${p}/merge_requests/${mr.iid as number}/pipelines`)) as Json[]).length > 0) {
      world.pipelineMr = mr.iid as number
      break
    }
  }

  const groupMilestones = (await read('/groups/kestrel/milestones')) as Json[]
  world.groupMilestone = groupMilestones.find((m) => m.start_date !== null && m.due_date !== null)?.id as number
  world.groupLabel = ((await read('/groups/kestrel/labels')) as Json[])[0].id as number
  world.auditEvent = ((await read('/audit_events')) as Json[])[0].id as number
  world.groupAuditEvent = ((await read('/groups/kestrel/audit_events')) as Json[])[0].id as number

  const pipelines = (await read(`${p}/pipelines?status=success`)) as Json[]
  world.pipeline = pipelines[0].id as number
  world.job = ((await read(`${p}/jobs`)) as Json[])[0].id as number
  for (const runner of (await read('/runners/all')) as Json[]) {
    if (((await read(`/runners/${runner.id as number}/jobs`)) as Json[]).length > 0) {
      world.runner = runner.id as number
      break
    }
  }
  const environments = (await read(`${p}/environments`)) as Json[]
  world.environment = environments.find((e) => e.name === 'production')?.id as number
  world.deployment = ((await read(`${p}/deployments?environment=production`)) as Json[])[0].id as number
  world.protectedEnvironment = ((await read(`${p}/protected_environments`)) as Json[])[0].name as string
  world.vulnerability = ((await read(`${p}/vulnerabilities`)) as Json[])[0].id as number

  const domain = ((await read('/pages/domains')) as Json[])[0]
  world.pagesProject = domain.project_id as number
  world.pagesDomain = domain.domain as string
  for (const candidate of (await read('/projects?simple=true')) as Json[]) {
    const res = await call(tokens.admin, 'GET', `/projects/${candidate.id as number}/error_tracking/settings`)
    if (res.statusCode === 200) world.trackedProject = candidate.id as number
  }
  world.geoNode = ((await read('/geo_nodes')) as Json[])[0].id as number
  const move = ((await read('/project_repository_storage_moves')) as Json[])[0]
  world.projectMove = move.id as number
  world.movedProject = (move.project as Json).id as number

  world.tag = ((await read(`${p}/repository/tags`)) as Json[])[0].name as string
  world.commit = ((await read(`${p}/repository/branches/${world.defaultBranch}`)).commit as Json).id as string
  const blob = ((await read(`${p}/repository/tree`)) as Json[]).find((e) => e.type === 'blob') as Json
  world.blob = blob.id as string
  world.file = blob.path as string
}

/** What the demo lacks, made through the API: each write's answer is checked against the table too. */
async function makeFixtures(): Promise<void> {
  const p = `/projects/${world.projectId}`
  const g = '/groups/kestrel'

  // The plain user's token, a second one to rotate, an impersonation and a project access token.
  const pat = await write(PAT_ROUTE, `/users/${world.user}/personal_access_tokens`, { name: 'conformance', scopes: SCOPES })
  tokens.user = pat.token as string
  world.userToken = pat.id as number
  const spare = await write(PAT_ROUTE, `/users/${world.user}/personal_access_tokens`, { name: 'spare', scopes: SCOPES })
  await write('POST /personal_access_tokens/:id/rotate', `/personal_access_tokens/${spare.id as number}/rotate`)
  world.impersonationToken = await created('POST /users/:user_id/impersonation_tokens', `/users/${world.user}/impersonation_tokens`, {
    name: 'support',
    scopes: ['api'],
  })
  world.projectToken = await created('POST /projects/:id/access_tokens', `${p}/access_tokens`, { name: 'deploy bot', scopes: ['api'], access_level: 30 })

  // A newcomer who asks for access to the project and the group; a visitor admitted to the group.
  const newcomer = await newUser('newcomer')
  await write('PUT /users/:id', `/users/${newcomer.id}`, { bio: 'Joined for the conformance test.' })
  await write('POST /projects/:id/access_requests', `${p}/access_requests`, {}, newcomer.token)
  await write('POST /groups/:id/access_requests', `${g}/access_requests`, {}, newcomer.token)
  const visitor = await newUser('visitor')
  await write('POST /groups/:id/access_requests', `${g}/access_requests`, {}, visitor.token)
  await write('PUT /groups/:id/access_requests/:user_id/approve', `${g}/access_requests/${visitor.id}/approve`, { access_level: 20 })
  const kofi = ((await read('/users?username=kofi')) as Json[])[0].id as number
  await write('POST /projects/:id/members', `${p}/members`, { user_id: kofi, access_level: 20 })
  await write('PUT /projects/:id/members/:user_id', `${p}/members/${kofi}`, { access_level: 30 })
  world.member = kofi

  // Project settings, a star, labels and a milestone with dates.
  await write('PUT /projects/:id', p, { description: 'Dispatch API: jobs, visits and technicians.' })
  await write('POST /projects/:id/star', `${p}/star`, {}, tokens.user)
  world.projectLabel = await created('POST /projects/:id/labels', `${p}/labels`, { name: 'conformance', color: '#336699' })
  await write('PUT /projects/:id/labels/:label_id', `${p}/labels/${world.projectLabel}`, { description: 'Made by the conformance test' })
  world.projectMilestone = await created('POST /projects/:id/milestones', `${p}/milestones`, {
    title: 'Conformance',
    start_date: '2025-01-01',
    due_date: '2099-12-31',
  })

  // An issue with a label, a milestone, notes, a thread, award emoji, time and a to-do, then closed.
  const issue = await write('POST /projects/:id/issues', `${p}/issues`, {
    title: 'Check the wire model',
    labels: 'bug',
    description: '- [ ] one\n- [x] two',
  })
  world.issue = issue.iid as number
  world.issueId = issue.id as number
  const i = `${p}/issues/${world.issue}`
  await write('PUT /projects/:id/issues/:issue_iid', i, { add_labels: 'conformance', milestone_id: world.projectMilestone })
  await write('PUT /projects/:id/issues/:issue_iid', i, { state_event: 'close' })
  await write('POST /projects/:id/issues/:issue_iid/add_spent_time', `${i}/add_spent_time`, { duration: '1h' })
  await write('POST /projects/:id/issues/:issue_iid/time_estimate', `${i}/time_estimate`, { duration: '3h' })
  await write('POST /projects/:id/issues/:issue_iid/todo', `${i}/todo`)
  await noteableFixtures('/projects/:id/issues/:issue_iid', i, i, 'issue')

  // A branch with a commit, a tag, a protected branch rule and a merge request from it.
  await write('POST /projects/:id/repository/branches', `${p}/repository/branches`, { branch: 'conformance', ref: world.defaultBranch })
  await write('POST /projects/:id/repository/files/:file_path', `${p}/repository/files/${encodeURIComponent('docs/conformance.md')}`, {
    branch: 'conformance',
    content: '# Conformance\n',
    commit_message: 'Add the conformance note',
  })
  await write('POST /projects/:id/repository/commits', `${p}/repository/commits`, {
    branch: 'conformance',
    commit_message: 'Extend the conformance note',
    actions: [{ action: 'update', file_path: 'docs/conformance.md', content: '# Conformance\n\nChecked.\n' }],
  })
  const tag = { tag_name: 'conformance-1', ref: 'conformance', message: 'Conformance' }
  await write('POST /projects/:id/repository/tags', `${p}/repository/tags`, tag)
  await write('POST /projects/:id/protected_branches', `${p}/protected_branches`, { name: 'release/*' })
  const mr = await write('POST /projects/:id/merge_requests', `${p}/merge_requests`, {
    source_branch: 'conformance',
    target_branch: world.defaultBranch,
    title: 'Conformance note',
    description: `Closes #${world.issue}`,
  })
  world.mr = mr.iid as number
  const m = `${p}/merge_requests/${world.mr}`
  await write('PUT /projects/:id/merge_requests/:merge_request_iid', m, { add_labels: 'conformance', milestone_id: world.projectMilestone })
  await write('PUT /projects/:id/merge_requests/:merge_request_iid', m, { state_event: 'close' })
  await write('PUT /projects/:id/merge_requests/:merge_request_iid', m, { state_event: 'reopen' })
  await write('POST /projects/:id/merge_requests/:merge_request_iid/approve', `${m}/approve`, {}, tokens.user)
  await write('POST /projects/:id/merge_requests/:merge_request_iid/todo', `${m}/todo`)
  await noteableFixtures('/projects/:id/merge_requests/:merge_request_iid', m, m, 'mr')

  // An epic with a label, the issue, a child epic, notes and award emoji, then closed.
  const epic = await write('POST /groups/:id/epics', `${g}/epics`, { title: 'Wire model', labels: 'bug' })
  world.epic = epic.iid as number
  world.epicId = epic.id as number
  const e = `${g}/epics/${world.epic}`
  await write('PUT /groups/:id/epics/:epic_iid', e, { add_labels: 'customer' })
  await write('PUT /groups/:id/epics/:epic_iid', e, { state_event: 'close' })
  await write('POST /groups/:id/epics/:epic_iid/issues/:epic_issue_id', `${e}/issues/${world.issueId}`)
  await write('POST /groups/:id/epics/:epic_iid/epics', `${e}/epics`, { title: 'Wire model, part two' })
  await write('POST /groups/:id/epics/:epic_iid/todo', `${e}/todo`)
  await noteableFixtures('/groups/:id/epics/:epic_id', `${g}/epics/${world.epicId}`, e, 'epic', '/groups/:id/epics/:epic_iid')

  // A snippet with notes and award emoji.
  world.snippet = await created('POST /projects/:id/snippets', `${p}/snippets`, {
    title: 'Probe',
    file_name: 'probe.sh',
    content: 'echo ok\n',
    visibility: 'private',
  })
  const s = `${p}/snippets/${world.snippet}`
  await noteableFixtures('/projects/:id/snippets/:snippet_id', s, s, 'snippet')

  // CI/CD and operations.
  world.variable = (await write('POST /projects/:id/variables', `${p}/variables`, { key: 'CONFORMANCE', value: 'checked-value' })).key as string
  await write('POST /projects/:id/ci/lint', `${p}/ci/lint`, { content: 'test:\n  script: echo ok\n', include_jobs: true })
  await write('POST /ci/lint', '/ci/lint', { content: 'test:\n  script: echo ok\n', include_merged_yaml: true })
  await write('PUT /runners/:id', `/runners/${world.runner}`, { description: 'kestrel-deploy-1' })
  await write('POST /runners/reset_registration_token', '/runners/reset_registration_token')
  await write('POST /projects/:id/environments', `${p}/environments`, { name: 'conformance', external_url: 'https://conformance.example' })
  await write('DELETE /projects/:id/environments/review_apps', `${p}/environments/review_apps`)
  world.cluster = await created('POST /projects/:id/clusters/user', `${p}/clusters/user`, {
    name: 'conformance',
    platform_kubernetes_attributes: { api_url: 'https://kubernetes.example.com', token: 'conformance-token' },
  })
  const domain = { domain: 'conformance.kestrel.example' }
  await write('POST /projects/:id/pages/domains', `/projects/${world.pagesProject}/pages/domains`, domain)
  await write('POST /projects/:id/error_tracking/client_keys', `/projects/${world.trackedProject}/error_tracking/client_keys`)
  await write('PUT /application/settings', '/application/settings', { max_attachment_size: 100 })

  world.projectAuditEvent = ((await read(`${p}/audit_events`)) as Json[])[0].id as number
  const todo = ((await read('/todos')) as Json[])[0]
  await write('POST /todos/:id/mark_as_done', `/todos/${todo.id as number}/mark_as_done`)

  // Storage moves last: a move makes its repositories read-only while it runs.
  const destination = { destination_storage_name: 'archive' }
  world.snippetMove = await created('POST /snippets/:id/repository_storage_moves', `/snippets/${world.snippet}/repository_storage_moves`, destination)
  world.groupMove = await created('POST /groups/:id/repository_storage_moves', `${g}/repository_storage_moves`, destination)
}

/** A note, a thread with a reply, award emoji on the item and on the note; their ids go into the world. */
async function noteableFixtures(base: string, url: string, awardUrl: string, key: string, awardBase = base): Promise<void> {
  const note = await write(`POST ${base}/notes`, `${url}/notes`, { body: 'Looks right to me.' })
  world[`${key}Note`] = note.id as number
  await write(`PUT ${base}/notes/:note_id`, `${url}/notes/${note.id as number}`, { body: 'Looks right to me, checked twice.' })
  const thread = await write(`POST ${base}/discussions`, `${url}/discussions`, { body: 'Should the schema be stricter?' })
  world[`${key}Discussion`] = thread.id as string
  const replies = `${url}/discussions/${thread.id as string}/notes`
  await write(`POST ${base}/discussions/:discussion_id/notes`, replies, { body: 'It is strict already.' })
  world[`${key}Award`] = await created(`POST ${awardBase}/award_emoji`, `${awardUrl}/award_emoji`, { name: 'thumbsup' })
  const noteAwards = `${awardUrl}/notes/${note.id as number}/award_emoji`
  world[`${key}NoteAward`] = await created(`POST ${awardBase}/notes/:note_id/award_emoji`, noteAwards, { name: 'tada' })
}

/** Ids of the resource events the fixtures' writes recorded. */
async function discoverEvents(): Promise<void> {
  const items = [
    ['issue', `/projects/${world.projectId}/issues/${world.issue}`, ['label', 'milestone', 'state']],
    ['mr', `/projects/${world.projectId}/merge_requests/${world.mr}`, ['label', 'milestone', 'state']],
    ['epic', `/groups/kestrel/epics/${world.epicId}`, ['label', 'state']],
  ] as const
  for (const [key, url, kinds] of items) {
    for (const kind of kinds) {
      const events = (await read(`${url}/resource_${kind}_events`)) as Json[]
      world[`${key}${kind[0].toUpperCase()}${kind.slice(1)}Event`] = events[0].id as number
    }
  }
}

beforeAll(async () => {
  // A second storage, so the demo seeds a finished repository storage move and moves can be scheduled.
  server = await makeServer({ storages: ['default', 'archive'] })
  await seedInstance(server.app.burrow, { profile: 'demo', now: NOW })
  await discover()
  await makeFixtures()
  await discoverEvents()
}, 180_000)

afterAll(async () => {
  await server?.close()
})

describe('the route table', () => {
  it('names every GET route of the API, each checked or skipped with a reason', () => {
    const registered = registeredRoutes(server.app.printRoutes({ commonPrefix: false }))
    const named = ROUTES.map((e) => e.route)
    const missing = registered.filter((r) => r.method === 'GET' && !named.some((n) => matches(r, n)))
    expect(missing.map((r) => `${r.method} ${r.path}`)).toEqual([])
  })

  it('names only routes the server registers', () => {
    const registered = registeredRoutes(server.app.printRoutes({ commonPrefix: false }))
    const unknown = ROUTES.map((e) => e.route).filter((n) => !registered.some((r) => matches(r, n)))
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
    const url = fill(template, world)
    const res = await call(tokens[actor], 'GET', url)
    const body = JSON.parse(res.body) as unknown
    const what = `${actor} GET ${url} (${entry.route})`
    if (actor === 'user' && entry.userRefused) {
      expect(res.statusCode, `${what}: ${res.body}`).toBeGreaterThanOrEqual(400)
      expectConforms(what, ApiErrorBody, body)
      return
    }
    expect(res.statusCode, `${what}: ${res.body}`).toBe(200)
    expectConforms(what, entry.schema, body)
    // An empty list matches any item schema: it would prove nothing.
    if (actor === 'admin' && Array.isArray(body) && !entry.mayBeEmpty) expect(body.length, `${what} is empty`).toBeGreaterThan(0)
  })
})

describe('write answers', () => {
  it.each(WRITES.map((e) => [e.route, e] as const))('%s', (route, entry) => {
    const answer = writes.get(route)
    expect(answer, `the fixtures never called ${route}`).toBeDefined()
    expectConforms(`${route} (${answer?.status})`, entry.schema, answer?.body)
  })
})

/** A route as `printRoutes` shows it: a parameter shared by routes lists each name (`:a|:b`). */
interface RegisteredRoute {
  readonly method: string
  readonly path: string
}

/** The /api/v4 routes (HEAD left out) of Fastify's route tree, path below /api/v4. */
function registeredRoutes(tree: string): RegisteredRoute[] {
  const stack: string[] = []
  const out: RegisteredRoute[] = []
  for (const line of tree.split('\n')) {
    const m = /^(.*?)[├└]── (.*?)(?: \(([^)]*)\))?$/.exec(line)
    if (!m) continue
    stack.length = m[1].length / 4
    stack.push(m[2])
    const path = stack.join('')
    if (!m[3] || !path.startsWith(`${API}/`)) continue
    for (const method of m[3].split(', ')) if (method !== 'HEAD') out.push({ method, path: path.slice(API.length) })
  }
  return out
}

/** True when the table's `METHOD /path` is this registered route (a parameter matches any of its names). */
function matches(r: RegisteredRoute, named: string): boolean {
  const [method, path] = named.split(' ')
  if (method !== r.method) return false
  const want = path.split('/')
  const have = r.path.split('/')
  return want.length === have.length && want.every((seg, n) => seg === have[n] || (seg.startsWith(':') && have[n].split('|').includes(seg)))
}
