import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedMember } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

describe('POST /projects/:id/repository/commits', () => {
  let s: ListeningServer
  let dev: SeededUser
  let reporter: SeededUser
  let projectId: number

  beforeAll(async () => {
    s = await startServer()
    dev = seedUser(s)
    reporter = seedUser(s)
    const created = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: '/api/v4/projects',
      payload: { name: 'multi', initialize_with_readme: true, visibility: 'private' },
    })
    expect(created.statusCode).toBe(201)
    projectId = created.json().id
    seedMember(s, 'Project', projectId, dev.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', projectId, reporter.user.id, AccessLevel.REPORTER)
  })
  afterAll(async () => {
    await s.close()
  })

  const commit = (token: string, payload: Record<string, unknown>) =>
    s.request(token, { method: 'POST', url: `/api/v4/projects/${projectId}/repository/commits`, payload })
  const raw = async (path: string, ref = 'feature') =>
    s.request(ROOT_TOKEN, {
      method: 'GET',
      url: `/api/v4/projects/${projectId}/repository/files/${encodeURIComponent(path)}/raw?ref=${ref}`,
    })

  it('commits several actions at once on a new branch started from the default branch', async () => {
    const res = await commit(dev.token, {
      branch: 'feature',
      start_branch: 'main',
      commit_message: 'Add two files',
      actions: [
        { action: 'create', file_path: 'docs/a.md', content: 'A' },
        { action: 'create', file_path: 'b.bin', content: Buffer.from('B!').toString('base64'), encoding: 'base64' },
        { action: 'update', file_path: 'README.md', content: '# changed\n' },
      ],
    })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({ title: 'Add two files', stats: { additions: 3 }, project_id: projectId })
    expect((await raw('docs/a.md')).body).toBe('A')
    expect((await raw('b.bin')).body).toBe('B!')
    expect((await raw('README.md')).body).toBe('# changed\n')
  })

  it('moves and deletes files', async () => {
    const res = await commit(dev.token, {
      branch: 'feature',
      commit_message: 'Move and delete',
      actions: [
        { action: 'move', file_path: 'docs/renamed.md', previous_path: 'docs/a.md' },
        { action: 'delete', file_path: 'b.bin' },
      ],
    })
    expect(res.statusCode).toBe(201)
    expect((await raw('docs/renamed.md')).body).toBe('A')
    expect((await raw('docs/a.md')).statusCode).toBe(404)
    expect((await raw('b.bin')).statusCode).toBe(404)
  })

  it('refuses to create a file that exists, changing nothing', async () => {
    const before = (
      await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/projects/${projectId}/repository/branches/feature` })
    ).json().commit.id
    const res = await commit(dev.token, {
      branch: 'feature',
      commit_message: 'dup',
      actions: [{ action: 'create', file_path: 'README.md', content: 'x' }],
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ message: 'A file with this name already exists' })
    const after = (
      await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/projects/${projectId}/repository/branches/feature` })
    ).json().commit.id
    expect(after).toBe(before)
  })

  it('answers 400 for missing parameters and 403 for a Reporter', async () => {
    expect(
      (
        await commit(dev.token, { branch: 'feature', actions: [{ action: 'create', file_path: 'x', content: 'x' }] })
      ).json(),
    ).toEqual({ error: 'commit_message is missing' })
    expect(
      (
        await commit(dev.token, {
          branch: 'feature',
          commit_message: 'm',
          actions: [{ action: 'move', file_path: 'y' }],
        })
      ).statusCode,
    ).toBe(400)
    expect(
      (
        await commit(reporter.token, {
          branch: 'feature',
          commit_message: 'm',
          actions: [{ action: 'create', file_path: 'r', content: 'r' }],
        })
      ).statusCode,
    ).toBe(403)
  })

  it('works from python-gitlab', async () => {
    const out = await withPythonGitlab<{ title: string; content: string }>(
      s.url,
      { private_token: dev.token },
      [
        `p = gl.projects.get(${projectId})`,
        "c = p.commits.create({'branch': 'feature', 'commit_message': 'From python', 'actions': [{'action': 'create', 'file_path': 'py.txt', 'content': 'py'}]})",
        "f = p.files.get(file_path='py.txt', ref='feature')",
        "out({'title': c.title, 'content': f.decode().decode()})",
      ].join('\n'),
    )
    expect(out).toEqual({ title: 'From python', content: 'py' })
  })
})
