import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedMember } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

// Paths and protected branches on the repository write APIs: a path git would refuse or drop is a
// 400 that commits nothing (a move never loses its source), caller paths are file names and never
// git pathspec magic, and a push the protected branch rules refuse is GitLab's 403.

describe('file paths and protected branches on repository writes', () => {
  let s: TestServer
  let dev: SeededUser
  let projectId = 0
  const base = (): string => `/api/v4/projects/${projectId}/repository`

  beforeAll(async () => {
    s = await makeServer()
    dev = seedUser(s)
    const created = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: '/api/v4/projects',
      payload: { name: 'paths', initialize_with_readme: true },
    })
    projectId = created.json().id
    seedMember(s, 'Project', projectId, dev.user.id, AccessLevel.DEVELOPER)
    expect(
      (
        await s.request(dev.token, {
          method: 'POST',
          url: `${base()}/branches`,
          payload: { branch: 'work', ref: 'main' },
        })
      ).statusCode,
    ).toBe(201)
  })
  afterAll(async () => {
    await s.close()
  })

  const head = async (branch = 'work'): Promise<string> =>
    (await s.request(ROOT_TOKEN, { method: 'GET', url: `${base()}/branches/${branch}` })).json().commit.id
  const commit = (actions: readonly Record<string, unknown>[], branch = 'work') =>
    s.request(dev.token, {
      method: 'POST',
      url: `${base()}/commits`,
      payload: { branch, commit_message: 'm', actions },
    })
  const fileUrl = (path: string, suffix = ''): string => `${base()}/files/${encodeURIComponent(path)}${suffix}`

  const REFUSED: readonly [string, string][] = [
    ['.git/config', "invalid path: '.git/config'"],
    ['a//b.txt', "invalid path: 'a//b.txt'"],
    ['docs/.GIT/hooks', "invalid path: 'docs/.GIT/hooks'"],
    ['git~1/config', "invalid path: 'git~1/config'"],
    ['.git./x', "invalid path: '.git./x'"],
    ['../../etc/passwd', 'Path cannot include directory traversal'],
    ['a/../../b', 'Path cannot include directory traversal'],
    ['/etc/passwd', "invalid path: '/etc/passwd'"],
    ['-o', "invalid path: '-o'"],
    ['--output=x', "invalid path: '--output=x'"],
    ['.', "invalid path: '.'"],
    ['..', 'Path cannot include directory traversal'],
    ['dir/', "invalid path: 'dir/'"],
  ]

  it('refuses a create at a path git would drop or refuse with Gitaly’s message, committing nothing', async () => {
    const before = await head()
    for (const [path, message] of REFUSED) {
      const res = await commit([{ action: 'create', file_path: path, content: 'x' }])
      expect([path, res.statusCode, res.json()]).toEqual([path, 400, { message }])
    }
    expect(await head()).toBe(before)
  })

  it('refuses a move to or from such a path and keeps the source file', async () => {
    const before = await head()
    for (const [path, message] of REFUSED) {
      const to = await commit([{ action: 'move', file_path: path, previous_path: 'README.md' }])
      expect([path, to.statusCode, to.json()]).toEqual([path, 400, { message }])
      const from = await commit([{ action: 'move', file_path: 'moved.md', previous_path: path }])
      expect([path, from.statusCode, from.json()]).toEqual([path, 400, { message }])
    }
    expect(await head()).toBe(before)
    expect(
      (await s.request(dev.token, { method: 'GET', url: fileUrl('README.md', '/raw'), query: { ref: 'work' } }))
        .statusCode,
    ).toBe(200)
  })

  it('refuses a path of 5,000 characters and every other action kind at a refused path', async () => {
    const before = await head()
    const long = 'x'.repeat(5000)
    expect((await commit([{ action: 'create', file_path: long, content: 'x' }])).json()).toEqual({
      message: `invalid path: '${long}'`,
    })
    for (const action of [
      { action: 'update', content: 'x' },
      { action: 'delete' },
      { action: 'chmod', execute_filemode: true },
    ]) {
      const res = await commit([{ ...action, file_path: '.git/config' }])
      expect([action.action, res.statusCode, res.json()]).toEqual([
        action.action,
        400,
        { message: "invalid path: '.git/config'" },
      ])
    }
    expect(await head()).toBe(before)
  })

  it('refuses the same paths on the Files API with its parameter message', async () => {
    // A bare `.` or `..` is a dot segment of the URL itself and never names a file there.
    for (const [path] of REFUSED.filter(([p]) => p !== '.' && p !== '..')) {
      const res = await s.request(dev.token, {
        method: 'POST',
        url: fileUrl(path),
        payload: { branch: 'work', content: 'x', commit_message: 'm' },
      })
      expect([path, res.statusCode, res.json()]).toEqual([
        path,
        400,
        { error: 'file_path should be a valid file path' },
      ])
    }
  })

  it('treats pathspec magic in a path as a file name on every Files API verb and in commit listings', async () => {
    const magic = ':(glob)**'
    const read = await s.request(dev.token, { method: 'GET', url: fileUrl(magic), query: { ref: 'work' } })
    expect([read.statusCode, read.json()]).toEqual([404, { message: '404 File Not Found' }])
    expect(
      (await s.request(dev.token, { method: 'GET', url: fileUrl(magic, '/raw'), query: { ref: 'work' } })).statusCode,
    ).toBe(404)
    const created = await s.request(dev.token, {
      method: 'POST',
      url: fileUrl(magic),
      payload: { branch: 'work', content: 'one', commit_message: 'Add magic' },
    })
    expect([created.statusCode, created.json()]).toEqual([201, { file_path: magic, branch: 'work' }])
    expect(
      (await s.request(dev.token, { method: 'GET', url: fileUrl(magic, '/raw'), query: { ref: 'work' } })).body,
    ).toBe('one')
    const updated = await s.request(dev.token, {
      method: 'PUT',
      url: fileUrl(magic),
      payload: { branch: 'work', content: 'two', commit_message: 'Change magic' },
    })
    expect(updated.statusCode).toBe(200)
    const history = await s.request(dev.token, {
      method: 'GET',
      url: `${base()}/commits`,
      query: { ref_name: 'work', path: magic },
    })
    expect(history.json().map((c: { title: string }) => c.title)).toEqual(['Change magic', 'Add magic'])
    const other = await s.request(dev.token, {
      method: 'GET',
      url: `${base()}/commits`,
      query: { ref_name: 'work', path: ':(glob)*.md' },
    })
    expect([other.statusCode, other.json()]).toEqual([200, []])
    const deleted = await s.request(dev.token, {
      method: 'DELETE',
      url: fileUrl(magic),
      query: { branch: 'work', commit_message: 'Remove magic' },
    })
    expect(deleted.statusCode).toBe(204)
    expect(
      (await s.request(dev.token, { method: 'GET', url: fileUrl('README.md'), query: { ref: 'work' } })).statusCode,
    ).toBe(200)
  })

  it('commits under the username of a user whose name git cannot record', async () => {
    const dots = seedUser(s, { name: '...' })
    seedMember(s, 'Project', projectId, dots.user.id, AccessLevel.DEVELOPER)
    const res = await s.request(dots.token, {
      method: 'POST',
      url: `${base()}/commits`,
      payload: {
        branch: 'work',
        commit_message: 'dots',
        actions: [{ action: 'create', file_path: 'dots.txt', content: '.' }],
      },
    })
    expect([res.statusCode, res.json().author_name, res.json().committer_name]).toEqual([
      201,
      dots.user.username,
      dots.user.username,
    ])
  })

  it('answers a push to a protected branch through the Commits and Files APIs with 403, committing nothing', async () => {
    const before = await head('main')
    const body = { message: '403 Forbidden - You are not allowed to push into this branch' }
    const viaCommits = await commit([{ action: 'create', file_path: 'p.txt', content: 'x' }], 'main')
    expect([viaCommits.statusCode, viaCommits.json()]).toEqual([403, body])
    const viaFiles = await s.request(dev.token, {
      method: 'POST',
      url: fileUrl('p.txt'),
      payload: { branch: 'main', content: 'x', commit_message: 'm' },
    })
    expect([viaFiles.statusCode, viaFiles.json()]).toEqual([403, body])
    const update = await s.request(dev.token, {
      method: 'PUT',
      url: fileUrl('README.md'),
      payload: { branch: 'main', content: 'x', commit_message: 'm' },
    })
    expect([update.statusCode, update.json()]).toEqual([403, body])
    const removal = await s.request(dev.token, {
      method: 'DELETE',
      url: fileUrl('README.md'),
      query: { branch: 'main', commit_message: 'm' },
    })
    expect([removal.statusCode, removal.json()]).toEqual([403, body])
    expect(await head('main')).toBe(before)
  })

  it('answers creating a protected branch one may not push to with GitLab’s 400 pre-receive message', async () => {
    const rule = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/protected_branches`,
      payload: { name: 'release-*', push_access_level: 40 },
    })
    expect(rule.statusCode).toBe(201)
    const res = await s.request(dev.token, {
      method: 'POST',
      url: `${base()}/branches`,
      payload: { branch: 'release-1', ref: 'main' },
    })
    expect([res.statusCode, res.json()]).toEqual([
      400,
      { message: 'You are not allowed to create protected branches on this project.' },
    ])
    expect((await s.request(ROOT_TOKEN, { method: 'GET', url: `${base()}/branches/release-1` })).statusCode).toBe(404)
  })
})
