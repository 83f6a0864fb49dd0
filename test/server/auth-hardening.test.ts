import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/auth/access'
import { seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

const form = { 'content-type': 'application/x-www-form-urlencoded' }

describe('authentication hardening', () => {
  let s: TestServer
  let alice: SeededUser
  let admin: SeededUser

  beforeAll(async () => {
    s = await makeServer()
    alice = seedUser(s, { username: 'hard_alice' })
    admin = seedUser(s, { username: 'hard_admin', admin: true })
  })
  afterAll(async () => {
    await s.close()
  })

  const passwordGrant = (username: string, password: string, scope?: string) =>
    s.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: form,
      payload: new URLSearchParams({ grant_type: 'password', username, password, ...(scope ? { scope } : {}) }).toString(),
    })

  const tokenCount = (userId: number) =>
    (s.app.burrow.db.prepare('SELECT COUNT(*) AS n FROM personal_access_tokens WHERE user_id = ?').get(userId) as { n: number }).n

  describe('scopes a token’s owner cannot hold', () => {
    it('refuses sudo and admin_mode to a non-administrator’s password grant with invalid_scope', async () => {
      for (const scope of ['api sudo', 'admin_mode']) {
        const res = await passwordGrant('hard_alice', alice.password, scope)
        expect(res.statusCode).toBe(400)
        expect(res.json()).toEqual({ error: 'invalid_scope', error_description: 'The requested scope is invalid, unknown, or malformed.' })
      }
      const oauthTokens = s.app.burrow.db.prepare('SELECT COUNT(*) AS n FROM oauth_access_tokens WHERE user_id = ?').get(alice.user.id) as { n: number }
      expect(oauthTokens.n).toBe(0)
    })

    it('grants sudo to an administrator’s password grant', async () => {
      const res = await passwordGrant('hard_admin', admin.password, 'api sudo')
      expect(res.statusCode).toBe(200)
      expect(res.json().scope).toBe('api sudo')
    })

    it('answers a wrong password with invalid_grant before looking at the scopes', async () => {
      const res = await passwordGrant('hard_alice', 'wrong-password', 'sudo')
      expect(res.json().error).toBe('invalid_grant')
    })

    it('refuses a personal access token with sudo or admin_mode for a non-administrator with 400, storing nothing', async () => {
      const before = tokenCount(alice.user.id)
      for (const scopes of [['api', 'sudo'], ['admin_mode']]) {
        const res = await s.request(ROOT_TOKEN, { method: 'POST', url: `/api/v4/users/${alice.user.id}/personal_access_tokens`, payload: { name: 'x', scopes } })
        expect(res.statusCode).toBe(400)
        expect(res.json()).toEqual({ message: 'Scopes can only contain available scopes' })
      }
      expect(tokenCount(alice.user.id)).toBe(before)
      const forAdmin = await s.request(ROOT_TOKEN, { method: 'POST', url: `/api/v4/users/${admin.user.id}/personal_access_tokens`, payload: { name: 'x', scopes: ['api', 'sudo'] } })
      expect(forAdmin.statusCode).toBe(201)
    })

    it('refuses an impersonation token with sudo for a non-administrator with GitLab’s validation error', async () => {
      const before = tokenCount(alice.user.id)
      const res = await s.request(ROOT_TOKEN, { method: 'POST', url: `/api/v4/users/${alice.user.id}/impersonation_tokens`, payload: { name: 'x', scopes: ['sudo'] } })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: { scopes: ['can only contain available scopes'] } })
      expect(tokenCount(alice.user.id)).toBe(before)
    })

    it('refuses a project access token with sudo or admin_mode, creating no bot', async () => {
      const project = seedProject(s, { ownerId: alice.user.id, path: 'scoped' })
      seedMember(s, 'Project', project.id, alice.user.id, AccessLevel.MAINTAINER)
      const bots = () => (s.app.burrow.db.prepare("SELECT COUNT(*) AS n FROM users WHERE user_type = 'project_bot'").get() as { n: number }).n
      const before = bots()
      for (const scopes of [['api', 'sudo'], ['admin_mode']]) {
        const res = await s.request(ROOT_TOKEN, { method: 'POST', url: `/api/v4/projects/${project.id}/access_tokens`, payload: { name: 'x', scopes } })
        expect(res.statusCode).toBe(400)
        expect(res.json()).toEqual({ message: '400 Bad request - Scopes can only contain available scopes' })
      }
      expect(bots()).toBe(before)
    })
  })
})
