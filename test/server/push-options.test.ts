import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { PushOptions } from '../../src/server/platform/git/push-options'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { commitFiles, remoteUrl, sh, shStderr } from '../helpers/git'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>

const CI = 'build:\n  script: [make]\n'

describe('git push options and hints over smart HTTP', () => {
  let s: ListeningServer
  let project: ProjectRow
  let developer: SeededUser
  let reviewer: SeededUser
  let work: string

  const api = async (method: 'GET' | 'POST', path: string, payload?: Json): Promise<unknown> => {
    const res = await s.request(ROOT_TOKEN, { method, url: `/api/v4/projects/${project.id}${path}`, payload })
    expect(res.statusCode, res.body).toBeLessThan(300)
    return res.json()
  }
  const mergeRequestOf = async (branch: string): Promise<Json | undefined> =>
    ((await api('GET', `/merge_requests?source_branch=${branch}&state=opened`)) as Json[])[0]
  /** Commits on a new branch off main and pushes it with the options; resolves with git's stderr. */
  const pushBranch = async (branch: string, options: string[], message = `Work on ${branch}`): Promise<string> => {
    await sh(work, 'checkout', '--quiet', '-B', branch, 'origin/main')
    commitFiles(work, { [`${branch}.txt`]: `${branch}\n` }, message)
    return push(...options.flatMap((o) => ['-o', o]), 'origin', `HEAD:refs/heads/${branch}`)
  }
  /** `git push` with these arguments; resolves with its stderr, without the spaces git pads `remote:` lines with. */
  const push = async (...args: string[]): Promise<string> =>
    (await shStderr(work, 'push', ...args)).replace(/ +$/gm, '')

  beforeAll(async () => {
    s = await startServer()
    const group = seedGroup(s, { path: 'team', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'private' })
    developer = seedUser(s)
    reviewer = seedUser(s)
    seedMember(s, 'Project', project.id, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, reviewer.user.id, AccessLevel.DEVELOPER)
    await api('POST', '/repository/commits', {
      branch: 'main',
      commit_message: 'Initial commit',
      actions: [{ action: 'create', file_path: 'README.md', content: '# App\n' }],
    })
    const dir = mkdtempSync(join(tmpdir(), 'burrow-push-options-'))
    await sh(dir, 'clone', '--quiet', remoteUrl(s.url, 'team/app', developer.token), 'app')
    work = join(dir, 'app')
  })
  afterAll(async () => {
    await s.close()
  })

  it('shows where to open a merge request for a new branch, and opens none', async () => {
    const stderr = await pushBranch('plain', [])
    expect(stderr).toContain(
      `remote:\nremote: To create a merge request for plain, visit:\nremote:   ${s.url}/team/app/-/merge_requests/new?merge_request%5Bsource_branch%5D=plain\nremote:\n`,
    )
    expect(await mergeRequestOf('plain')).toBeUndefined()
    // The default branch gets no hint.
    await sh(work, 'checkout', '--quiet', 'main')
    commitFiles(work, { 'main.txt': 'main\n' }, 'On main')
    expect(await push('origin', 'main')).not.toContain('merge request')
  })

  it('opens the merge request the options describe and links to it', async () => {
    const stderr = await pushBranch('login', [
      'merge_request.create',
      'merge_request.target=main',
      'merge_request.title=Add login',
      'merge_request.description=Signs users in',
      'merge_request.label=backend',
      'merge_request.label=ui',
      `merge_request.assign=${reviewer.user.username}`,
      'merge_request.remove_source_branch',
      'merge_request.draft',
    ])
    const mr = await mergeRequestOf('login')
    expect(mr).toMatchObject({
      title: 'Draft: Add login',
      description: 'Signs users in',
      target_branch: 'main',
      draft: true,
      force_remove_source_branch: true,
      author: { username: developer.user.username },
    })
    expect((mr?.labels as string[]).sort()).toEqual(['backend', 'ui'])
    // The pusher is assigned, as GitLab does, with whoever the options name.
    expect((mr?.assignees as Json[]).map((a) => a.username).sort()).toEqual(
      [developer.user.username, reviewer.user.username].sort(),
    )
    expect(stderr).toContain(
      `remote: View merge request for login:\nremote:   ${s.url}/team/app/-/merge_requests/${String(mr?.iid)}\n`,
    )
    expect(stderr).not.toContain('To create a merge request')
  })

  it("updates the branch's open merge request on a later push", async () => {
    commitFiles(work, { 'login.txt': 'more\n' }, 'More login')
    const stderr = await push(
      ...['-o', 'mr.title=Login form', '-o', 'merge_request.unlabel=ui', '-o', 'merge_request.label=auth'],
      ...['-o', `merge_request.unassign=${developer.user.username}`, 'origin', 'HEAD:refs/heads/login'],
    )
    const mr = await mergeRequestOf('login')
    expect(mr).toMatchObject({ title: 'Login form', draft: false })
    expect((mr?.labels as string[]).sort()).toEqual(['auth', 'backend'])
    expect((mr?.assignees as Json[]).map((a) => a.username)).toEqual([reviewer.user.username])
    expect(stderr).toContain('remote: View merge request for login:')
  })

  it('titles a new merge request after its only commit, without options naming one', async () => {
    await pushBranch('fix-typo', ['merge_request.create'], 'Fix the typo in the README\n\nIt said "Ap".')
    expect(await mergeRequestOf('fix-typo')).toMatchObject({
      title: 'Fix the typo in the README',
      description: 'It said "Ap".',
      target_branch: 'main',
    })
  })

  it("warns, in GitLab's box, about options it cannot apply, and opens nothing", async () => {
    const stderr = await pushBranch('untracked', ['merge_request.target=main'])
    expect(stderr).toContain('remote: ' + '='.repeat(72))
    expect(stderr.replace(/\s*\nremote:\s*/g, ' ')).toContain(
      "WARNINGS: Error encountered with push options 'merge_request.target=main': A merge_request.create push option is required to create a merge request for branch untracked",
    )
    expect(stderr).toContain('remote: To create a merge request for untracked, visit:')
    expect(await mergeRequestOf('untracked')).toBeUndefined()

    const missing = await pushBranch('lost', ['merge_request.create', 'merge_request.target=nowhere'])
    expect(missing.replace(/\s*\nremote:\s*/g, ' ')).toContain('target_branch does not exist')
    expect(await mergeRequestOf('lost')).toBeUndefined()
  })

  it('skips CI with ci.skip, passes ci.variable to the pipeline, and merges when it succeeds', async () => {
    await sh(work, 'checkout', '--quiet', 'main')
    await sh(work, 'pull', '--quiet', 'origin', 'main')
    commitFiles(work, { '.gitlab-ci.yml': CI }, 'Add CI')
    await push('-o', 'ci.skip', 'origin', 'main')
    const [skipped] = (await api('GET', '/pipelines?ref=main')) as Json[]
    expect(skipped).toMatchObject({ status: 'skipped' })

    await pushBranch('deploy', ['ci.variable=DEPLOY=yes=really', 'ci.variable=STAGE=blue'])
    const [pipeline] = (await api('GET', '/pipelines?ref=deploy')) as Json[]
    expect(pipeline.status).not.toBe('skipped')
    expect(await api('GET', `/pipelines/${String(pipeline.id)}/variables`)).toEqual([
      { key: 'DEPLOY', value: 'yes=really', variable_type: 'env_var' },
      { key: 'STAGE', value: 'blue', variable_type: 'env_var' },
    ])

    await pushBranch('auto', ['merge_request.create', 'merge_request.merge_when_pipeline_succeeds'])
    expect(await mergeRequestOf('auto')).toMatchObject({ merge_when_pipeline_succeeds: true })
  })
})

describe('PushOptions', () => {
  it("reads GitLab's namespaces and keys, keeps every value of the multi-value ones, ignores the rest", () => {
    const options = PushOptions.parse([
      'mr.create',
      'merge_request.title=a',
      'merge_request.title=b=c',
      'merge_request.label=x',
      'merge_request.label=y',
      'merge_request.unknown=1',
      'other.skip',
      'garbage',
    ])
    expect(options.has('merge_request.create')).toBe(true)
    expect(options.text('merge_request.create')).toBeUndefined()
    expect(options.text('merge_request.title')).toBe('b=c')
    expect(options.texts('merge_request.label')).toEqual(['x', 'y'])
    expect(options.has('merge_request.unknown')).toBe(false)
    expect(options.hasNamespace('other')).toBe(false)
    expect(options.hasNamespace('ci')).toBe(false)
  })
})
