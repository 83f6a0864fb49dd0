import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'
import { seedMember, seedProject } from '../helpers/fixtures'

const json = { 'content-type': 'application/json' }

/** A date `days` ahead, as `YYYY-MM-DD`. */
function inDays(days: number): string {
  const d = new Date()
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

describe('token endpoints', () => {
  let s: TestServer
  let alice: SeededUser
  let bob: SeededUser

  beforeAll(async () => {
    s = await makeServer()
    alice = seedUser(s, { username: 'alice' })
    bob = seedUser(s, { username: 'bob' })
  })
  afterAll(async () => {
    await s.close()
  })

  const createPat = async (userId: number, body: Record<string, unknown>) =>
    s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/users/${userId}/personal_access_tokens`,
      headers: json,
      payload: body,
    })

  describe('personal access tokens', () => {
    it('lets an administrator create a token for a user, shown once with its value', async () => {
      const res = await createPat(alice.user.id, { name: 'ci', scopes: ['api', 'read_user'], expires_at: inDays(30) })
      expect(res.statusCode).toBe(201)
      const t = res.json()
      expect(t).toMatchObject({
        name: 'ci',
        revoked: false,
        scopes: ['api', 'read_user'],
        user_id: alice.user.id,
        active: true,
        expires_at: inDays(30),
        last_used_at: null,
      })
      expect(t.token).toMatch(/^glpat-/)
      expect((await s.request(t.token, { method: 'GET', url: '/api/v4/user' })).json().id).toBe(alice.user.id)
      const again = (
        await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/personal_access_tokens/${t.id}` })
      ).json()
      expect(again).not.toHaveProperty('token')
    })

    it('defaults expires_at to a year ahead', async () => {
      const t = (await createPat(alice.user.id, { name: 'noexp', scopes: 'api' })).json()
      const expected = new Date()
      expected.setUTCDate(expected.getUTCDate() + 365)
      expect(t.expires_at).toBe(expected.toISOString().slice(0, 10))
    })

    it('rejects unknown scopes with 400', async () => {
      const res = await createPat(alice.user.id, { name: 'bad', scopes: ['api', 'root_powers'] })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'scopes does not have a valid value' })
    })

    it('refuses an expires_at in the past with 400', async () => {
      const res = await createPat(alice.user.id, { name: 'old', scopes: ['api'], expires_at: '2001-01-01' })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: { expires_at: ['must be in the future'] } })
    })

    it('requires name and scopes', async () => {
      expect((await createPat(alice.user.id, { scopes: ['api'] })).json()).toEqual({ error: 'name is missing' })
      expect((await createPat(alice.user.id, { name: 'x' })).json()).toEqual({ error: 'scopes is missing' })
    })

    it('refuses token creation for others to non-administrators with 403', async () => {
      const res = await s.request(alice.token, {
        method: 'POST',
        url: `/api/v4/users/${bob.user.id}/personal_access_tokens`,
        headers: json,
        payload: { name: 'x', scopes: ['api'] },
      })
      expect(res.statusCode).toBe(403)
    })

    it('answers 404 User Not Found for an unknown user', async () => {
      const res = await createPat(999999, { name: 'x', scopes: ['api'] })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: '404 User Not Found' })
    })

    it('lists only the caller’s own tokens to non-administrators', async () => {
      const res = await s.request(bob.token, { method: 'GET', url: '/api/v4/personal_access_tokens' })
      expect(res.statusCode).toBe(200)
      const owners = (res.json() as { user_id: number }[]).map((t) => t.user_id)
      // bob holds at least his seeded token; an empty list would prove nothing.
      expect(owners.length).toBeGreaterThan(0)
      expect(new Set(owners)).toEqual(new Set([bob.user.id]))
      expect(res.headers['x-total']).toBe(String(owners.length))
    })

    it('answers 401 when a non-administrator filters on another user_id', async () => {
      const res = await s.request(bob.token, {
        method: 'GET',
        url: `/api/v4/personal_access_tokens?user_id=${alice.user.id}`,
      })
      expect(res.statusCode).toBe(401)
    })

    it('lets administrators filter by user_id, state, revoked and search', async () => {
      const u = seedUser(s)
      const a = (await createPat(u.user.id, { name: 'alpha-token', scopes: ['api'] })).json()
      const b = (await createPat(u.user.id, { name: 'beta-token', scopes: ['api'] })).json()
      await s.request(ROOT_TOKEN, { method: 'DELETE', url: `/api/v4/personal_access_tokens/${b.id}` })
      const list = async (q: string) =>
        (
          await s.request(ROOT_TOKEN, {
            method: 'GET',
            url: `/api/v4/personal_access_tokens?user_id=${u.user.id}&${q}`,
          })
        )
          .json()
          .map((t: { id: number }) => t.id)
      expect(await list('')).toHaveLength(3)
      expect(await list('revoked=true')).toEqual([b.id])
      expect(await list('state=inactive')).toEqual([b.id])
      expect(await list('search=alpha')).toEqual([a.id])
      expect(await list('created_after=2000-01-01T00:00:00Z&created_before=2000-01-02T00:00:00Z')).toEqual([])
    })

    it('gets and revokes the token in use through /self', async () => {
      const u = seedUser(s)
      const self = (await s.request(u.token, { method: 'GET', url: '/api/v4/personal_access_tokens/self' })).json()
      expect(self.user_id).toBe(u.user.id)
      expect(
        (await s.request(u.token, { method: 'DELETE', url: '/api/v4/personal_access_tokens/self' })).statusCode,
      ).toBe(204)
      expect((await s.request(u.token, { method: 'GET', url: '/api/v4/user' })).statusCode).toBe(401)
    })

    it('answers 401 to a non-administrator reading someone else’s token, 404 to an admin for a missing one', async () => {
      const t = (await createPat(alice.user.id, { name: 'mine', scopes: ['api'] })).json()
      expect(
        (await s.request(bob.token, { method: 'GET', url: `/api/v4/personal_access_tokens/${t.id}` })).statusCode,
      ).toBe(401)
      const res = await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/personal_access_tokens/999999' })
      expect(res.statusCode).toBe(404)
    })

    it('answers 400 to a non-administrator revoking someone else’s token', async () => {
      const t = (await createPat(alice.user.id, { name: 'keep', scopes: ['api'] })).json()
      expect(
        (await s.request(bob.token, { method: 'DELETE', url: `/api/v4/personal_access_tokens/${t.id}` })).statusCode,
      ).toBe(400)
    })

    it('rotates a token: the old one stops working, the new one expires in a week', async () => {
      const t = (await createPat(alice.user.id, { name: 'rot', scopes: ['api'] })).json()
      const res = await s.request(t.token, { method: 'POST', url: `/api/v4/personal_access_tokens/${t.id}/rotate` })
      expect(res.statusCode).toBe(200)
      const rotated = res.json()
      expect(rotated.token).not.toBe(t.token)
      expect(rotated.name).toBe('rot')
      const week = new Date()
      week.setUTCDate(week.getUTCDate() + 7)
      expect(rotated.expires_at).toBe(week.toISOString().slice(0, 10))
      expect((await s.request(t.token, { method: 'GET', url: '/api/v4/user' })).statusCode).toBe(401)
      expect((await s.request(rotated.token, { method: 'GET', url: '/api/v4/user' })).statusCode).toBe(200)
    })

    it('self-rotates with a given expires_at and refuses to rotate a revoked token', async () => {
      const t = (await createPat(alice.user.id, { name: 'selfrot', scopes: ['api'] })).json()
      const res = await s.request(t.token, {
        method: 'POST',
        url: '/api/v4/personal_access_tokens/self/rotate',
        headers: json,
        payload: { expires_at: inDays(20) },
      })
      expect(res.statusCode).toBe(200)
      expect(res.json().expires_at).toBe(inDays(20))
      const again = await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: `/api/v4/personal_access_tokens/${t.id}/rotate`,
      })
      expect(again.statusCode).toBe(400)
      expect(again.json()).toEqual({ message: '400 Bad request - token already revoked' })
    })

    it('records audit events for creation and revocation', async () => {
      const u = seedUser(s)
      const t = (await createPat(u.user.id, { name: 'aud', scopes: ['api'] })).json()
      await s.request(ROOT_TOKEN, { method: 'DELETE', url: `/api/v4/personal_access_tokens/${t.id}` })
      const rows = s.app.burrow.db
        .prepare(`SELECT details FROM audit_events WHERE entity_type = 'User' AND entity_id = ? ORDER BY id`)
        .all(u.user.id) as { details: string }[]
      expect(rows.map((r) => JSON.parse(r.details).custom_message)).toEqual([
        `Created personal access token with id ${t.id}`,
        `Revoked access token with id ${t.id}`,
      ])
    })
  })

  describe('impersonation tokens', () => {
    const url = (userId: number, rest = '') => `/api/v4/users/${userId}/impersonation_tokens${rest}`

    it('creates, lists, gets and revokes an impersonation token', async () => {
      const res = await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: url(bob.user.id),
        headers: json,
        payload: { name: 'imp', scopes: ['api'] },
      })
      expect(res.statusCode).toBe(201)
      const t = res.json()
      expect(t).toMatchObject({ name: 'imp', impersonation: true, active: true, user_id: bob.user.id })
      expect((await s.request(t.token, { method: 'GET', url: '/api/v4/user' })).json().id).toBe(bob.user.id)
      const list = (await s.request(ROOT_TOKEN, { method: 'GET', url: url(bob.user.id) })).json()
      expect(list.map((x: { id: number }) => x.id)).toEqual([t.id])
      expect(
        (await s.request(ROOT_TOKEN, { method: 'GET', url: url(bob.user.id, `/${t.id}`) })).json().impersonation,
      ).toBe(true)
      expect((await s.request(ROOT_TOKEN, { method: 'DELETE', url: url(bob.user.id, `/${t.id}`) })).statusCode).toBe(
        204,
      )
      expect((await s.request(ROOT_TOKEN, { method: 'GET', url: url(bob.user.id, '?state=active') })).json()).toEqual(
        [],
      )
      expect(
        (await s.request(ROOT_TOKEN, { method: 'GET', url: url(bob.user.id, '?state=inactive') })).json(),
      ).toHaveLength(1)
      expect((await s.request(t.token, { method: 'GET', url: '/api/v4/user' })).statusCode).toBe(401)
    })

    it('answers 404 Impersonation Token Not Found for a personal token id', async () => {
      const pat = (await createPat(bob.user.id, { name: 'plain', scopes: ['api'] })).json()
      const res = await s.request(ROOT_TOKEN, { method: 'GET', url: url(bob.user.id, `/${pat.id}`) })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: '404 Impersonation Token Not Found' })
    })

    it('answers 403 to non-administrators', async () => {
      expect((await s.request(alice.token, { method: 'GET', url: url(alice.user.id) })).statusCode).toBe(403)
    })

    it('is not listed among a non-administrator’s own personal access tokens', async () => {
      const u = seedUser(s)
      const imp = (
        await s.request(ROOT_TOKEN, {
          method: 'POST',
          url: url(u.user.id),
          headers: json,
          payload: { name: 'imp', scopes: ['api'] },
        })
      ).json()
      const own = (await s.request(u.token, { method: 'GET', url: '/api/v4/personal_access_tokens' })).json()
      expect(own.map((t: { id: number }) => t.id)).not.toContain(imp.id)
    })
  })

  describe('project access tokens', () => {
    it('creates a bot member holding the token, which authenticates as the bot', async () => {
      const project = seedProject(s, { ownerId: alice.user.id })
      const res = await s.request(alice.token, {
        method: 'POST',
        url: `/api/v4/projects/${project.id}/access_tokens`,
        headers: json,
        payload: { name: 'deploy', scopes: ['api'], access_level: 30 },
      })
      expect(res.statusCode).toBe(201)
      const t = res.json()
      expect(t).toMatchObject({ name: 'deploy', access_level: 30, scopes: ['api'], active: true })
      const bot = (await s.request(t.token, { method: 'GET', url: '/api/v4/user' })).json()
      expect(bot.username).toMatch(new RegExp(`^project_${project.id}_bot_`))
      expect(bot.bot).toBe(true)
      const level = s.app.burrow.db
        .prepare(`SELECT access_level FROM members WHERE source_type = 'Project' AND source_id = ? AND user_id = ?`)
        .get(project.id, bot.id) as { access_level: number }
      expect(level.access_level).toBe(30)
    })

    it('defaults access_level to 40, lists and gets tokens', async () => {
      const project = seedProject(s, { ownerId: alice.user.id })
      const t = (
        await s.request(alice.token, {
          method: 'POST',
          url: `/api/v4/projects/${project.id}/access_tokens`,
          headers: json,
          payload: { name: 'x', scopes: ['read_api'] },
        })
      ).json()
      expect(t.access_level).toBe(40)
      const list = (
        await s.request(alice.token, { method: 'GET', url: `/api/v4/projects/${project.id}/access_tokens` })
      ).json()
      expect(list.map((x: { id: number }) => x.id)).toEqual([t.id])
      expect(
        (
          await s.request(alice.token, { method: 'GET', url: `/api/v4/projects/${project.id}/access_tokens/${t.id}` })
        ).json().access_level,
      ).toBe(40)
    })

    it('revokes with 204 and removes the bot', async () => {
      const project = seedProject(s, { ownerId: alice.user.id })
      const t = (
        await s.request(alice.token, {
          method: 'POST',
          url: `/api/v4/projects/${project.id}/access_tokens`,
          headers: json,
          payload: { name: 'x', scopes: ['api'] },
        })
      ).json()
      expect(
        (
          await s.request(alice.token, {
            method: 'DELETE',
            url: `/api/v4/projects/${project.id}/access_tokens/${t.id}`,
          })
        ).statusCode,
      ).toBe(204)
      expect((await s.request(t.token, { method: 'GET', url: '/api/v4/user' })).statusCode).toBe(401)
      const res = await s.request(alice.token, {
        method: 'GET',
        url: `/api/v4/projects/${project.id}/access_tokens/${t.id}`,
      })
      expect(res.statusCode).toBe(404)
    })

    it('rotates a project token', async () => {
      const project = seedProject(s, { ownerId: alice.user.id })
      const t = (
        await s.request(alice.token, {
          method: 'POST',
          url: `/api/v4/projects/${project.id}/access_tokens`,
          headers: json,
          payload: { name: 'x', scopes: ['api'] },
        })
      ).json()
      const res = await s.request(alice.token, {
        method: 'POST',
        url: `/api/v4/projects/${project.id}/access_tokens/${t.id}/rotate`,
      })
      expect(res.statusCode).toBe(200)
      expect(res.json().access_level).toBe(40)
      expect((await s.request(res.json().token, { method: 'GET', url: '/api/v4/user' })).statusCode).toBe(200)
      expect((await s.request(t.token, { method: 'GET', url: '/api/v4/user' })).statusCode).toBe(401)
    })

    it('answers 403 to a Developer', async () => {
      const project = seedProject(s, { ownerId: alice.user.id })
      seedMember(s, 'Project', project.id, bob.user.id, 30)
      expect(
        (await s.request(bob.token, { method: 'GET', url: `/api/v4/projects/${project.id}/access_tokens` })).statusCode,
      ).toBe(403)
    })

    it('refuses a Maintainer an Owner-level token with 400', async () => {
      const project = seedProject(s, { ownerId: alice.user.id })
      seedMember(s, 'Project', project.id, bob.user.id, 40)
      const res = await s.request(bob.token, {
        method: 'POST',
        url: `/api/v4/projects/${project.id}/access_tokens`,
        headers: json,
        payload: { name: 'x', scopes: ['api'], access_level: 50 },
      })
      expect(res.statusCode).toBe(400)
    })
  })

  describe('application settings', () => {
    it('reads and updates settings as an administrator', async () => {
      const before = (await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/application/settings' })).json()
      expect(before.impersonation_enabled).toBe(true)
      const res = await s.request(ROOT_TOKEN, {
        method: 'PUT',
        url: '/api/v4/application/settings?signup_enabled=false&default_projects_limit=7',
      })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({ signup_enabled: false, default_projects_limit: 7 })
      expect(
        (await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/application/settings' })).json().signup_enabled,
      ).toBe(false)
    })

    it('rejects a non-boolean for a boolean setting with 400', async () => {
      const res = await s.request(ROOT_TOKEN, {
        method: 'PUT',
        url: '/api/v4/application/settings',
        headers: json,
        payload: { signup_enabled: 'maybe' },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'signup_enabled is invalid' })
    })

    it('answers 403 to non-administrators', async () => {
      expect((await s.request(alice.token, { method: 'GET', url: '/api/v4/application/settings' })).statusCode).toBe(
        403,
      )
      expect(
        (await s.request(alice.token, { method: 'PUT', url: '/api/v4/application/settings?signup_enabled=true' }))
          .statusCode,
      ).toBe(403)
    })
  })
})
