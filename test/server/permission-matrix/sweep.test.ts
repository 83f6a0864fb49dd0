import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { digestToken, generateToken } from '../../../src/server/platform/auth/secrets'
import { insertPersonalToken } from '../../../src/server/modules/tokens/queries'
import { buildFuzzWorld, validParam, type FuzzWorld } from '../../helpers/fuzz-world'
import { registeredRoutes, type PrintedRoute } from '../../helpers/routes'
import { makeServer, ROOT_TOKEN, seedUser, type TestServer } from '../../helpers/server'

// The sweep: every GET route the server registers (from Fastify's own route table), filled with
// objects that exist, called as each kind of caller; no answer may carry the marker of an item the
// caller may not see. Then every write route, called with credentials that may write nothing (a
// read_api token, an expired token, a blocked user) or on a project the caller cannot see, must be
// refused. The markers are words in titles, bodies and paths:
//
// - SECRETCONF: a confidential issue of the public project (title, description, notes), and a
//   confidential epic of its group: the issue's author, assignees and Reporters and up only.
// - SECRETINTERNALNOTE: an internal note on the public issue: Reporters and up.
// - SECRETMEMBERS / SECRETCODE: a public project whose features are all private to members: its
//   issues, wiki, snippets and milestones (Guests and up) and its merge requests and code
//   (Reporters and up).
// - secretinternal: an internal project: signed-in users.
// - secretprivate / SECRETLEFT: a private project in a private group nobody but root belongs to;
//   SECRETLEFT is an issue written there by a member who then left.
// - secretfork: a private fork of the public project in another private group.

type Json = Record<string, unknown>

const PARAM = /:[a-z_0-9]+(?:\|:[a-z_0-9]+)*/g

const MARKERS = [
  'SECRETCONF',
  'SECRETINTERNALNOTE',
  'SECRETMEMBERS',
  'SECRETCODE',
  'secretinternal',
  'secretprivate',
  'SECRETLEFT',
  'secretfork',
] as const
type Marker = (typeof MARKERS)[number]

const ACTORS = ['anonymous', 'outsider', 'leaver', 'guest', 'reporter', 'blocked', 'expired', 'admin'] as const
type Actor = (typeof ACTORS)[number]

const EVERYTHING: readonly Marker[] = MARKERS
const OUTSIDE: readonly Marker[] = MARKERS.filter((m) => m !== 'secretinternal')

/** What each caller must never read. */
const FORBIDDEN: Readonly<Record<Actor, readonly Marker[]>> = {
  anonymous: EVERYTHING,
  outsider: OUTSIDE,
  leaver: OUTSIDE,
  guest: ['SECRETCONF', 'SECRETINTERNALNOTE', 'SECRETCODE', 'secretprivate', 'SECRETLEFT', 'secretfork'],
  reporter: ['secretprivate', 'SECRETLEFT', 'secretfork'],
  blocked: EVERYTHING,
  expired: EVERYTHING,
  admin: [],
}

/** GET routes whose answer is not JSON about items (binary, redirects, the runner protocol). */
const SKIP_READ = /\/api\/v4\/(job|jobs\/request|runners\/verify)$|^\*$|\/:p([3-9]|\d\d)\//

interface SweepWorld {
  readonly fuzz: FuzzWorld
  readonly tokens: Readonly<Record<Actor, string | null>>
  readonly readApi: string
  /** Id overrides of each pass: the public project, its confidential issue, the members-only, private and forked projects. */
  readonly passes: ReadonlyArray<{ readonly name: string; readonly ids: Readonly<Record<string, string>> }>
  readonly confidentialIid: number
  readonly publicIid: string
  readonly projectId: string
}

let s: TestServer
let w: SweepWorld
let routes: PrintedRoute[]

async function build(server: TestServer): Promise<SweepWorld> {
  const fuzz = await buildFuzzWorld(server)
  const ids = fuzz.ids
  const call = async (method: string, url: string, payload?: Json, token: string = ROOT_TOKEN): Promise<Json> => {
    const res = await server.request(token, { method: method as 'POST', url: `/api/v4${url}`, payload })
    if (res.statusCode >= 300) throw new Error(`setup ${method} ${url} answered ${res.statusCode}: ${res.body}`)
    return (res.body ? JSON.parse(res.body) : {}) as Json
  }
  const outsider = seedUser(server, { username: 'sweep-outsider' })
  const leaver = seedUser(server, { username: 'sweep-leaver' })
  const guest = seedUser(server, { username: 'sweep-guest' })
  const reporter = seedUser(server, { username: 'sweep-reporter' })
  const blocked = seedUser(server, { username: 'sweep-blocked' })
  const readApi = seedUser(server, { username: 'sweep-read-api', admin: true, scopes: ['read_api'] })
  const expired = generateToken()
  insertPersonalToken(server.app.burrow.db, {
    userId: reporter.user.id,
    name: 'expired',
    digest: digestToken(expired),
    scopes: ['api'],
    expiresAt: '2020-01-01',
  })
  for (const [user, level] of [
    [guest, 10],
    [reporter, 20],
    [blocked, 20],
  ] as const)
    await call('POST', `/groups/${ids.group}/members`, { user_id: user.user.id, access_level: level })

  const p = `/projects/${ids.project}`
  const conf = await call('POST', `${p}/issues`, {
    title: 'SECRETCONF issue',
    description: `SECRETCONF body: see #${ids.issue}, @sweep-outsider @sweep-guest @sweep-leaver`,
    confidential: true,
  })
  const confNote = await call('POST', `${p}/issues/${String(conf.iid)}/notes`, {
    body: `SECRETCONF note on #${ids.issue} for @sweep-guest`,
  })
  await call('POST', `${p}/issues/${String(conf.iid)}/award_emoji`, { name: 'thumbsup' })
  await call('POST', `${p}/issues/${ids.issue}/links`, {
    target_project_id: ids.project,
    target_issue_iid: conf.iid,
  })
  await call('POST', `${p}/issues/${ids.issue}/notes`, { body: 'SECRETINTERNALNOTE about the issue', internal: true })
  await call('POST', `/groups/${ids.group}/epics`, { title: 'SECRETCONF epic', confidential: true })

  const members = await call('POST', '/projects', {
    name: 'membersonly',
    path: 'membersonly',
    namespace_id: ids.group,
    visibility: 'public',
    initialize_with_readme: true,
  })
  const m = `/projects/${String(members.id)}`
  await call('POST', `${m}/repository/commits`, {
    branch: 'feature',
    start_branch: 'main',
    commit_message: 'SECRETCODE commit',
    actions: [{ action: 'create', file_path: 'SECRETCODE.txt', content: 'SECRETCODE\n' }],
  })
  const membersIssue = await call('POST', `${m}/issues`, { title: 'SECRETMEMBERS issue', description: 'SECRETMEMBERS' })
  const membersMr = await call('POST', `${m}/merge_requests`, {
    source_branch: 'feature',
    target_branch: 'main',
    title: 'SECRETCODE merge request',
  })
  await call('POST', `${m}/wikis`, { title: 'SECRETMEMBERS page', content: 'SECRETMEMBERS' })
  await call('POST', `${m}/snippets`, {
    title: 'SECRETMEMBERS snippet',
    file_name: 'a.txt',
    content: 'SECRETMEMBERS',
    visibility: 'public',
  })
  await call('POST', `${m}/milestones`, { title: 'SECRETMEMBERS milestone' })
  await call('PUT', m, {
    issues_access_level: 'private',
    merge_requests_access_level: 'private',
    repository_access_level: 'private',
    wiki_access_level: 'private',
    snippets_access_level: 'private',
    builds_access_level: 'private',
  })

  await call('POST', '/projects', {
    name: 'secretinternal',
    path: 'secretinternal',
    namespace_id: ids.group,
    visibility: 'internal',
  })

  const hidden = await call('POST', '/groups', { name: 'secretprivate', path: 'secretprivate', visibility: 'private' })
  const priv = await call('POST', '/projects', {
    name: 'secretprivate-project',
    path: 'secretprivate-project',
    namespace_id: hidden.id,
    visibility: 'private',
    initialize_with_readme: true,
  })
  await call('POST', `/projects/${String(priv.id)}/members`, { user_id: leaver.user.id, access_level: 30 })
  await call(
    'POST',
    `/projects/${String(priv.id)}/issues`,
    { title: 'SECRETLEFT issue', description: 'SECRETLEFT' },
    leaver.token,
  )
  await call('POST', `/projects/${String(priv.id)}/issues/1/notes`, { body: 'SECRETLEFT note' }, leaver.token)
  await call('DELETE', `/projects/${String(priv.id)}/members/${leaver.user.id}`)

  const forkGroup = await call('POST', '/groups', { name: 'secretfork', path: 'secretfork', visibility: 'private' })
  const fork = await call('POST', `${p}/fork`, {
    namespace_id: forkGroup.id,
    name: 'secretfork',
    path: 'secretfork',
    visibility: 'private',
  })

  await call('POST', `/users/${blocked.user.id}/block`)

  const tokens: Record<Actor, string | null> = {
    anonymous: null,
    outsider: outsider.token,
    leaver: leaver.token,
    guest: guest.token,
    reporter: reporter.token,
    blocked: blocked.token,
    expired,
    admin: ROOT_TOKEN,
  }
  const passes: SweepWorld['passes'] = [
    { name: 'public project', ids: {} },
    {
      name: 'confidential issue',
      ids: { issue: String(conf.iid), issueId: String(conf.id), issueNote: String(confNote.id) },
    },
    {
      name: 'members-only features',
      ids: { project: String(members.id), issue: String(membersIssue.iid), mr: String(membersMr.iid) },
    },
    { name: 'private project', ids: { project: String(priv.id), group: String(hidden.id), issue: '1' } },
    { name: 'private fork', ids: { project: String(fork.id), group: String(forkGroup.id) } },
  ]
  return {
    fuzz,
    tokens,
    readApi: readApi.token,
    passes,
    confidentialIid: Number(conf.iid),
    publicIid: ids.issue,
    projectId: ids.project,
  }
}

function fill(route: PrintedRoute, ids: Readonly<Record<string, string>>): string {
  const world: FuzzWorld = { ...w.fuzz, ids: { ...w.fuzz.ids, ...ids } }
  return route.url.replace(PARAM, (token) =>
    encodeURIComponent(validParam(world, route.url, token.slice(1).replace(/\|:/g, '|'))),
  )
}

function send(token: string | null, method: string, url: string, payload?: Json): Promise<LightMyRequestResponse> {
  return s.request(token, { method: method as 'GET', url, ...(payload ? { payload } : {}) })
}

/** Lists that need a query to show anything across projects, with the markers' own words searched. */
const EXTRA_READS = [
  '/api/v4/issues?scope=all&per_page=100',
  '/api/v4/merge_requests?scope=all&per_page=100',
  '/api/v4/projects?per_page=100&search=secret',
  '/api/v4/events?per_page=100',
  ...['fuzz/secretinternal', 'secretprivate/secretprivate-project', 'secretfork/secretfork'].map(
    (path) => `/api/graphql?query=${encodeURIComponent(`{ project(fullPath: "${path}") { name fullPath } }`)}`,
  ),
  ...[
    'projects',
    'issues',
    'merge_requests',
    'milestones',
    'notes',
    'blobs',
    'commits',
    'wiki_blobs',
    'snippet_titles',
    'users',
  ].flatMap((scope) => [
    `/api/v4/search?scope=${scope}&search=secret&per_page=100`,
    `/api/v4/groups/{group}/search?scope=${scope}&search=secret&per_page=100`,
    `/api/v4/projects/{project}/search?scope=${scope}&search=secret&per_page=100`,
  ]),
]

beforeAll(async () => {
  // Refused credentials must not get 127.0.0.1 banned: every later call would meet a 429.
  s = await makeServer({ failedAuthBan: { enabled: false } })
  w = await build(s)
  routes = registeredRoutes(s.app.printRoutes({ commonPrefix: false }))
}, 180_000)
afterAll(async () => s?.close())

describe('the read sweep', () => {
  it('shows no caller a marker it may not see, in any GET route of the server', async () => {
    const reads = routes.filter((r) => r.method === 'GET' && r.url.startsWith('/api/') && !SKIP_READ.test(r.url))
    expect(reads.length).toBeGreaterThan(250)
    const leaks = new Set<string>()
    const seen = new Map<Actor, Set<string>>(ACTORS.map((a) => [a, new Set<string>()]))
    const swept = new Set<string>()
    for (const pass of w.passes) {
      const urls = [
        ...reads.map((r) => fill(r, pass.ids)),
        ...EXTRA_READS.map((u) =>
          u
            .replace('{group}', pass.ids.group ?? w.fuzz.ids.group)
            .replace('{project}', pass.ids.project ?? w.projectId),
        ),
      ]
      for (const url of urls) {
        // A route naming neither the project nor the group answers the same in every pass.
        if (swept.has(url)) continue
        swept.add(url)
        for (const actor of ACTORS) {
          const res = await send(w.tokens[actor], 'GET', url)
          const body = res.body.toLowerCase()
          for (const marker of MARKERS) {
            if (!body.includes(marker.toLowerCase())) continue
            seen.get(actor)?.add(marker)
            if (FORBIDDEN[actor].includes(marker))
              leaks.add(`${actor} reads ${marker} in GET ${url} (${res.statusCode})`)
          }
        }
      }
    }
    expect([...leaks].sort(), [...leaks].join('\n')).toEqual([])
    // The check can fail: each marker is somewhere the administrator reads.
    expect([...(seen.get('admin') ?? [])].sort()).toEqual([...MARKERS].sort())
    // …and the callers' credentials work: each reads what its role allows.
    expect([...(seen.get('outsider') ?? [])]).toEqual(['secretinternal'])
    expect([...(seen.get('guest') ?? [])].sort()).toEqual(['SECRETMEMBERS', 'secretinternal'])
    expect([...(seen.get('reporter') ?? [])].sort()).toEqual([
      'SECRETCODE',
      'SECRETCONF',
      'SECRETINTERNALNOTE',
      'SECRETMEMBERS',
      'secretinternal',
    ])
  }, 600_000)

  it('shows no system note of the public issue that names the confidential one to those who cannot read it', async () => {
    const url = `/api/v4/projects/${w.projectId}/issues/${w.publicIid}/notes?per_page=100`
    const names = (body: string): boolean =>
      (JSON.parse(body) as Array<{ body: string; system: boolean }>).some(
        (n) => n.system && n.body.includes(`#${w.confidentialIid}`),
      )
    expect(names((await send(ROOT_TOKEN, 'GET', url)).body)).toBe(true)
    for (const actor of ['anonymous', 'outsider', 'guest'] as const) {
      const res = await send(w.tokens[actor], 'GET', url)
      expect(res.statusCode).toBe(200)
      expect(names(res.body), `${actor}: ${res.body}`).toBe(false)
    }
  })
})

/** Writes that authenticate with something other than the caller's token, or only read. */
const NOT_CALLER_WRITES =
  /^\/api\/v4\/(runners(\/verify)?|runners\/reset_authentication_token|jobs\/request|jobs\/:id.*|projects\/:id\/alerts\/notify.*|projects\/:id\/(ref\/:ref\/)?trigger\/pipeline|ci\/lint|projects\/:id\/ci\/lint|markdown)$/

describe('the write sweep', () => {
  const writes = (): PrintedRoute[] =>
    routes.filter(
      (r) =>
        ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method) &&
        r.url.startsWith('/api/v4/') &&
        !NOT_CALLER_WRITES.test(r.url),
    )

  it.each([
    ['an administrator’s read_api token', 'readApi', [403]],
    ['an expired token', 'expired', [401]],
    ['a blocked user', 'blocked', [401, 403]],
  ] as const)(
    'refuses every write route to %s',
    async (_name, who, statuses) => {
      const token = who === 'readApi' ? w.readApi : w.tokens[who]
      const wrong: string[] = []
      for (const route of writes()) {
        const url = fill(route, {})
        const res = await send(token, route.method, url, {})
        if (!(statuses as readonly number[]).includes(res.statusCode))
          wrong.push(`${route.method} ${url} → ${res.statusCode} ${res.body.slice(0, 120)}`)
      }
      expect(wrong, wrong.join('\n')).toEqual([])
    },
    300_000,
  )

  it('answers an outsider writing to a private project or group as if it did not exist', async () => {
    // A write's body is checked before its project is looked up (400 for a missing field, as GitLab's
    // params block): what must not differ is the answer for a private project and for no project.
    const pass = w.passes.find((x) => x.name === 'private project')
    const wrong: string[] = []
    for (const route of writes().filter((r) => /^\/api\/v4\/(projects|groups)\/:id\//.test(r.url))) {
      const url = fill(route, pass?.ids ?? {})
      const res = await send(w.tokens.outsider, route.method, url, {})
      const none = await send(w.tokens.outsider, route.method, url.replace(/^(\/api\/v4\/\w+\/)\d+/, '$1999999'), {})
      if (
        res.statusCode !== none.statusCode ||
        (res.statusCode !== 404 && res.statusCode !== 400 && res.statusCode !== 403)
      )
        wrong.push(
          `${route.method} ${url} → ${res.statusCode} (no such project: ${none.statusCode}) ${res.body.slice(0, 120)}`,
        )
    }
    expect(wrong, wrong.join('\n')).toEqual([])
  }, 300_000)
})
