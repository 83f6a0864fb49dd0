import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { withClock } from '../../src/server/platform/db/connection'
import { updateUser } from '../../src/server/modules/users/queries'
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

let addresses = 0
/**
 * A client address no other request here used: account lockout is tested as from many machines,
 * and one test's failed-authentication ban never reaches another.
 */
function freshAddress(): string {
  addresses += 1
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`
}

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

  /** The OAuth password grant, from a fresh client address unless `from` names one. */
  const passwordGrant = (username: string, password: string, options: { scope?: string; from?: string } = {}) =>
    s.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: form,
      remoteAddress: options.from ?? freshAddress(),
      payload: new URLSearchParams({
        grant_type: 'password',
        username,
        password,
        ...(options.scope ? { scope: options.scope } : {}),
      }).toString(),
    })

  /** Git's first request of a fetch, from a fresh client address unless `from` names one. */
  const gitInfoRefs = (headers: Record<string, string>, from = freshAddress()) =>
    s.app.inject({
      method: 'GET',
      url: '/nobody/nothing.git/info/refs?service=git-upload-pack',
      headers,
      remoteAddress: from,
    })

  const tokenCount = (userId: number) =>
    (
      s.app.burrow.db.prepare('SELECT COUNT(*) AS n FROM personal_access_tokens WHERE user_id = ?').get(userId) as {
        n: number
      }
    ).n

  describe('scopes a token’s owner cannot hold', () => {
    it('refuses sudo and admin_mode to a non-administrator’s password grant with invalid_scope', async () => {
      for (const scope of ['api sudo', 'admin_mode']) {
        const res = await passwordGrant('hard_alice', alice.password, { scope })
        expect(res.statusCode).toBe(400)
        expect(res.json()).toEqual({
          error: 'invalid_scope',
          error_description: 'The requested scope is invalid, unknown, or malformed.',
        })
      }
      const oauthTokens = s.app.burrow.db
        .prepare('SELECT COUNT(*) AS n FROM oauth_access_tokens WHERE user_id = ?')
        .get(alice.user.id) as { n: number }
      expect(oauthTokens.n).toBe(0)
    })

    it('grants sudo to an administrator’s password grant', async () => {
      const res = await passwordGrant('hard_admin', admin.password, { scope: 'api sudo' })
      expect(res.statusCode).toBe(200)
      expect(res.json().scope).toBe('api sudo')
    })

    it('answers a wrong password with invalid_grant before looking at the scopes', async () => {
      const res = await passwordGrant('hard_alice', 'wrong-password', { scope: 'sudo' })
      expect(res.json().error).toBe('invalid_grant')
    })

    it('refuses a personal access token with sudo or admin_mode for a non-administrator with 400, storing nothing', async () => {
      const before = tokenCount(alice.user.id)
      for (const scopes of [['api', 'sudo'], ['admin_mode']]) {
        const res = await s.request(ROOT_TOKEN, {
          method: 'POST',
          url: `/api/v4/users/${alice.user.id}/personal_access_tokens`,
          payload: { name: 'x', scopes },
        })
        expect(res.statusCode).toBe(400)
        expect(res.json()).toEqual({ message: 'Scopes can only contain available scopes' })
      }
      expect(tokenCount(alice.user.id)).toBe(before)
      const forAdmin = await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: `/api/v4/users/${admin.user.id}/personal_access_tokens`,
        payload: { name: 'x', scopes: ['api', 'sudo'] },
      })
      expect(forAdmin.statusCode).toBe(201)
    })

    it('refuses an impersonation token with sudo for a non-administrator with GitLab’s validation error', async () => {
      const before = tokenCount(alice.user.id)
      const res = await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: `/api/v4/users/${alice.user.id}/impersonation_tokens`,
        payload: { name: 'x', scopes: ['sudo'] },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: { scopes: ['can only contain available scopes'] } })
      expect(tokenCount(alice.user.id)).toBe(before)
    })

    it('refuses a project access token with sudo or admin_mode, creating no bot', async () => {
      const project = seedProject(s, { ownerId: alice.user.id, path: 'scoped' })
      seedMember(s, 'Project', project.id, alice.user.id, AccessLevel.MAINTAINER)
      const bots = () =>
        (
          s.app.burrow.db.prepare("SELECT COUNT(*) AS n FROM users WHERE user_type = 'project_bot'").get() as {
            n: number
          }
        ).n
      const before = bots()
      for (const scopes of [['api', 'sudo'], ['admin_mode']]) {
        const res = await s.request(ROOT_TOKEN, {
          method: 'POST',
          url: `/api/v4/projects/${project.id}/access_tokens`,
          payload: { name: 'x', scopes },
        })
        expect(res.statusCode).toBe(400)
        expect(res.json()).toEqual({ message: '400 Bad request - Scopes can only contain available scopes' })
      }
      expect(bots()).toBe(before)
    })
  })

  describe('password checks spend the same work for every login', () => {
    it('hashes once for a wrong password, an unknown login and a user without a password on the OAuth password grant', async () => {
      const noPassword = seedUser(s, { username: 'hard_nopass' })
      updateUser(s.app.burrow.db, noPassword.user.id, { password_hash: null })
      const victim = seedUser(s, { username: 'hard_timing' })
      for (const login of ['hard_timing', 'hard_nobody_here', 'nobody@example.com', 'hard_nopass']) {
        expect(
          await scryptCalls(async () =>
            expect((await passwordGrant(login, 'wrong-password')).json().error).toBe('invalid_grant'),
          ),
        ).toBe(1)
      }
      expect(
        await scryptCalls(async () =>
          expect((await passwordGrant('hard_timing', victim.password)).statusCode).toBe(200),
        ),
      ).toBe(1)
    })

    it('hashes once for a known and an unknown login on git basic auth', async () => {
      seedUser(s, { username: 'hard_git_timing' })
      for (const login of ['hard_git_timing', 'hard_git_nobody']) {
        expect(
          await scryptCalls(async () =>
            expect((await gitInfoRefs(basic(login, 'wrong-password'))).statusCode).toBe(401),
          ),
        ).toBe(1)
      }
    })

    it('hashes once for a locked account, whose answer is the same as a wrong password’s', async () => {
      const locked = seedUser(s, { username: 'hard_locked_timing' })
      s.app.burrow.db
        .prepare('UPDATE users SET failed_attempts = 10, locked_until = ? WHERE id = ?')
        .run(inMinutes(5).toISOString(), locked.user.id)
      const res = await passwordGrant('hard_locked_timing', locked.password)
      expect(res.json()).toEqual((await passwordGrant('hard_nobody_here', 'x')).json())
      expect(await scryptCalls(() => passwordGrant('hard_locked_timing', locked.password))).toBe(1)
    })
  })

  describe('account lockout after wrong passwords', () => {
    const userView = async (id: number) =>
      (await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/users/${id}` })).json()
    const wrongPasswords = async (username: string, count: number) => {
      for (let i = 0; i < count; i += 1)
        expect((await passwordGrant(username, `wrong-${i}`)).json().error).toBe('invalid_grant')
    }

    it('locks an account after 10 wrong passwords: the right one is refused on OAuth and git, and the admin view says locked', async () => {
      const bob = seedUser(s, { username: 'hard_lock_bob' })
      await wrongPasswords('hard_lock_bob', 9)
      expect((await userView(bob.user.id)).locked).toBe(false)
      await wrongPasswords('hard_lock_bob', 1)
      const refused = await passwordGrant('hard_lock_bob', bob.password)
      expect(refused.statusCode).toBe(400)
      expect(refused.json().error).toBe('invalid_grant')
      const git = await gitInfoRefs(basic('hard_lock_bob', bob.password))
      expect(git.statusCode).toBe(401)
      expect(await userView(bob.user.id)).toMatchObject({ id: bob.user.id, locked: true })
      const listed = (
        await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?username=hard_lock_bob' })
      ).json()
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
        const res = await gitInfoRefs(basic('hard_lock_gus', `wrong-${i}`))
        expect(res.statusCode).toBe(401)
      }
      expect((await passwordGrant('hard_lock_gus', gus.password)).statusCode).toBe(200)
    })

    it('follows max_login_attempts and failed_login_attempts_unlock_period_in_minutes, refusing values below 1', async () => {
      const put = (payload: Record<string, unknown>) =>
        s.request(ROOT_TOKEN, { method: 'PUT', url: '/api/v4/application/settings', payload })
      const bad = await put({ max_login_attempts: 0, failed_login_attempts_unlock_period_in_minutes: 60 })
      expect(bad.statusCode).toBe(400)
      expect(bad.json()).toEqual({ message: { max_login_attempts: ['must be greater than 0'] } })
      expect(s.app.burrow.settings.get('failed_login_attempts_unlock_period_in_minutes')).toBe(10)
      expect(
        (await put({ max_login_attempts: 3, failed_login_attempts_unlock_period_in_minutes: 60 })).json(),
      ).toMatchObject({
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

  describe('failed authentication ban', () => {
    const NOW = new Date('2031-03-01T12:00:00.000Z')
    const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000)
    /** `GET /api/v4/user` from `from` with the given headers (or URL). */
    const me = (from: string, headers: Record<string, string>, url = '/api/v4/user') =>
      s.app.inject({ method: 'GET', url, headers, remoteAddress: from })
    const badToken = { 'private-token': 'glpat-not-a-real-token' }
    const failTimes = async (from: string, count: number) => {
      for (let i = 0; i < count; i += 1) expect((await me(from, badToken)).statusCode).toBe(401)
    }

    it('bans an address for an hour after 10 unusable tokens in a minute: 429 with Retry-After, even with a good token', async () => {
      await withClock(
        () => NOW,
        async () => {
          const from = freshAddress()
          await failTimes(from, 10)
          const banned = await me(from, { 'private-token': alice.token })
          expect(banned.statusCode).toBe(429)
          expect(banned.headers['retry-after']).toBe('3600')
          expect(banned.json()).toEqual({ message: 'Retry later' })
          // The ban is on credentials: other addresses, and this one without any, go on.
          expect((await me(freshAddress(), { 'private-token': alice.token })).statusCode).toBe(200)
          expect((await me(from, {}, '/api/v4/projects')).statusCode).toBe(200)
        },
      )
    })

    it('counts every token transport, GraphQL included, and lifts the ban after bantime', async () => {
      const from = freshAddress()
      const tries = [
        () => me(from, {}, '/api/v4/user?private_token=nope'),
        () => me(from, { authorization: 'Bearer nope' }),
        () => me(from, {}, '/api/v4/user?access_token=nope'),
        () => me(from, badToken),
        () =>
          s.app.inject({
            method: 'POST',
            url: '/api/graphql',
            headers: badToken,
            remoteAddress: from,
            payload: { query: '{ currentUser { id } }' },
          }),
      ]
      await withClock(
        () => NOW,
        async () => {
          for (const attempt of [...tries, ...tries]) expect((await attempt()).statusCode).toBe(401)
          const refused = await s.app.inject({
            method: 'POST',
            url: '/api/graphql',
            headers: { 'private-token': alice.token },
            remoteAddress: from,
            payload: { query: '{ currentUser { id } }' },
          })
          expect(refused.statusCode).toBe(429)
          expect(refused.json()).toEqual({ errors: [{ message: 'Retry later' }] })
        },
      )
      await withClock(
        () => later(3599),
        async () => expect((await me(from, { 'private-token': alice.token })).headers['retry-after']).toBe('1'),
      )
      await withClock(
        () => later(3600),
        async () => expect((await me(from, { 'private-token': alice.token })).statusCode).toBe(200),
      )
    })

    it('counts failures within findtime only, and a successful authentication clears the count', async () => {
      const from = freshAddress()
      await withClock(
        () => NOW,
        () => failTimes(from, 9),
      )
      await withClock(
        () => later(61),
        () => failTimes(from, 9),
      )
      await withClock(
        () => later(62),
        async () => {
          expect((await me(from, { 'private-token': alice.token })).statusCode).toBe(200)
          await failTimes(from, 9)
          expect((await me(from, { 'private-token': alice.token })).statusCode).toBe(200)
        },
      )
    })

    it('guards the OAuth password and refresh grants', async () => {
      const from = freshAddress()
      await withClock(
        () => NOW,
        async () => {
          for (let i = 0; i < 5; i += 1)
            expect((await passwordGrant('hard_alice', `wrong-${i}`, { from })).json().error).toBe('invalid_grant')
          for (let i = 0; i < 5; i += 1) {
            const refresh = await s.app.inject({
              method: 'POST',
              url: '/oauth/token',
              remoteAddress: from,
              payload: { grant_type: 'refresh_token', refresh_token: `guess-${i}` },
            })
            expect(refresh.json().error).toBe('invalid_grant')
          }
          const banned = await passwordGrant('hard_alice', alice.password, { from })
          expect(banned.statusCode).toBe(429)
          expect(banned.headers['retry-after']).toBe('3600')
        },
      )
    })

    it('guards git basic auth, but not CI job logins', async () => {
      const from = freshAddress()
      await withClock(
        () => NOW,
        async () => {
          for (let i = 0; i < 12; i += 1)
            expect((await gitInfoRefs(basic('gitlab-ci-token', `job-${i}`), from)).statusCode).toBe(401)
          for (let i = 0; i < 10; i += 1)
            expect((await gitInfoRefs(basic('hard_alice', `wrong-${i}`), from)).statusCode).toBe(401)
          const banned = await gitInfoRefs(basic('hard_alice', alice.token), from)
          expect(banned.statusCode).toBe(429)
          expect(banned.headers['retry-after']).toBe('3600')
        },
      )
    })

    it('counts a refused token toward the unauthenticated request limit, so guessing is throttled too', async () => {
      const from = freshAddress()
      s.app.burrow.settings.update({ throttle_unauthenticated_api_requests_per_period: 3 })
      try {
        await failTimes(from, 3)
        const throttled = await me(from, badToken)
        expect(throttled.statusCode).toBe(429)
        expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0)
      } finally {
        s.app.burrow.settings.update({ throttle_unauthenticated_api_requests_per_period: 0 })
      }
    })

    it('follows the server’s ban options: maxretry, findtime, bantime, allowed addresses, off', async () => {
      const custom = await makeServer({
        failedAuthBan: { maxretry: 2, findtime: 10, bantime: 30, ipAllowlist: ['10.9.9.9'] },
      })
      const off = await makeServer({ failedAuthBan: { enabled: false } })
      try {
        const hit = (server: TestServer, from: string) =>
          server.app.inject({ method: 'GET', url: '/api/v4/user', headers: badToken, remoteAddress: from })
        await withClock(
          () => NOW,
          async () => {
            expect((await hit(custom, '10.1.1.1')).statusCode).toBe(401)
            expect((await hit(custom, '10.1.1.1')).statusCode).toBe(401)
            const banned = await hit(custom, '10.1.1.1')
            expect(banned.statusCode).toBe(429)
            expect(banned.headers['retry-after']).toBe('30')
            for (let i = 0; i < 12; i += 1) expect((await hit(custom, '10.9.9.9')).statusCode).toBe(401)
            for (let i = 0; i < 12; i += 1) expect((await hit(off, '10.1.1.1')).statusCode).toBe(401)
          },
        )
        await withClock(
          () => later(30),
          async () => expect((await hit(custom, '10.1.1.1')).statusCode).toBe(401),
        )
      } finally {
        await custom.close()
        await off.close()
      }
    })
  })
})
