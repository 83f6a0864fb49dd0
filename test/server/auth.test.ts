import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { digestToken, generateToken } from '../../src/server/platform/auth/secrets'
import { insertPersonalToken } from '../../src/server/modules/tokens/queries'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'
import { seedProject } from '../helpers/fixtures'

const json = { 'content-type': 'application/json' }
const form = { 'content-type': 'application/x-www-form-urlencoded' }

describe('authentication', () => {
  let s: TestServer
  let alice: SeededUser

  beforeAll(async () => {
    s = await makeServer()
    alice = seedUser(s, { username: 'Alice' })
  })
  afterAll(async () => {
    await s.close()
  })

  const me = async (opts: { url?: string; headers?: Record<string, string> }) =>
    s.app.inject({ method: 'GET', url: opts.url ?? '/api/v4/user', headers: opts.headers ?? {} })

  /** A token for `userId` inserted straight in the database, with the given scopes and expiry. */
  function rawToken(userId: number, scopes: string[], expiresAt: string | null = null, impersonation = false): string {
    const value = generateToken()
    insertPersonalToken(s.app.burrow.db, {
      userId,
      name: 'raw',
      digest: digestToken(value),
      scopes,
      expiresAt,
      impersonation,
    })
    return value
  }

  async function passwordGrant(
    username: string,
    password: string,
  ): Promise<{ access_token: string; refresh_token: string }> {
    const res = await s.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: form,
      payload: `grant_type=password&username=${username}&password=${encodeURIComponent(password)}`,
    })
    expect(res.statusCode).toBe(200)
    return res.json()
  }

  describe('personal access token transports', () => {
    it('accepts the PRIVATE-TOKEN header', async () => {
      expect((await me({ headers: { 'private-token': alice.token } })).json().id).toBe(alice.user.id)
    })

    it('accepts the private_token query parameter', async () => {
      expect((await me({ url: `/api/v4/user?private_token=${alice.token}` })).json().id).toBe(alice.user.id)
    })

    it('accepts Authorization: Bearer with a personal access token', async () => {
      expect((await me({ headers: { authorization: `Bearer ${alice.token}` } })).json().id).toBe(alice.user.id)
    })
  })

  describe('OAuth2', () => {
    it('issues a token through the password grant usable as Bearer and as access_token', async () => {
      const t = await passwordGrant('alice', alice.password)
      expect((await me({ headers: { authorization: `Bearer ${t.access_token}` } })).json().id).toBe(alice.user.id)
      expect((await me({ url: `/api/v4/user?access_token=${t.access_token}` })).json().id).toBe(alice.user.id)
    })

    it('answers the password grant with token_type bearer, expires_in, refresh_token, scope and created_at', async () => {
      const res = await s.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: json,
        payload: { grant_type: 'password', username: 'alice', password: alice.password },
      })
      expect(res.statusCode).toBe(200)
      const body = res.json()
      expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 7200 })
      expect(typeof body.refresh_token).toBe('string')
      expect(body.refresh_token).not.toBe(body.access_token)
      expect(typeof body.scope).toBe('string')
      expect(Math.abs(body.created_at - Date.now() / 1000)).toBeLessThan(60)
    })

    it('answers 401 with the spec body once an access token is older than expires_in', async () => {
      const t = await passwordGrant('alice', alice.password)
      s.app.burrow.db
        .prepare('UPDATE oauth_access_tokens SET created_at = ? WHERE token_digest = ?')
        .run(new Date(Date.now() - 7201_000).toISOString(), digestToken(t.access_token))
      const res = await me({ headers: { authorization: `Bearer ${t.access_token}` } })
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({ message: '401 Unauthorized' })
    })

    it('refreshes an expired access token with its refresh_token', async () => {
      const t = await passwordGrant('alice', alice.password)
      s.app.burrow.db
        .prepare('UPDATE oauth_access_tokens SET created_at = ? WHERE token_digest = ?')
        .run(new Date(Date.now() - 7201_000).toISOString(), digestToken(t.access_token))
      const res = await s.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: form,
        payload: `grant_type=refresh_token&refresh_token=${t.refresh_token}`,
      })
      expect(res.statusCode).toBe(200)
      expect((await me({ headers: { authorization: `Bearer ${res.json().access_token}` } })).json().id).toBe(
        alice.user.id,
      )
    })

    it('refuses a refresh token used twice with invalid_grant', async () => {
      const t = await passwordGrant('alice', alice.password)
      const once = await s.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: json,
        payload: { grant_type: 'refresh_token', refresh_token: t.refresh_token },
      })
      expect(once.statusCode).toBe(200)
      const twice = await s.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: json,
        payload: { grant_type: 'refresh_token', refresh_token: t.refresh_token },
      })
      expect(twice.statusCode).toBe(400)
      expect(twice.json().error).toBe('invalid_grant')
    })

    it('refuses a wrong password with invalid_grant', async () => {
      const res = await s.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: json,
        payload: { grant_type: 'password', username: 'alice', password: 'nope-nope' },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json().error).toBe('invalid_grant')
    })

    it('refreshes a token, after which the old access token answers 401', async () => {
      const t = await passwordGrant('alice', alice.password)
      const res = await s.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: json,
        payload: { grant_type: 'refresh_token', refresh_token: t.refresh_token },
      })
      expect(res.statusCode).toBe(200)
      const fresh = res.json()
      expect((await me({ headers: { authorization: `Bearer ${fresh.access_token}` } })).statusCode).toBe(200)
      expect((await me({ headers: { authorization: `Bearer ${t.access_token}` } })).statusCode).toBe(401)
    })

    it('does not accept an OAuth token in PRIVATE-TOKEN', async () => {
      const t = await passwordGrant('alice', alice.password)
      expect((await me({ headers: { 'private-token': t.access_token } })).statusCode).toBe(401)
    })
  })

  describe('unusable credentials', () => {
    it('answers 401 with the spec body for an unknown token', async () => {
      const res = await me({ headers: { 'private-token': 'glpat-unknown' } })
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({ message: '401 Unauthorized' })
    })

    it('answers 401 for an expired token', async () => {
      const token = rawToken(alice.user.id, ['api'], '2001-01-01')
      const res = await me({ headers: { 'private-token': token } })
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({ message: '401 Unauthorized' })
    })

    it('answers 401 for a revoked token', async () => {
      const token = rawToken(alice.user.id, ['api'])
      const id = (await me({ url: '/api/v4/personal_access_tokens/self', headers: { 'private-token': token } })).json()
        .id
      await s.request(ROOT_TOKEN, { method: 'DELETE', url: `/api/v4/personal_access_tokens/${id}` })
      expect((await me({ headers: { 'private-token': token } })).statusCode).toBe(401)
    })

    it('refuses the token of a blocked user with 403', async () => {
      const u = seedUser(s)
      await s.request(ROOT_TOKEN, { method: 'POST', url: `/api/v4/users/${u.user.id}/block` })
      const res = await me({ headers: { 'private-token': u.token } })
      expect(res.statusCode).toBe(403)
      expect(res.json().message).toContain('blocked')
    })

    it('answers 401 to a call that needs authentication without credentials', async () => {
      expect((await me({})).statusCode).toBe(401)
    })
  })

  describe('scopes', () => {
    it('lets a read_api token read but answers 403 insufficient_scope to a write', async () => {
      const token = rawToken(alice.user.id, ['read_api'])
      expect((await me({ headers: { 'private-token': token } })).statusCode).toBe(200)
      const res = await s.app.inject({
        method: 'POST',
        url: `/api/v4/users/${alice.user.id}/block`,
        headers: { 'private-token': token },
      })
      expect(res.statusCode).toBe(403)
      expect(res.json()).toMatchObject({ error: 'insufficient_scope', scope: 'api' })
    })

    it('lets a read_user token read GET /user, /users and /users/:id', async () => {
      const token = rawToken(alice.user.id, ['read_user'])
      expect((await me({ headers: { 'private-token': token } })).statusCode).toBe(200)
      expect((await me({ url: '/api/v4/users', headers: { 'private-token': token } })).statusCode).toBe(200)
      expect(
        (await me({ url: `/api/v4/users/${alice.user.id}`, headers: { 'private-token': token } })).statusCode,
      ).toBe(200)
    })
  })

  describe('project access tokens', () => {
    it('authenticates as the project bot', async () => {
      const project = seedProject(s, { ownerId: alice.user.id })
      const t = (
        await s.request(alice.token, {
          method: 'POST',
          url: `/api/v4/projects/${project.id}/access_tokens`,
          headers: json,
          payload: { name: 'bot', scopes: ['api'] },
        })
      ).json()
      const res = await me({ headers: { 'private-token': t.token } })
      expect(res.statusCode).toBe(200)
      expect(res.json().username).toMatch(/^project_\d+_bot_/)
    })
  })

  describe('impersonation tokens', () => {
    it('authenticates while impersonation is enabled and answers 401 when it is disabled', async () => {
      const u = seedUser(s)
      const t = (
        await s.request(ROOT_TOKEN, {
          method: 'POST',
          url: `/api/v4/users/${u.user.id}/impersonation_tokens`,
          headers: json,
          payload: { name: 'imp', scopes: ['api'] },
        })
      ).json()
      expect((await me({ headers: { 'private-token': t.token } })).json().id).toBe(u.user.id)
      await s.request(ROOT_TOKEN, {
        method: 'PUT',
        url: '/api/v4/application/settings',
        headers: json,
        payload: { impersonation_enabled: false },
      })
      try {
        const res = await me({ headers: { 'private-token': t.token } })
        expect(res.statusCode).toBe(401)
        expect(res.json()).toEqual({ message: '401 Unauthorized' })
      } finally {
        await s.request(ROOT_TOKEN, {
          method: 'PUT',
          url: '/api/v4/application/settings',
          headers: json,
          payload: { impersonation_enabled: true },
        })
      }
    })
  })

  describe('sudo', () => {
    it('runs as the user named by id in the Sudo header', async () => {
      const res = await me({ headers: { 'private-token': ROOT_TOKEN, sudo: String(alice.user.id) } })
      expect(res.json().id).toBe(alice.user.id)
    })

    it('runs as the user named by a case-insensitive username in the sudo query', async () => {
      const res = await me({ url: '/api/v4/user?sudo=aLiCe', headers: { 'private-token': ROOT_TOKEN } })
      expect(res.json().id).toBe(alice.user.id)
    })

    it('answers 403 with a message when a non-administrator uses sudo', async () => {
      const res = await me({ headers: { 'private-token': alice.token, sudo: 'root' } })
      expect(res.statusCode).toBe(403)
      expect(res.json()).toEqual({ message: '403 Forbidden - Must be admin to use sudo' })
    })

    it('answers 403 insufficient_scope for an administrator token without the sudo scope', async () => {
      const admin = seedUser(s, { admin: true, scopes: ['api'] })
      const res = await me({ headers: { 'private-token': admin.token, sudo: 'alice' } })
      expect(res.statusCode).toBe(403)
      expect(res.json()).toEqual({
        error: 'insufficient_scope',
        error_description: 'The request requires higher privileges than provided by the access token.',
        scope: 'sudo',
      })
    })

    it('answers 404 with a message for an unknown sudo user', async () => {
      const res = await me({ headers: { 'private-token': ROOT_TOKEN, sudo: 'nobody-here' } })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: "404 User with ID or username 'nobody-here' Not Found" })
    })

    it('applies the sudo user’s permissions: an admin-only call is refused', async () => {
      const res = await s.app.inject({
        method: 'GET',
        url: '/api/v4/application/settings',
        headers: { 'private-token': ROOT_TOKEN, sudo: 'alice' },
      })
      expect(res.statusCode).toBe(403)
    })
  })
})
