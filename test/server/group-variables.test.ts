import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { NamespaceRow } from '../../src/server/platform/db/rows'
import { commitFiles, createProject, projectRunnersToken } from '../helpers/ci'
import { seedGroup, seedMember } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { TestRunner, injectTransport } from '../helpers/runner'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>

describe('Group CI/CD variables', () => {
  let s: ListeningServer
  let top: NamespaceRow
  let sub: NamespaceRow
  let owner: SeededUser
  let maintainer: SeededUser

  const send = (token: string | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Json) =>
    s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
  const vars = (g: NamespaceRow) => `/groups/${g.id}/variables`
  const stored = () =>
    (s.app.burrow.db.prepare('SELECT COUNT(*) AS n FROM ci_group_variables').get() as { n: number }).n

  beforeAll(async () => {
    s = await startServer()
    top = seedGroup(s, { path: 'platform', visibility: 'private' })
    sub = seedGroup(s, { path: 'services', parentId: top.id, visibility: 'private' })
    owner = seedUser(s)
    maintainer = seedUser(s)
    seedMember(s, 'Namespace', top.id, owner.user.id, AccessLevel.OWNER)
    seedMember(s, 'Namespace', top.id, maintainer.user.id, AccessLevel.MAINTAINER)
  })
  afterAll(async () => {
    await s.close()
  })

  it("adds a variable for Owners with GitLab's defaults, reads, lists, changes and removes it", async () => {
    const res = await send(owner.token, 'POST', vars(top), { key: 'REGISTRY', value: 'registry.example.com' })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toEqual({
      variable_type: 'env_var',
      key: 'REGISTRY',
      value: 'registry.example.com',
      hidden: false,
      protected: false,
      masked: false,
      raw: false,
      environment_scope: '*',
      description: null,
    })
    expect((await send(owner.token, 'GET', `${vars(top)}/REGISTRY`)).json()).toMatchObject({
      value: 'registry.example.com',
    })
    const changed = await send(owner.token, 'PUT', `${vars(top)}/REGISTRY`, {
      value: 'mirror.example.com',
      protected: true,
    })
    expect(changed.json()).toMatchObject({ key: 'REGISTRY', value: 'mirror.example.com', protected: true })
    expect(((await send(owner.token, 'GET', vars(top))).json() as Json[]).map((v) => v.key)).toEqual(['REGISTRY'])
    expect((await send(owner.token, 'DELETE', `${vars(top)}/REGISTRY`)).statusCode).toBe(204)
    expect((await send(owner.token, 'GET', `${vars(top)}/REGISTRY`)).json()).toEqual({
      message: '404 Variable Not Found',
    })
  })

  it('stores values sealed, as project variables are', async () => {
    await send(owner.token, 'POST', vars(top), { key: 'SEALED', value: 'plain-text-secret' })
    const row = s.app.burrow.db
      .prepare("SELECT encrypted_value FROM ci_group_variables WHERE key = 'SEALED'")
      .get() as {
      encrypted_value: string
    }
    expect(row.encrypted_value).not.toContain('plain-text-secret')
    expect((await send(owner.token, 'DELETE', `${vars(top)}/SEALED`)).statusCode).toBe(204)
  })

  it("refuses bad keys, duplicates and unmaskable values with project variables' messages, writing nothing", async () => {
    await send(owner.token, 'POST', vars(top), { key: 'TAKEN', value: 'x' })
    const before = stored()
    expect((await send(owner.token, 'POST', vars(top), { key: 'BAD-KEY', value: 'x' })).json()).toEqual({
      message: { key: ["can contain only letters, digits and '_'."] },
    })
    expect((await send(owner.token, 'POST', vars(top), { key: 'TAKEN', value: 'y' })).json()).toEqual({
      message: { key: ['(TAKEN) has already been taken'] },
    })
    const masked = await send(owner.token, 'PUT', `${vars(top)}/TAKEN`, { masked: true })
    expect(masked.statusCode).toBe(400)
    expect(stored()).toBe(before)
    expect((await send(owner.token, 'GET', `${vars(top)}/TAKEN`)).json()).toMatchObject({ value: 'x', masked: false })
  })

  it('keeps one variable per key and scope; an ambiguous key needs filter[environment_scope] (409)', async () => {
    await send(owner.token, 'POST', vars(sub), { key: 'DEPLOY', value: 'staging', environment_scope: 'staging' })
    await send(owner.token, 'POST', vars(sub), { key: 'DEPLOY', value: 'all' })
    expect((await send(owner.token, 'GET', `${vars(sub)}/DEPLOY`)).statusCode).toBe(409)
    const scoped = await send(owner.token, 'GET', `${vars(sub)}/DEPLOY?filter[environment_scope]=staging`)
    expect(scoped.json()).toMatchObject({ value: 'staging' })
    expect(
      (await send(owner.token, 'DELETE', `${vars(sub)}/DEPLOY?filter[environment_scope]=staging`)).statusCode,
    ).toBe(204)
    expect((await send(owner.token, 'GET', `${vars(sub)}/DEPLOY`)).json()).toMatchObject({ value: 'all' })
  })

  it('is for Owners: Maintainers get 403, strangers 404, anonymous callers 401', async () => {
    expect((await send(maintainer.token, 'GET', vars(top))).statusCode).toBe(403)
    expect((await send(maintainer.token, 'POST', vars(top), { key: 'NOPE', value: 'x' })).statusCode).toBe(403)
    expect((await send(seedUser(s).token, 'GET', vars(top))).statusCode).toBe(404)
    expect((await send(null, 'GET', vars(top))).statusCode).toBe(401)
  })

  it("gives a project's jobs its groups' variables: a nearer group's and the project's own win, protected ones on protected refs only", async () => {
    await send(owner.token, 'POST', vars(top), { key: 'LEVEL', value: 'top' })
    await send(owner.token, 'POST', vars(top), { key: 'TOP_ONLY', value: 'from-top' })
    await send(owner.token, 'POST', vars(sub), { key: 'LEVEL', value: 'sub' })
    await send(owner.token, 'POST', vars(sub), { key: 'OWN', value: 'from-sub' })
    await send(owner.token, 'POST', vars(top), { key: 'GUARDED', value: 'guarded-value', protected: true })
    const pid = await createProject(s, owner.token, { namespace_id: sub.id })
    expect(
      (await send(owner.token, 'POST', `/projects/${pid}/variables`, { key: 'OWN', value: 'project' })).statusCode,
    ).toBe(201)
    const runner = await TestRunner.register(injectTransport(s.app), await projectRunnersToken(s, owner.token, pid))
    await commitFiles(s, owner.token, pid, 'main', { '.gitlab-ci.yml': 'j:\n  script: j\n' })
    const onMain = await runner.requestJob()
    const values = Object.fromEntries((onMain?.variables ?? []).map((v) => [v.key, v.value]))
    expect(values).toMatchObject({ LEVEL: 'sub', TOP_ONLY: 'from-top', OWN: 'project', GUARDED: 'guarded-value' })
    expect(values.DEPLOY).toBe('all')

    await commitFiles(s, owner.token, pid, 'topic', { x: 'x' }, { startBranch: 'main' })
    const onTopic = await runner.requestJob()
    expect(onTopic?.git_info.ref).toBe('topic')
    expect(onTopic?.variables.map((v) => v.key)).toContain('LEVEL')
    expect(onTopic?.variables.map((v) => v.key)).not.toContain('GUARDED')
  })

  it('answers python-gitlab', async () => {
    const result = await withPythonGitlab<{ created: string; listed: string[]; updated: string; after: string[] }>(
      s.url,
      { private_token: owner.token },
      `
group = gl.groups.get(${sub.id}, lazy=True)
v = group.variables.create({'key': 'WIRE', 'value': 'one'})
created = v.value
listed = sorted(x.key for x in group.variables.list(get_all=True))
v.value = 'two'
v.save()
updated = group.variables.get('WIRE').value
group.variables.delete('WIRE')
after = sorted(x.key for x in group.variables.list(get_all=True))
out({'created': created, 'listed': listed, 'updated': updated, 'after': after})
`,
    )
    expect(result).toEqual({
      created: 'one',
      listed: ['DEPLOY', 'LEVEL', 'OWN', 'WIRE'],
      updated: 'two',
      after: ['DEPLOY', 'LEVEL', 'OWN'],
    })
  })
})
