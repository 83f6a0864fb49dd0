import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordEvent } from '../../src/server/modules/events/service'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

/** Parses `Link: <url>; rel="x", …` into rel → URL. */
function links(header: unknown): Record<string, URL> {
  const out: Record<string, URL> = {}
  for (const part of String(header ?? '').split(',')) {
    const m = /<([^>]+)>;\s*rel="([^"]+)"/.exec(part.trim())
    if (m) out[m[2]] = new URL(m[1])
  }
  return out
}

/** The page and per_page a Link URL points at. */
function pageOfLink(url: URL | undefined): [string | null, string | null] {
  return [url?.searchParams.get('page') ?? null, url?.searchParams.get('per_page') ?? null]
}

describe('cross-cutting server behaviour', () => {
  let s: TestServer
  let author: SeededUser

  beforeAll(async () => {
    s = await makeServer()
    author = seedUser(s, { username: 'pager' })
    const project = seedProject(s, { ownerId: author.user.id, visibility: 'public' })
    // 45 events: three pages of 20, five of 10.
    for (let i = 0; i < 45; i++) {
      recordEvent(s.app.burrow.db, {
        authorId: author.user.id,
        action: 'created',
        projectId: project.id,
        targetType: 'Issue',
        targetId: i + 1,
        targetIid: i + 1,
        targetTitle: `Issue ${i}`,
      })
    }
  })
  afterAll(async () => {
    await s.close()
  })

  describe('offset pagination headers', () => {
    it('defaults to page 1 of 20 per page', async () => {
      const res = await s.request(author.token, { method: 'GET', url: '/api/v4/events' })
      expect(res.json()).toHaveLength(20)
      expect(res.headers['x-page']).toBe('1')
      expect(res.headers['x-per-page']).toBe('20')
      expect(res.headers['x-total']).toBe('45')
      expect(res.headers['x-total-pages']).toBe('3')
      expect(res.headers['x-next-page']).toBe('2')
      expect(res.headers['x-prev-page']).toBe('')
    })

    it('links first, next and last but not prev on the first page', async () => {
      const res = await s.request(author.token, { method: 'GET', url: '/api/v4/events' })
      const l = links(res.headers.link)
      expect(Object.keys(l).sort()).toEqual(['first', 'last', 'next'])
      expect(pageOfLink(l.next)).toEqual(['2', '20'])
      expect(pageOfLink(l.first)).toEqual(['1', '20'])
      expect(pageOfLink(l.last)).toEqual(['3', '20'])
    })

    it('links prev, next, first and last, in that order, on a middle page', async () => {
      const res = await s.request(author.token, { method: 'GET', url: '/api/v4/events?per_page=10&page=3' })
      expect(res.json()).toHaveLength(10)
      const rels = [...String(res.headers.link).matchAll(/rel="([^"]+)"/g)].map((m) => m[1])
      expect(rels).toEqual(['prev', 'next', 'first', 'last'])
      const l = links(res.headers.link)
      expect(pageOfLink(l.prev)).toEqual(['2', '10'])
      expect(pageOfLink(l.next)).toEqual(['4', '10'])
      expect(pageOfLink(l.first)).toEqual(['1', '10'])
      expect(pageOfLink(l.last)).toEqual(['5', '10'])
      expect(res.headers['x-page']).toBe('3')
      expect(res.headers['x-per-page']).toBe('10')
      expect(res.headers['x-total']).toBe('45')
      expect(res.headers['x-total-pages']).toBe('5')
      expect(res.headers['x-next-page']).toBe('4')
      expect(res.headers['x-prev-page']).toBe('2')
    })

    it('has no next link and an empty X-Next-Page on the last page', async () => {
      const res = await s.request(author.token, { method: 'GET', url: '/api/v4/events?per_page=10&page=5' })
      expect(res.json()).toHaveLength(5)
      const l = links(res.headers.link)
      expect(l.next).toBeUndefined()
      expect(pageOfLink(l.prev)).toEqual(['4', '10'])
      expect(res.headers['x-next-page']).toBe('')
      expect(res.headers['x-prev-page']).toBe('4')
    })

    it('keeps the other query parameters and the external URL in Link targets', async () => {
      const res = await s.request(author.token, {
        method: 'GET',
        url: '/api/v4/events?action=created&sort=asc&per_page=10',
      })
      const next = links(res.headers.link).next
      expect(next.origin).toBe('http://burrow.test')
      expect(next.pathname).toBe('/api/v4/events')
      expect(next.searchParams.get('action')).toBe('created')
      expect(next.searchParams.get('sort')).toBe('asc')
    })

    it('caps per_page at 100', async () => {
      const res = await s.request(author.token, { method: 'GET', url: '/api/v4/events?per_page=500' })
      expect(res.headers['x-per-page']).toBe('100')
      expect(res.headers['x-total-pages']).toBe('1')
      expect(pageOfLink(links(res.headers.link).last)).toEqual(['1', '100'])
    })

    it('answers an empty page past the end with the totals', async () => {
      const res = await s.request(author.token, { method: 'GET', url: '/api/v4/events?page=9' })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual([])
      expect(res.headers['x-total']).toBe('45')
    })

    it('paginates audit events the same way', async () => {
      const res = await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/audit_events' })
      expect(res.statusCode).toBe(200)
      expect(res.headers['x-page']).toBe('1')
      expect(res.headers['x-per-page']).toBe('20')
      expect(res.headers).toHaveProperty('x-total')
      expect(links(res.headers.link)).toHaveProperty('first')
    })
  })

  describe('authentication transports', () => {
    it('accepts the PRIVATE-TOKEN header', async () => {
      expect((await s.request(author.token, { method: 'GET', url: '/api/v4/events' })).statusCode).toBe(200)
    })

    it('accepts the private_token query parameter', async () => {
      expect(
        (await s.request(null, { method: 'GET', url: `/api/v4/events?private_token=${author.token}` })).statusCode,
      ).toBe(200)
    })

    it('accepts a personal token as Authorization: Bearer', async () => {
      const res = await s.request(null, {
        method: 'GET',
        url: '/api/v4/events',
        headers: { authorization: `Bearer ${author.token}` },
      })
      expect(res.statusCode).toBe(200)
    })

    it('accepts an OAuth access token from the password grant, as Bearer and as access_token', async () => {
      const grant = await s.request(null, {
        method: 'POST',
        url: '/oauth/token',
        payload: { grant_type: 'password', username: 'pager', password: author.password },
      })
      expect(grant.statusCode).toBe(200)
      const token = (grant.json() as { access_token: string }).access_token
      const bearer = await s.request(null, {
        method: 'GET',
        url: '/api/v4/events',
        headers: { authorization: `Bearer ${token}` },
      })
      expect(bearer.statusCode).toBe(200)
      expect((bearer.json() as unknown[]).length).toBe(20)
      expect((await s.request(null, { method: 'GET', url: `/api/v4/events?access_token=${token}` })).statusCode).toBe(
        200,
      )
    })

    it('answers 401 with the spec body for an unknown token', async () => {
      const res = await s.request('not-a-token', { method: 'GET', url: '/api/v4/events' })
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({ message: '401 Unauthorized' })
    })
  })

  describe('sudo', () => {
    it("runs an administrator's sudo call as the named user", async () => {
      const admin = seedUser(s, { admin: true, scopes: ['api', 'sudo'] })
      const res = await s.request(admin.token, {
        method: 'GET',
        url: '/api/v4/events?per_page=1',
        headers: { sudo: 'pager' },
      })
      expect(res.statusCode).toBe(200)
      expect((res.json() as { author_username: string }[])[0].author_username).toBe('pager')
    })

    it('answers 403 to sudo by a non-administrator', async () => {
      const res = await s.request(author.token, { method: 'GET', url: '/api/v4/events', headers: { sudo: 'root' } })
      expect(res.statusCode).toBe(403)
      expect(res.json()).toHaveProperty('message')
    })

    it('answers 403 insufficient_scope to sudo with a token lacking the sudo scope', async () => {
      const admin = seedUser(s, { admin: true, scopes: ['api'] })
      const res = await s.request(admin.token, { method: 'GET', url: '/api/v4/events', headers: { sudo: 'pager' } })
      expect(res.statusCode).toBe(403)
      expect(res.json()).toMatchObject({ error: 'insufficient_scope', scope: 'sudo' })
    })

    it('answers 404 to sudo as an unknown user', async () => {
      const admin = seedUser(s, { admin: true, scopes: ['api', 'sudo'] })
      const res = await s.request(admin.token, {
        method: 'GET',
        url: '/api/v4/events',
        headers: { sudo: 'ghost-user' },
      })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toHaveProperty('message')
    })
  })

  describe('token scopes', () => {
    it('answers 403 insufficient_scope to a write with a read_api token', async () => {
      const reader = seedUser(s, { scopes: ['read_api'] })
      const res = await s.request(reader.token, { method: 'POST', url: '/api/v4/projects', payload: { name: 'nope' } })
      expect(res.statusCode).toBe(403)
      expect(res.json()).toEqual({
        error: 'insufficient_scope',
        error_description: 'The request requires higher privileges than provided by the access token.',
        scope: 'api',
      })
    })

    it('lets a read_api token read', async () => {
      const reader = seedUser(s, { scopes: ['read_api'] })
      expect((await s.request(reader.token, { method: 'GET', url: '/api/v4/events' })).statusCode).toBe(200)
    })

    it('answers 403 insufficient_scope to a read_user token outside user and event reads', async () => {
      const userReader = seedUser(s, { scopes: ['read_user'] })
      const res = await s.request(userReader.token, { method: 'GET', url: '/api/v4/audit_events' })
      expect(res.statusCode).toBe(403)
      expect(res.json()).toMatchObject({ error: 'insufficient_scope' })
    })
  })

  describe('pagination headers on every list', () => {
    it('sets Link and the X-* headers on each list of users, groups, projects, members, tokens, events and audit events', async () => {
      const owner = seedUser(s)
      const group = seedGroup(s, { visibility: 'public' })
      seedMember(s, 'Namespace', group.id, owner.user.id, 50)
      const project = seedProject(s, { namespaceId: group.id, visibility: 'public' })
      const lists = [
        '/users',
        '/projects',
        '/groups',
        '/namespaces',
        '/events',
        '/audit_events',
        '/personal_access_tokens',
        `/users/${owner.user.id}/projects`,
        `/users/${owner.user.id}/starred_projects`,
        `/users/${owner.user.id}/events`,
        `/users/${owner.user.id}/memberships`,
        `/users/${owner.user.id}/personal_access_tokens`,
        `/users/${owner.user.id}/impersonation_tokens`,
        `/projects/${project.id}/members`,
        `/projects/${project.id}/members/all`,
        `/projects/${project.id}/access_requests`,
        `/projects/${project.id}/events`,
        `/projects/${project.id}/audit_events`,
        `/projects/${project.id}/access_tokens`,
        `/projects/${project.id}/starrers`,
        `/groups/${group.id}/members`,
        `/groups/${group.id}/members/all`,
        `/groups/${group.id}/access_requests`,
        `/groups/${group.id}/subgroups`,
        `/groups/${group.id}/descendant_groups`,
        `/groups/${group.id}/projects`,
        `/groups/${group.id}/billable_members`,
        `/groups/${group.id}/audit_events`,
      ]
      for (const list of lists) {
        const res = await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4${list}?per_page=1` })
        const h = res.headers
        expect([list, res.statusCode]).toEqual([list, 200])
        expect([
          list,
          h['x-page'],
          h['x-per-page'],
          typeof h['x-total'],
          typeof h['x-total-pages'],
          'x-next-page' in h,
          'x-prev-page' in h,
        ]).toEqual([list, '1', '1', 'string', 'string', true, true])
        expect([list, Object.keys(links(h.link)).sort()]).toEqual([
          list,
          Number(h['x-total-pages']) > 1 ? ['first', 'last', 'next'] : ['first', 'last'],
        ])
      }
    })
  })

  describe(':id as an integer or a URL-encoded full path', () => {
    it('answers the same for a project or group id and its URL-encoded full path, on every endpoint family', async () => {
      const owner = seedUser(s)
      const parent = seedGroup(s, { path: `idpath${owner.user.id}`, visibility: 'public' })
      const group = seedGroup(s, { path: 'inner', parentId: parent.id, visibility: 'public' })
      seedMember(s, 'Namespace', group.id, owner.user.id, 50)
      const project = seedProject(s, { namespaceId: group.id, path: 'proj', visibility: 'public' })
      const groupPath = encodeURIComponent(`${parent.path}/inner`)
      const projectPath = encodeURIComponent(`${parent.path}/inner/proj`)
      const suffixes = {
        projects: [
          '',
          '/members',
          '/members/all',
          `/members/all/${owner.user.id}`,
          '/events',
          '/audit_events',
          '/access_requests',
          '/access_tokens',
          '/starrers',
          '/repository/branches',
          '/protected_branches',
        ],
        groups: [
          '',
          '/members',
          '/members/all',
          `/members/${owner.user.id}`,
          '/subgroups',
          '/descendant_groups',
          '/projects',
          '/billable_members',
          '/audit_events',
          '/access_requests',
        ],
      }
      for (const [kind, id, path] of [
        ['projects', project.id, projectPath],
        ['groups', group.id, groupPath],
      ] as const) {
        for (const suffix of suffixes[kind]) {
          const byId = await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/${kind}/${id}${suffix}` })
          const byPath = await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/${kind}/${path}${suffix}` })
          const label = `${kind}${suffix}`
          // Billable members exist for top-level groups only, so this subgroup answers 400 both ways.
          expect([label, byId.statusCode]).toEqual([label, suffix === '/billable_members' ? 400 : 200])
          expect([label, byPath.statusCode]).toEqual([label, byId.statusCode])
          // Link headers echo the URL as requested; the bodies must match.
          expect([label, byPath.body]).toEqual([label, byId.body])
        }
      }
    })
  })

  describe('If-Unmodified-Since on PUT and DELETE', () => {
    const OLD = 'Mon, 01 Jan 2001 00:00:00 GMT'
    const FUTURE = 'Fri, 01 Jan 2100 00:00:00 GMT'

    /** A fresh resource of each kind: its URL and a valid PUT body. */
    function resources(): { name: string; url: string; put: Record<string, unknown> }[] {
      const owner = seedUser(s)
      const member = seedUser(s)
      const group = seedGroup(s)
      seedMember(s, 'Namespace', group.id, owner.user.id, 50)
      const project = seedProject(s, { ownerId: owner.user.id })
      seedMember(s, 'Project', project.id, member.user.id, 30)
      return [
        // The member first: deleting the project would take its members with it.
        { name: 'member', url: `/api/v4/projects/${project.id}/members/${member.user.id}`, put: { access_level: 20 } },
        { name: 'project', url: `/api/v4/projects/${project.id}`, put: { description: 'changed' } },
        { name: 'group', url: `/api/v4/groups/${group.id}`, put: { description: 'changed' } },
        { name: 'user', url: `/api/v4/users/${seedUser(s).user.id}`, put: { bio: 'changed' } },
      ]
    }

    it('answers 412 {message} to PUT and DELETE of a project, group, user and member changed since the date, changing nothing', async () => {
      for (const r of resources()) {
        const before = (await s.request(ROOT_TOKEN, { method: 'GET', url: r.url })).body
        const put = await s.request(ROOT_TOKEN, {
          method: 'PUT',
          url: r.url,
          payload: r.put,
          headers: { 'if-unmodified-since': OLD },
        })
        expect([r.name, put.statusCode, put.json()]).toEqual([r.name, 412, { message: '412 Precondition Failed' }])
        const del = await s.request(ROOT_TOKEN, {
          method: 'DELETE',
          url: r.url,
          headers: { 'if-unmodified-since': OLD },
        })
        expect([r.name, del.statusCode]).toEqual([r.name, 412])
        const after = await s.request(ROOT_TOKEN, { method: 'GET', url: r.url })
        expect([r.name, after.statusCode, after.body]).toEqual([r.name, 200, before])
      }
    })

    it('lets PUT and DELETE through when the resource has not changed since the date', async () => {
      for (const r of resources()) {
        const put = await s.request(ROOT_TOKEN, {
          method: 'PUT',
          url: r.url,
          payload: r.put,
          headers: { 'if-unmodified-since': FUTURE },
        })
        expect([r.name, put.statusCode]).toEqual([r.name, 200])
        const del = await s.request(ROOT_TOKEN, {
          method: 'DELETE',
          url: r.url,
          headers: { 'if-unmodified-since': FUTURE },
        })
        expect([r.name, del.statusCode < 300]).toEqual([r.name, true])
      }
    })
  })

  describe('routing and malformed input', () => {
    it('accepts the optional .json format suffix on API paths', async () => {
      const plain = await s.request(author.token, { method: 'GET', url: `/api/v4/users/${author.user.id}` })
      const suffixed = await s.request(author.token, { method: 'GET', url: `/api/v4/users/${author.user.id}.json` })
      expect(suffixed.statusCode).toBe(200)
      expect(suffixed.body).toBe(plain.body)
      expect((await s.request(author.token, { method: 'GET', url: '/api/v4/version.json' })).statusCode).toBe(200)
    })

    it('answers 404 for the removed /api/v3', async () => {
      expect((await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v3/projects' })).statusCode).toBe(404)
    })

    it('answers an unknown route with 404 {"error":"404 Not Found"}', async () => {
      const res = await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/definitely/not/here' })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ error: '404 Not Found' })
    })

    it('answers a malformed JSON body with 400, not 500', async () => {
      const res = await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: '/api/v4/projects',
        headers: { 'content-type': 'application/json' },
        payload: '{"name": "broken",',
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toHaveProperty('error')
    })

    it('answers a non-integer page with 400, not 500', async () => {
      const res = await s.request(author.token, { method: 'GET', url: '/api/v4/events?page=abc' })
      expect(res.statusCode).toBe(400)
    })

    it('answers a non-integer audit event id with 400, not 500', async () => {
      const res = await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/audit_events/abc' })
      expect(res.statusCode).toBe(400)
    })
  })
})

describe('rate limiting', () => {
  it('is off by default', async () => {
    const s = await makeServer()
    try {
      const statuses = new Set<number>()
      for (let i = 0; i < 60; i++)
        statuses.add((await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/events' })).statusCode)
      expect([...statuses]).toEqual([200])
    } finally {
      await s.close()
    }
  })

  it('answers 429 with Retry-After past the authenticated limit', async () => {
    const s = await makeServer({
      settings: { throttle_authenticated_api_requests_per_period: 3, throttle_authenticated_api_period_in_seconds: 60 },
    })
    try {
      for (let i = 0; i < 3; i++)
        expect((await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/events' })).statusCode).toBe(200)
      const limited = await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/events' })
      expect(limited.statusCode).toBe(429)
      const retryAfter = Number(limited.headers['retry-after'])
      expect(Number.isInteger(retryAfter)).toBe(true)
      expect(retryAfter).toBeGreaterThan(0)
      expect(retryAfter).toBeLessThanOrEqual(60)
    } finally {
      await s.close()
    }
  })

  it('counts each user separately', async () => {
    const s = await makeServer({ settings: { throttle_authenticated_api_requests_per_period: 2 } })
    try {
      const other = seedUser(s)
      for (let i = 0; i < 3; i++) await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/events' })
      expect((await s.request(other.token, { method: 'GET', url: '/api/v4/events' })).statusCode).toBe(200)
    } finally {
      await s.close()
    }
  })

  it('answers 429 past the unauthenticated limit', async () => {
    const s = await makeServer({ settings: { throttle_unauthenticated_api_requests_per_period: 2 } })
    try {
      for (let i = 0; i < 2; i++)
        expect((await s.request(null, { method: 'GET', url: '/api/v4/version' })).statusCode).toBe(200)
      const limited = await s.request(null, { method: 'GET', url: '/api/v4/version' })
      expect(limited.statusCode).toBe(429)
      expect(limited.headers).toHaveProperty('retry-after')
    } finally {
      await s.close()
    }
  })
})
