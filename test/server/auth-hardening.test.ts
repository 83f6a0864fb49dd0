import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { AccessLevel } from '../../src/server/auth/access'
import { withClock } from '../../src/server/db/connection'
import { updateUser } from '../../src/server/db/users'
import { seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

const form = { 'content-type': 'application/x-www-form-urlencoded' }

/** Password hashing work done, counted as scrypt derivations (the only use of scrypt is passwords). */
const work = vi.hoisted(() => ({ scrypt: 0 }))
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>()
  const scryptSync: typeof actual.scryptSync = (...args: Parameters<typeof actual.scryptSync>) => {
    work.scrypt += 1
    return actual.scryptSync(...args)
  }
  return { ...actual, scryptSync }
})

/** Runs `fn` and answers how many scrypt derivations it made. */
async function scryptCalls(fn: () => Promise<unknown>): Promise<number> {
  const before = work.scrypt
  await fn()
  return work.scrypt - before
}

/** `Basic` credentials for git's smart HTTP. */
function basic(login: string, secret: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${login}:${secret}`).toString('base64')}` }
}

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000)

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

  describe('password checks spend the same work for every login', () => {
    const gitInfoRefs = (headers: Record<string, string>) =>
      s.app.inject({ method: 'GET', url: '/nobody/nothing.git/info/refs?service=git-upload-pack', headers })

    it('hashes once for a wrong password, an unknown login and a user without a password on the OAuth password grant', async () => {
      const noPassword = seedUser(s, { username: 'hard_nopass' })
      updateUser(s.app.burrow.db, noPassword.user.id, { password_hash: null })
      const victim = seedUser(s, { username: 'hard_timing' })
      for (const login of ['hard_timing', 'hard_nobody_here', 'nobody@example.com', 'hard_nopass']) {
        expect(await scryptCalls(async () => expect((await passwordGrant(login, 'wrong-password')).json().error).toBe('invalid_grant'))).toBe(1)
      }
      expect(await scryptCalls(async () => expect((await passwordGrant('hard_timing', victim.password)).statusCode).toBe(200))).toBe(1)
    })

    it('hashes once for a known and an unknown login on git basic auth', async () => {
      seedUser(s, { username: 'hard_git_timing' })
      for (const login of ['hard_git_timing', 'hard_git_nobody']) {
        expect(await scryptCalls(async () => expect((await gitInfoRefs(basic(login, 'wrong-password'))).statusCode).toBe(401))).toBe(1)
      }
    })

    it('hashes once for a locked account, whose answer is the same as a wrong password’s', async () => {
      const locked = seedUser(s, { username: 'hard_locked_timing' })
      s.app.burrow.db.prepare('UPDATE users SET failed_attempts = 10, locked_until = ? WHERE id = ?').run(inMinutes(5).toISOString(), locked.user.id)
      const res = await passwordGrant('hard_locked_timing', locked.password)
      expect(res.json()).toEqual((await passwordGrant('hard_nobody_here', 'x')).json())
      expect(await scryptCalls(() => passwordGrant('hard_locked_timing', locked.password))).toBe(1)
    })
  })

  describe('account lockout after wrong passwords', () => {
    const userView = async (id: number) => (await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/users/${id}` })).json()
    const wrongPasswords = async (username: string, count: number) => {
      for (let i = 0; i < count; i += 1) expect((await passwordGrant(username, `wrong-${i}`)).json().error).toBe('invalid_grant')
    }

    it('locks an account after 10 wrong passwords: the right one is refused on OAuth and git, and the admin view says locked', async () => {
      const bob = seedUser(s, { username: 'hard_lock_bob' })
      await wrongPasswords('hard_lock_bob', 9)
      expect((await userView(bob.user.id)).locked).toBe(false)
      await wrongPasswords('hard_lock_bob', 1)
      const refused = await passwordGrant('hard_lock_bob', bob.password)
      expect(refused.statusCode).toBe(400)
      expect(refused.json().error).toBe('invalid_grant')
      const git = await s.app.inject({ method: 'GET', url: '/nobody/nothing.git/info/refs?service=git-upload-pack', headers: basic('hard_lock_bob', bob.password) })
      expect(git.statusCode).toBe(401)
      expect(await userView(bob.user.id)).toMatchObject({ id: bob.user.id, locked: true })
      const listed = (await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?username=hard_lock_bob' })).json()
      expect(listed[0].locked).toBe(true)
      // Tokens are not passwords: the account's personal access token still works, as in GitLab.
      expect((await s.request(bob.token, { method: 'GET', url: '/api/v4/user' })).statusCode).toBe(200)
    })

    it('unlocks by itself after failed_login_attempts_unlock_period_in_minutes', async () => {
      const carol = seedUser(s, { username: 'hard_lock_carol' })
      await wrongPasswords('hard_lock_carol', 10)
      await withClock(
        () => inMinutes(9),
        async () => expect((await passwordGrant('hard_lock_carol', carol.password)).json().error).toBe('invalid_grant'),
      )
      await withClock(
        () => inMinutes(11),
        async () => {
          expect((await userView(carol.user.id)).locked).toBe(false)
          expect((await passwordGrant('hard_lock_carol', carol.password)).statusCode).toBe(200)
        },
      )
    })

    it('counts again from zero once a lock has run out', async () => {
      const erin = seedUser(s, { username: 'hard_lock_erin' })
      await wrongPasswords('hard_lock_erin', 10)
      await withClock(
        () => inMinutes(11),
        async () => {
          await wrongPasswords('hard_lock_erin', 1)
          expect((await passwordGrant('hard_lock_erin', erin.password)).statusCode).toBe(200)
        },
      )
    })

    it('lets an administrator unlock at once with POST /users/:id/unlock, and nobody else', async () => {
      const dave = seedUser(s, { username: 'hard_lock_dave' })
      await wrongPasswords('hard_lock_dave', 10)
      const denied = await s.request(alice.token, { method: 'POST', url: `/api/v4/users/${dave.user.id}/unlock` })
      expect(denied.statusCode).toBe(403)
      expect((await userView(dave.user.id)).locked).toBe(true)
      const res = await s.request(ROOT_TOKEN, { method: 'POST', url: `/api/v4/users/${dave.user.id}/unlock` })
      expect(res.statusCode).toBe(201)
      expect(res.json()).toBe(true)
      expect((await userView(dave.user.id)).locked).toBe(false)
      expect((await passwordGrant('hard_lock_dave', dave.password)).statusCode).toBe(200)
      expect((await s.request(ROOT_TOKEN, { method: 'POST', url: '/api/v4/users/999999/unlock' })).statusCode).toBe(404)
    })

    it('clears the count on a right password, so wrong ones must come in a row', async () => {
      const fay = seedUser(s, { username: 'hard_lock_fay' })
      await wrongPasswords('hard_lock_fay', 9)
      expect((await passwordGrant('hard_lock_fay', fay.password)).statusCode).toBe(200)
      await wrongPasswords('hard_lock_fay', 9)
      expect((await passwordGrant('hard_lock_fay', fay.password)).statusCode).toBe(200)
    })

    it('does not count wrong passwords on git basic auth, as GitLab', async () => {
      const gus = seedUser(s, { username: 'hard_lock_gus' })
      for (let i = 0; i < 12; i += 1) {
        const res = await s.app.inject({ method: 'GET', url: '/nobody/nothing.git/info/refs?service=git-upload-pack', headers: basic('hard_lock_gus', `wrong-${i}`) })
        expect(res.statusCode).toBe(401)
      }
      expect((await passwordGrant('hard_lock_gus', gus.password)).statusCode).toBe(200)
    })

    it('follows max_login_attempts and failed_login_attempts_unlock_period_in_minutes, refusing values below 1', async () => {
      const put = (payload: Record<string, unknown>) => s.request(ROOT_TOKEN, { method: 'PUT', url: '/api/v4/application/settings', payload })
      const bad = await put({ max_login_attempts: 0, failed_login_attempts_unlock_period_in_minutes: 60 })
      expect(bad.statusCode).toBe(400)
      expect(bad.json()).toEqual({ message: { max_login_attempts: ['must be greater than 0'] } })
      expect(s.app.burrow.settings.get('failed_login_attempts_unlock_period_in_minutes')).toBe(10)
      expect((await put({ max_login_attempts: 3, failed_login_attempts_unlock_period_in_minutes: 60 })).json()).toMatchObject({
        max_login_attempts: 3,
        failed_login_attempts_unlock_period_in_minutes: 60,
      })
      try {
        const hal = seedUser(s, { username: 'hard_lock_hal' })
        await wrongPasswords('hard_lock_hal', 3)
        await withClock(
          () => inMinutes(59),
          async () => expect((await passwordGrant('hard_lock_hal', hal.password)).json().error).toBe('invalid_grant'),
        )
        await withClock(
          () => inMinutes(61),
          async () => expect((await passwordGrant('hard_lock_hal', hal.password)).statusCode).toBe(200),
        )
      } finally {
        await put({ max_login_attempts: 10, failed_login_attempts_unlock_period_in_minutes: 10 })
      }
    })
  })
})
