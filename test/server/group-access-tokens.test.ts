import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>

describe('group access tokens', () => {
  let s: ListeningServer
  let group: NamespaceRow
  let project: ProjectRow
  let owner: SeededUser
  let maintainer: SeededUser

  const call = (token: string | null, method: string, path: string, payload?: Json) =>
    s.request(token, {
      method: method as 'GET',
      url: `/api/v4${path}`,
      ...(payload ? { payload } : {}),
    })
  const tokens = (): string => `/groups/${group.id}/access_tokens`
  const create = async (payload: Json): Promise<Json> => {
    const res = await call(owner.token, 'POST', tokens(), payload)
    expect(res.statusCode, res.body).toBe(201)
    return res.json()
  }

  beforeAll(async () => {
    s = await startServer()
    group = seedGroup(s, { path: 'crew', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'tool', visibility: 'private' })
    owner = seedUser(s)
    maintainer = seedUser(s)
    seedMember(s, 'Namespace', group.id, owner.user.id, AccessLevel.OWNER)
    seedMember(s, 'Namespace', group.id, maintainer.user.id, AccessLevel.MAINTAINER)
  })
  afterAll(async () => {
    await s.close()
  })

  it('issues a token to a new group bot that acts as a member of the group and its projects', async () => {
    const token = await create({ name: 'ci', scopes: ['api'], access_level: AccessLevel.DEVELOPER })
    expect(token).toMatchObject({
      name: 'ci',
      scopes: ['api'],
      access_level: 30,
      active: true,
      revoked: false,
      token: expect.any(String),
    })
    const me = (await call(String(token.token), 'GET', '/user')).json() as Json
    expect(me.username).toMatch(new RegExp(`^group_${group.id}_bot_`))
    expect(me.bot).toBe(true)
    const inProject = await call(String(token.token), 'GET', `/projects/${project.id}`)
    expect(inProject.statusCode, inProject.body).toBe(200)
    const members = (await call(owner.token, 'GET', `/groups/${group.id}/members`)).json() as Json[]
    expect(members.find((m) => m.username === me.username)).toMatchObject({ access_level: 30 })
  })

  it('lists, reads, rotates and revokes, each answered for the group only', async () => {
    const first = await create({ name: 'deploy', scopes: ['read_api'] })
    expect(first.access_level).toBe(AccessLevel.MAINTAINER)
    const listed = (await call(owner.token, 'GET', tokens())).json() as Json[]
    expect(listed.map((t) => t.name)).toContain('deploy')
    expect(listed.every((t) => !('token' in t))).toBe(true)
    expect((await call(owner.token, 'GET', `${tokens()}/${String(first.id)}`)).json()).toMatchObject({ name: 'deploy' })

    const rotated = await call(owner.token, 'POST', `${tokens()}/${String(first.id)}/rotate`)
    expect(rotated.statusCode, rotated.body).toBe(200)
    const second = rotated.json() as Json
    expect(second).toMatchObject({ name: 'deploy', access_level: 40, token: expect.any(String) })
    expect((await call(String(first.token), 'GET', '/user')).statusCode).toBe(401)
    const inactive = (await call(owner.token, 'GET', `${tokens()}?state=inactive`)).json() as Json[]
    expect(inactive.map((t) => t.id)).toContain(first.id)

    expect((await call(owner.token, 'DELETE', `${tokens()}/${String(second.id)}`)).statusCode).toBe(204)
    expect((await call(String(second.token), 'GET', '/user')).statusCode).toBe(401)
  })

  it("refuses non-Owners, anonymous callers, other groups' or projects' tokens, and bad input", async () => {
    expect((await call(maintainer.token, 'GET', tokens())).statusCode).toBe(403)
    expect((await call(maintainer.token, 'POST', tokens(), { name: 'x', scopes: ['api'] })).statusCode).toBe(403)
    expect((await call(null, 'GET', tokens())).statusCode).toBe(401)

    const projectToken = await call(ROOT_TOKEN, 'POST', `/projects/${project.id}/access_tokens`, {
      name: 'project-only',
      scopes: ['api'],
    })
    expect(projectToken.statusCode, projectToken.body).toBe(201)
    const id = String((projectToken.json() as Json).id)
    const res = await call(owner.token, 'GET', `${tokens()}/${id}`)
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: `404 Could not find group access token with token_id: ${id} Not Found` })
    expect((await call(owner.token, 'DELETE', `${tokens()}/${id}`)).statusCode).toBe(404)

    const before = ((await call(owner.token, 'GET', tokens())).json() as Json[]).length
    expect((await call(owner.token, 'POST', tokens(), { scopes: ['api'] })).json()).toEqual({
      error: 'name is missing',
    })
    expect((await call(owner.token, 'POST', tokens(), { name: 'x', scopes: ['nope'] })).statusCode).toBe(400)
    expect((await call(owner.token, 'POST', tokens(), { name: 'x', scopes: ['sudo'] })).statusCode).toBe(400)
    expect(((await call(owner.token, 'GET', tokens())).json() as Json[]).length).toBe(before)
  })

  it('python-gitlab: group.access_tokens create, list and delete', async () => {
    const result = await withPythonGitlab<{ level: number; names: string[]; after: string[] }>(
      s.url,
      { private_token: owner.token },
      `
group = gl.groups.get(${group.id}, lazy=True)
t = group.access_tokens.create({'name': 'wire', 'scopes': ['read_repository'], 'access_level': 20})
names = [x.name for x in group.access_tokens.list(get_all=True)]
group.access_tokens.delete(t.id)
after = [x.name for x in group.access_tokens.list(get_all=True) if x.active]
out({'level': t.access_level, 'names': names, 'after': after})
`,
    )
    expect(result.level).toBe(20)
    expect(result.names).toContain('wire')
    expect(result.after).not.toContain('wire')
  })
})
