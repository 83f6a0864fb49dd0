import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { findEnvironmentByName } from '../../src/server/modules/environments/queries'
import {
  createDeployment,
  ensureEnvironment,
  environmentSlug,
  EnvironmentValidationError,
  guessTier,
  updateDeploymentStatus,
} from '../../src/server/modules/environments/service'
import { runMaintenance } from '../../src/server/maintenance'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { ROOT_TOKEN, makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

interface Env {
  readonly id: number
  readonly name: string
  readonly slug: string
  readonly external_url: string | null
  readonly state: string
  readonly tier: string
  readonly last_deployment?: Record<string, unknown> | null
}

const DAY = 24 * 60 * 60 * 1000

describe('environments', () => {
  let s: TestServer
  let group: NamespaceRow
  let project: ProjectRow
  let priv: ProjectRow
  let maintainer: SeededUser
  let developer: SeededUser
  let reporter: SeededUser
  let guest: SeededUser
  let outsider: SeededUser

  const req = (
    token: string | null,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
  ) => s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
  const base = (): string => `/projects/${project.id}/environments`
  const create = async (name: string, extra: Record<string, unknown> = {}, token = developer.token): Promise<Env> => {
    const res = await req(token, 'POST', base(), { name, ...extra })
    expect(res.statusCode).toBe(201)
    return res.json() as Env
  }
  const backdate = (id: number, days: number): void => {
    s.app.burrow.db
      .prepare('UPDATE environments SET created_at = ? WHERE id = ?')
      .run(new Date(Date.now() - days * DAY).toISOString(), id)
  }

  beforeAll(async () => {
    s = await makeServer()
    group = seedGroup(s, { path: 'env-group', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'shop', visibility: 'private' })
    priv = seedProject(s, { namespaceId: group.id, path: 'hidden', visibility: 'private' })
    maintainer = seedUser(s)
    developer = seedUser(s)
    reporter = seedUser(s)
    guest = seedUser(s)
    outsider = seedUser(s)
    seedMember(s, 'Project', project.id, maintainer.user.id, AccessLevel.MAINTAINER)
    seedMember(s, 'Project', project.id, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, reporter.user.id, AccessLevel.REPORTER)
    seedMember(s, 'Project', project.id, guest.user.id, AccessLevel.GUEST)
  })
  afterAll(async () => {
    await s.close()
  })

  describe('slugs and tiers', () => {
    it('keeps a name that is already a valid slug', () => {
      expect(environmentSlug('production')).toBe('production')
      expect(environmentSlug('staging-')).toBe('staging')
    })

    it('lowercases, replaces other characters and adds the SHA-256 suffix when the name changed', () => {
      expect(environmentSlug('review/fix-foo')).toBe('review-fix-foo-v25cyx')
      expect(environmentSlug('Production')).toBe('production-iis43c')
      expect(environmentSlug('a--b')).toBe('a-b-m3ql0o')
    })

    it('prefixes names that do not start with a letter with env-', () => {
      expect(environmentSlug('1-app')).toBe('env-1-app-13ry6b')
    })

    it('cuts names longer than 24 characters to 17 plus the suffix', () => {
      const slug = environmentSlug('a-very-long-environment-name-here')
      expect(slug).toBe('a-very-long-envir-z5w63o')
      expect(slug.length).toBe(24)
    })

    it('guesses the tier from the name as GitLab does', () => {
      expect(guessTier('review/fix-1')).toBe('development')
      expect(guessTier('qa')).toBe('testing')
      expect(guessTier('pre-prod')).toBe('staging')
      expect(guessTier('production')).toBe('production')
      expect(guessTier('live')).toBe('production')
      expect(guessTier('sandbox')).toBe('other')
    })
  })

  describe('POST /projects/:id/environments', () => {
    it('creates an available environment with slug and guessed tier (201)', async () => {
      const res = await req(developer.token, 'POST', base(), {
        name: 'review/fix-foo',
        external_url: 'https://fix-foo.example.com',
      })
      expect(res.statusCode).toBe(201)
      expect(res.json()).toEqual({
        id: expect.any(Number),
        name: 'review/fix-foo',
        slug: 'review-fix-foo-v25cyx',
        description: null,
        external_url: 'https://fix-foo.example.com',
        state: 'available',
        tier: 'development',
        created_at: expect.any(String),
        updated_at: expect.any(String),
        auto_stop_at: null,
        auto_stop_setting: 'always',
      })
    })

    it('takes an explicit tier and stores a blank external_url as null', async () => {
      const env = await create('edge', { tier: 'staging', external_url: '' })
      expect(env).toMatchObject({ name: 'edge', slug: 'edge', tier: 'staging', external_url: null })
    })

    it('answers 400 name is missing without a name', async () => {
      const res = await req(developer.token, 'POST', base(), { external_url: 'https://x.example.com' })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'name is missing' })
    })

    it('answers 400 with the model message for a name with forbidden characters', async () => {
      const res = await req(developer.token, 'POST', base(), { name: 'bad:name' })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({
        message: {
          name: [
            "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'",
          ],
        },
      })
    })

    it('answers 400 for a name ending with a slash', async () => {
      expect((await req(developer.token, 'POST', base(), { name: 'review/' })).statusCode).toBe(400)
    })

    it('answers 400 has already been taken for a duplicate name', async () => {
      await create('dup')
      const res = await req(developer.token, 'POST', base(), { name: 'dup' })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: { name: ['has already been taken'] } })
    })

    it('answers 400 for an external_url that is not http(s)', async () => {
      const res = await req(developer.token, 'POST', base(), {
        name: 'ftp-env',
        external_url: 'ftp://files.example.com',
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: { external_url: ['is blocked: Only allowed schemes are http, https'] } })
    })

    it('answers 400 when a slug is given', async () => {
      const res = await req(developer.token, 'POST', base(), { name: 'sluggy', slug: 'mine' })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'slug is automatically generated and cannot be changed' })
    })

    it('answers 400 for an unknown tier', async () => {
      const res = await req(developer.token, 'POST', base(), { name: 'tiered', tier: 'moon' })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'tier does not have a valid value' })
    })

    it('refuses Reporters with 403', async () => {
      expect((await req(reporter.token, 'POST', base(), { name: 'nope' })).statusCode).toBe(403)
    })
  })

  describe('GET /projects/:id/environments', () => {
    it('lists environments oldest first with pagination headers', async () => {
      const res = await req(reporter.token, 'GET', `${base()}?per_page=2`)
      expect(res.statusCode).toBe(200)
      expect(res.json().map((e: Env) => e.name)).toEqual(['review/fix-foo', 'edge'])
      expect(Number(res.headers['x-total'])).toBeGreaterThanOrEqual(3)
      expect(res.headers.link).toContain('rel="next"')
    })

    it('filters by exact name', async () => {
      const res = await req(reporter.token, 'GET', `${base()}?name=${encodeURIComponent('review/fix-foo')}`)
      expect(res.json().map((e: Env) => e.name)).toEqual(['review/fix-foo'])
    })

    it('searches by name prefix, also inside folders', async () => {
      expect((await req(reporter.token, 'GET', `${base()}?search=rev`)).json().map((e: Env) => e.name)).toEqual([
        'review/fix-foo',
      ])
      expect((await req(reporter.token, 'GET', `${base()}?search=fix`)).json().map((e: Env) => e.name)).toEqual([
        'review/fix-foo',
      ])
    })

    it('answers 400 for a search shorter than three characters', async () => {
      const res = await req(reporter.token, 'GET', `${base()}?search=re`)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: '400 Bad request - Search query is less than 3 characters' })
    })

    it('answers 400 when name and search are both given', async () => {
      const res = await req(reporter.token, 'GET', `${base()}?name=edge&search=edge`)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'name, search cannot be used together' })
    })

    it('filters by state and rejects unknown states', async () => {
      const env = await create('to-stop')
      await req(developer.token, 'POST', `${base()}/${env.id}/stop`)
      expect((await req(reporter.token, 'GET', `${base()}?states=stopped`)).json().map((e: Env) => e.name)).toEqual([
        'to-stop',
      ])
      expect(
        (await req(reporter.token, 'GET', `${base()}?states=available`)).json().map((e: Env) => e.name),
      ).not.toContain('to-stop')
      const bad = await req(reporter.token, 'GET', `${base()}?states=gone`)
      expect(bad.statusCode).toBe(400)
      expect(bad.json()).toEqual({ error: 'states does not have a valid value' })
    })

    it('answers 401 to anonymous callers', async () => {
      expect((await req(null, 'GET', base())).statusCode).toBe(401)
    })

    it('answers 404 to non-members of a private project', async () => {
      const res = await req(outsider.token, 'GET', `/projects/${priv.id}/environments`)
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: '404 Project Not Found' })
    })

    it('answers 403 to Guests', async () => {
      expect((await req(guest.token, 'GET', base())).statusCode).toBe(403)
    })

    it('accepts the project path as :id', async () => {
      const res = await req(
        reporter.token,
        'GET',
        `/projects/${encodeURIComponent('env-group/shop')}/environments?name=edge`,
      )
      expect(res.json().map((e: Env) => e.name)).toEqual(['edge'])
    })
  })

  describe('GET /projects/:id/environments/:environment_id', () => {
    it('shows last_deployment null before any deployment', async () => {
      const env = await create('fresh')
      const res = await req(reporter.token, 'GET', `${base()}/${env.id}`)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({ id: env.id, name: 'fresh', last_deployment: null })
    })

    it('shows the latest successful deployment with its user and a null deployable when no job made it', async () => {
      const db = s.app.burrow.db
      const env = await create('deployed')
      const first = createDeployment(db, {
        projectId: project.id,
        environmentId: env.id,
        ref: 'main',
        sha: 'a'.repeat(40),
        tag: false,
        userId: developer.user.id,
        deployableId: null,
        status: 'success',
      })
      createDeployment(db, {
        projectId: project.id,
        environmentId: env.id,
        ref: 'main',
        sha: 'b'.repeat(40),
        tag: false,
        userId: developer.user.id,
        deployableId: null,
        status: 'failed',
      })
      const res = await req(reporter.token, 'GET', `${base()}/${env.id}`)
      expect(res.json().last_deployment).toEqual({
        id: first.id,
        iid: first.iid,
        ref: 'main',
        sha: 'a'.repeat(40),
        created_at: first.created_at,
        updated_at: first.updated_at,
        finished_at: expect.any(String),
        status: 'success',
        user: expect.objectContaining({ id: developer.user.id, username: developer.user.username }),
        deployable: null,
      })
    })

    it('answers 404 Environment Not Found for an unknown id', async () => {
      const res = await req(reporter.token, 'GET', `${base()}/999999`)
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: '404 Environment Not Found' })
    })

    it('answers 404 for an environment of another project', async () => {
      const otherProject = seedProject(s, { namespaceId: group.id, path: 'other-shop' })
      const foreign = ensureEnvironment(s.app.burrow.db, otherProject.id, 'foreign')
      expect((await req(ROOT_TOKEN, 'GET', `${base()}/${foreign.id}`)).statusCode).toBe(404)
    })
  })

  describe('PUT /projects/:id/environments/:environment_id', () => {
    it('updates external_url and tier (200)', async () => {
      const env = await create('upd')
      const res = await req(developer.token, 'PUT', `${base()}/${env.id}`, {
        external_url: 'https://upd.example.com',
        tier: 'production',
      })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({
        id: env.id,
        external_url: 'https://upd.example.com',
        tier: 'production',
        slug: 'upd',
      })
    })

    it('renames with the deprecated name parameter and keeps the slug', async () => {
      const env = await create('old-name')
      const res = await req(developer.token, 'PUT', `${base()}/${env.id}`, { name: 'review/new-name' })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({ name: 'review/new-name', slug: 'old-name' })
    })

    it('answers 400 for an invalid external_url', async () => {
      const env = await create('upd-bad')
      const res = await req(developer.token, 'PUT', `${base()}/${env.id}`, { external_url: 'not a url' })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: { external_url: ['must be a valid URL'] } })
    })

    it('answers 400 when renaming onto an existing name', async () => {
      const env = await create('upd-clash')
      const res = await req(developer.token, 'PUT', `${base()}/${env.id}`, { name: 'edge' })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: { name: ['has already been taken'] } })
    })

    it('answers 404 for an unknown environment', async () => {
      expect(
        (await req(developer.token, 'PUT', `${base()}/999999`, { external_url: 'https://x.example.com' })).statusCode,
      ).toBe(404)
    })
  })

  describe('POST /projects/:id/environments/:environment_id/stop', () => {
    it('moves an available environment to stopped (200)', async () => {
      const env = await create('stoppable')
      const res = await req(developer.token, 'POST', `${base()}/${env.id}/stop`)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({ id: env.id, state: 'stopped' })
    })

    it('leaves a stopped environment stopped (200)', async () => {
      const env = await create('stopped-twice')
      await req(developer.token, 'POST', `${base()}/${env.id}/stop`)
      const res = await req(developer.token, 'POST', `${base()}/${env.id}/stop`)
      expect(res.statusCode).toBe(200)
      expect(res.json().state).toBe('stopped')
    })

    it('answers 404 for an unknown environment', async () => {
      const res = await req(developer.token, 'POST', `${base()}/999999/stop`)
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: '404 Environment Not Found' })
    })

    it('refuses Reporters with 403', async () => {
      const env = await create('reporter-stop')
      expect((await req(reporter.token, 'POST', `${base()}/${env.id}/stop`)).statusCode).toBe(403)
    })
  })

  describe('DELETE /projects/:id/environments/:environment_id', () => {
    it('deletes an environment in any state (204) and then answers 404', async () => {
      const env = await create('doomed')
      const res = await req(developer.token, 'DELETE', `${base()}/${env.id}`)
      expect(res.statusCode).toBe(204)
      expect((await req(developer.token, 'GET', `${base()}/${env.id}`)).statusCode).toBe(404)
      expect((await req(developer.token, 'DELETE', `${base()}/${env.id}`)).statusCode).toBe(404)
    })
  })

  describe('protected environments narrow who may stop and delete', () => {
    it('refuses a Developer on an environment protected for Maintainers, and lets the Maintainer', async () => {
      const env = await create('production')
      const protect = await req(maintainer.token, 'POST', `/projects/${project.id}/protected_environments`, {
        name: 'production',
        deploy_access_levels: [{ access_level: 40 }],
      })
      expect(protect.statusCode).toBe(201)
      expect((await req(developer.token, 'POST', `${base()}/${env.id}/stop`)).statusCode).toBe(403)
      expect((await req(developer.token, 'DELETE', `${base()}/${env.id}`)).statusCode).toBe(403)
      expect((await req(maintainer.token, 'POST', `${base()}/${env.id}/stop`)).statusCode).toBe(200)
    })
  })

  describe('DELETE /projects/:id/environments/review_apps', () => {
    let oldA: Env
    let oldB: Env

    beforeAll(async () => {
      oldA = await create('review/old-a')
      oldB = await create('review/old-b')
      const running = await create('review/running')
      const recent = await create('review/recent')
      const outside = await create('staging-old')
      for (const env of [oldA, oldB, recent, outside]) await req(developer.token, 'POST', `${base()}/${env.id}/stop`)
      for (const env of [oldA, oldB, running, outside]) backdate(env.id, 40)
      backdate(oldA.id, 50)
    })

    it('lists the stopped review apps older than 30 days without scheduling them by default (dry run)', async () => {
      const res = await req(developer.token, 'DELETE', `${base()}/review_apps`)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({
        scheduled_entries: [
          { id: oldA.id, name: 'review/old-a', slug: oldA.slug, external_url: null },
          { id: oldB.id, name: 'review/old-b', slug: oldB.slug, external_url: null },
        ],
        unprocessable_entries: [],
      })
      expect(findEnvironmentByName(s.app.burrow.db, project.id, 'review/old-a')?.auto_delete_at).toBeNull()
    })

    it('honours before and limit', async () => {
      const before = new Date(Date.now() - 45 * DAY).toISOString()
      expect(
        (await req(developer.token, 'DELETE', `${base()}/review_apps?before=${before}`))
          .json()
          .scheduled_entries.map((e: Env) => e.id),
      ).toEqual([oldA.id])
      expect(
        (await req(developer.token, 'DELETE', `${base()}/review_apps?limit=1`))
          .json()
          .scheduled_entries.map((e: Env) => e.id),
      ).toEqual([oldA.id])
    })

    it('answers 400 for a limit outside 1..1000 and an unparseable before', async () => {
      expect((await req(developer.token, 'DELETE', `${base()}/review_apps?limit=0`)).statusCode).toBe(400)
      const res = await req(developer.token, 'DELETE', `${base()}/review_apps?before=yesterday`)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'before is invalid' })
    })

    it('answers 401 with GitLab body to Reporters, who may read but not destroy environments', async () => {
      const res = await req(reporter.token, 'DELETE', `${base()}/review_apps`)
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({
        message: {
          scheduled_entries: [],
          unprocessable_entries: [],
          message: 'You do not have permission to destroy environments in this project',
        },
      })
    })

    it('schedules deletion a week later with dry_run=false, and maintenance deletes them when due', async () => {
      const res = await req(developer.token, 'DELETE', `${base()}/review_apps?dry_run=false`)
      expect(res.statusCode).toBe(200)
      expect(res.json().scheduled_entries.map((e: Env) => e.id)).toEqual([oldA.id, oldB.id])
      const at = findEnvironmentByName(s.app.burrow.db, project.id, 'review/old-a')?.auto_delete_at as string
      expect(Math.abs(new Date(at).getTime() - (Date.now() + 7 * DAY))).toBeLessThan(60_000)

      runMaintenance(s.app.burrow, new Date(Date.now() + 6 * DAY))
      expect(findEnvironmentByName(s.app.burrow.db, project.id, 'review/old-a')).toBeDefined()
      const result = runMaintenance(s.app.burrow, new Date(Date.now() + 8 * DAY))
      expect(result.deletedEnvironments).toBe(2)
      expect(findEnvironmentByName(s.app.burrow.db, project.id, 'review/old-a')).toBeUndefined()
      expect(findEnvironmentByName(s.app.burrow.db, project.id, 'review/recent')).toBeDefined()
    })

    it('answers 200 with empty lists when nothing matches (dry run or not)', async () => {
      for (const query of ['', '?dry_run=false']) {
        const res = await req(developer.token, 'DELETE', `${base()}/review_apps${query}`)
        expect([query, res.statusCode, res.json()]).toEqual([
          query,
          200,
          { scheduled_entries: [], unprocessable_entries: [] },
        ])
      }
    })

    it('schedules nothing and lists protected review apps the caller may not deploy to as unprocessable', async () => {
      const locked = await create('review/locked')
      const free = await create('review/free')
      for (const env of [locked, free]) {
        await req(developer.token, 'POST', `${base()}/${env.id}/stop`)
        backdate(env.id, 40)
      }
      await req(maintainer.token, 'POST', `/projects/${project.id}/protected_environments`, {
        name: 'review/locked',
        deploy_access_levels: [{ access_level: 40 }],
      })
      const res = await req(developer.token, 'DELETE', `${base()}/review_apps?dry_run=false`)
      expect(res.statusCode).toBe(400)
      expect(res.json().message.scheduled_entries).toEqual([])
      expect(res.json().message.unprocessable_entries.map((e: Env) => e.id)).toEqual([locked.id])
      expect(findEnvironmentByName(s.app.burrow.db, project.id, 'review/free')?.auto_delete_at).toBeNull()
      const asMaintainer = await req(maintainer.token, 'DELETE', `${base()}/review_apps`)
      expect(asMaintainer.json().scheduled_entries.map((e: Env) => e.id)).toEqual([locked.id, free.id])
    })
  })

  describe('DELETE /projects/:id/environments/review_apps default limit', () => {
    it('schedules at most 100 review apps unless limit says otherwise (dry run by default)', async () => {
      const many = seedProject(s, { namespaceId: group.id, path: 'many-review-apps', visibility: 'private' })
      seedMember(s, 'Project', many.id, developer.user.id, AccessLevel.DEVELOPER)
      const db = s.app.burrow.db
      const old = new Date(Date.now() - 40 * DAY).toISOString()
      for (let i = 0; i < 101; i += 1) {
        const env = ensureEnvironment(db, many.id, `review/app-${String(i).padStart(3, '0')}`)
        db.prepare(`UPDATE environments SET state = 'stopped', created_at = ? WHERE id = ?`).run(old, env.id)
      }
      const url = `/projects/${many.id}/environments/review_apps`
      const byDefault = (await req(developer.token, 'DELETE', url)).json()
      expect(byDefault.scheduled_entries).toHaveLength(100)
      expect(byDefault.unprocessable_entries).toEqual([])
      expect((await req(developer.token, 'DELETE', `${url}?limit=101`)).json().scheduled_entries).toHaveLength(101)
      const pending = db
        .prepare('SELECT COUNT(*) AS n FROM environments WHERE project_id = ? AND auto_delete_at IS NOT NULL')
        .get(many.id) as { n: number }
      expect(pending.n).toBe(0)
    })
  })

  describe('the CI side (services/environments.ts)', () => {
    it('ensureEnvironment creates once and updates the URL on a later deploy', () => {
      const db = s.app.burrow.db
      const first = ensureEnvironment(db, project.id, 'review/ci-1', { externalUrl: 'https://ci-1.example.com' })
      const again = ensureEnvironment(db, project.id, 'review/ci-1', { externalUrl: 'https://ci-1b.example.com' })
      expect(again.id).toBe(first.id)
      expect(again.external_url).toBe('https://ci-1b.example.com')
      expect(first.tier).toBe('development')
    })

    it('ensureEnvironment throws EnvironmentValidationError for a bad name', () => {
      expect(() => ensureEnvironment(s.app.burrow.db, project.id, '/bad')).toThrow(EnvironmentValidationError)
    })

    it('a successful deployment starts a stopped environment again and cancels its scheduled deletion', () => {
      const db = s.app.burrow.db
      const env = ensureEnvironment(db, project.id, 'review/restart')
      db.prepare("UPDATE environments SET state = 'stopped', auto_delete_at = ? WHERE id = ?").run(
        new Date(Date.now() + DAY).toISOString(),
        env.id,
      )
      const d = createDeployment(db, {
        projectId: project.id,
        environmentId: env.id,
        ref: 'main',
        sha: 'c'.repeat(40),
        tag: false,
        userId: null,
        deployableId: 4242,
        status: 'running',
      })
      expect(findEnvironmentByName(db, project.id, 'review/restart')?.state).toBe('stopped')
      const done = updateDeploymentStatus(db, d.id, 'success')
      expect(done.finished_at).not.toBeNull()
      const after = findEnvironmentByName(db, project.id, 'review/restart')
      expect(after?.state).toBe('available')
      expect(after?.auto_delete_at).toBeNull()
    })

    it('maintenance stops environments whose auto_stop_at has passed', () => {
      const db = s.app.burrow.db
      ensureEnvironment(db, project.id, 'review/short-lived', { autoStopAt: new Date(Date.now() + DAY).toISOString() })
      runMaintenance(s.app.burrow, new Date())
      expect(findEnvironmentByName(db, project.id, 'review/short-lived')?.state).toBe('available')
      const result = runMaintenance(s.app.burrow, new Date(Date.now() + 2 * DAY))
      expect(result.stoppedEnvironments).toBeGreaterThanOrEqual(1)
      expect(findEnvironmentByName(db, project.id, 'review/short-lived')?.state).toBe('stopped')
    })
  })

  describe('audit events', () => {
    it('records create, stop and delete as project audit events, and no activity events (GitLab keeps none for environments)', async () => {
      const env = await create('audited')
      await req(developer.token, 'POST', `${base()}/${env.id}/stop`)
      await req(developer.token, 'DELETE', `${base()}/${env.id}`)
      const audits = (
        await req(maintainer.token, 'GET', `/projects/${project.id}/audit_events?per_page=100`)
      ).json() as { details: Record<string, unknown> }[]
      const messages = audits.filter((a) => a.details.target_details === 'audited').map((a) => a.details.custom_message)
      expect(messages).toEqual(
        expect.arrayContaining([
          'Created environment audited',
          'Stopped environment audited',
          'Deleted environment audited',
        ]),
      )
      const events = s.app.burrow.db
        .prepare("SELECT action FROM events WHERE target_type = 'Environment' AND target_id = ? ORDER BY id")
        .all(env.id) as { action: string }[]
      expect(events).toEqual([])
    })
  })
})
