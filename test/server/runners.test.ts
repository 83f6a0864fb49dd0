import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { createProject, commitFiles, instanceToken, projectRunnersToken } from '../helpers/ci'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { TestRunner, injectTransport } from '../helpers/runner'
import { ROOT_TOKEN, makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

describe('GET /projects/:id/runners on an instance without shared runners', () => {
  it('lists instance (shared) runners only once one is defined', async () => {
    const s = await makeServer()
    try {
      const maintainer = seedUser(s)
      const projectId = await createProject(s, maintainer.token)
      const transport = injectTransport(s.app)
      const own = await TestRunner.register(transport, await projectRunnersToken(s, maintainer.token, projectId), {
        description: 'own',
      })
      const list = async (query = '') =>
        (
          (
            await s.request(maintainer.token, { method: 'GET', url: `/api/v4/projects/${projectId}/runners${query}` })
          ).json() as { id: number; is_shared: boolean }[]
        ).map((r) => [r.id, r.is_shared])
      expect(await list()).toEqual([[own.id, false]])
      expect(await list('?type=instance_type')).toEqual([])
      const shared = await TestRunner.register(transport, await instanceToken(s), { description: 'shared' })
      expect(await list()).toEqual([
        [own.id, false],
        [shared.id, true],
      ])
      expect(await list('?scope=shared')).toEqual([[shared.id, true]])
      expect(await list('?scope=specific')).toEqual([[own.id, false]])
    } finally {
      await s.close()
    }
  })
})

describe('Runners API', () => {
  let s: TestServer
  let maintainer: SeededUser
  let developer: SeededUser
  let groupOwner: SeededUser
  let groupMaintainer: SeededUser
  let outsider: SeededUser
  let projectId: number
  let otherProjectId: number
  let groupId: number
  let groupProjectId: number
  let instanceRunner: TestRunner
  let projectRunner: TestRunner
  let groupRunner: TestRunner

  const get = (token: string | null, url: string) => s.request(token, { method: 'GET', url: `/api/v4${url}` })
  const send = (
    token: string | null,
    method: 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
  ) => s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
  const ids = (body: { id: number }[]) => body.map((r) => r.id).sort((a, b) => a - b)

  beforeAll(async () => {
    s = await makeServer()
    maintainer = seedUser(s)
    developer = seedUser(s)
    groupOwner = seedUser(s)
    groupMaintainer = seedUser(s)
    outsider = seedUser(s)
    projectId = await createProject(s, maintainer.token)
    otherProjectId = await createProject(s, maintainer.token)
    seedMember(s, 'Project', projectId, developer.user.id, AccessLevel.DEVELOPER)
    const group = seedGroup(s)
    groupId = group.id
    seedMember(s, 'Namespace', groupId, groupOwner.user.id, AccessLevel.OWNER)
    seedMember(s, 'Namespace', groupId, groupMaintainer.user.id, AccessLevel.MAINTAINER)
    seedMember(s, 'Namespace', groupId, developer.user.id, AccessLevel.DEVELOPER)
    groupProjectId = seedProject(s, { namespaceId: groupId }).id
    const transport = injectTransport(s.app)
    instanceRunner = await TestRunner.register(transport, await instanceToken(s), {
      description: 'shared',
      tagList: ['docker', 'linux'],
    })
    projectRunner = await TestRunner.register(transport, await projectRunnersToken(s, maintainer.token, projectId), {
      description: 'project',
      tagList: ['linux'],
    })
    const groupToken = await send(groupOwner.token, 'POST', `/groups/${groupId}/runners/reset_registration_token`)
    groupRunner = await TestRunner.register(transport, groupToken.json().token, { description: 'group' })
  })
  afterAll(async () => {
    await s.close()
  })

  describe('registration (the runner API)', () => {
    it('registers with the instance, project or group token and answers id and an authentication token', async () => {
      const res = await send(null, 'POST', '/runners', {
        token: await instanceToken(s),
        description: 'another',
        tag_list: 'a, b',
        paused: true,
      })
      expect(res.statusCode).toBe(201)
      expect(res.json()).toEqual({
        id: expect.any(Number),
        token: expect.stringMatching(/^glrt-/),
        token_expires_at: null,
      })
      const detail = await get(ROOT_TOKEN, `/runners/${res.json().id}`)
      expect(detail.json()).toMatchObject({
        runner_type: 'instance_type',
        is_shared: true,
        active: false,
        paused: true,
        status: 'paused',
        tag_list: ['a', 'b'],
        description: 'another',
      })
      expect((await get(ROOT_TOKEN, `/runners/${projectRunner.id}`)).json()).toMatchObject({
        runner_type: 'project_type',
        is_shared: false,
        projects: [{ id: projectId }],
      })
      expect((await get(ROOT_TOKEN, `/runners/${groupRunner.id}`)).json()).toMatchObject({
        runner_type: 'group_type',
        groups: [{ id: groupId }],
      })
    })

    it('answers 403 to an unknown registration token', async () => {
      const res = await send(null, 'POST', '/runners', { token: 'GR1348941nope' })
      expect(res.statusCode).toBe(403)
      expect(res.json()).toEqual({ message: '403 Forbidden' })
    })

    it('answers 400 when the token is missing, or with both active and paused', async () => {
      const res = await send(null, 'POST', '/runners', { description: 'x' })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'token is missing' })
      const both = await send(null, 'POST', '/runners', { token: await instanceToken(s), active: true, paused: true })
      expect([both.statusCode, both.json()]).toEqual([400, { error: 'active, paused are mutually exclusive' }])
    })

    it('verifies an authentication token (200) and refuses an unknown one (403)', async () => {
      expect((await send(null, 'POST', '/runners/verify', { token: instanceRunner.token })).statusCode).toBe(200)
      expect((await send(null, 'POST', '/runners/verify', { token: 'glrt-nope' })).statusCode).toBe(403)
    })

    it('unregisters with DELETE /runners and the authentication token (204), then the token is unknown', async () => {
      const extra = await TestRunner.register(injectTransport(s.app), await instanceToken(s))
      expect((await send(null, 'DELETE', '/runners', { token: extra.token })).statusCode).toBe(204)
      expect((await get(ROOT_TOKEN, `/runners/${extra.id}`)).statusCode).toBe(404)
      expect((await send(null, 'DELETE', '/runners', { token: extra.token })).statusCode).toBe(403)
    })

    it('resets the authentication token with the current one; the old one stops working', async () => {
      const extra = await TestRunner.register(injectTransport(s.app), await instanceToken(s))
      const res = await send(null, 'POST', '/runners/reset_authentication_token', { token: extra.token })
      expect(res.statusCode).toBe(201)
      expect(res.json()).toEqual({ token: expect.stringMatching(/^glrt-/), token_expires_at: null })
      expect((await send(null, 'POST', '/runners/verify', { token: extra.token })).statusCode).toBe(403)
      expect((await send(null, 'POST', '/runners/verify', { token: res.json().token })).statusCode).toBe(200)
    })

    it('records registrations as audit events of the project, group or instance', async () => {
      const project = await get(maintainer.token, `/projects/${projectId}/audit_events`)
      expect(project.json()).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            entity_type: 'Project',
            details: expect.objectContaining({
              custom_message: 'Registered project CI runner',
              target_type: 'Ci::Runner',
            }),
          }),
        ]),
      )
      const group = await get(groupOwner.token, `/groups/${groupId}/audit_events`)
      expect(group.json()).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            details: expect.objectContaining({ custom_message: 'Registered group CI runner' }),
          }),
        ]),
      )
      const instance = await get(ROOT_TOKEN, '/audit_events?per_page=100')
      expect(instance.json()).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            details: expect.objectContaining({ custom_message: 'Registered instance CI runner' }),
          }),
        ]),
      )
    })
  })

  describe('lists', () => {
    it('GET /runners needs authentication', async () => {
      const res = await get(null, '/runners')
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({ message: '401 Unauthorized' })
    })

    it('GET /runners lists the runners the caller manages: Maintainer of the project or group, no instance runners', async () => {
      expect(ids((await get(maintainer.token, '/runners')).json())).toEqual([projectRunner.id])
      expect(ids((await get(groupMaintainer.token, '/runners')).json())).toEqual([groupRunner.id])
      expect((await get(developer.token, '/runners')).json()).toEqual([])
    })

    it('lists summaries: the documented fields and no token', async () => {
      const [runner] = (await get(maintainer.token, '/runners')).json()
      expect(Object.keys(runner).sort()).toEqual([
        'active',
        'created_at',
        'description',
        'id',
        'ip_address',
        'is_shared',
        'name',
        'online',
        'paused',
        'runner_type',
        'status',
      ])
      expect(runner).toMatchObject({
        id: projectRunner.id,
        description: 'project',
        is_shared: false,
        runner_type: 'project_type',
        name: 'burrow-test-runner',
        online: false,
        status: 'offline',
        active: true,
      })
    })

    it('GET /runners/all is for administrators', async () => {
      const res = await get(maintainer.token, '/runners/all')
      expect(res.statusCode).toBe(403)
      expect(res.json()).toEqual({ message: '403 Forbidden' })
      const all = await get(ROOT_TOKEN, '/runners/all?per_page=100')
      expect(all.statusCode).toBe(200)
      expect(ids(all.json())).toEqual(expect.arrayContaining([instanceRunner.id, projectRunner.id, groupRunner.id]))
    })

    it('filters by type, and by the deprecated scope shared/specific', async () => {
      expect(ids((await get(ROOT_TOKEN, '/runners/all?type=group_type')).json())).toEqual([groupRunner.id])
      const shared = (await get(ROOT_TOKEN, '/runners/all?scope=shared&per_page=100')).json() as {
        is_shared: boolean
      }[]
      expect(shared.length).toBeGreaterThan(0)
      expect(shared.every((r) => r.is_shared)).toBe(true)
      const specific = (await get(ROOT_TOKEN, '/runners/all?scope=specific&per_page=100')).json() as {
        is_shared: boolean
      }[]
      expect(ids(specific as unknown as { id: number }[])).toEqual([projectRunner.id, groupRunner.id])
    })

    it('answers 400 Scope contains invalid value for a scope the list does not take', async () => {
      const res = await get(maintainer.token, '/runners?scope=shared')
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: 'Scope contains invalid value' })
      expect((await get(maintainer.token, '/runners?type=nope')).json()).toEqual({
        error: 'type does not have a valid value',
      })
    })

    it('filters by status and scope online/offline/active/paused, and by paused', async () => {
      const online = await TestRunner.register(injectTransport(s.app), await instanceToken(s), {
        description: 'online',
      })
      await online.requestJob()
      const paused = await TestRunner.register(injectTransport(s.app), await instanceToken(s), {
        description: 'paused',
      })
      await send(ROOT_TOKEN, 'PUT', `/runners/${paused.id}`, { active: false })
      // A runner last seen three hours ago is offline.
      const stale = await TestRunner.register(injectTransport(s.app), await instanceToken(s), { description: 'stale' })
      s.app.burrow.db
        .prepare('UPDATE ci_runners SET contacted_at = ? WHERE id = ?')
        .run(new Date(Date.now() - 3 * 3600_000).toISOString(), stale.id)
      const list = async (q: string) =>
        ids((await get(ROOT_TOKEN, `/runners/all?type=instance_type&per_page=100&${q}`)).json())
      expect(await list('status=online')).toContain(online.id)
      expect(await list('status=online')).not.toContain(stale.id)
      expect(await list('scope=online')).toContain(online.id)
      expect(await list('scope=online')).not.toContain(stale.id)
      expect(await list('status=offline')).toContain(stale.id)
      expect(await list('status=offline')).not.toContain(online.id)
      expect(await list('status=paused')).toEqual(expect.arrayContaining([paused.id]))
      expect(await list('status=paused')).not.toContain(online.id)
      expect(await list('scope=active')).not.toContain(paused.id)
      expect(await list('paused=true')).toContain(paused.id)
      expect(await list('paused=false')).not.toContain(paused.id)
      expect((await get(ROOT_TOKEN, `/runners/${online.id}`)).json()).toMatchObject({ online: true, status: 'online' })
      expect((await get(ROOT_TOKEN, `/runners/${stale.id}`)).json()).toMatchObject({ online: false, status: 'offline' })
      expect((await get(ROOT_TOKEN, `/runners/${paused.id}`)).json()).toMatchObject({ status: 'paused' })
    })

    it('filters by tag_list: every given tag must be on the runner (array or comma-separated)', async () => {
      expect(ids((await get(ROOT_TOKEN, '/runners/all?tag_list=linux&per_page=100')).json())).toEqual([
        instanceRunner.id,
        projectRunner.id,
      ])
      expect(ids((await get(ROOT_TOKEN, '/runners/all?tag_list=linux,docker')).json())).toEqual([instanceRunner.id])
      expect(ids((await get(ROOT_TOKEN, '/runners/all?tag_list[]=linux&tag_list[]=docker')).json())).toEqual([
        instanceRunner.id,
      ])
      expect((await get(ROOT_TOKEN, '/runners/all?tag_list=gpu')).json()).toEqual([])
    })

    it('paginates with GitLab headers', async () => {
      const res = await get(ROOT_TOKEN, '/runners/all?per_page=1&page=2')
      expect(res.json()).toHaveLength(1)
      expect(res.headers['x-page']).toBe('2')
      expect(res.headers['x-per-page']).toBe('1')
      expect(Number(res.headers['x-total'])).toBeGreaterThanOrEqual(3)
      expect(res.headers.link).toContain('rel="next"')
    })

    it("GET /projects/:id/runners lists the project, its groups' and instance runners, for Maintainers", async () => {
      const res = await get(maintainer.token, `/projects/${projectId}/runners?per_page=100`)
      expect(res.statusCode).toBe(200)
      expect(ids(res.json())).toEqual(expect.arrayContaining([projectRunner.id, instanceRunner.id]))
      expect(ids(res.json())).not.toContain(groupRunner.id)
      expect(ids((await get(maintainer.token, `/projects/${projectId}/runners?type=project_type`)).json())).toEqual([
        projectRunner.id,
      ])
      expect(ids((await get(ROOT_TOKEN, `/projects/${groupProjectId}/runners?type=group_type`)).json())).toEqual([
        groupRunner.id,
      ])
      expect((await get(developer.token, `/projects/${projectId}/runners`)).statusCode).toBe(403)
      expect((await get(outsider.token, `/projects/${projectId}/runners`)).statusCode).toBe(404)
    })

    it('GET /groups/:id/runners lists group and instance runners for group Maintainers', async () => {
      const res = await get(groupMaintainer.token, `/groups/${groupId}/runners?per_page=100`)
      expect(res.statusCode).toBe(200)
      expect(ids(res.json())).toEqual(expect.arrayContaining([groupRunner.id, instanceRunner.id]))
      expect(ids((await get(groupMaintainer.token, `/groups/${groupId}/runners?type=group_type`)).json())).toEqual([
        groupRunner.id,
      ])
      expect((await get(developer.token, `/groups/${groupId}/runners`)).statusCode).toBe(403)
    })
  })

  describe('details', () => {
    it('answers the detail fields, without a token', async () => {
      const res = await get(maintainer.token, `/runners/${projectRunner.id}`)
      expect(res.statusCode).toBe(200)
      const body = res.json()
      expect(body).not.toHaveProperty('token')
      expect(body).toMatchObject({
        id: projectRunner.id,
        active: true,
        description: 'project',
        is_shared: false,
        runner_type: 'project_type',
        online: false,
        status: 'offline',
        architecture: 'amd64',
        platform: 'linux',
        revision: 'test',
        version: '17.6.0',
        tag_list: ['linux'],
        access_level: 'not_protected',
        maximum_timeout: null,
        run_untagged: true,
        locked: false,
        contacted_at: null,
      })
      expect(body.projects).toEqual([
        {
          id: projectId,
          name: expect.any(String),
          name_with_namespace: expect.any(String),
          path: expect.any(String),
          path_with_namespace: expect.any(String),
        },
      ])
    })

    it("answers the summary fields plus exactly the detail fields the spec adds (and GitLab's run_untagged, locked, groups, maintenance_note)", async () => {
      const summary = Object.keys(
        ((await get(ROOT_TOKEN, '/runners/all?per_page=100')).json() as Record<string, unknown>[])[0],
      )
      const detail = Object.keys(
        (await get(ROOT_TOKEN, `/runners/${projectRunner.id}`)).json() as Record<string, unknown>,
      )
      const specDetail = [
        'architecture',
        'contacted_at',
        'platform',
        'projects',
        'revision',
        'tag_list',
        'version',
        'access_level',
        'maximum_timeout',
      ]
      expect(detail.sort()).toEqual(
        [...summary, ...specDetail, 'run_untagged', 'locked', 'groups', 'maintenance_note'].sort(),
      )
      for (const key of specDetail) expect(summary).not.toContain(key)
      const updated = await send(ROOT_TOKEN, 'PUT', `/runners/${projectRunner.id}`, { description: 'project' })
      expect(Object.keys(updated.json()).sort()).toEqual(detail.sort())
      expect(updated.json()).not.toHaveProperty('token')
    })

    it('shows instance runners to any signed-in user, project and group runners to Maintainers', async () => {
      expect((await get(outsider.token, `/runners/${instanceRunner.id}`)).statusCode).toBe(200)
      expect((await get(null, `/runners/${instanceRunner.id}`)).statusCode).toBe(401)
      const refused = await get(developer.token, `/runners/${projectRunner.id}`)
      expect(refused.statusCode).toBe(403)
      expect(refused.json()).toEqual({ message: '403 Forbidden - No access granted' })
      expect((await get(groupMaintainer.token, `/runners/${groupRunner.id}`)).statusCode).toBe(200)
      expect((await get(developer.token, `/runners/${groupRunner.id}`)).statusCode).toBe(403)
    })

    it('answers 404 Runner Not Found for an unknown id', async () => {
      const res = await get(ROOT_TOKEN, '/runners/999999')
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: '404 Runner Not Found' })
    })
  })

  describe('update', () => {
    it('changes every settable attribute; tag_list is the final set', async () => {
      const res = await send(maintainer.token, 'PUT', `/runners/${projectRunner.id}`, {
        description: 'renamed',
        tag_list: ['ruby', 'linux'],
        run_untagged: false,
        locked: true,
        access_level: 'ref_protected',
        maximum_timeout: 3600,
      })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({
        description: 'renamed',
        tag_list: ['linux', 'ruby'],
        run_untagged: false,
        locked: true,
        access_level: 'ref_protected',
        maximum_timeout: 3600,
      })
      const back = await send(maintainer.token, 'PUT', `/runners/${projectRunner.id}`, {
        description: 'project',
        tag_list: 'linux',
        run_untagged: true,
        locked: false,
        access_level: 'not_protected',
        maximum_timeout: null,
      })
      expect(back.json()).toMatchObject({
        description: 'project',
        tag_list: ['linux'],
        locked: false,
        maximum_timeout: null,
      })
    })

    it('pauses with active=false (status paused) and resumes with active=true', async () => {
      const paused = await send(maintainer.token, 'PUT', `/runners/${projectRunner.id}`, { active: false })
      expect(paused.json()).toMatchObject({ active: false, paused: true, status: 'paused' })
      const resumed = await send(maintainer.token, 'PUT', `/runners/${projectRunner.id}`, { paused: false })
      expect(resumed.json()).toMatchObject({ active: true, paused: false, status: 'offline' })
    })

    it('refuses an update without attributes, with both active and paused, or a timeout under ten minutes', async () => {
      const none = await send(maintainer.token, 'PUT', `/runners/${projectRunner.id}`, {})
      expect(none.statusCode).toBe(400)
      expect(none.json().error).toMatch(/at least one parameter must be provided$/)
      expect(
        (await send(maintainer.token, 'PUT', `/runners/${projectRunner.id}`, { active: true, paused: true })).json(),
      ).toEqual({ error: 'active, paused are mutually exclusive' })
      const short = await send(maintainer.token, 'PUT', `/runners/${projectRunner.id}`, { maximum_timeout: 60 })
      expect(short.statusCode).toBe(400)
      expect(short.json()).toEqual({ message: { maximum_timeout: ['needs to be at least 10 minutes'] } })
      expect(
        (await send(maintainer.token, 'PUT', `/runners/${projectRunner.id}`, { access_level: 'everyone' })).json(),
      ).toEqual({ error: 'access_level does not have a valid value' })
    })

    it('lets only administrators change instance runners, Maintainers project runners and group Owners group runners', async () => {
      expect(
        (await send(maintainer.token, 'PUT', `/runners/${instanceRunner.id}`, { description: 'x' })).statusCode,
      ).toBe(403)
      expect(
        (await send(developer.token, 'PUT', `/runners/${projectRunner.id}`, { description: 'x' })).statusCode,
      ).toBe(403)
      expect(
        (await send(groupMaintainer.token, 'PUT', `/runners/${groupRunner.id}`, { description: 'x' })).statusCode,
      ).toBe(403)
      expect(
        (await send(groupOwner.token, 'PUT', `/runners/${groupRunner.id}`, { description: 'group' })).statusCode,
      ).toBe(200)
      expect(
        (await send(ROOT_TOKEN, 'PUT', `/runners/${instanceRunner.id}`, { description: 'shared' })).statusCode,
      ).toBe(200)
    })

    it('records pauses and changes as audit events', async () => {
      const events = (await get(maintainer.token, `/projects/${projectId}/audit_events?per_page=100`)).json() as {
        details: Record<string, unknown>
      }[]
      expect(events.map((e) => e.details)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ custom_message: 'Paused CI runner' }),
          expect.objectContaining({ custom_message: 'Resumed CI runner' }),
          expect.objectContaining({ change: 'description', from: 'project', to: 'renamed' }),
        ]),
      )
    })
  })

  describe('project assignment and deletion', () => {
    it('enables a project runner the caller manages in another project (201, summary)', async () => {
      const res = await send(maintainer.token, 'POST', `/projects/${otherProjectId}/runners`, {
        runner_id: projectRunner.id,
      })
      expect(res.statusCode).toBe(201)
      expect(res.json()).toMatchObject({ id: projectRunner.id, runner_type: 'project_type' })
      expect(
        ids((await get(maintainer.token, `/projects/${otherProjectId}/runners?type=project_type`)).json()),
      ).toEqual([projectRunner.id])
    })

    it('refuses enabling twice, a group runner, a locked runner, a runner the caller does not manage, and a missing runner_id', async () => {
      const twice = await send(maintainer.token, 'POST', `/projects/${otherProjectId}/runners`, {
        runner_id: projectRunner.id,
      })
      expect(twice.statusCode).toBe(400)
      expect(twice.json()).toEqual({ message: { 'runner_projects.project_id': ['has already been taken'] } })
      expect(
        (await send(ROOT_TOKEN, 'POST', `/projects/${otherProjectId}/runners`, { runner_id: groupRunner.id })).json(),
      ).toEqual({ message: '403 Forbidden - Runner is a group runner' })
      const locked = await TestRunner.register(
        injectTransport(s.app),
        await projectRunnersToken(s, maintainer.token, projectId),
        { locked: true },
      )
      expect(
        (await send(maintainer.token, 'POST', `/projects/${otherProjectId}/runners`, { runner_id: locked.id })).json(),
      ).toEqual({ message: '403 Forbidden - Runner is locked' })
      const mine = await createProject(s, outsider.token)
      expect(
        (await send(outsider.token, 'POST', `/projects/${mine}/runners`, { runner_id: projectRunner.id })).json(),
      ).toEqual({ message: '403 Forbidden - No access granted' })
      expect((await send(maintainer.token, 'POST', `/projects/${otherProjectId}/runners`, {})).json()).toEqual({
        error: 'runner_id is missing',
      })
      expect(
        (await send(developer.token, 'POST', `/projects/${projectId}/runners`, { runner_id: projectRunner.id }))
          .statusCode,
      ).toBe(403)
    })

    it('refuses deleting a runner of several projects to a Maintainer', async () => {
      const res = await send(maintainer.token, 'DELETE', `/runners/${projectRunner.id}`)
      expect(res.statusCode).toBe(403)
      expect(res.json()).toEqual({ message: '403 Forbidden - Runner associated with more than one project' })
    })

    it('disables a runner in a project, but not in its only project', async () => {
      expect(
        (await send(maintainer.token, 'DELETE', `/projects/${otherProjectId}/runners/${projectRunner.id}`)).statusCode,
      ).toBe(204)
      const only = await send(maintainer.token, 'DELETE', `/projects/${projectId}/runners/${projectRunner.id}`)
      expect(only.statusCode).toBe(403)
      expect(only.json()).toEqual({
        message: '403 Forbidden - Only one project associated with the runner. Please remove the runner instead',
      })
      expect(
        (await send(maintainer.token, 'DELETE', `/projects/${otherProjectId}/runners/${projectRunner.id}`)).json(),
      ).toEqual({ message: '404 Runner Not Found' })
    })

    it('deletes a runner (204) for a Maintainer of its only project, 403 for a Developer', async () => {
      const extra = await TestRunner.register(
        injectTransport(s.app),
        await projectRunnersToken(s, maintainer.token, projectId),
      )
      expect((await send(developer.token, 'DELETE', `/runners/${extra.id}`)).statusCode).toBe(403)
      expect((await send(maintainer.token, 'DELETE', `/runners/${extra.id}`)).statusCode).toBe(204)
      expect((await get(ROOT_TOKEN, `/runners/${extra.id}`)).statusCode).toBe(404)
    })
  })

  describe('registration tokens', () => {
    it('shows the instance token to administrators in the application settings and lets them reset it', async () => {
      const before = await instanceToken(s)
      expect(before).toMatch(/^GR1348941/)
      expect((await send(maintainer.token, 'POST', '/runners/reset_registration_token')).statusCode).toBe(403)
      const res = await send(ROOT_TOKEN, 'POST', '/runners/reset_registration_token')
      expect(res.statusCode).toBe(201)
      expect(res.json()).toEqual({ token: expect.stringMatching(/^GR1348941/), token_expires_at: null })
      expect(await instanceToken(s)).toBe(res.json().token)
      expect((await send(null, 'POST', '/runners', { token: before })).statusCode).toBe(403)
    })

    it('shows runners_token on the project to Maintainers and on the group to Owners, and it registers runners', async () => {
      const project = (await get(maintainer.token, `/projects/${projectId}`)).json()
      expect(project.runners_token).toMatch(/^GR1348941/)
      expect((await get(developer.token, `/projects/${projectId}`)).json()).not.toHaveProperty('runners_token')
      const group = (await get(groupOwner.token, `/groups/${groupId}`)).json()
      expect(group.runners_token).toMatch(/^GR1348941/)
      expect((await get(groupMaintainer.token, `/groups/${groupId}`)).json()).not.toHaveProperty('runners_token')
      const registered = await send(null, 'POST', '/runners', { token: project.runners_token })
      expect(registered.statusCode).toBe(201)
      expect((await get(ROOT_TOKEN, `/runners/${registered.json().id}`)).json()).toMatchObject({
        runner_type: 'project_type',
        projects: [{ id: projectId }],
      })
    })

    it('resets project tokens for Maintainers and group tokens for Owners', async () => {
      expect(
        (await send(developer.token, 'POST', `/projects/${projectId}/runners/reset_registration_token`)).statusCode,
      ).toBe(403)
      expect(
        (await send(groupMaintainer.token, 'POST', `/groups/${groupId}/runners/reset_registration_token`)).statusCode,
      ).toBe(403)
      const first = await projectRunnersToken(s, maintainer.token, projectId)
      const second = await projectRunnersToken(s, maintainer.token, projectId)
      expect(second).not.toBe(first)
      expect((await send(null, 'POST', '/runners', { token: first })).statusCode).toBe(403)
      expect((await send(null, 'POST', '/runners', { token: second })).statusCode).toBe(201)
    })
  })

  describe('GET /runners/:id/jobs', () => {
    let jobProject: number

    beforeAll(async () => {
      jobProject = await createProject(s, maintainer.token)
      seedMember(s, 'Project', jobProject, developer.user.id, AccessLevel.DEVELOPER)
      const token = await projectRunnersToken(s, maintainer.token, jobProject)
      const runner = await TestRunner.register(injectTransport(s.app), token, { description: 'jobs' })
      await commitFiles(s, maintainer.token, jobProject, 'main', {
        '.gitlab-ci.yml': 'ok:\n  stage: build\n  script: echo ok\nbad:\n  stage: build\n  script: exit 1\n',
      })
      await runner.runAll()
      ;(globalThis as { jobsRunner?: number }).jobsRunner = runner.id
    })
    const runnerId = () => (globalThis as { jobsRunner?: number }).jobsRunner as number

    it("lists the runner's jobs, newest first, with project, pipeline, commit and user", async () => {
      const res = await get(maintainer.token, `/runners/${runnerId()}/jobs`)
      expect(res.statusCode).toBe(200)
      const jobs = res.json() as { id: number; name: string; status: string }[]
      expect(jobs.map((j) => j.name)).toEqual(['bad', 'ok'])
      expect(jobs[0]).toMatchObject({
        status: 'failed',
        stage: 'build',
        ref: 'main',
        tag: false,
        coverage: null,
        ip_address: '127.0.0.1',
        duration: expect.any(Number),
        project: { id: jobProject, name_with_namespace: expect.any(String), path_with_namespace: expect.any(String) },
        pipeline: { id: expect.any(Number), sha: expect.any(String), ref: 'main', status: 'failed' },
        commit: {
          id: expect.any(String),
          short_id: expect.any(String),
          title: 'Update CI',
          parent_ids: expect.any(Array),
          author_name: expect.any(String),
        },
        user: {
          id: maintainer.user.id,
          username: maintainer.user.username,
          bio: expect.any(String),
          created_at: expect.any(String),
        },
      })
      expect(Number.isInteger((jobs[0] as unknown as { duration: number }).duration)).toBe(true)
    })

    it("gives each job the spec's runner-job fields: user with its profile, the full commit, pipeline {id, sha, ref, status} and a project_ref", async () => {
      const [job] = (await get(maintainer.token, `/runners/${runnerId()}/jobs`)).json() as Record<
        string,
        Record<string, unknown>
      >[]
      const has = (object: Record<string, unknown>, keys: string[]) =>
        expect(Object.keys(object)).toEqual(expect.arrayContaining(keys))
      has(job, [
        'id',
        'ip_address',
        'status',
        'stage',
        'name',
        'ref',
        'tag',
        'coverage',
        'created_at',
        'started_at',
        'finished_at',
        'duration',
        'user',
        'commit',
        'pipeline',
        'project',
      ])
      has(job.user, [
        'id',
        'name',
        'username',
        'state',
        'avatar_url',
        'web_url',
        'created_at',
        'bio',
        'location',
        'public_email',
        'skype',
        'linkedin',
        'twitter',
        'website_url',
        'organization',
      ])
      has(job.commit, [
        'id',
        'short_id',
        'title',
        'created_at',
        'parent_ids',
        'message',
        'author_name',
        'author_email',
        'authored_date',
        'committer_name',
        'committer_email',
        'committed_date',
      ])
      has(job.pipeline, ['id', 'sha', 'ref', 'status'])
      expect(job.pipeline.sha).toBe(job.commit.id)
      expect(job.project).toMatchObject({
        id: expect.any(Number),
        name: expect.any(String),
        path: expect.any(String),
        created_at: expect.any(String),
      })
      has(job.project, [
        'id',
        'name',
        'name_with_namespace',
        'path',
        'path_with_namespace',
        'description',
        'created_at',
      ])
      for (const [key, value] of Object.entries(job))
        if (['started_at', 'finished_at', 'created_at'].includes(key))
          expect(Number.isNaN(Date.parse(String(value)))).toBe(false)
      expect(job).not.toHaveProperty('token')
    })

    it('filters by status and sorts ascending by id', async () => {
      expect(
        ((await get(maintainer.token, `/runners/${runnerId()}/jobs?status=success`)).json() as { name: string }[]).map(
          (j) => j.name,
        ),
      ).toEqual(['ok'])
      expect(
        (
          (await get(maintainer.token, `/runners/${runnerId()}/jobs?order_by=id&sort=asc`)).json() as { name: string }[]
        ).map((j) => j.name),
      ).toEqual(['ok', 'bad'])
      expect((await get(maintainer.token, `/runners/${runnerId()}/jobs?status=bogus`)).json()).toEqual({
        error: 'status does not have a valid value',
      })
    })

    it('is for those who manage the runner', async () => {
      expect((await get(developer.token, `/runners/${runnerId()}/jobs`)).statusCode).toBe(403)
      expect((await get(null, `/runners/${runnerId()}/jobs`)).statusCode).toBe(401)
      expect((await get(ROOT_TOKEN, `/runners/${runnerId()}/jobs`)).statusCode).toBe(200)
    })
  })
})

describe('POST /user/runners (creating a runner without a registration token)', () => {
  let s: TestServer
  let groupOwner: SeededUser
  let groupMaintainer: SeededUser
  let maintainer: SeededUser
  let developer: SeededUser
  let runnerCreator: SeededUser
  let reader: SeededUser
  let groupId: number
  let projectId: number

  const create = (token: string | null, payload: Record<string, unknown>) =>
    s.request(token, { method: 'POST', url: '/api/v4/user/runners', payload })
  const runnerCount = async (): Promise<number> =>
    Number((await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/runners/all' })).headers['x-total'])
  /** Creates a runner as `token` and connects a test runner with the answer. */
  const created = async (token: string, payload: Record<string, unknown>): Promise<TestRunner> => {
    const res = await create(token, payload)
    expect(res.statusCode, res.body).toBe(201)
    return TestRunner.connect(injectTransport(s.app), res.json())
  }

  beforeAll(async () => {
    s = await makeServer()
    groupOwner = seedUser(s)
    groupMaintainer = seedUser(s)
    maintainer = seedUser(s)
    developer = seedUser(s)
    runnerCreator = seedUser(s, { scopes: ['create_runner'] })
    reader = seedUser(s, { scopes: ['read_api'] })
    groupId = seedGroup(s).id
    seedMember(s, 'Namespace', groupId, groupOwner.user.id, AccessLevel.OWNER)
    seedMember(s, 'Namespace', groupId, groupMaintainer.user.id, AccessLevel.MAINTAINER)
    projectId = await createProject(s, ROOT_TOKEN, { namespace_id: groupId })
    for (const [user, level] of [
      [maintainer, AccessLevel.MAINTAINER],
      [developer, AccessLevel.DEVELOPER],
      [runnerCreator, AccessLevel.MAINTAINER],
      [reader, AccessLevel.MAINTAINER],
    ] as const) {
      seedMember(s, 'Project', projectId, user.user.id, level)
    }
  })
  afterAll(async () => {
    await s.close()
  })

  it("creates a project runner for a Maintainer with a create_runner token: 201 with a glrt- token, the attributes given, and the runner then verifies and takes the project's job", async () => {
    const res = await create(runnerCreator.token, {
      runner_type: 'project_type',
      project_id: projectId,
      description: 'made by API',
      maintenance_note: 'rack 4',
      paused: false,
      locked: true,
      run_untagged: false,
      tag_list: 'linux, docker',
      access_level: 'ref_protected',
      maximum_timeout: 3600,
    })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toEqual({
      id: expect.any(Number),
      token: expect.stringMatching(/^glrt-/),
      token_expires_at: null,
    })
    const detail = (await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/runners/${res.json().id}` })).json()
    expect(detail).toMatchObject({
      runner_type: 'project_type',
      projects: [{ id: projectId }],
      description: 'made by API',
      maintenance_note: 'rack 4',
      paused: false,
      locked: true,
      run_untagged: false,
      tag_list: ['docker', 'linux'],
      access_level: 'ref_protected',
      maximum_timeout: 3600,
      contacted_at: null,
    })
    const runner = TestRunner.connect(injectTransport(s.app), res.json())
    expect(await runner.verify()).toBe(200)
    await commitFiles(s, maintainer.token, projectId, 'main', {
      '.gitlab-ci.yml': 'build:\n  tags: [linux]\n  script: echo built\n',
    })
    expect(await runner.runOnce()).toMatchObject({
      job: { job_info: { name: 'build', project_id: projectId } },
      state: 'success',
    })
  })

  it("creates group runners for the group's Owners and instance runners for administrators; both take jobs", async () => {
    const groupRunner = await created(groupOwner.token, {
      runner_type: 'group_type',
      group_id: groupId,
      description: 'group',
    })
    const instanceRunner = await created(ROOT_TOKEN, { runner_type: 'instance_type', description: 'shared' })
    for (const runner of [groupRunner, instanceRunner]) expect(await runner.verify()).toBe(200)
    expect(
      (await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/runners/${groupRunner.id}` })).json(),
    ).toMatchObject({ runner_type: 'group_type', groups: [{ id: groupId }] })
    await commitFiles(s, maintainer.token, projectId, 'main', {
      '.gitlab-ci.yml': 'one:\n  script: echo 1\ntwo:\n  script: echo 2\n',
    })
    const taken = [await groupRunner.runOnce(), await instanceRunner.runOnce()].map((r) => r?.job.job_info.project_id)
    expect(taken).toEqual([projectId, projectId])
  })

  it('records the creation as an audit event of the project', async () => {
    const events = (
      await s.request(maintainer.token, { method: 'GET', url: `/api/v4/projects/${projectId}/audit_events` })
    ).json() as { details: Record<string, unknown> }[]
    expect(events.map((e) => e.details.custom_message)).toContain('Created project CI runner')
  })

  it('refuses with 403 Insufficient permissions below the role the scope needs, and creates nothing', async () => {
    const before = await runnerCount()
    const refused: [SeededUser, Record<string, unknown>][] = [
      [developer, { runner_type: 'project_type', project_id: projectId }],
      [groupMaintainer, { runner_type: 'group_type', group_id: groupId }],
      [groupOwner, { runner_type: 'instance_type' }],
    ]
    for (const [user, payload] of refused) {
      const res = await create(user.token, payload)
      expect([payload.runner_type, res.statusCode, res.json()]).toEqual([
        payload.runner_type,
        403,
        { message: '403 Forbidden - Insufficient permissions' },
      ])
    }
    expect(await runnerCount()).toBe(before)
  })

  it('answers 400 for a missing or unknown runner_type, a missing group_id or project_id, or a timeout under ten minutes; 404 for a project or group the caller cannot see', async () => {
    const before = await runnerCount()
    const hidden = seedProject(s, { namespaceId: seedGroup(s).id, visibility: 'private' }).id
    const cases: [Record<string, unknown>, number, unknown][] = [
      [{}, 400, { error: 'runner_type is missing' }],
      [{ runner_type: 'shared' }, 400, { error: 'runner_type does not have a valid value' }],
      [{ runner_type: 'group_type' }, 400, { error: 'group_id is missing' }],
      [{ runner_type: 'project_type' }, 400, { error: 'project_id is missing' }],
      [
        { runner_type: 'project_type', project_id: projectId, maximum_timeout: 60 },
        400,
        { message: { maximum_timeout: ['needs to be at least 10 minutes'] } },
      ],
      [
        { runner_type: 'project_type', project_id: projectId, active: true, paused: false },
        400,
        { error: 'active, paused are mutually exclusive' },
      ],
      [{ runner_type: 'project_type', project_id: hidden }, 404, { message: '404 Project Not Found' }],
      [{ runner_type: 'project_type', project_id: 999999 }, 404, { message: '404 Project Not Found' }],
      [{ runner_type: 'group_type', group_id: 999999 }, 404, { message: '404 Group Not Found' }],
    ]
    for (const [payload, status, body] of cases) {
      const res = await create(maintainer.token, payload)
      expect([payload, res.statusCode, res.json()]).toEqual([payload, status, body])
    }
    expect(await runnerCount()).toBe(before)
  })

  it('needs a signed-in caller whose token has the api or create_runner scope', async () => {
    const payload = { runner_type: 'project_type', project_id: projectId }
    expect((await create(null, payload)).statusCode).toBe(401)
    const res = await create(reader.token, payload)
    expect([res.statusCode, res.json().error]).toEqual([403, 'insufficient_scope'])
  })
})
