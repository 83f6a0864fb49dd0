import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { parseBlamePorcelain } from '../../src/server/platform/git/blame'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { commitFiles } from '../helpers/ci'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>
type Range = { commit: Json; lines: string[] }

describe('blame', () => {
  let s: ListeningServer
  let project: ProjectRow
  let guest: SeededUser
  let first: string
  let second: string

  const blame = (token: string | null, path: string, query: string) =>
    s.request(token, {
      method: 'GET',
      url: `/api/v4/projects/${project.id}/repository/files/${encodeURIComponent(path)}/blame${query}`,
    })
  const summary = (ranges: Range[]) => ranges.map((r) => [r.commit.id, r.lines])

  beforeAll(async () => {
    s = await startServer()
    const group = seedGroup(s, { path: 'blamed', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'private' })
    guest = seedUser(s)
    seedMember(s, 'Project', project.id, guest.user.id, AccessLevel.GUEST)
    first = await commitFiles(s, ROOT_TOKEN, project.id, 'main', {
      'src/app.txt': 'alpha\nbeta\ngamma\ndelta\n',
      ':(glob)*.txt': 'magic\n',
    })
    second = await commitFiles(s, ROOT_TOKEN, project.id, 'main', { 'src/app.txt': 'alpha\nBETA\ngamma\ndelta\n' })
  })
  afterAll(async () => {
    await s.close()
  })

  it('groups consecutive lines by the commit that last changed them, with headers of the file', async () => {
    const res = await blame(ROOT_TOKEN, 'src/app.txt', '?ref=main')
    expect(res.statusCode, res.body).toBe(200)
    expect(summary(res.json() as Range[])).toEqual([
      [first, ['alpha']],
      [second, ['BETA']],
      [first, ['gamma', 'delta']],
    ])
    expect((res.json() as Range[])[1].commit).toMatchObject({ id: second, title: 'Update CI', parent_ids: [first] })
    expect(res.headers['x-gitlab-file-path']).toBe('src/app.txt')
    expect(res.headers['x-gitlab-commit-id']).toBe(second)
    // At the first commit, every line is the first commit's.
    expect(summary((await blame(ROOT_TOKEN, 'src/app.txt', `?ref=${first}`)).json() as Range[])).toEqual([
      [first, ['alpha', 'beta', 'gamma', 'delta']],
    ])
  })

  it('blames a range of lines, its end cut to the file', async () => {
    expect(summary((await blame(ROOT_TOKEN, 'src/app.txt', '?ref=main&range[start]=2&range[end]=3')).json())).toEqual([
      [second, ['BETA']],
      [first, ['gamma']],
    ])
    expect(summary((await blame(ROOT_TOKEN, 'src/app.txt', '?ref=main&range[start]=4&range[end]=99')).json())).toEqual([
      [first, ['delta']],
    ])
  })

  it('takes a path literally, never as pathspec magic', async () => {
    const res = await blame(ROOT_TOKEN, ':(glob)*.txt', '?ref=main')
    expect(res.statusCode, res.body).toBe(200)
    expect(summary(res.json() as Range[])).toEqual([[first, ['magic']]])
  })

  it('refuses bad input with GitLab’s messages', async () => {
    const cases: [string, string, number, unknown][] = [
      ['src/app.txt', '', 400, { error: 'ref is missing' }],
      ['src/app.txt', '?ref=main&range[start]=1', 400, { error: 'range[end] is missing' }],
      [
        'src/app.txt',
        '?ref=main&range[start]=0&range[end]=2',
        400,
        { error: 'range[start] does not have a valid value' },
      ],
      [
        'src/app.txt',
        '?ref=main&range[start]=x&range[end]=2',
        400,
        { error: 'range[start] does not have a valid value' },
      ],
      [
        'src/app.txt',
        '?ref=main&range[start]=3&range[end]=2',
        400,
        { message: 'range[start] must be less than or equal to range[end]' },
      ],
      [
        'src/app.txt',
        '?ref=main&range[start]=9&range[end]=12',
        400,
        { message: 'range is outside of the file length' },
      ],
      ['src/app.txt', '?ref=nope', 404, { message: '404 Commit Not Found' }],
      ['src/app.txt', '?ref=--output=x', 400, { error: 'ref is invalid' }],
      ['missing.txt', '?ref=main', 404, { message: '404 File Not Found' }],
      ['../etc/passwd', '?ref=main', 400, { error: 'file_path should be a valid file path' }],
    ]
    for (const [path, query, code, body] of cases) {
      const res = await blame(ROOT_TOKEN, path, query)
      expect(res.statusCode, `${path}${query}`).toBe(code)
      expect(res.json(), `${path}${query}`).toEqual(body)
    }
  })

  it('is read_code: a Guest of a private project and strangers are refused', async () => {
    expect((await blame(guest.token, 'src/app.txt', '?ref=main')).statusCode).toBe(403)
    expect((await blame(null, 'src/app.txt', '?ref=main')).statusCode).toBe(404)
  })

  it('follows a file through its rename, as git blame does: moved lines keep the commits that wrote them', async () => {
    const moved = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${project.id}/repository/commits`,
      payload: {
        branch: 'moved',
        start_branch: 'main',
        commit_message: 'Move the app, editing its last line',
        actions: [
          {
            action: 'move',
            previous_path: 'src/app.txt',
            file_path: 'lib/moved.txt',
            content: 'alpha\nBETA\ngamma\nDELTA\n',
          },
        ],
      },
    })
    expect(moved.statusCode, moved.body).toBe(201)
    const third = (moved.json() as Json).id
    const res = await blame(ROOT_TOKEN, 'lib/moved.txt', '?ref=moved')
    expect(res.statusCode, res.body).toBe(200)
    expect(summary(res.json() as Range[])).toEqual([
      [first, ['alpha']],
      [second, ['BETA']],
      [first, ['gamma']],
      [third, ['DELTA']],
    ])
  })

  it('parses porcelain output whose metadata appears only at a commit’s first line', () => {
    const a = 'a'.repeat(40)
    const b = 'b'.repeat(40)
    const out = [
      `${a} 1 1 2`,
      'author Ann',
      'summary First',
      'filename f',
      '\tone',
      `${a} 2 2`,
      '\ttwo',
      `${b} 3 3 1`,
      'author Bo',
      'filename f',
      '\t\tindented',
      '',
    ].join('\n')
    expect(parseBlamePorcelain(out)).toEqual([
      { sha: a, lines: ['one', 'two'] },
      { sha: b, lines: ['\tindented'] },
    ])
  })

  it('answers python-gitlab: project.files.blame', async () => {
    const result = await withPythonGitlab<[string, string[]][]>(
      s.url,
      { private_token: ROOT_TOKEN },
      `
ranges = gl.projects.get(${project.id}, lazy=True).files.blame(file_path='src/app.txt', ref='main')
out([[r['commit']['id'], r['lines']] for r in ranges])
`,
    )
    expect(result).toEqual([
      [first, ['alpha']],
      [second, ['BETA']],
      [first, ['gamma', 'delta']],
    ])
  })
})
