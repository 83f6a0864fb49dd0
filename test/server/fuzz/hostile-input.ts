import type { InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { digestToken, generateToken } from '../../../src/server/platform/auth/secrets'
import { insertPersonalToken } from '../../../src/server/modules/tokens/queries'
import { Random } from '../../../src/server/seed/random'
import { validParam, type FuzzServer, type FuzzWorld } from '../../helpers/fuzz-world'
import { registeredRoutes, type PrintedRoute } from '../../helpers/routes'
import type { TestServer } from '../../helpers/server'

// Every registered route, with hostile input in every place a client controls: path parameters
// (objects that exist and values that cannot), query parameters, JSON, form and broken bodies. The
// suite fails on any 5xx, listing route and input. Inputs are drawn from a generator with a fixed
// seed, so a run is repeatable; the draw per route is bounded so the whole suite stays near a
// minute on two cores. Requests go as an administrator, who gets past access checks to the code
// behind them; reads run first, then writes (those that take the project or the caller's token
// away — archiving, transfers, settings, rotations — last), then deletions, deepest routes first.

type Route = PrintedRoute

/** Path parameter tokens of a template: `:id`, `:epic_id|:epic_iid` (one node, two names). */
const PARAM = /:[a-z_0-9]+(?:\|:[a-z_0-9]+)*/g

const HUGE = 'x'.repeat(70_000)
const DEEP_OBJECT = JSON.parse('{"a":'.repeat(3000) + '1' + '}'.repeat(3000)) as unknown
const DEEP_ARRAY = JSON.parse('['.repeat(3000) + ']'.repeat(3000)) as unknown

/** Path segment values that name nothing, already URL-encoded. */
const BAD_SEGMENTS = [
  '0',
  '-1',
  '1e20',
  '99999999999999999999',
  '18446744073709551616',
  '1.5',
  'abc',
  'null',
  '%00',
  'a%00b',
  '%01%1F%7F',
  '..%2F..%2Fetc%2Fpasswd',
  '%2Fetc%2Fpasswd',
  '--upload-pack=touch%20%2Ftmp%2Fpwned',
  '-x',
  '%3A(glob)**',
  '%E2%80%AE',
  '%C0%AE',
  '%ZZ',
  'x'.repeat(999),
  '%20',
  '~1',
  '%5B%5D',
]

/** Values of the wrong kind for any parameter. */
const HOSTILE_VALUES: readonly unknown[] = [
  1e20,
  -1,
  2 ** 64,
  -(2 ** 63),
  1.5,
  0,
  '1e20',
  '-1',
  '99999999999999999999',
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0001\u001f\u007f',
  '../../etc/passwd',
  '/etc/passwd',
  '--upload-pack=touch /tmp/pwned',
  '-x',
  '--output=/tmp/x',
  ':(glob)**',
  '\ud800',
  '\u202e',
  HUGE,
  [],
  ['a', 'b'],
  [1, [2, [3]]],
  {},
  { a: { b: 'c' } },
  null,
  true,
  false,
  '2020-13-45',
  'yesterday',
  '%00',
  '<script>',
  "'; DROP TABLE users; --",
  '$(id)',
  'HEAD~99999',
  'main..',
  '@{-1}',
  DEEP_OBJECT,
  DEEP_ARRAY,
]

/** Values every field gets at once in one probe per route. */
const KITCHEN_SINK: readonly unknown[] = [
  { a: 'b' },
  ['x', { y: 'z' }],
  'a\u0000b',
  '1e20',
  -1,
  1.5,
  '',
  '--upload-pack=touch /tmp/pwned',
  'x'.repeat(5000),
]

/** Parameter names the routes read, for query and body fields beyond each route's required ones. */
const FIELDS = [
  'page',
  'per_page',
  'sort',
  'order_by',
  'search',
  'ref',
  'ref_name',
  'path',
  'sha',
  'from',
  'to',
  'since',
  'until',
  'state',
  'labels',
  'milestone',
  'scope',
  'id_after',
  'id_before',
  'created_after',
  'updated_before',
  'author_id',
  'assignee_id',
  'assignee_ids',
  'reviewer_ids',
  'visibility',
  'recursive',
  'straight',
  'format',
  'pagination',
  'status',
  'iids',
  'not',
  'title',
  'name',
  'description',
  'body',
  'branch',
  'start_branch',
  'tag_name',
  'message',
  'content',
  'encoding',
  'commit_message',
  'actions',
  'file_path',
  'source_branch',
  'target_branch',
  'milestone_id',
  'label_id',
  'color',
  'due_date',
  'start_date',
  'expires_at',
  'access_level',
  'user_id',
  'group_id',
  'namespace_id',
  'namespace',
  'parent_id',
  'email',
  'username',
  'password',
  'scopes',
  'key',
  'value',
  'environment',
  'external_url',
  'url',
  'token',
  'duration',
  'weight',
  'confidential',
  'state_event',
  'position',
  'line',
  'note',
  'version',
  'trailers',
  'all',
  'type',
  'sudo',
  'file',
  'domain',
  'certificate',
  'tag_list',
  'variables',
  'job',
  'artifact_type',
  'squash',
]

/** A plausible value for a required field, so mutations of the other fields reach the handler. */
function plausible(field: string, world: FuzzWorld, n: number): unknown {
  if (/_ids$/.test(field)) return [Number(world.ids.user)]
  if (field === 'namespace_id' || field === 'group_id' || field === 'parent_id') return Number(world.ids.otherGroup)
  if (/_id$/.test(field)) return Number(world.ids.user)
  const values: Record<string, unknown> = {
    ref: 'main',
    branch: `fuzz-${n}`,
    start_branch: 'main',
    source_branch: 'feature',
    target_branch: 'main',
    sha: world.ids.sha,
    tag: false,
    email: `fuzz${n}@example.com`,
    username: `fuzzer${n}`,
    password: 'Fuzz-Passw0rd-123456',
    access_level: 30,
    group_access: 30,
    scopes: ['api'],
    expires_at: '2099-01-01',
    color: '#aabbcc',
    url: 'https://example.com/',
    external_url: 'https://example.com/',
    domain: `f${n}.example.com`,
    actions: [{ action: 'create', file_path: `fuzz-${n}.txt`, content: 'x' }],
    status: 'success',
    environment: 'staging',
    tag_name: `v9.${n}`,
    version: `9.9.${n}`,
    duration: '1h',
    deploy_access_levels: [{ access_level: 40 }],
    key: `FUZZ_${n}`,
    value: 'v',
    content: 'c',
    state: 'opened',
  }
  return field in values ? values[field] : `fuzz-${n}`
}

interface Probe {
  readonly label: string
  readonly options: InjectOptions
}

interface Failure {
  readonly label: string
  readonly status: number
  readonly body: string
}

/** The hostile input suite, on the fuzz world as built (`serverOf` starts the server holding it). */
export function hostileInputSuite(serverOf: () => Promise<FuzzServer>): void {
  describe('fuzz: every route answers hostile input below 500', () => {
    let s: TestServer
    let world: FuzzWorld
    let routes: Route[]
    const failures: Failure[] = []
    const reached = new Set<Route>()
    const random = new Random('burrow-fuzz-1')
    let counter = 0

    const pick = <T>(list: readonly T[]): T => list[random.int(0, list.length - 1)]

    /** A fresh administrator token per route: a route may revoke or rotate the one it was given. */
    function adminToken(): string {
      const token = generateToken()
      insertPersonalToken(s.app.burrow.db, {
        userId: world.admin.user.id,
        name: 'fuzz',
        digest: digestToken(token),
        scopes: ['api', 'sudo'],
        expiresAt: null,
      })
      return token
    }

    /** Sends a route's probes; a 5xx is a failure, any answer below 400 marks the route as reached. */
    async function send(route: Route, probes: readonly Probe[]): Promise<void> {
      const token = adminToken()
      for (const probe of probes) {
        const res = await s.app.inject({
          ...probe.options,
          headers: { 'private-token': token, ...(probe.options.headers ?? {}) },
        })
        if (res.statusCode >= 500)
          failures.push({ label: probe.label, status: res.statusCode, body: res.body.slice(0, 300) })
        else if (res.statusCode < 400) reached.add(route)
      }
    }

    /** The share of `list` that answered some probe below 400: the probes got past validation and access checks. */
    const reachedShare = (list: readonly Route[]): number => list.filter((r) => reached.has(r)).length / list.length

    /** The template with every parameter valid, or one of them replaced by `bad`. */
    function fill(route: Route, badAt?: number, bad?: string): string {
      let index = -1
      return route.url.replace(PARAM, (token) => {
        index += 1
        if (index === badAt && bad !== undefined) return bad
        const value = validParam(world, route.url, token.slice(1).replace(/\|:/g, '|'))
        return encodeURIComponent(value)
      })
    }

    function pathProbes(route: Route, count: number): Probe[] {
      const params = route.url.match(PARAM) ?? []
      const probes: Probe[] = [
        { label: `${route.method} ${fill(route)}`, options: { method: route.method as 'GET', url: fill(route) } },
      ]
      params.forEach((_, at) => {
        for (let i = 0; i < count; i++) {
          const url = fill(route, at, pick(BAD_SEGMENTS))
          probes.push({
            label: `${route.method} ${url.slice(0, 200)}`,
            options: { method: route.method as 'GET', url },
          })
        }
      })
      return probes
    }

    function queryProbes(route: Route, count: number): Probe[] {
      const url = fill(route)
      return Array.from({ length: count }, () => {
        const field = pick(FIELDS)
        const value = pick(HOSTILE_VALUES)
        const query =
          typeof value === 'object' && value !== null ? bracketed(field, value) : `${field}=${queryText(value)}`
        return {
          label: `${route.method} ${url}?${query.slice(0, 120)}`,
          options: { method: route.method as 'GET', url: `${url}?${query}` },
        }
      })
    }

    /** Every field at once as a hash, a list, a NUL and a huge number: handlers reading their own params meet them first. */
    function kitchenSinkProbes(route: Route, inBody: boolean): Probe[] {
      const url = fill(route)
      const method = route.method as 'GET'
      return KITCHEN_SINK.map((value) => {
        const label = `${method} ${url} every field=${JSON.stringify(value)}`
        if (inBody)
          return { label, options: { method, url, payload: Object.fromEntries(FIELDS.map((f) => [f, value])) } }
        return { label, options: { method, url: `${url}?${FIELDS.map((f) => bracketed(f, value)).join('&')}` } }
      })
    }

    /** Rails-style query text for a nested value (`a[]=1&a[b]=2`), as clients send arrays and hashes. */
    function bracketed(name: string, value: unknown, depth = 0): string {
      if (depth > 40) return `${name}=deep`
      if (Array.isArray(value))
        return value.length === 0 ? `${name}[]=` : value.map((v) => bracketed(`${name}[]`, v, depth + 1)).join('&')
      if (typeof value === 'object' && value !== null)
        return Object.entries(value)
          .map(([k, v]) => bracketed(`${name}[${k}]`, v, depth + 1))
          .join('&')
      return `${name}=${queryText(value)}`
    }

    /** A scalar as query text; a lone surrogate (no UTF-8 form) goes as the invalid bytes a client could send. */
    function queryText(value: unknown): string {
      try {
        return encodeURIComponent(String(value))
      } catch {
        return '%ED%A0%80'
      }
    }

    /** The fields a write route says are missing when sent an empty body. */
    async function requiredFields(route: Route, url: string, token: string): Promise<string[]> {
      const res = await s.app.inject({
        method: route.method as 'POST',
        url,
        payload: {},
        headers: { 'private-token': token },
      })
      if (res.statusCode >= 500)
        failures.push({ label: `${route.method} ${url} {}`, status: res.statusCode, body: res.body.slice(0, 300) })
      const error = res.headers['content-type']?.toString().startsWith('application/json')
        ? (res.json() as { error?: unknown }).error
        : undefined
      if (typeof error !== 'string') return []
      return [...error.matchAll(/([a-z_]+)(?:\[[a-z_]+\])* is missing/g)].map((m) => m[1])
    }

    async function bodyProbes(route: Route, count: number): Promise<Probe[]> {
      const url = fill(route)
      const required = await requiredFields(route, url, adminToken())
      const base = (): Record<string, unknown> =>
        Object.fromEntries(required.map((f) => [f, plausible(f, world, (counter += 1))]))
      const method = route.method as 'POST'
      const probes: Probe[] = [
        {
          label: `${method} ${url} broken JSON`,
          options: { method, url, payload: '{"title": "x", ', headers: { 'content-type': 'application/json' } },
        },
        {
          label: `${method} ${url} JSON array`,
          options: { method, url, payload: '[1, {"a": 2}]', headers: { 'content-type': 'application/json' } },
        },
        {
          label: `${method} ${url} JSON string`,
          options: { method, url, payload: '"just text"', headers: { 'content-type': 'application/json' } },
        },
        {
          label: `${method} ${url} deep form`,
          options: {
            method,
            url,
            payload: `${'a'}${'[b]'.repeat(3000)}=1&title[]=x&title[y]=z`,
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          },
        },
        {
          label: `${method} ${url} broken multipart`,
          options: {
            method,
            url,
            payload: '--x\r\nContent-Disposition: form-data; name="title"\r\n\r\nx',
            headers: { 'content-type': 'multipart/form-data; boundary=x' },
          },
        },
        { label: `${method} ${url} plausible`, options: { method, url, payload: base() } },
      ]
      const fields = [...required, ...required, ...FIELDS]
      for (let i = 0; i < count; i++) {
        const field = pick(fields)
        const value = pick(HOSTILE_VALUES)
        const payload = { ...base(), [field]: value }
        probes.push({
          label: `${method} ${url} ${field}=${JSON.stringify(value)?.slice(0, 80)}`,
          options: { method, url, payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } },
        })
      }
      return probes
    }

    /** Routes that take the project, group or instance away from the routes after them run last. */
    const TAKES_AWAY =
      /\/(archive|unarchive|transfer|application\/settings|block|deactivate|rotate|reset_registration_token|reset_authentication_token)$|\/personal_access_tokens\/self/
    const ALERT_DEPTH = /\/:p([3-9]|\d\d)\//

    beforeAll(async () => {
      // The server's failed authentication ban is off (see fuzzWorldTwice): it has its own tests.
      ;({ s, world } = await serverOf())
      routes = registeredRoutes(s.app.printRoutes({ commonPrefix: false })).filter((r) => !ALERT_DEPTH.test(r.url))
    }, 120_000)
    afterAll(async () => {
      await s.close()
    })

    it('builds its world through the API and finds every registered route', () => {
      expect(world.missed).toEqual([])
      expect(routes.length).toBeGreaterThan(400)
      expect(routes).toContainEqual({ method: 'POST', url: '/api/v4/projects/:id/repository/commits' })
    })

    it('reads: valid and impossible path parameters, hostile query parameters', async () => {
      failures.length = 0
      const reads = routes.filter((r) => r.method === 'GET' && r.url !== '*')
      for (const route of reads)
        await send(route, [...pathProbes(route, 3), ...queryProbes(route, 5), ...kitchenSinkProbes(route, false)])
      expect(failures).toEqual([])
      expect(reachedShare(reads)).toBeGreaterThan(0.8)
    }, 300_000)

    it('writes: broken, nested and wrongly typed bodies and impossible path parameters', async () => {
      failures.length = 0
      const writes = routes.filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && r.url !== '*')
      const ordered = [
        ...writes.filter((r) => !TAKES_AWAY.test(r.url)),
        ...writes.filter((r) => TAKES_AWAY.test(r.url)),
      ]
      for (const route of ordered)
        await send(route, [
          ...(await bodyProbes(route, 8)),
          ...pathProbes(route, 2),
          ...kitchenSinkProbes(route, true),
          ...kitchenSinkProbes(route, false),
        ])
      expect(failures).toEqual([])
      expect(reachedShare(writes)).toBeGreaterThan(0.5)
    }, 300_000)

    it('deletions, deepest routes first', async () => {
      failures.length = 0
      const deletions = routes
        .filter((r) => r.method === 'DELETE')
        .sort((a, b) => b.url.split('/').length - a.url.split('/').length)
      for (const route of deletions) await send(route, [...pathProbes(route, 3), ...queryProbes(route, 2)])
      expect(failures).toEqual([])
      expect(reachedShare(deletions)).toBeGreaterThan(0.6)
    }, 300_000)

    it('git over smart HTTP: refs, packs and paths that are not', async () => {
      failures.length = 0
      const repo = `/${world.projectPath}.git`
      const probes: Probe[] = []
      for (const service of ['git-upload-pack', 'git-receive-pack']) {
        const headers = { 'content-type': `application/x-${service}-request` }
        probes.push(
          {
            label: `GET info/refs ${service}`,
            options: { method: 'GET', url: `${repo}/info/refs?service=${service}` },
          },
          {
            label: `POST ${service} garbage`,
            options: { method: 'POST', url: `${repo}/${service}`, payload: 'not a pack', headers },
          },
          {
            label: `POST ${service} bad pkt-line`,
            options: { method: 'POST', url: `${repo}/${service}`, payload: 'zzzz0000', headers },
          },
          {
            label: `POST ${service} bad gzip`,
            options: {
              method: 'POST',
              url: `${repo}/${service}`,
              payload: 'nope',
              headers: { ...headers, 'content-encoding': 'gzip' },
            },
          },
          {
            label: `POST ${service} option ref`,
            options: {
              method: 'POST',
              url: `${repo}/${service}`,
              payload: '0044want --upload-pack=touch /tmp/pwned 0000000000000000000000000\n0000',
              headers,
            },
          },
        )
      }
      for (const segment of BAD_SEGMENTS)
        probes.push({
          label: `GET /${segment}.git/info/refs`,
          options: { method: 'GET', url: `/${segment}.git/info/refs?service=git-upload-pack` },
        })
      probes.push({
        label: 'GET info/refs with a bad service',
        options: { method: 'GET', url: `${repo}/info/refs?service=--help` },
      })
      await send({ method: 'POST', url: '*' }, probes)
      expect(failures).toEqual([])
    }, 120_000)
  })
}
