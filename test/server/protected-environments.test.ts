import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { Permissions } from '../../src/server/platform/auth/permissions'
import { insertProjectShare } from '../../src/server/modules/projects/queries'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { canDeployToEnvironment } from '../../src/server/modules/environments/service'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { ROOT_TOKEN, makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

describe('protected environments', () => {
  let s: TestServer
  let group: NamespaceRow
  let project: ProjectRow
  let sharedGroup: NamespaceRow
  let unsharedGroup: NamespaceRow
  let maintainer: SeededUser
  let developer: SeededUser
  let deployer: SeededUser
  let reporter: SeededUser
  let outsider: SeededUser
  let sharedMember: SeededUser

  const req = (token: string | null, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    s.request(token, {
      method,
      url: `/api/v4${url}`,
      ...(payload ? { payload: payload as Record<string, unknown> } : {}),
    })
  const base = (): string => `/projects/${project.id}/protected_environments`
  const protect = (token: string, name: string, levels: unknown[]) =>
    req(token, 'POST', base(), { name, deploy_access_levels: levels })
  const can = (user: SeededUser, name: string): boolean =>
    canDeployToEnvironment(s.app.burrow.db, new Permissions(s.app.burrow.db, user.user), project, name)

  beforeAll(async () => {
    s = await makeServer()
    group = seedGroup(s, { path: 'pe-group' })
    project = seedProject(s, { namespaceId: group.id, path: 'app' })
    sharedGroup = seedGroup(s, { path: 'release-team', name: 'Release team' })
    unsharedGroup = seedGroup(s, { path: 'other-team' })
    maintainer = seedUser(s)
    developer = seedUser(s)
    deployer = seedUser(s, { name: 'Dee Ployer' })
    reporter = seedUser(s)
    outsider = seedUser(s)
    sharedMember = seedUser(s)
    seedMember(s, 'Project', project.id, maintainer.user.id, AccessLevel.MAINTAINER)
    seedMember(s, 'Project', project.id, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, deployer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, reporter.user.id, AccessLevel.REPORTER)
    seedMember(s, 'Namespace', sharedGroup.id, sharedMember.user.id, AccessLevel.DEVELOPER)
    insertProjectShare(s.app.burrow.db, project.id, sharedGroup.id, AccessLevel.DEVELOPER, null)
  })
  afterAll(async () => {
    await s.close()
  })

  it('protects an environment for Maintainers (201) with the role description', async () => {
    const res = await protect(maintainer.token, 'production', [{ access_level: 40 }])
    expect(res.statusCode).toBe(201)
    expect(res.json()).toEqual({
      name: 'production',
      deploy_access_levels: [
        {
          id: expect.any(Number),
          access_level: 40,
          access_level_description: 'Maintainers',
          user_id: null,
          group_id: null,
        },
      ],
    })
  })

  it('describes Developer and Administrator roles', async () => {
    const res = await protect(maintainer.token, 'staging', [{ access_level: 30 }, { access_level: 60 }])
    expect(
      res.json().deploy_access_levels.map((l: { access_level_description: string }) => l.access_level_description),
    ).toEqual(['Developers + Maintainers', 'Administrators'])
  })

  it('takes a project member as a user rule, described by the user name', async () => {
    const res = await protect(maintainer.token, 'canary', [{ user_id: deployer.user.id }])
    expect(res.statusCode).toBe(201)
    expect(res.json().deploy_access_levels).toEqual([
      {
        id: expect.any(Number),
        access_level: 40,
        access_level_description: 'Dee Ployer',
        user_id: deployer.user.id,
        group_id: null,
      },
    ])
  })

  it('takes a group the project is shared with, described by the group name', async () => {
    const res = await protect(maintainer.token, 'release', [{ group_id: sharedGroup.id }])
    expect(res.statusCode).toBe(201)
    expect(res.json().deploy_access_levels).toEqual([
      {
        id: expect.any(Number),
        access_level: 40,
        access_level_description: 'Release team',
        user_id: null,
        group_id: sharedGroup.id,
      },
    ])
  })

  it('answers 422 for a user without access to the project', async () => {
    const res = await protect(maintainer.token, 'u-outsider', [{ user_id: outsider.user.id }])
    expect(res.statusCode).toBe(422)
    expect(res.json()).toEqual({
      message: ['Deploy access levels user must be a project member with at least the Developer role'],
    })
  })

  it('answers 422 for a Reporter, who cannot deploy', async () => {
    expect((await protect(maintainer.token, 'u-reporter', [{ user_id: reporter.user.id }])).statusCode).toBe(422)
  })

  it('answers 422 for a group the project is not shared with', async () => {
    const res = await protect(maintainer.token, 'g-unshared', [{ group_id: unsharedGroup.id }])
    expect(res.statusCode).toBe(422)
    expect(res.json()).toEqual({ message: ['Deploy access levels group must have this project shared with it'] })
  })

  it('answers 422 for a rule naming two kinds at once or an empty list', async () => {
    expect((await protect(maintainer.token, 'two', [{ access_level: 40, user_id: deployer.user.id }])).json()).toEqual({
      message: ['Deploy access levels One of the Group ID, User ID or Access Level must be specified.'],
    })
    expect((await protect(maintainer.token, 'none', [])).json()).toEqual({
      message: ['Deploy access levels is too short (minimum is 1 character)'],
    })
  })

  it('answers 400 for an access level outside 30, 40 and 60', async () => {
    const res = await protect(maintainer.token, 'bad-level', [{ access_level: 20 }])
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'deploy_access_levels[access_level] does not have a valid value' })
  })

  it('answers 400 without deploy_access_levels', async () => {
    const res = await req(maintainer.token, 'POST', base(), { name: 'missing' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'deploy_access_levels is missing' })
  })

  it('answers 409 when the environment is already protected', async () => {
    const res = await protect(maintainer.token, 'production', [{ access_level: 40 }])
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({ message: "Protected environment 'production' already exists" })
  })

  it('lists by name and gets one, also with a slash in the name', async () => {
    await protect(maintainer.token, 'review/app', [{ access_level: 30 }])
    const list = await req(maintainer.token, 'GET', base())
    expect(list.json().map((p: { name: string }) => p.name)).toEqual([
      'canary',
      'production',
      'release',
      'review/app',
      'staging',
    ])
    expect(list.headers['x-total']).toBe('5')
    const one = await req(maintainer.token, 'GET', `${base()}/${encodeURIComponent('review/app')}`)
    expect(one.json()).toMatchObject({ name: 'review/app' })
    const missing = await req(maintainer.token, 'GET', `${base()}/nope`)
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toEqual({ message: '404 Not found' })
  })

  it('needs Maintainer: 403 for Developers, 401 anonymous', async () => {
    expect((await req(developer.token, 'GET', base())).statusCode).toBe(403)
    expect((await protect(developer.token, 'x', [{ access_level: 40 }])).statusCode).toBe(403)
    expect((await req(null, 'GET', base())).statusCode).toBe(401)
  })

  describe('who may deploy', () => {
    it('lets any Developer deploy to an unprotected environment', () => {
      expect(can(developer, 'anything')).toBe(true)
      expect(can(reporter, 'anything')).toBe(false)
    })

    it('follows the role rule', () => {
      expect(can(developer, 'production')).toBe(false)
      expect(can(maintainer, 'production')).toBe(true)
    })

    it('follows the user rule', () => {
      expect(can(deployer, 'canary')).toBe(true)
      expect(can(developer, 'canary')).toBe(false)
    })

    it('follows the group rule', () => {
      expect(can(sharedMember, 'release')).toBe(true)
      expect(can(developer, 'release')).toBe(false)
    })

    it('lets administrators deploy anywhere; the Administrators role admits nobody else', async () => {
      const admin = seedUser(s, { admin: true })
      expect(can(admin, 'production')).toBe(true)
      const onlyAdmins = await protect(maintainer.token, 'vault', [{ access_level: 60 }])
      expect(onlyAdmins.statusCode).toBe(201)
      expect(can(maintainer, 'vault')).toBe(false)
    })
  })

  it('unprotects (204), records audit events, then answers 404', async () => {
    expect((await req(maintainer.token, 'DELETE', `${base()}/staging`)).statusCode).toBe(204)
    expect((await req(maintainer.token, 'DELETE', `${base()}/staging`)).statusCode).toBe(404)
    const audits = (await req(ROOT_TOKEN, 'GET', `/projects/${project.id}/audit_events?per_page=100`)).json() as {
      details: Record<string, unknown>
    }[]
    const messages = audits.map((a) => a.details.custom_message)
    expect(messages).toEqual(
      expect.arrayContaining(['Protected environment staging', 'Unprotected environment staging']),
    )
  })
})
