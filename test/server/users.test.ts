import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'

const json = { 'content-type': 'application/json' }

describe('Users API', () => {
  let s: TestServer
  let alice: SeededUser
  let bob: SeededUser

  beforeAll(async () => {
    s = await makeServer()
    alice = seedUser(s, { username: 'alice', name: 'Alice Liddell' })
    bob = seedUser(s, { username: 'bob', name: 'Bob Builder', external: 1 })
    s.app.burrow.db
      .prepare('INSERT INTO user_emails (user_id, email, created_at) VALUES (?, ?, ?)')
      .run(bob.user.id, 'bob.second@example.org', new Date().toISOString())
  })
  afterAll(async () => {
    await s.close()
  })

  const create = (token: string | null, body: Record<string, unknown>) =>
    s.request(token, { method: 'POST', url: '/api/v4/users', headers: json, payload: body })

  describe('GET /users', () => {
    it('gives non-administrators the basic entity', async () => {
      const res = await s.request(alice.token, { method: 'GET', url: '/api/v4/users?username=bob' })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual([
        {
          id: bob.user.id,
          username: 'bob',
          name: 'Bob Builder',
          state: 'active',
          locked: false,
          avatar_url: null,
          web_url: 'http://burrow.test/bob',
        },
      ])
    })

    it('gives administrators the admin entity with email and is_admin', async () => {
      const res = await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?username=alice' })
      const [u] = res.json()
      expect(u.email).toBe('alice@example.com')
      expect(u.is_admin).toBe(false)
      expect(u.identities).toEqual([])
      expect(u).toHaveProperty('last_sign_in_ip')
    })

    it('matches username case-insensitively', async () => {
      const res = await s.request(alice.token, { method: 'GET', url: '/api/v4/users?username=BoB' })
      expect(res.json().map((u: { id: number }) => u.id)).toEqual([bob.user.id])
    })

    it('searches name, username, primary and secondary email', async () => {
      const ids = async (q: string) =>
        (await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/users?search=${encodeURIComponent(q)}` }))
          .json()
          .map((u: { id: number }) => u.id)
      expect(await ids('liddell')).toEqual([alice.user.id])
      expect(await ids('ali')).toEqual([alice.user.id])
      expect(await ids('alice@example.com')).toEqual([alice.user.id])
      expect(await ids('bob.second@example.org')).toEqual([bob.user.id])
    })

    it('filters external and exclude_external', async () => {
      const ext = (await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?external=true' })).json()
      expect(ext.map((u: { username: string }) => u.username)).toEqual(['bob'])
      const non = (
        await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?exclude_external=true&per_page=100' })
      ).json()
      expect(non.map((u: { username: string }) => u.username)).not.toContain('bob')
    })

    it('filters blocked and active', async () => {
      const carol = seedUser(s, { username: 'carol_blocked', state: 'blocked' })
      const blocked = (await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?blocked=true' })).json()
      expect(blocked.map((u: { id: number }) => u.id)).toEqual([carol.user.id])
      const active = (
        await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?active=true&per_page=100' })
      ).json()
      expect(active.map((u: { id: number }) => u.id)).not.toContain(carol.user.id)
    })

    it('excludes internal users with exclude_internal', async () => {
      seedUser(s, { username: 'alert_bot_x', user_type: 'alert_bot' })
      const all = (await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?per_page=100' })).json()
      const filtered = (
        await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?exclude_internal=true&per_page=100' })
      ).json()
      expect(all.map((u: { username: string }) => u.username)).toContain('alert_bot_x')
      expect(filtered.map((u: { username: string }) => u.username)).not.toContain('alert_bot_x')
    })

    it('orders by id descending by default', async () => {
      const ids = (await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?per_page=100' }))
        .json()
        .map((u: { id: number }) => u.id)
      expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a))
    })

    it('lets administrators order by username ascending', async () => {
      const names = (
        await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?order_by=username&sort=asc&per_page=100' })
      )
        .json()
        .map((u: { username: string }) => u.username)
      expect(names).toEqual([...names].sort())
    })

    it('ignores order_by for non-administrators', async () => {
      const ids = (
        await s.request(alice.token, { method: 'GET', url: '/api/v4/users?order_by=username&sort=asc&per_page=100' })
      )
        .json()
        .map((u: { id: number }) => u.id)
      expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a))
    })

    it('rejects an unknown order_by with 400', async () => {
      const res = await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?order_by=email' })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'order_by does not have a valid value' })
    })

    it('filters admins for administrators only', async () => {
      const admins = (await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?admins=true' })).json()
      expect(admins.map((u: { username: string }) => u.username)).toEqual(['root'])
      const ignored = (
        await s.request(alice.token, { method: 'GET', url: '/api/v4/users?admins=true&per_page=100' })
      ).json()
      expect(ignored.length).toBeGreaterThan(1)
    })

    it('filters two_factor', async () => {
      const tf = seedUser(s, { username: 'twofa', two_factor_enabled: 1 })
      const on = (await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?two_factor=enabled' })).json()
      expect(on.map((u: { id: number }) => u.id)).toEqual([tf.user.id])
    })

    it('filters without_projects', async () => {
      const member = seedUser(s, { username: 'has_project' })
      const group = seedGroup(s)
      seedProject(s, { namespaceId: group.id })
      seedMember(s, 'Namespace', group.id, member.user.id, 30)
      const owner = seedUser(s, { username: 'owns_project' })
      seedProject(s, { ownerId: owner.user.id })
      const names = (
        await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?without_projects=true&per_page=100' })
      )
        .json()
        .map((u: { username: string }) => u.username)
      expect(names).toContain('alice')
      expect(names).not.toContain('has_project')
      expect(names).not.toContain('owns_project')
    })

    it('finds users by extern_uid and provider for administrators', async () => {
      s.app.burrow.db
        .prepare('INSERT INTO identities (user_id, provider, extern_uid) VALUES (?, ?, ?)')
        .run(alice.user.id, 'ldapmain', 'uid=alice')
      const res = await s.request(ROOT_TOKEN, {
        method: 'GET',
        url: '/api/v4/users?extern_uid=uid%3Dalice&provider=ldapmain',
      })
      expect(res.json().map((u: { id: number }) => u.id)).toEqual([alice.user.id])
      expect(res.json()[0].identities).toEqual([
        { provider: 'ldapmain', extern_uid: 'uid=alice', saml_provider_id: null },
      ])
    })

    it('filters by saml_provider_id for administrators and ignores it for others', async () => {
      const db = s.app.burrow.db
      db.prepare('INSERT INTO identities (user_id, provider, extern_uid, saml_provider_id) VALUES (?, ?, ?, ?)').run(
        alice.user.id,
        'group_saml',
        'alice-saml',
        7,
      )
      const usernames = async (token: string, query: string): Promise<string[]> =>
        (
          (await s.request(token, { method: 'GET', url: `/api/v4/users?per_page=100&${query}` })).json() as {
            username: string
          }[]
        ).map((u) => u.username)
      expect(await usernames(ROOT_TOKEN, 'saml_provider_id=7')).toEqual(['alice'])
      expect(await usernames(ROOT_TOKEN, 'saml_provider_id=8')).toEqual([])
      expect((await usernames(bob.token, 'saml_provider_id=8')).length).toBeGreaterThan(1)
      expect((await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?saml_provider_id=x' })).statusCode).toBe(
        400,
      )
    })

    it('refuses extern_uid lookups to non-administrators with 403', async () => {
      const res = await s.request(alice.token, { method: 'GET', url: '/api/v4/users?extern_uid=x&provider=ldapmain' })
      expect(res.statusCode).toBe(403)
    })

    it('filters created_before and created_after', async () => {
      s.app.burrow.db
        .prepare('UPDATE users SET created_at = ? WHERE id = ?')
        .run('2001-01-01T00:00:00.000Z', bob.user.id)
      const before = (
        await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?created_before=2002-01-01T00:00:00Z' })
      ).json()
      expect(before.map((u: { id: number }) => u.id)).toEqual([bob.user.id])
      const after = (
        await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?created_after=2002-01-01&per_page=100' })
      ).json()
      expect(after.map((u: { id: number }) => u.id)).not.toContain(bob.user.id)
    })

    it('filters by custom attributes and returns them with with_custom_attributes', async () => {
      s.app.burrow.db
        .prepare('INSERT INTO user_custom_attributes (user_id, key, value) VALUES (?, ?, ?)')
        .run(bob.user.id, 'team', 'red')
      const res = await s.request(ROOT_TOKEN, {
        method: 'GET',
        url: '/api/v4/users?custom_attributes[team]=red&with_custom_attributes=true',
      })
      expect(res.json().map((u: { id: number }) => u.id)).toEqual([bob.user.id])
      expect(res.json()[0].custom_attributes).toEqual([{ key: 'team', value: 'red' }])
    })

    it('sets offset pagination headers', async () => {
      const res = await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?per_page=2&page=1' })
      expect(res.json()).toHaveLength(2)
      expect(Number(res.headers['x-total'])).toBeGreaterThan(2)
      expect(res.headers['x-next-page']).toBe('2')
      expect(String(res.headers.link)).toContain('rel="next"')
    })

    it('pages with keyset pagination and a rel="next" link', async () => {
      const first = await s.request(ROOT_TOKEN, {
        method: 'GET',
        url: '/api/v4/users?pagination=keyset&order_by=id&sort=asc&per_page=2',
      })
      const ids = first.json().map((u: { id: number }) => u.id)
      expect(ids).toHaveLength(2)
      expect(ids[0]).toBeLessThan(ids[1])
      const link = String(first.headers.link)
      expect(link).toContain('rel="next"')
      expect(link).toContain(`id_after=${ids[1]}`)
      const next = new URL(/<([^>]+)>/.exec(link)![1])
      const second = await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/users${next.search}` })
      expect(second.json()[0].id).toBeGreaterThan(ids[1])
    })

    it('lets anonymous callers look one username up but not list everyone', async () => {
      expect((await s.request(null, { method: 'GET', url: '/api/v4/users?username=alice' })).json()).toHaveLength(1)
      const res = await s.request(null, { method: 'GET', url: '/api/v4/users' })
      expect(res.statusCode).toBe(403)
      expect(res.json()).toEqual({ message: '403 Forbidden - Not authorized to access /api/v4/users' })
    })
  })

  describe('field sets', () => {
    const PUBLIC = ['id', 'username', 'name', 'state', 'avatar_url', 'web_url']
    const SINGLE = [
      ...PUBLIC,
      'created_at',
      'bio',
      'bot',
      'location',
      'public_email',
      'skype',
      'linkedin',
      'twitter',
      'website_url',
      'organization',
      'job_title',
      'followers',
      'following',
    ]
    const ADMIN = [
      ...SINGLE,
      'email',
      'is_admin',
      'last_sign_in_at',
      'confirmed_at',
      'theme_id',
      'last_activity_on',
      'color_scheme_id',
      'projects_limit',
      'current_sign_in_at',
      'note',
      'identities',
      'can_create_group',
      'can_create_project',
      'two_factor_enabled',
      'external',
      'private_profile',
      'commit_email',
      'current_sign_in_ip',
      'last_sign_in_ip',
      'plan',
      'trial',
      'sign_in_count',
      'shared_runners_minutes_limit',
      'extra_shared_runners_minutes_limit',
      'is_auditor',
      'using_license_seat',
      'provisioned_by_group_id',
    ]
    const ADMIN_ONLY = [
      'is_admin',
      'note',
      'current_sign_in_ip',
      'last_sign_in_ip',
      'plan',
      'trial',
      'sign_in_count',
      'is_auditor',
      'using_license_seat',
    ]

    it('lists users with the public fields for non-administrators', async () => {
      const [u] = (await s.request(alice.token, { method: 'GET', url: '/api/v4/users?username=bob' })).json()
      expect(Object.keys(u)).toEqual(expect.arrayContaining(PUBLIC))
      expect(u).not.toHaveProperty('email')
      expect(u).not.toHaveProperty('created_at')
    })

    it('gets a single user with the single-get fields, without admin-only ones, anonymously', async () => {
      const u = (await s.request(null, { method: 'GET', url: `/api/v4/users/${bob.user.id}` })).json()
      expect(Object.keys(u)).toEqual(expect.arrayContaining(SINGLE))
      for (const key of ['email', ...ADMIN_ONLY]) expect(u).not.toHaveProperty(key)
    })

    it('shows administrators every admin field in lists and single gets', async () => {
      const [listed] = (await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?username=bob' })).json()
      const single = (await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/users/${bob.user.id}` })).json()
      expect(Object.keys(listed)).toEqual(expect.arrayContaining(ADMIN))
      expect(Object.keys(single)).toEqual(expect.arrayContaining(ADMIN))
    })

    it('shows administrators the same follower and following counts in lists as in single gets', async () => {
      const follow = s.app.burrow.db.prepare('INSERT INTO user_follows (follower_id, followee_id) VALUES (?, ?)')
      const [star, fan1, fan2] = [
        seedUser(s, { username: 'follow_star' }),
        seedUser(s, { username: 'follow_fan1' }),
        seedUser(s, { username: 'follow_fan2' }),
      ]
      follow.run(fan1.user.id, star.user.id)
      follow.run(fan2.user.id, star.user.id)
      follow.run(star.user.id, fan1.user.id)
      const [listed] = (
        await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?username=follow_star' })
      ).json()
      const single = (await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/users/${star.user.id}` })).json()
      expect([listed.followers, listed.following]).toEqual([2, 1])
      expect([single.followers, single.following]).toEqual([2, 1])
    })

    it('ignores the false forms of the boolean filters instead of inverting them', async () => {
      const all = (await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?per_page=100' })).json().length
      for (const filter of ['active', 'blocked', 'external', 'exclude_internal', 'exclude_external']) {
        const res = await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/users?per_page=100&${filter}=false` })
        expect([filter, res.json().length]).toEqual([filter, all])
      }
    })
  })

  describe('GET /users/:id', () => {
    it('answers anonymous callers with the public fields', async () => {
      const res = await s.request(null, { method: 'GET', url: `/api/v4/users/${alice.user.id}` })
      expect(res.statusCode).toBe(200)
      const u = res.json()
      expect(u).toMatchObject({ id: alice.user.id, username: 'alice', bio: '', bot: false, followers: 0, following: 0 })
      expect(u.created_at).toBeTruthy()
      expect(u).not.toHaveProperty('email')
    })

    it('gives administrators the admin view', async () => {
      const u = (await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/users/${alice.user.id}` })).json()
      expect(u.email).toBe('alice@example.com')
      expect(u.is_admin).toBe(false)
      expect(u.sign_in_count).toBe(0)
    })

    it('hides created_at and follower counts of a private profile from others', async () => {
      const p = seedUser(s, { username: 'private_pat', private_profile: 1 })
      const other = (await s.request(alice.token, { method: 'GET', url: `/api/v4/users/${p.user.id}` })).json()
      expect(other).not.toHaveProperty('created_at')
      expect(other).not.toHaveProperty('followers')
      const self = (await s.request(p.token, { method: 'GET', url: `/api/v4/users/${p.user.id}` })).json()
      expect(self.created_at).toBeTruthy()
    })

    it('answers 404 with GitLab body for an unknown user', async () => {
      const res = await s.request(null, { method: 'GET', url: '/api/v4/users/999999' })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: '404 User Not Found' })
    })
  })

  describe('GET /user', () => {
    it('returns the self view with email and settings', async () => {
      const u = (await s.request(alice.token, { method: 'GET', url: '/api/v4/user' })).json()
      expect(u).toMatchObject({
        id: alice.user.id,
        email: 'alice@example.com',
        can_create_group: true,
        can_create_project: true,
        external: false,
        private_profile: false,
      })
      expect(u).not.toHaveProperty('is_admin')
    })

    it('adds is_admin for administrators', async () => {
      expect((await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/user' })).json().is_admin).toBe(true)
    })

    it('answers 401 to anonymous callers', async () => {
      const res = await s.request(null, { method: 'GET', url: '/api/v4/user' })
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({ message: '401 Unauthorized' })
    })
  })

  describe('POST /users', () => {
    it('creates a user with defaults and answers the admin entity', async () => {
      const res = await create(ROOT_TOKEN, {
        email: 'new1@example.com',
        name: 'New One',
        username: 'new1',
        password: 'secret-pass-1',
      })
      expect(res.statusCode).toBe(201)
      const u = res.json()
      expect(u).toMatchObject({
        username: 'new1',
        email: 'new1@example.com',
        bio: '',
        private_profile: false,
        is_admin: false,
        state: 'active',
      })
      expect(u.confirmed_at).toBeNull()
    })

    it('lets reset_password and force_random_password, alone or together, take priority over a given password', async () => {
      for (const [i, flags] of [
        { reset_password: true },
        { force_random_password: true },
        { reset_password: true, force_random_password: true },
      ].entries()) {
        const username = `prio${i}`
        const res = await create(ROOT_TOKEN, {
          email: `${username}@example.com`,
          name: 'Prio',
          username,
          password: 'given-password-1',
          ...flags,
        })
        expect([username, res.statusCode]).toEqual([username, 201])
        // The given password was not set: the password grant refuses it.
        const grant = await s.app.inject({
          method: 'POST',
          url: '/oauth/token',
          headers: json,
          payload: { grant_type: 'password', username, password: 'given-password-1' },
        })
        expect([username, grant.statusCode]).toEqual([username, 400])
      }
    })

    it('sets the given password when neither flag is true, so the password grant accepts it', async () => {
      const res = await create(ROOT_TOKEN, {
        email: 'pw@example.com',
        name: 'Pw',
        username: 'pw_user',
        password: 'given-password-2',
        reset_password: false,
      })
      expect(res.statusCode).toBe(201)
      const grant = await s.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: json,
        payload: { grant_type: 'password', username: 'pw_user', password: 'given-password-2' },
      })
      expect(grant.statusCode).toBe(200)
    })

    it('stores every profile attribute of the spec and shows it back', async () => {
      const profile = {
        bio: 'Bio',
        location: 'Lyon',
        linkedin: 'li',
        skype: 'sk',
        twitter: 'tw',
        website_url: 'https://example.com',
        organization: 'Org',
      }
      const res = await create(ROOT_TOKEN, {
        email: 'prof@example.com',
        name: 'Prof',
        username: 'prof',
        password: 'secret-pass-9',
        ...profile,
        private_profile: true,
        view_diffs_file_by_file: true,
        extern_uid: 'uid-9',
        provider: 'ldapmain',
        shared_runners_minutes_limit: 0,
        extra_shared_runners_minutes_limit: 5,
      })
      expect(res.statusCode).toBe(201)
      expect(res.json()).toMatchObject({
        ...profile,
        private_profile: true,
        shared_runners_minutes_limit: 0,
        extra_shared_runners_minutes_limit: 5,
      })
      expect(res.json().identities).toEqual([{ provider: 'ldapmain', extern_uid: 'uid-9', saml_provider_id: null }])
    })

    it('turns private_profile null into false', async () => {
      const res = await create(ROOT_TOKEN, {
        email: 'pp@example.com',
        name: 'PP',
        username: 'pp_null',
        password: 'secret-pass-1',
        private_profile: null,
      })
      expect(res.json().private_profile).toBe(false)
    })

    it('honours admin, external, projects_limit, can_create_group, note and skip_confirmation', async () => {
      const res = await create(ROOT_TOKEN, {
        email: 'full@example.com',
        name: 'Full',
        username: 'full_attrs',
        force_random_password: true,
        admin: 'true',
        external: true,
        projects_limit: 3,
        can_create_group: false,
        note: 'hello',
        skip_confirmation: true,
        theme_id: 2,
        color_scheme_id: 3,
        bio: 'About me',
      })
      expect(res.statusCode).toBe(201)
      expect(res.json()).toMatchObject({
        is_admin: true,
        external: true,
        projects_limit: 3,
        can_create_group: false,
        note: 'hello',
        theme_id: 2,
        color_scheme_id: 3,
        bio: 'About me',
      })
      expect(res.json().confirmed_at).not.toBeNull()
    })

    it('creates an identity from extern_uid and provider', async () => {
      const res = await create(ROOT_TOKEN, {
        email: 'ld@example.com',
        name: 'LD',
        username: 'ldap_user',
        reset_password: true,
        extern_uid: 'cn=ld',
        provider: 'ldapmain',
      })
      expect(res.json().identities).toEqual([{ provider: 'ldapmain', extern_uid: 'cn=ld', saml_provider_id: null }])
    })

    it('requires email, name, username and one password option with 400', async () => {
      const res = await create(ROOT_TOKEN, {})
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({
        error:
          'email is missing, password, reset_password, force_random_password are missing, at least one parameter must be provided, name is missing, username is missing',
      })
    })

    it('requires a password when reset_password and force_random_password are both false', async () => {
      const res = await create(ROOT_TOKEN, {
        email: 'np@example.com',
        name: 'NP',
        username: 'nopass',
        reset_password: false,
        force_random_password: false,
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: { password: ["can't be blank"] } })
    })

    it('rejects a short password with 400', async () => {
      const res = await create(ROOT_TOKEN, {
        email: 'sp@example.com',
        name: 'SP',
        username: 'shortpass',
        password: 'abc',
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: { password: ['is too short (minimum is 8 characters)'] } })
    })

    it('answers 409 for a taken email, primary or secondary', async () => {
      const res = await create(ROOT_TOKEN, {
        email: 'ALICE@example.com',
        name: 'X',
        username: 'x_dup',
        password: 'secret-pass-1',
      })
      expect(res.statusCode).toBe(409)
      expect(res.json()).toEqual({ message: 'Email has already been taken' })
      const second = await create(ROOT_TOKEN, {
        email: 'bob.second@example.org',
        name: 'X',
        username: 'x_dup2',
        password: 'secret-pass-1',
      })
      expect(second.statusCode).toBe(409)
    })

    it('answers 409 for a taken username, whatever its case', async () => {
      const res = await create(ROOT_TOKEN, {
        email: 'other@example.com',
        name: 'X',
        username: 'ALICE',
        password: 'secret-pass-1',
      })
      expect(res.statusCode).toBe(409)
      expect(res.json()).toEqual({ message: 'Username has already been taken' })
    })

    it('answers 403 to non-administrators and 401 to anonymous callers', async () => {
      expect(
        (await create(alice.token, { email: 'z@example.com', name: 'Z', username: 'zz', password: 'secret-pass-1' }))
          .statusCode,
      ).toBe(403)
      expect(
        (await create(null, { email: 'z@example.com', name: 'Z', username: 'zz', password: 'secret-pass-1' }))
          .statusCode,
      ).toBe(401)
    })

    it('records an audit event for the creation', async () => {
      const res = await create(ROOT_TOKEN, {
        email: 'aud@example.com',
        name: 'Aud',
        username: 'audited',
        password: 'secret-pass-1',
      })
      const row = s.app.burrow.db
        .prepare(`SELECT * FROM audit_events WHERE entity_type = 'User' AND entity_id = ?`)
        .get(res.json().id) as { details: string }
      expect(JSON.parse(row.details).add).toBe('user')
    })
  })

  describe('avatars', () => {
    // The smallest valid PNG: a 1x1 transparent pixel.
    const PNG = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    )

    function multipart(
      fields: Record<string, string>,
      file?: { name: string; filename: string; content: Buffer },
    ): { payload: Buffer; headers: Record<string, string> } {
      const boundary = 'burrowBoundary42'
      const chunks: Buffer[] = []
      for (const [k, v] of Object.entries(fields))
        chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`))
      if (file) {
        chunks.push(
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
          ),
        )
        chunks.push(file.content, Buffer.from('\r\n'))
      }
      chunks.push(Buffer.from(`--${boundary}--\r\n`))
      return {
        payload: Buffer.concat(chunks),
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      }
    }

    it('creates a user with an uploaded avatar whose avatar_url serves the same bytes', async () => {
      const body = multipart(
        { email: 'av@example.com', name: 'Av', username: 'av_user', password: 'secret-pass-av' },
        { name: 'avatar', filename: 'me.png', content: PNG },
      )
      const res = await s.request(ROOT_TOKEN, { method: 'POST', url: '/api/v4/users', ...body })
      expect(res.statusCode).toBe(201)
      const url = res.json().avatar_url as string
      expect(url).toBe(`http://burrow.test/uploads/-/system/user/avatar/${res.json().id}/me.png`)
      const image = await s.request(null, { method: 'GET', url: new URL(url).pathname })
      expect(image.statusCode).toBe(200)
      expect(image.headers['content-type']).toBe('image/png')
      expect(image.rawPayload.equals(PNG)).toBe(true)
      const listed = (await s.request(alice.token, { method: 'GET', url: '/api/v4/users?username=av_user' })).json()
      expect(listed[0].avatar_url).toBe(url)
    })

    it('replaces the avatar on PUT and stops serving the old file', async () => {
      const first = multipart({}, { name: 'avatar', filename: 'one.png', content: PNG })
      const one = (await s.request(ROOT_TOKEN, { method: 'PUT', url: `/api/v4/users/${bob.user.id}`, ...first })).json()
        .avatar_url as string
      const second = multipart(
        { bio: 'with avatar' },
        { name: 'avatar', filename: 'two.gif', content: Buffer.from('GIF89a') },
      )
      const res = await s.request(ROOT_TOKEN, { method: 'PUT', url: `/api/v4/users/${bob.user.id}`, ...second })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({
        bio: 'with avatar',
        avatar_url: `http://burrow.test/uploads/-/system/user/avatar/${bob.user.id}/two.gif`,
      })
      expect((await s.request(null, { method: 'GET', url: new URL(one).pathname })).statusCode).toBe(404)
    })

    it('refuses an avatar that is not an image type, or over 200 KiB, with 400 and creates no user', async () => {
      const wrong = multipart(
        { email: 'bad@example.com', name: 'Bad', username: 'bad_avatar', password: 'secret-pass-bad' },
        { name: 'avatar', filename: 'evil.svg', content: Buffer.from('<svg/>') },
      )
      const res = await s.request(ROOT_TOKEN, { method: 'POST', url: '/api/v4/users', ...wrong })
      expect(res.statusCode).toBe(400)
      expect(res.json().message.avatar[0]).toMatch(/^file format is not supported/)
      expect((await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/users?username=bad_avatar' })).json()).toEqual(
        [],
      )
      const big = multipart({}, { name: 'avatar', filename: 'big.png', content: Buffer.alloc(200 * 1024 + 1) })
      const tooBig = await s.request(ROOT_TOKEN, { method: 'PUT', url: `/api/v4/users/${alice.user.id}`, ...big })
      expect([tooBig.statusCode, tooBig.json()]).toEqual([
        400,
        { message: { avatar: ['is too big (should be at most 200 KiB)'] } },
      ])
    })

    it('removes the avatar file with the user', async () => {
      const body = multipart(
        { email: 'gone@example.com', name: 'Gone', username: 'gone_av', password: 'secret-pass-gone' },
        { name: 'avatar', filename: 'g.png', content: PNG },
      )
      const created = (await s.request(ROOT_TOKEN, { method: 'POST', url: '/api/v4/users', ...body })).json()
      const path = new URL(created.avatar_url as string).pathname
      expect((await s.request(null, { method: 'GET', url: path })).statusCode).toBe(200)
      expect((await s.request(ROOT_TOKEN, { method: 'DELETE', url: `/api/v4/users/${created.id}` })).statusCode).toBe(
        204,
      )
      expect((await s.request(null, { method: 'GET', url: path })).statusCode).toBe(404)
    })

    it('answers 404 for an avatar that does not exist and 400 for a path that tries to leave the folder', async () => {
      expect(
        (await s.request(null, { method: 'GET', url: '/uploads/-/system/user/avatar/999/none.png' })).statusCode,
      ).toBe(404)
      expect(
        (await s.request(null, { method: 'GET', url: '/uploads/-/system/user/avatar/1/..%2F..%2Fburrow.sqlite3' }))
          .statusCode,
      ).toBe(400)
    })
  })

  describe('PUT /users/:id', () => {
    it('updates given attributes only', async () => {
      const u = seedUser(s, { username: 'upd_me' })
      const res = await s.request(ROOT_TOKEN, {
        method: 'PUT',
        url: `/api/v4/users/${u.user.id}`,
        headers: json,
        payload: { bio: 'new bio', admin: true },
      })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({ bio: 'new bio', is_admin: true, username: 'upd_me', email: u.user.email })
    })

    it('answers 409 when the email belongs to someone else', async () => {
      const res = await s.request(ROOT_TOKEN, {
        method: 'PUT',
        url: `/api/v4/users/${bob.user.id}`,
        headers: json,
        payload: { email: 'alice@example.com' },
      })
      expect(res.statusCode).toBe(409)
      expect(res.json()).toEqual({ message: 'Email has already been taken' })
    })

    it('answers 409 when the username belongs to someone else', async () => {
      const res = await s.request(ROOT_TOKEN, {
        method: 'PUT',
        url: `/api/v4/users/${bob.user.id}`,
        headers: json,
        payload: { username: 'Alice' },
      })
      expect(res.statusCode).toBe(409)
      expect(res.json()).toEqual({ message: 'Username has already been taken' })
    })

    it('renames the personal namespace with the username', async () => {
      const u = seedUser(s, { username: 'rename_me' })
      await s.request(ROOT_TOKEN, {
        method: 'PUT',
        url: `/api/v4/users/${u.user.id}`,
        headers: json,
        payload: { username: 'renamed' },
      })
      const ns = s.app.burrow.db
        .prepare(`SELECT full_path FROM namespaces WHERE kind = 'user' AND owner_id = ?`)
        .get(u.user.id) as { full_path: string }
      expect(ns.full_path).toBe('renamed')
    })

    it('answers 403 to non-administrators', async () => {
      expect(
        (
          await s.request(alice.token, {
            method: 'PUT',
            url: `/api/v4/users/${alice.user.id}`,
            headers: json,
            payload: { bio: 'x' },
          })
        ).statusCode,
      ).toBe(403)
    })

    it('answers 412 when If-Unmodified-Since is older than the last change', async () => {
      const res = await s.request(ROOT_TOKEN, {
        method: 'PUT',
        url: `/api/v4/users/${alice.user.id}`,
        headers: { ...json, 'if-unmodified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' },
        payload: { bio: 'x' },
      })
      expect(res.statusCode).toBe(412)
    })
  })

  describe('block, unblock, deactivate, activate', () => {
    it('blocks with 201 true, and the blocked user is refused', async () => {
      const u = seedUser(s)
      const res = await s.request(ROOT_TOKEN, { method: 'POST', url: `/api/v4/users/${u.user.id}/block` })
      expect(res.statusCode).toBe(201)
      expect(res.json()).toBe(true)
      expect((await s.request(u.token, { method: 'GET', url: '/api/v4/user' })).statusCode).toBe(403)
    })

    it('unblocks with 201 true, and an already active user also gets 201 true', async () => {
      const u = seedUser(s, { state: 'blocked' })
      const res = await s.request(ROOT_TOKEN, { method: 'POST', url: `/api/v4/users/${u.user.id}/unblock` })
      expect(res.statusCode).toBe(201)
      expect(res.json()).toBe(true)
      expect((await s.request(u.token, { method: 'GET', url: '/api/v4/user' })).statusCode).toBe(200)
      expect(
        (await s.request(ROOT_TOKEN, { method: 'POST', url: `/api/v4/users/${u.user.id}/unblock` })).statusCode,
      ).toBe(201)
    })

    it('refuses to unblock a deactivated user with 403', async () => {
      const u = seedUser(s, { state: 'deactivated' })
      const res = await s.request(ROOT_TOKEN, { method: 'POST', url: `/api/v4/users/${u.user.id}/unblock` })
      expect(res.statusCode).toBe(403)
      expect(res.json()).toEqual({ message: '403 Forbidden - Deactivated users cannot be unblocked by the API' })
    })

    it('deactivates a dormant user and activates them again', async () => {
      const u = seedUser(s, { last_activity_on: '2000-01-01' })
      expect(
        (await s.request(ROOT_TOKEN, { method: 'POST', url: `/api/v4/users/${u.user.id}/deactivate` })).statusCode,
      ).toBe(201)
      expect((await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/users/${u.user.id}` })).json().state).toBe(
        'deactivated',
      )
      expect(
        (await s.request(ROOT_TOKEN, { method: 'POST', url: `/api/v4/users/${u.user.id}/activate` })).statusCode,
      ).toBe(201)
      expect((await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/users/${u.user.id}` })).json().state).toBe(
        'active',
      )
    })

    it('refuses to deactivate a recently active user with 403', async () => {
      const u = seedUser(s, { last_activity_on: new Date().toISOString().slice(0, 10) })
      const res = await s.request(ROOT_TOKEN, { method: 'POST', url: `/api/v4/users/${u.user.id}/deactivate` })
      expect(res.statusCode).toBe(403)
      expect(res.json().message).toContain('has been active in the past 90 days')
    })

    it('answers 403 to non-administrators and 404 for unknown users', async () => {
      expect(
        (await s.request(alice.token, { method: 'POST', url: `/api/v4/users/${bob.user.id}/block` })).statusCode,
      ).toBe(403)
      const res = await s.request(ROOT_TOKEN, { method: 'POST', url: '/api/v4/users/999999/block' })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: '404 User Not Found' })
    })

    it('records audit events for block and unblock', async () => {
      const u = seedUser(s)
      await s.request(ROOT_TOKEN, { method: 'POST', url: `/api/v4/users/${u.user.id}/block` })
      await s.request(ROOT_TOKEN, { method: 'POST', url: `/api/v4/users/${u.user.id}/unblock` })
      const rows = s.app.burrow.db
        .prepare(`SELECT details FROM audit_events WHERE entity_type = 'User' AND entity_id = ? ORDER BY id`)
        .all(u.user.id) as { details: string }[]
      expect(rows.map((r) => JSON.parse(r.details).custom_message)).toEqual(['Blocked user', 'Unblocked user'])
    })
  })

  describe('DELETE /users/:id', () => {
    it('deletes the user and their personal projects with 204', async () => {
      const u = seedUser(s)
      const p = seedProject(s, { ownerId: u.user.id })
      const res = await s.request(ROOT_TOKEN, { method: 'DELETE', url: `/api/v4/users/${u.user.id}` })
      expect(res.statusCode).toBe(204)
      expect((await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/users/${u.user.id}` })).statusCode).toBe(404)
      expect(s.app.burrow.db.prepare('SELECT id FROM projects WHERE id = ?').get(p.id)).toBeUndefined()
      expect((await s.request(u.token, { method: 'GET', url: '/api/v4/user' })).statusCode).toBe(401)
    })

    it('answers 409 for the sole owner of a group unless hard_delete', async () => {
      const u = seedUser(s)
      const g = seedGroup(s)
      seedMember(s, 'Namespace', g.id, u.user.id, 50)
      const res = await s.request(ROOT_TOKEN, { method: 'DELETE', url: `/api/v4/users/${u.user.id}` })
      expect(res.statusCode).toBe(409)
      expect(res.json()).toEqual({ message: 'User cannot be removed while is the sole-owner of a group' })
      expect(
        (await s.request(ROOT_TOKEN, { method: 'DELETE', url: `/api/v4/users/${u.user.id}?hard_delete=true` }))
          .statusCode,
      ).toBe(204)
    })

    it('answers 403 to non-administrators', async () => {
      expect((await s.request(alice.token, { method: 'DELETE', url: `/api/v4/users/${bob.user.id}` })).statusCode).toBe(
        403,
      )
    })
  })
})
