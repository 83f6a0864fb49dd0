import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>

describe('project users and languages', () => {
  let s: ListeningServer
  let project: ProjectRow
  let empty: ProjectRow
  let open: ProjectRow
  let guest: SeededUser
  let developer: SeededUser
  let groupOwner: SeededUser

  const call = (token: string | null, url: string) => s.request(token, { method: 'GET', url: `/api/v4${url}` })
  const usernames = async (token: string | null, url: string): Promise<string[]> => {
    const res = await call(token, url)
    expect(res.statusCode, res.body).toBe(200)
    return (res.json() as Json[]).map((u) => String(u.username))
  }

  beforeAll(async () => {
    s = await startServer()
    const group = seedGroup(s, { path: 'langs', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'poly', visibility: 'private' })
    empty = seedProject(s, { namespaceId: group.id, path: 'empty', visibility: 'private' })
    const publicGroup = seedGroup(s, { path: 'open-langs', visibility: 'public' })
    open = seedProject(s, { namespaceId: publicGroup.id, path: 'open', visibility: 'public' })
    guest = seedUser(s, { username: 'ada_guest', name: 'Ada Lovelace' })
    developer = seedUser(s, { username: 'grace_dev', name: 'Grace Hopper' })
    groupOwner = seedUser(s, { username: 'alan_owner', name: 'Alan Turing' })
    seedMember(s, 'Project', project.id, guest.user.id, AccessLevel.GUEST)
    seedMember(s, 'Project', project.id, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Namespace', group.id, groupOwner.user.id, AccessLevel.OWNER)
    seedMember(s, 'Project', open.id, developer.user.id, AccessLevel.DEVELOPER)
    const commit = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${project.id}/repository/commits`,
      payload: {
        branch: 'main',
        commit_message: 'Code in three languages, and what does not count',
        actions: [
          { action: 'create', file_path: 'src/app.ts', content: 'x'.repeat(600) },
          { action: 'create', file_path: 'src/view.ts', content: 'x'.repeat(150) },
          { action: 'create', file_path: 'tools/run.py', content: 'x'.repeat(200) },
          { action: 'create', file_path: 'Dockerfile', content: 'x'.repeat(50) },
          { action: 'create', file_path: 'README.md', content: 'x'.repeat(5000) },
          { action: 'create', file_path: 'package.json', content: 'x'.repeat(5000) },
          { action: 'create', file_path: 'node_modules/lib/index.js', content: 'x'.repeat(5000) },
          { action: 'create', file_path: 'web/app.min.js', content: 'x'.repeat(5000) },
        ],
      },
    })
    expect(commit.statusCode, commit.body).toBe(201)
  })
  afterAll(async () => {
    await s.close()
  })

  it("lists the project's team, direct and inherited members, each once, by id", async () => {
    const res = await call(guest.token, `/projects/${project.id}/users`)
    expect(res.headers['x-total']).toBe('3')
    expect((res.json() as Json[])[0]).toEqual({
      id: guest.user.id,
      username: 'ada_guest',
      name: 'Ada Lovelace',
      state: 'active',
      locked: false,
      avatar_url: (res.json() as Json[])[0].avatar_url,
      web_url: expect.stringMatching(/\/ada_guest$/),
    })
    expect(await usernames(guest.token, `/projects/${project.id}/users`)).toEqual([
      'ada_guest',
      'grace_dev',
      'alan_owner',
    ])
  })

  it('searches names and usernames and leaves out skip_users', async () => {
    expect(await usernames(developer.token, `/projects/${project.id}/users?search=hopper`)).toEqual(['grace_dev'])
    expect(await usernames(developer.token, `/projects/${project.id}/users?search=owner`)).toEqual(['alan_owner'])
    const skip = `skip_users[]=${guest.user.id}&skip_users[]=${groupOwner.user.id}`
    expect(await usernames(developer.token, `/projects/${project.id}/users?${skip}`)).toEqual(['grace_dev'])
    expect(await usernames(developer.token, `/projects/${project.id}/users?per_page=1&page=2`)).toEqual(['grace_dev'])
  })

  it('shows the users of a public project to anyone and hides a private one', async () => {
    expect(await usernames(null, `/projects/${open.id}/users`)).toEqual(['grace_dev'])
    const stranger = seedUser(s)
    expect((await call(stranger.token, `/projects/${project.id}/users`)).statusCode).toBe(404)
    expect((await call(null, `/projects/${project.id}/users`)).statusCode).toBe(404)
    expect((await call(developer.token, `/projects/${project.id}/users?skip_users=x`)).statusCode).toBe(400)
  })

  it("breaks the default branch's code down by language in percent, largest first", async () => {
    const res = await call(developer.token, `/projects/${project.id}/languages`)
    expect(res.statusCode, res.body).toBe(200)
    // 750 bytes of TypeScript, 200 of Python, 50 of Dockerfile; prose, data and vendored files do not count.
    expect(res.body).toBe('{"TypeScript":75,"Python":20,"Dockerfile":5}')
    expect((await call(groupOwner.token, `/projects/${empty.id}/languages`)).json()).toEqual({})
  })

  it('shows languages to readers of the code only', async () => {
    expect((await call(guest.token, `/projects/${project.id}/languages`)).statusCode).toBe(403)
    expect((await call(null, `/projects/${project.id}/languages`)).statusCode).toBe(404)
  })

  it('answers python-gitlab', async () => {
    const result = await withPythonGitlab<{ users: string[]; languages: Record<string, number> }>(
      s.url,
      { private_token: developer.token },
      `
project = gl.projects.get(${project.id}, lazy=True)
users = [u.username for u in project.users.list(get_all=True)]
out({'users': users, 'languages': project.languages()})
`,
    )
    expect(result.users).toEqual(['ada_guest', 'grace_dev', 'alan_owner'])
    expect(result.languages).toEqual({ TypeScript: 75, Python: 20, Dockerfile: 5 })
  })
})
