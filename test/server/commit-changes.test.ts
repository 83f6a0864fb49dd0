import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { commitFiles } from '../helpers/ci'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>

const CONFLICT = {
  message:
    'Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, ' +
    'or a more recent commit may have updated some of its content.',
  error_code: 'conflict',
}
const REVERT_EMPTY = {
  message:
    'Sorry, we cannot revert this commit automatically. This commit may already have been reverted, ' +
    'or a more recent commit may have updated some of its content.',
  error_code: 'empty',
}

describe('cherry-pick and revert', () => {
  let s: ListeningServer
  let project: ProjectRow
  let developer: SeededUser
  let reporter: SeededUser
  let author: SeededUser

  const call = (token: string | null, method: string, url: string, payload?: Json) =>
    s.request(token, {
      method: method as 'GET',
      url: `/api/v4/projects/${project.id}${url}`,
      ...(payload ? { payload } : {}),
    })
  const change = (token: string | null, sha: string, kind: 'cherry_pick' | 'revert', payload: Json) =>
    call(token, 'POST', `/repository/commits/${sha}/${kind}`, payload)
  const fileAt = async (ref: string, path: string): Promise<string | null> => {
    const res = await call(ROOT_TOKEN, 'GET', `/repository/files/${encodeURIComponent(path)}/raw?ref=${ref}`)
    return res.statusCode === 200 ? res.body : null
  }
  const head = async (branch: string): Promise<string> =>
    ((await call(ROOT_TOKEN, 'GET', `/repository/branches/${branch}`)).json() as { commit: { id: string } }).commit.id
  const branchFrom = async (name: string, ref = 'main'): Promise<void> => {
    expect((await call(ROOT_TOKEN, 'POST', '/repository/branches', { branch: name, ref })).statusCode).toBe(201)
  }

  beforeAll(async () => {
    s = await startServer()
    const group = seedGroup(s, { path: 'picks', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'private' })
    developer = seedUser(s)
    reporter = seedUser(s)
    author = seedUser(s)
    seedMember(s, 'Project', project.id, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, reporter.user.id, AccessLevel.REPORTER)
    seedMember(s, 'Project', project.id, author.user.id, AccessLevel.DEVELOPER)
    await commitFiles(s, ROOT_TOKEN, project.id, 'main', { 'README.md': '# App\n', 'notes.txt': 'one\n' })
  })
  afterAll(async () => {
    await s.close()
  })

  it('cherry-picks a commit onto a branch with GitLab’s message, keeping its author', async () => {
    await branchFrom('stable')
    const fix = await commitFiles(s, author.token, project.id, 'main', { 'fix.txt': 'fixed\n' }, { message: 'Fix it' })
    const before = await head('stable')
    const res = await change(developer.token, fix, 'cherry_pick', { branch: 'stable' })
    expect(res.statusCode, res.body).toBe(201)
    const picked = res.json() as Json
    expect(picked).toMatchObject({
      title: 'Fix it',
      message: `Fix it\n\n(cherry picked from commit ${fix})`,
      parent_ids: [before],
      author_name: author.user.name,
      committer_name: developer.user.name,
    })
    expect(await head('stable')).toBe(picked.id)
    expect(await fileAt('stable', 'fix.txt')).toBe('fixed\n')

    // Picking it again changes nothing: GitLab's `empty`; a dry run says so without a commit.
    const again = await change(developer.token, fix, 'cherry_pick', { branch: 'stable' })
    expect(again.statusCode).toBe(400)
    expect(again.json()).toEqual({ ...CONFLICT, error_code: 'empty' })
    const dry = await change(developer.token, fix, 'cherry_pick', { branch: 'stable', dry_run: true })
    expect(dry.json()).toEqual({ ...CONFLICT, error_code: 'empty', dry_run: 'error' })
    expect(await head('stable')).toBe(picked.id)
  })

  it('takes a custom message, and checks a dry run without committing', async () => {
    await branchFrom('custom')
    const feature = await commitFiles(s, ROOT_TOKEN, project.id, 'main', { 'feature.txt': 'f\n' })
    const before = await head('custom')
    const dry = await change(developer.token, feature, 'cherry_pick', { branch: 'custom', dry_run: true })
    expect(dry.statusCode).toBe(200)
    expect(dry.json()).toEqual({ dry_run: 'success' })
    expect(await head('custom')).toBe(before)
    const res = await change(developer.token, feature, 'cherry_pick', { branch: 'custom', message: 'Backport feature' })
    expect(res.json()).toMatchObject({ message: 'Backport feature', title: 'Backport feature' })
  })

  it('refuses a conflicting cherry-pick with GitLab’s error code and writes nothing', async () => {
    await branchFrom('diverged')
    await commitFiles(s, ROOT_TOKEN, project.id, 'diverged', { 'notes.txt': 'diverged\n' })
    const edit = await commitFiles(s, ROOT_TOKEN, project.id, 'main', { 'notes.txt': 'main edit\n' })
    const before = await head('diverged')
    const res = await change(developer.token, edit, 'cherry_pick', { branch: 'diverged' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual(CONFLICT)
    expect(await head('diverged')).toBe(before)
    expect(await fileAt('diverged', 'notes.txt')).toBe('diverged\n')
  })

  it('reverts a commit with GitLab’s message as the user, then refuses to revert it twice', async () => {
    const added = await commitFiles(
      s,
      ROOT_TOKEN,
      project.id,
      'main',
      { 'mistake.txt': 'oops\n' },
      { message: 'Add mistake' },
    )
    const res = await change(developer.token, added, 'revert', { branch: 'main' })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toMatchObject({
      title: 'Revert "Add mistake"',
      message: `Revert "Add mistake"\n\nThis reverts commit ${added}.`,
      parent_ids: [added],
      author_name: developer.user.name,
    })
    expect(await fileAt('main', 'mistake.txt')).toBeNull()
    const twice = await change(developer.token, added, 'revert', { branch: 'main' })
    expect(twice.statusCode).toBe(400)
    expect(twice.json()).toEqual(REVERT_EMPTY)
  })

  it('answers 404 for an unknown commit or branch, 400 for bad input, 403 where the user may not push', async () => {
    const sha = await head('main')
    expect((await change(developer.token, 'f'.repeat(40), 'cherry_pick', { branch: 'main' })).json()).toEqual({
      message: '404 Commit Not Found',
    })
    expect((await change(developer.token, '--help', 'revert', { branch: 'main' })).statusCode).toBe(404)
    expect((await change(developer.token, sha, 'cherry_pick', { branch: 'nope' })).json()).toEqual({
      message: '404 Branch Not Found',
    })
    expect((await change(developer.token, sha, 'revert', {})).statusCode).toBe(400)
    expect((await change(developer.token, sha, 'revert', { branch: '-x' })).statusCode).toBe(400)
    expect((await change(null, sha, 'revert', { branch: 'main' })).statusCode).toBe(401)
    const reporterRes = await change(reporter.token, sha, 'revert', { branch: 'main' })
    expect(reporterRes.statusCode).toBe(403)
    expect(reporterRes.json()).toEqual({ message: '403 Forbidden - You are not allowed to push into this branch' })

    await call(ROOT_TOKEN, 'POST', '/protected_branches', { name: 'locked', push_access_level: 40 })
    await branchFrom('locked')
    const change1 = await commitFiles(s, ROOT_TOKEN, project.id, 'main', { 'later.txt': 'l\n' })
    const before = await head('locked')
    const refused = await change(developer.token, change1, 'cherry_pick', { branch: 'locked' })
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toEqual({ message: '403 Forbidden - You are not allowed to push into this branch' })
    expect(await head('locked')).toBe(before)
    expect((await change(ROOT_TOKEN, change1, 'cherry_pick', { branch: 'locked' })).statusCode).toBe(201)
  })

  it('answers python-gitlab: commit.cherry_pick and commit.revert', async () => {
    await branchFrom('py-target')
    const sha = await commitFiles(s, ROOT_TOKEN, project.id, 'main', { 'py.txt': 'py\n' }, { message: 'Python change' })
    const result = await withPythonGitlab<{ picked: string; reverted: string }>(
      s.url,
      { private_token: developer.token },
      `
project = gl.projects.get(${project.id}, lazy=True)
commit = project.commits.get('${sha}')
commit.cherry_pick(branch='py-target')
picked = project.commits.get('py-target').title
reverted = commit.revert(branch='main')
out({'picked': picked, 'reverted': reverted['title']})
`,
    )
    expect(result).toEqual({ picked: 'Python change', reverted: 'Revert "Python change"' })
  })
})
