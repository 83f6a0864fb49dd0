import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import type Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { digestToken, generateToken } from '../../../src/server/platform/auth/secrets'
import { insertPersonalToken } from '../../../src/server/modules/tokens/queries'
import { Random } from '../../../src/server/seed/random'
import { validParam, type FuzzServer, type FuzzWorld } from '../../helpers/fuzz-world'
import { registeredRoutes, type PrintedRoute } from '../../helpers/routes'
import type { TestServer } from '../../helpers/server'

// The contract of a refusal, route by route: every registered route is called as an administrator
// and as a plain user (a Developer of the fuzz project) with input it must refuse — impossible
// path ids, query parameters of the wrong type, JSON that is null, an array, a string, invalid
// UTF-8 or a document with duplicate keys, form bodies with hashes where text is expected. Each
// answer must be below 500; a 4xx must be GitLab's JSON (`{"message": …}` or `{"error": …}`);
// and a refused write must change nothing in the database. Changes are seen by temporary
// triggers on every table of the server's own connection, so a rolled-back write is no change.
// The draw is seeded, so a run is repeatable. hostile-input.ts digs deeper per route as administrator;
// fuzz.test.ts runs both on one world.

type Route = PrintedRoute

const PARAM = /:[a-z_0-9]+(?:\|:[a-z_0-9]+)*/g

/** Path segments that name nothing, URL-encoded as a client would send them. */
const BAD_SEGMENTS = [
  '0',
  '-1',
  '99999999999999999999',
  '9007199254740993',
  '1.5',
  'abc',
  '%2F',
  'fuzz%2F..%2F..%2Fetc',
  'a%2Fb%2Fc%2Fd%2Fe',
  '%E2%98%83',
  '%F0%9F%90%9B%2Fx',
  '%FF%FE',
  '%C3%28',
  '%20',
  '%00',
]

/** Query parameters of the wrong type, huge pages, bad dates, enums and orders. */
const BAD_QUERIES = [
  'per_page=1000000000000000000000',
  'per_page=-5',
  'page=99999999999999999999',
  'page=0',
  'page[]=1&page[]=2',
  'per_page[x]=1',
  'sort=sideways',
  'order_by=nothing',
  'order_by[]=id',
  'sort[a]=b',
  'created_after=2020-13-45',
  'updated_before=yesterday',
  'since=not-a-date',
  'until=2020-02-30T25:61:00Z',
  'due_date=tomorrow-ish',
  'state=exploded',
  'scope=everything',
  'visibility=secret',
  'search[]=a&search[]=b',
  'search[x][y]=z',
  'labels[a]=b',
  'iids=abc',
  'iids[]=1.5',
  'author_id=me',
  'assignee_id[]=1',
  'id_after=abc',
  'with_counts=sometimes',
  'archived=perhaps',
  'ref=%FF%FE',
  'path=%C3%28',
  'title=%00',
  'search=%E2%80%AE%F0%9F%90%9B',
]

/** Raw JSON documents a client may send, invalid UTF-8 as bytes. */
const RAW_BODIES: readonly { readonly label: string; readonly payload: string | Buffer; readonly type: string }[] = [
  { label: 'JSON null', payload: 'null', type: 'application/json' },
  { label: 'JSON array', payload: '[{"title": "x"}, 1]', type: 'application/json' },
  { label: 'JSON number', payload: '42', type: 'application/json' },
  { label: 'JSON string', payload: '"title"', type: 'application/json' },
  { label: 'JSON true', payload: 'true', type: 'application/json' },
  {
    label: 'invalid UTF-8 in JSON',
    payload: Buffer.concat([Buffer.from('{"title": "a'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('"}')]),
    type: 'application/json',
  },
  {
    label: 'invalid UTF-8 key',
    payload: Buffer.concat([Buffer.from('{"'), Buffer.from([0xc0, 0xaf]), Buffer.from('": 1, "name": 2}')]),
    type: 'application/json; charset=utf-8',
  },
  { label: 'lone surrogate escape', payload: '{"title": "\\ud800", "name": "\\udfff"}', type: 'application/json' },
  {
    label: 'duplicate keys',
    payload: '{"title": "one", "title": {"nested": ["two"]}, "name": "a", "name": [1, 2]}',
    type: 'application/json',
  },
  { label: 'truncated JSON', payload: '{"title": [1, {"a": ', type: 'application/json' },
  {
    label: 'form with hashes',
    payload: 'title[a]=1&name[]=x&name[]=y&id[b][c]=2',
    type: 'application/x-www-form-urlencoded',
  },
  {
    label: 'form with invalid UTF-8',
    payload: 'title=%FF%FE&name=%C3%28&description=%E2%82',
    type: 'application/x-www-form-urlencoded',
  },
  {
    label: 'form with duplicate keys',
    payload: 'title=a&title=b&title[]=c',
    type: 'application/x-www-form-urlencoded',
  },
  { label: 'form with bad escapes', payload: 'title=%ZZ&name=%', type: 'application/x-www-form-urlencoded' },
  { label: 'unknown content type', payload: '\u0000\u0001binary', type: 'application/octet-stream' },
]

/** Fields most write routes read; each gets a value of the wrong shape in the object bodies. */
const FIELDS = [
  'title',
  'name',
  'path',
  'description',
  'body',
  'key',
  'value',
  'url',
  'ref',
  'branch',
  'tag_name',
  'username',
  'email',
  'labels',
  'access_level',
  'user_id',
  'namespace_id',
  'visibility',
  'state_event',
  'due_date',
  'expires_at',
  'scopes',
  'color',
  'position',
]

const WRONG_VALUES: readonly unknown[] = [
  { nested: { deeper: ['x'] } },
  ['a', ['b']],
  'x'.repeat(70_000),
  -1,
  1e308,
  '\u0000',
  '2020-13-45',
  true,
]

/** Column writes that bookkeeping makes on any authenticated request, refused or not. */
const BOOKKEEPING: Readonly<Record<string, readonly string[]>> = {
  users: ['last_activity_on'],
  personal_access_tokens: ['last_used_at', 'last_used_ips'],
}

interface Probe {
  readonly label: string
  readonly options: InjectOptions
}

/**
 * Temporary triggers on every table of the connection that note each insert, delete and update
 * (bookkeeping columns left out) in `temp.fuzz_changes`; inside a transaction that rolls back,
 * the note rolls back too.
 */
function recordChanges(db: Database.Database): { readonly take: () => string[] } {
  db.exec('CREATE TEMP TABLE fuzz_changes (tbl TEXT NOT NULL, op TEXT NOT NULL)')
  const tables = db
    .prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'",
    )
    .pluck()
    .all() as string[]
  const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`
  let installed = 0
  for (const table of tables) {
    const columns = (db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]).filter(
      (c) => !(BOOKKEEPING[table] ?? []).includes(c),
    )
    const note = (op: string) => `INSERT INTO temp.fuzz_changes VALUES ('${table.replace(/'/g, "''")}', '${op}')`
    const statements = [
      `CREATE TEMP TRIGGER ${quote(`fuzz_i_${table}`)} AFTER INSERT ON main.${quote(table)} BEGIN ${note('insert')}; END`,
      `CREATE TEMP TRIGGER ${quote(`fuzz_d_${table}`)} AFTER DELETE ON main.${quote(table)} BEGIN ${note('delete')}; END`,
      `CREATE TEMP TRIGGER ${quote(`fuzz_u_${table}`)} AFTER UPDATE OF ${columns.map(quote).join(', ')} ON main.${quote(table)} BEGIN ${note('update')}; END`,
    ]
    try {
      for (const sql of statements) db.exec(sql)
      installed += 1
    } catch {
      // A shadow table of a full-text index takes no trigger; its index's own table carries one.
    }
  }
  if (installed < 80) throw new Error(`change triggers on only ${installed} tables`)
  const read = db.prepare("SELECT DISTINCT tbl || ' ' || op FROM temp.fuzz_changes ORDER BY 1").pluck()
  const clear = db.prepare('DELETE FROM temp.fuzz_changes')
  return {
    take: () => {
      const changes = read.all() as string[]
      clear.run()
      return changes
    },
  }
}

/**
 * Why an answer breaks the contract, or null: a 5xx, or a 4xx that is not GitLab's JSON. GraphQL
 * answers its own way (`{"errors": [{"message": …}]}`), as GitLab's does.
 */
function contractBreach(res: LightMyRequestResponse, graphql: boolean): string | null {
  if (res.statusCode >= 500) return `${res.statusCode}`
  if (res.statusCode < 400) return null
  const type = String(res.headers['content-type'] ?? '')
  if (!type.startsWith('application/json')) return `${res.statusCode} as ${type || 'no content type'}`
  let body: unknown
  try {
    body = JSON.parse(res.body)
  } catch {
    return `${res.statusCode} with a body that is not JSON`
  }
  if (graphql)
    return typeof body === 'object' && body !== null && 'errors' in body && Array.isArray(body.errors)
      ? null
      : `${res.statusCode} without errors`
  const shaped =
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    (('message' in body && body.message !== null && body.message !== '') ||
      ('error' in body && typeof body.error === 'string' && body.error !== ''))
  return shaped ? null : `${res.statusCode} without message or error`
}

/** Routes that take the project, group or caller away from the routes after them run last. */
const TAKES_AWAY =
  /\/(archive|unarchive|transfer|application\/settings|block|deactivate|ban|rotate|reset_registration_token|reset_authentication_token)$|\/personal_access_tokens\/self/
const ALERT_DEPTH = /\/:p([3-9]|\d\d)\//

/** The refusal contract's suite, on the fuzz world as built (`serverOf` starts the server holding it). */
export function refusalContractSuite(serverOf: () => Promise<FuzzServer>): void {
  describe('fuzz: refusals are GitLab-shaped and change nothing, for an administrator and a plain user', () => {
    let s: TestServer
    let world: FuzzWorld
    let routes: Route[]
    let changes: { readonly take: () => string[] }
    const random = new Random('burrow-fuzz-contract-1')
    const pick = <T>(list: readonly T[]): T => list[random.int(0, list.length - 1)]
    const breaches: string[] = []
    const writesThatChanged: string[] = []
    let refusedWrites = 0

    /** A fresh token per route for the administrator or the plain user: a route may revoke the one it was given. */
    function tokenOf(who: 'admin' | 'user'): string {
      const token = generateToken()
      insertPersonalToken(s.app.burrow.db, {
        userId: who === 'admin' ? world.admin.user.id : world.victim.user.id,
        name: 'fuzz-contract',
        digest: digestToken(token),
        scopes: who === 'admin' ? ['api', 'sudo'] : ['api'],
        expiresAt: null,
      })
      return token
    }

    function fill(route: Route, badAt?: number, bad?: string): string {
      let index = -1
      return route.url.replace(PARAM, (token) => {
        index += 1
        if (index === badAt && bad !== undefined) return bad
        return encodeURIComponent(validParam(world, route.url, token.slice(1).replace(/\|:/g, '|')))
      })
    }

    /** A few probes per route: one impossible path parameter, then hostile queries or bodies. */
    function probesOf(route: Route): Probe[] {
      const method = route.method as NonNullable<InjectOptions['method']>
      const params = route.url.match(PARAM) ?? []
      const probes: Probe[] = []
      if (params.length > 0) {
        const url = fill(route, random.int(0, params.length - 1), pick(BAD_SEGMENTS))
        probes.push({ label: `${method} ${url.slice(0, 160)}`, options: { method, url } })
      }
      const url = fill(route)
      if (method === 'GET') {
        for (let i = 0; i < 2; i++) {
          const query = pick(BAD_QUERIES)
          probes.push({ label: `${method} ${url}?${query}`, options: { method, url: `${url}?${query}` } })
        }
        return probes
      }
      // A deletion is only sent to objects that cannot exist: the world must outlive the run.
      if (method === 'DELETE') return probes
      for (let i = 0; i < 2; i++) {
        const raw = pick(RAW_BODIES)
        probes.push({
          label: `${method} ${url} ${raw.label}`,
          options: { method, url, payload: raw.payload, headers: { 'content-type': raw.type } },
        })
      }
      const query = pick(BAD_QUERIES)
      const field = pick(FIELDS)
      const value = pick(WRONG_VALUES)
      probes.push(
        random.int(0, 1) === 0
          ? {
              label: `${method} ${url} ${field}=${JSON.stringify(value).slice(0, 60)}`,
              options: { method, url, payload: { [field]: value, [pick(FIELDS)]: pick(WRONG_VALUES) } },
            }
          : {
              label: `${method} ${url}?${query} with every field a list`,
              options: {
                method,
                url: `${url}?${query}`,
                payload: Object.fromEntries(FIELDS.map((f) => [f, ['x', { y: 1 }]])),
              },
            },
      )
      return probes
    }

    async function send(route: Route, who: 'admin' | 'user'): Promise<void> {
      const token = tokenOf(who)
      const write = route.method !== 'GET'
      for (const probe of probesOf(route)) {
        changes.take()
        const res = await s.app.inject({
          ...probe.options,
          headers: { 'private-token': token, ...(probe.options.headers ?? {}) },
        })
        const breach = contractBreach(res, route.url === '/api/graphql')
        if (breach) breaches.push(`${who}: ${probe.label} → ${breach}: ${res.body.slice(0, 200)}`)
        const changed = changes.take()
        if (write && res.statusCode >= 400) {
          refusedWrites += 1
          if (changed.length > 0)
            writesThatChanged.push(`${who}: ${probe.label} → ${res.statusCode} changed ${changed.join(', ')}`)
        }
      }
    }

    beforeAll(async () => {
      // serverOf lets the background work the world started (deliveries, pipelines) settle first.
      ;({ s, world } = await serverOf())
      routes = registeredRoutes(s.app.printRoutes({ commonPrefix: false })).filter(
        (r) => r.url !== '*' && !ALERT_DEPTH.test(r.url),
      )
      changes = recordChanges(s.app.burrow.db)
    }, 120_000)
    afterAll(async () => {
      await s?.close()
    })

    it('sees a write that happens, so that its silence below means something', async () => {
      const res = await s.app.inject({
        method: 'POST',
        url: `/api/v4/projects/${world.ids.project}/labels`,
        payload: { name: 'seen-by-the-recorder', color: '#123456' },
        headers: { 'private-token': tokenOf('admin') },
      })
      expect(res.statusCode).toBe(201)
      expect(changes.take()).toContain('labels insert')
      const refused = await s.app.inject({
        method: 'POST',
        url: `/api/v4/projects/${world.ids.project}/labels`,
        payload: '{"name": "seen-by-the-recorder", "color": "#123456"}',
        headers: { 'private-token': tokenOf('admin'), 'content-type': 'application/json' },
      })
      expect([refused.statusCode, contractBreach(refused, false)]).toEqual([409, null])
      expect(changes.take()).toEqual(['personal_access_tokens insert'])
    })

    // Four slices of the routes, in the order they run (those that take things away last), so a
    // failure names its slice and each has its own time.
    it.each([1, 2, 3, 4])(
      'slice %i of 4: below 500, 4xx with a GitLab error body, refused writes change nothing',
      async (slice) => {
        expect(routes.length).toBeGreaterThan(400)
        const ordered = [
          ...routes.filter((r) => !TAKES_AWAY.test(r.url)),
          ...routes.filter((r) => TAKES_AWAY.test(r.url)),
        ]
        const size = Math.ceil(ordered.length / 4)
        breaches.length = 0
        writesThatChanged.length = 0
        refusedWrites = 0
        for (const route of ordered.slice((slice - 1) * size, slice * size)) {
          await send(route, 'user')
          await send(route, 'admin')
        }
        expect(breaches).toEqual([])
        expect(writesThatChanged).toEqual([])
        expect(refusedWrites).toBeGreaterThan(100)
      },
      240_000,
    )
  })
}
