import { mkdtempSync, rmSync } from 'node:fs'
import { createServer as createHttpServer, type Server } from 'node:http'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessGate } from '../../src/main/core/api/access-gate'
import { ApiClient } from '../../src/main/core/api/client'
import { OnlineState, type Connectivity } from '../../src/main/core/api/connectivity'
import { requestOAuthToken, type Credential, type OAuthCredential } from '../../src/main/core/api/credentials'
import {
  ForbiddenError,
  NetworkError,
  NotFoundError,
  PreconditionFailedError,
  RateLimitedError,
  SignInRequiredError,
  UnauthorizedError,
  ValidationError,
} from '../../src/main/core/api/errors'
import { parseLinkHeader } from '../../src/main/core/api/link'
import { encodeQuery } from '../../src/main/core/api/query'
import { buildApp } from '../../src/server/app'
import type { User } from '../../src/shared/api/user'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer } from '../helpers/server'

const pat =
  (token: string): (() => Promise<Credential>) =>
  async () => ({ kind: 'pat', token })

/** Wraps the global fetch to record what the client sent (URL and status), never altering it. */
function recordingFetch(log: { url: string; status: number; headers: Headers }[]): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init)
    log.push({ url: String(input), status: response.status, headers: new Headers(init?.headers) })
    return response
  }) as typeof fetch
}

async function freePort(): Promise<number> {
  const srv = createNetServer()
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve))
  const { port } = srv.address() as AddressInfo
  await new Promise<void>((resolve) => srv.close(() => resolve()))
  return port
}

describe('query and Link helpers', () => {
  it('encodes arrays and nested keys Rails-style and drops null/undefined', () => {
    expect(
      decodeURIComponent(
        encodeQuery({
          labels: ['a', 'b c'],
          not: { labels: 'x' },
          state: 'opened',
          page: 2,
          confidential: false,
          skip: undefined,
          none: null,
        }),
      ),
    ).toBe('labels[]=a&labels[]=b c&not[labels]=x&state=opened&page=2&confidential=false')
    expect(encodeQuery({ search: 'a&b=c' })).toBe('search=a%26b%3Dc')
  })

  it('parses rel="next" and rel="last" from a Link header', () => {
    const links = parseLinkHeader(
      '<http://h/api/v4/users?page=2>; rel="next", <http://h/api/v4/users?page=5>; rel="last"',
    )
    expect(links.get('next')).toBe('http://h/api/v4/users?page=2')
    expect(links.get('last')).toBe('http://h/api/v4/users?page=5')
    expect(parseLinkHeader(null).size).toBe(0)
  })
})

describe('ApiClient against Burrow Server', () => {
  let server: ListeningServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(async () => {
    await server.close()
  })

  it('authenticates with a personal access token sent as PRIVATE-TOKEN', async () => {
    const { user, token } = seedUser(server)
    const log: { url: string; status: number; headers: Headers }[] = []
    const client = new ApiClient({ baseUrl: server.url, credentials: pat(token), fetch: recordingFetch(log) })
    const me = await client.get<User>('/user')
    expect(me).toMatchObject({ id: user.id, username: user.username })
    expect(log[0]?.headers.get('private-token')).toBe(token)
    expect(log[0]?.headers.get('authorization')).toBeNull()
  })

  it('authenticates with an OAuth access token sent as Authorization: Bearer', async () => {
    const { user, password } = seedUser(server)
    const credential = await requestOAuthToken(
      server.url,
      { grant_type: 'password', username: user.username, password },
      { fetch, timeoutMs: 5_000 },
    )
    expect(credential.expiresAt).toBeGreaterThan(Date.now() + 7000 * 1000)
    const log: { url: string; status: number; headers: Headers }[] = []
    const client = new ApiClient({
      baseUrl: server.url,
      credentials: async () => credential,
      fetch: recordingFetch(log),
    })
    expect(await client.get<User>('/user')).toMatchObject({ id: user.id })
    expect(log[0]?.headers.get('authorization')).toBe(`Bearer ${credential.accessToken}`)
  })

  it('refuses a wrong password with an UnauthorizedError that does not echo the password', async () => {
    const { user } = seedUser(server)
    const error = await requestOAuthToken(
      server.url,
      { grant_type: 'password', username: user.username, password: 'not-the-Secret-42' },
      { fetch, timeoutMs: 5_000 },
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnauthorizedError)
    expect(String((error as Error).message)).not.toContain('not-the-Secret-42')
  })

  it('refreshes an expired OAuth token with the refresh_token grant, persists the new pair, and the old token is rejected', async () => {
    const { user, password } = seedUser(server)
    const issued = await requestOAuthToken(
      server.url,
      { grant_type: 'password', username: user.username, password },
      { fetch, timeoutMs: 5_000 },
    )
    let stored: OAuthCredential = { ...issued, expiresAt: Date.now() - 1000 }
    const persisted: OAuthCredential[] = []
    const client = new ApiClient({
      baseUrl: server.url,
      credentials: async () => stored,
      onCredentialsRefreshed: async (c) => {
        persisted.push(c)
        stored = c
      },
    })
    expect(await client.get<User>('/user')).toMatchObject({ id: user.id })
    expect(persisted).toHaveLength(1)
    expect(persisted[0]?.accessToken).not.toBe(issued.accessToken)
    expect(persisted[0]?.refreshToken).not.toBe(issued.refreshToken)
    const old = await fetch(`${server.url}/api/v4/user`, { headers: { Authorization: `Bearer ${issued.accessToken}` } })
    expect(old.status).toBe(401)
    // A second call uses the persisted pair without refreshing again.
    await client.get<User>('/user')
    expect(persisted).toHaveLength(1)
  })

  it('shares one refresh between concurrent requests with an expired token', async () => {
    const { user, password } = seedUser(server)
    const issued = await requestOAuthToken(
      server.url,
      { grant_type: 'password', username: user.username, password },
      { fetch, timeoutMs: 5_000 },
    )
    const expired: OAuthCredential = { ...issued, expiresAt: Date.now() - 1000 }
    const persisted: OAuthCredential[] = []
    // credentials() keeps handing out the expired pair: the client must not trade its refresh token twice.
    const client = new ApiClient({
      baseUrl: server.url,
      credentials: async () => expired,
      onCredentialsRefreshed: async (c) => void persisted.push(c),
    })
    const users = await Promise.all([client.get<User>('/user'), client.get<User>('/user'), client.get<User>('/user')])
    expect(users.map((u) => u.id)).toEqual([user.id, user.id, user.id])
    expect(persisted).toHaveLength(1)
  })

  it('refreshes once after a 401 on an OAuth token that has not reached its expiry', async () => {
    const { user, password } = seedUser(server)
    const issued = await requestOAuthToken(
      server.url,
      { grant_type: 'password', username: user.username, password },
      { fetch, timeoutMs: 5_000 },
    )
    const revokedAccess: OAuthCredential = { ...issued, accessToken: 'revoked-or-unknown-access-token' }
    const persisted: OAuthCredential[] = []
    const client = new ApiClient({
      baseUrl: server.url,
      credentials: async () => revokedAccess,
      onCredentialsRefreshed: async (c) => void persisted.push(c),
    })
    expect(await client.get<User>('/user')).toMatchObject({ id: user.id })
    expect(persisted).toHaveLength(1)
  })

  it('follows Link rel="next" across 3 pages', async () => {
    for (let i = 0; i < 5; i++) seedUser(server)
    const root = new ApiClient({ baseUrl: server.url, credentials: pat(ROOT_TOKEN) })
    const first = await root.getPage<User>('/users', { per_page: 1 })
    const total = first.total ?? 0
    expect(total).toBeGreaterThanOrEqual(6)
    expect(first.nextPage).toBe(2)
    const perPage = Math.ceil(total / 3)
    const log: { url: string; status: number; headers: Headers }[] = []
    const client = new ApiClient({ baseUrl: server.url, credentials: pat(ROOT_TOKEN), fetch: recordingFetch(log) })
    const ids: number[] = []
    for await (const u of client.paginate<User>('/users', { per_page: perPage, order_by: 'id', sort: 'asc' }))
      ids.push(u.id)
    expect(log).toHaveLength(3)
    expect(new Set(ids).size).toBe(total)
    expect(log[1]?.url).toContain('page=2')
    expect(log[2]?.url).toContain('page=3')
  })

  it('sends Sudo for an administrator and runs the call as that user', async () => {
    const { user } = seedUser(server)
    const root = new ApiClient({ baseUrl: server.url, credentials: pat(ROOT_TOKEN) })
    expect(await root.get<User>('/user', undefined, { sudo: user.username })).toMatchObject({ id: user.id })
  })

  it('throws typed errors for 401, 403, 404, 400 and 412', async () => {
    const { user, token } = seedUser(server)
    const bad = new ApiClient({ baseUrl: server.url, credentials: pat('glpat-not-a-real-token') })
    const unauthorized = await bad.get('/user').catch((e: unknown) => e)
    // A 401 to GET /user refuses the credential itself: the sign-in must be renewed.
    expect(unauthorized).toBeInstanceOf(SignInRequiredError)
    expect(unauthorized).toBeInstanceOf(UnauthorizedError)
    expect(unauthorized).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } })
    expect(JSON.stringify(unauthorized)).not.toContain('glpat-not-a-real-token')

    const plain = new ApiClient({ baseUrl: server.url, credentials: pat(token) })
    await expect(plain.get('/user', undefined, { sudo: 'root' })).rejects.toBeInstanceOf(ForbiddenError)
    await expect(plain.get('/projects/999999')).rejects.toBeInstanceOf(NotFoundError)

    const root = new ApiClient({ baseUrl: server.url, credentials: pat(ROOT_TOKEN) })
    const invalid = await root.post('/users', { name: 'No username' }).catch((e: unknown) => e)
    expect(invalid).toBeInstanceOf(ValidationError)
    expect(invalid).toMatchObject({ status: 400, code: 'validation' })

    const stale = await root
      .put(`/users/${user.id}`, { bio: 'changed' }, { ifUnmodifiedSince: new Date('2000-01-01T00:00:00Z') })
      .catch((e: unknown) => e)
    expect(stale).toBeInstanceOf(PreconditionFailedError)
    expect(stale).toMatchObject({ status: 412 })
  })
})

describe('ApiClient holding an account (AccessGate)', () => {
  let server: ListeningServer
  let fake: Server
  let fakeUrl: string
  const fakeRequests: string[] = []
  beforeAll(async () => {
    server = await startServer()
    // Answers GET /user, refuses every other request with 401 (an action of a working token), or
    // 429 with Retry-After 30 under /throttled.
    fake = createHttpServer((req, res) => {
      fakeRequests.push(req.url ?? '')
      req.resume()
      const json = { 'Content-Type': 'application/json' }
      if (req.url === '/api/v4/user') return res.writeHead(200, json).end('{"id":1,"username":"root"}')
      if (req.url?.startsWith('/api/v4/throttled'))
        return res.writeHead(429, { ...json, 'Retry-After': '30' }).end('{"message":"Retry later"}')
      res.writeHead(401, json).end('{"message":"401 Unauthorized"}')
    })
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve))
    fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await server.close()
    fake.closeAllConnections()
    await new Promise<void>((resolve) => fake.close(() => resolve()))
  })

  it('holds it once an OAuth pair is refused, refresh included, and sends nothing more until it is signed in', async () => {
    const { user, password } = seedUser(server)
    const issued = await requestOAuthToken(
      server.url,
      { grant_type: 'password', username: user.username, password },
      { fetch, timeoutMs: 5_000 },
    )
    // Revoked as the server revokes a pair: its refresh token goes with it.
    server.app.burrow.db
      .prepare('UPDATE oauth_access_tokens SET revoked_at = ?, refresh_digest = NULL WHERE user_id = ?')
      .run(new Date().toISOString(), user.id)
    const log: { url: string; status: number; headers: Headers }[] = []
    const gate = new AccessGate()
    const client = new ApiClient({
      baseUrl: server.url,
      credentials: async () => issued,
      fetch: recordingFetch(log),
      gate,
    })
    await expect(client.get('/projects')).rejects.toBeInstanceOf(SignInRequiredError)
    expect(gate.signInRequired?.reason).toMatch(/refused the saved sign-in \(401\)/)
    const sent = log.length
    await expect(client.get('/projects')).rejects.toBeInstanceOf(SignInRequiredError)
    expect(log).toHaveLength(sent)
    // The check itself still goes out (with its one refresh attempt), and is refused again.
    await expect(client.get('/user', undefined, { checksSignIn: true })).rejects.toBeInstanceOf(SignInRequiredError)
    expect(log.slice(sent).map((r) => new URL(r.url).pathname)).toEqual(['/api/v4/user', '/oauth/token'])
  })

  it('does not hold it for a 401 refusing one action of a credential that works', async () => {
    const gate = new AccessGate()
    const client = new ApiClient({ baseUrl: fakeUrl, credentials: pat('working'), gate })
    fakeRequests.length = 0
    const refused = await client.get('/projects/1/locked').catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(UnauthorizedError)
    expect(refused).not.toBeInstanceOf(SignInRequiredError)
    // One GET /user told the two apart.
    expect(fakeRequests).toEqual(['/api/v4/projects/1/locked', '/api/v4/user'])
    expect(gate.open).toBe(true)
  })

  it('holds every request of the account for a Retry-After beyond what a caller waits', async () => {
    const gate = new AccessGate()
    const client = new ApiClient({ baseUrl: fakeUrl, credentials: pat('working'), gate, maxRateLimitWaitMs: 0 })
    fakeRequests.length = 0
    await expect(client.get('/throttled')).rejects.toBeInstanceOf(RateLimitedError)
    expect(gate.waitLeftMs()).toBeGreaterThan(25_000)
    expect(gate.open).toBe(false)
    const held = await client.get('/user').catch((e: unknown) => e)
    expect(held).toBeInstanceOf(RateLimitedError)
    expect((held as RateLimitedError).retryAfterSeconds).toBeGreaterThan(25)
    expect(fakeRequests).toEqual(['/api/v4/throttled'])
    gate.dispose()
  })
})

describe('ApiClient rate limiting', () => {
  let server: ListeningServer
  beforeAll(async () => {
    server = await startServer({
      settings: { throttle_authenticated_api_requests_per_period: 2, throttle_authenticated_api_period_in_seconds: 1 },
    })
  })
  afterAll(async () => {
    await server.close()
  })

  it('waits Retry-After on a 429 and retries', async () => {
    const { token } = seedUser(server)
    const log: { url: string; status: number; headers: Headers }[] = []
    const client = new ApiClient({ baseUrl: server.url, credentials: pat(token), fetch: recordingFetch(log) })
    for (let i = 0; i < 3; i++) await client.get<User>('/user')
    expect(log.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(1)
    expect(log.filter((r) => r.status === 200)).toHaveLength(3)
  })

  it('gives up with RateLimitedError once the wait budget would be exceeded', async () => {
    const { token } = seedUser(server)
    const client = new ApiClient({ baseUrl: server.url, credentials: pat(token), maxRateLimitWaitMs: 0 })
    const results = await Promise.allSettled([client.get('/user'), client.get('/user'), client.get('/user')])
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    expect(rejected).toHaveLength(1)
    expect(rejected[0]?.reason).toBeInstanceOf(RateLimitedError)
    expect((rejected[0]?.reason as RateLimitedError).retryAfterSeconds).toBeGreaterThanOrEqual(1)
  })

  it('stops waiting when the caller aborts', async () => {
    const { token } = seedUser(server)
    const client = new ApiClient({ baseUrl: server.url, credentials: pat(token) })
    await Promise.all([client.get('/user'), client.get('/user')])
    const controller = new AbortController()
    const pending = client.get('/user', undefined, { signal: controller.signal })
    setTimeout(() => controller.abort(new Error('user cancelled')), 100)
    await expect(pending).rejects.toThrow('user cancelled')
  })
})

describe('ApiClient on a server that always answers 429', () => {
  let server: Server
  let url: string
  const methods: string[] = []
  beforeAll(async () => {
    // Burrow Server's throttle lets requests through after a second; this one never does.
    server = createHttpServer((req, res) => {
      methods.push(req.method ?? '')
      req.resume()
      res.writeHead(429, { 'Retry-After': '0', 'Content-Type': 'application/json' }).end('{"message":"Retry later"}')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  it('retries a POST only once, and a GET a bounded number of times', async () => {
    const client = new ApiClient({ baseUrl: url, credentials: pat('t') })
    methods.length = 0
    await expect(client.post('/projects', { name: 'x' })).rejects.toBeInstanceOf(RateLimitedError)
    expect(methods).toEqual(['POST', 'POST'])
    methods.length = 0
    await expect(client.get('/projects')).rejects.toBeInstanceOf(RateLimitedError)
    expect(methods).toHaveLength(6)
  })
})

describe('ApiClient network failures', () => {
  let silent: Server
  let silentUrl: string
  beforeAll(async () => {
    // Accepts connections and reads requests, never answers: the request certainly left.
    silent = createHttpServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    silent.closeAllConnections()
    await new Promise<void>((resolve) => silent.close(() => resolve()))
  })

  it('throws NetworkError (refused, outcome known) when the server is stopped', async () => {
    const server = await startServer()
    const url = server.url
    await server.close()
    const client = new ApiClient({ baseUrl: url, credentials: pat('t') })
    const error = await client.post('/projects', { name: 'x' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NetworkError)
    expect(error).toMatchObject({ failure: 'refused', outcomeUnknown: false })
  })

  it('marks a timed-out POST as outcomeUnknown and a timed-out GET as retryable', async () => {
    const client = new ApiClient({ baseUrl: silentUrl, credentials: pat('t'), timeoutMs: 200 })
    const post = await client.post('/projects', { name: 'x' }).catch((e: unknown) => e)
    expect(post).toBeInstanceOf(NetworkError)
    expect(post).toMatchObject({ failure: 'timeout', outcomeUnknown: true })
    const get = await client.get('/projects').catch((e: unknown) => e)
    expect(get).toMatchObject({ failure: 'timeout', outcomeUnknown: false })
  })
})

describe('OnlineState', () => {
  it('flips offline on a NetworkError and back online when the server returns on the same port', async () => {
    const port = await freePort()
    const dataDir = mkdtempSync(join(tmpdir(), 'burrow-conn-'))
    const start = async () => {
      const app = await buildApp({ dataDir, rootToken: ROOT_TOKEN })
      await app.listen({ host: '127.0.0.1', port })
      return app
    }
    let app = await start()
    const baseUrl = `http://127.0.0.1:${port}`
    const probe = new ApiClient({ baseUrl, credentials: pat(ROOT_TOKEN) })
    // Long interval: the test drives probes itself through probeNow().
    const online = new OnlineState({ probe: () => probe.probe(), initialIntervalMs: 60_000 })
    const changes: Connectivity[] = []
    online.onDidChange((s) => changes.push(s))
    const client = new ApiClient({ baseUrl, credentials: pat(ROOT_TOKEN), connectivity: online })
    try {
      await client.get('/user')
      expect(online.current).toBe('online')

      await app.close()
      await expect(client.get('/user')).rejects.toBeInstanceOf(NetworkError)
      expect(online.current).toBe('offline')
      expect(await online.probeNow()).toBe(false)
      expect(online.current).toBe('offline')

      app = await start()
      expect(await online.probeNow()).toBe(true)
      expect(online.current).toBe('online')
      expect(changes).toEqual(['offline', 'online'])
    } finally {
      online.dispose()
      await app.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('probes on its own interval after going offline', async () => {
    let up = false
    let probes = 0
    const online = new OnlineState({ probe: async () => (probes++, up), initialIntervalMs: 20, maxIntervalMs: 40 })
    const flipped = new Promise<Connectivity>((resolve) => online.onDidChange((s) => s === 'online' && resolve(s)))
    online.reportNetworkError()
    await new Promise((r) => setTimeout(r, 100))
    up = true
    expect(await flipped).toBe('online')
    expect(probes).toBeGreaterThanOrEqual(2)
    online.dispose()
  })
})
