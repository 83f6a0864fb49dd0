import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { gitText } from '../../src/server/platform/git/git'
import { projectGitDir } from '../../src/server/platform/git/project-repo'
import { findProjectById } from '../../src/server/modules/namespaces'
import { mergeabilityIdle } from '../../src/server/modules/merge-requests/mergeability'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

describe('merge requests from a fork to its upstream', () => {
  let s: ListeningServer
  let ann: SeededUser
  let bob: SeededUser
  let carol: SeededUser
  let upstream: Json
  let fork: Json

  const call = (token: string | null, method: Method, url: string, payload?: Json) =>
    s.request(token, { method, url: `/api/v4${url}`, payload })
  const ok = async (token: string | null, method: Method, url: string, payload?: Json) => {
    const res = await call(token, method, url, payload)
    expect(res.statusCode, res.body).toBeLessThan(300)
    return res.json() as Json & Json[]
  }
  const commit = (token: string, projectId: unknown, branch: string, file: string, startBranch?: string) =>
    ok(token, 'POST', `/projects/${String(projectId)}/repository/commits`, {
      branch,
      ...(startBranch ? { start_branch: startBranch } : {}),
      commit_message: `Add ${file}`,
      actions: [{ action: 'create', file_path: file, content: `${file}\n` }],
    })
  const repoOf = (id: unknown): string =>
    projectGitDir(s.app.burrow, findProjectById(s.app.burrow.db, Number(id)) as ProjectRow)
  const upstreamMr = (iid: unknown, tail = '') =>
    `/projects/${String(upstream.id)}/merge_requests/${String(iid)}${tail}`
  const changedPaths = async (iid: unknown): Promise<string[]> =>
    ((await ok(ann.token, 'GET', upstreamMr(iid, '/changes'))).changes as Json[]).map((c) => String(c.new_path))

  beforeAll(async () => {
    s = await startServer()
    ann = seedUser(s, { username: 'up_ann' })
    bob = seedUser(s, { username: 'up_bob' })
    carol = seedUser(s, { username: 'up_carol' })
    const group = seedGroup(s, { path: 'mainline', visibility: 'public' })
    seedMember(s, 'Namespace', group.id, ann.user.id, AccessLevel.OWNER)
    upstream = await ok(ann.token, 'POST', '/projects', {
      name: 'Core',
      namespace_id: String(group.id),
      visibility: 'public',
      initialize_with_readme: true,
    })
    // The upstream moves on after the fork: the merge request's diff must still be the fork's change only.
    fork = await ok(bob.token, 'POST', `/projects/${String(upstream.id)}/fork`)
    await commit(ann.token, upstream.id, 'main', 'upstream.txt')
    await commit(bob.token, fork.id, 'fix', 'fix.txt', 'main')
  })
  afterAll(async () => {
    await s.close()
  })

  it('opens the merge request in the upstream (its iid there) with the diff across the two repositories', async () => {
    // bob has no role in the public upstream.
    const mr = await ok(bob.token, 'POST', `/projects/${String(fork.id)}/merge_requests`, {
      source_branch: 'fix',
      target_branch: 'main',
      title: 'Fix from the fork',
      target_project_id: upstream.id,
    })
    expect(mr).toMatchObject({
      iid: 1,
      project_id: upstream.id,
      source_project_id: fork.id,
      target_project_id: upstream.id,
      source_branch: 'fix',
    })
    const head = (await ok(bob.token, 'GET', `/projects/${String(fork.id)}/repository/branches/fix`)).commit as Json
    expect(mr.sha).toBe(head.id)
    expect(await changedPaths(1)).toEqual(['fix.txt'])
    const commits = (await ok(ann.token, 'GET', upstreamMr(1, '/commits'))) as Json[]
    expect(commits.map((c) => c.title)).toEqual(['Add fix.txt'])
    // GitLab's hidden ref: the fork's head is in the upstream repository.
    const ref = await gitText(['rev-parse', 'refs/merge-requests/1/head'], { gitDir: repoOf(upstream.id) })
    expect(ref.trim()).toBe(head.id)
    // Nothing of the fork's but that ref: no temporary refs are left behind.
    const refs = await gitText(['for-each-ref', '--format=%(refname)'], { gitDir: repoOf(upstream.id) })
    expect(refs.split('\n').filter((r) => r.startsWith('refs/tmp/'))).toEqual([])
  })

  it("follows pushes to the fork's branch: new head, diff and version", async () => {
    const pushed = await commit(bob.token, fork.id, 'fix', 'more.txt')
    await mergeabilityIdle(s.app.burrow)
    const mr = await ok(ann.token, 'GET', upstreamMr(1))
    expect(mr.sha).toBe(pushed.id)
    expect(await changedPaths(1)).toEqual(['fix.txt', 'more.txt'])
    const versions = (await ok(ann.token, 'GET', upstreamMr(1, '/versions'))) as Json[]
    expect(versions.map((v) => v.head_commit_sha)).toContain(pushed.id)
    const ref = await gitText(['rev-parse', 'refs/merge-requests/1/head'], { gitDir: repoOf(upstream.id) })
    expect(ref.trim()).toBe(pushed.id)
  })

  it('merges into the upstream from the fetched head', async () => {
    await mergeabilityIdle(s.app.burrow)
    const merged = await ok(ann.token, 'PUT', upstreamMr(1, '/merge'), { should_remove_source_branch: true })
    expect(merged.state).toBe('merged')
    const raw = await call(ann.token, 'GET', `/projects/${String(upstream.id)}/repository/files/more.txt/raw?ref=main`)
    expect(raw.statusCode).toBe(200)
    expect(raw.body).toBe('more.txt\n')
    // ann may not push to bob's fork: its branch stays.
    expect((await call(bob.token, 'GET', `/projects/${String(fork.id)}/repository/branches/fix`)).statusCode).toBe(200)
  })

  it('goes to the upstream by default, or stays in the fork with mr_default_target_self', async () => {
    await commit(bob.token, fork.id, 'second', 'second.txt', 'main')
    const byDefault = await ok(bob.token, 'POST', `/projects/${String(fork.id)}/merge_requests`, {
      source_branch: 'second',
      target_branch: 'main',
      title: 'Second',
    })
    expect(byDefault).toMatchObject({ project_id: upstream.id, source_project_id: fork.id })
    await ok(bob.token, 'PUT', `/projects/${String(fork.id)}`, { mr_default_target_self: true })
    const inFork = await ok(bob.token, 'POST', `/projects/${String(fork.id)}/merge_requests`, {
      source_branch: 'second',
      target_branch: 'main',
      title: 'Second, in the fork',
    })
    expect(inFork).toMatchObject({ project_id: fork.id, source_project_id: fork.id, iid: 1 })
  })

  it('refuses targets outside the fork network, unseen targets and callers who cannot push to the fork', async () => {
    const before = (s.app.burrow.db.prepare('SELECT COUNT(*) AS n FROM merge_requests').get() as { n: number }).n
    const other = await ok(carol.token, 'POST', '/projects', { name: 'Other', initialize_with_readme: true })
    const body = { source_branch: 'second', target_branch: 'main', title: 'Nope' }
    const create = (token: string, target: unknown) =>
      call(token, 'POST', `/projects/${String(fork.id)}/merge_requests`, { ...body, target_project_id: target })
    const elsewhere = await create(bob.token, other.id)
    expect(elsewhere.statusCode).toBe(404)
    const carolsPublic = await ok(carol.token, 'POST', '/projects', { name: 'Open', visibility: 'public' })
    const unrelated = await create(bob.token, carolsPublic.id)
    expect(unrelated.statusCode).toBe(422)
    expect(unrelated.json()).toEqual({ message: ['Validate fork Source project is not a fork of the target project'] })
    // carol sees the public fork but cannot push to it.
    expect((await create(carol.token, upstream.id)).statusCode).toBe(403)
    expect((s.app.burrow.db.prepare('SELECT COUNT(*) AS n FROM merge_requests').get() as { n: number }).n).toBe(before)
  })

  it('creates a merge request into the upstream with python-gitlab', async () => {
    await commit(bob.token, fork.id, 'wire', 'wire.txt', 'main')
    const result = await withPythonGitlab<{ project: number; source: number; files: string[] }>(
      s.url,
      { private_token: bob.token },
      `
fork = gl.projects.get(${String(fork.id)}, lazy=True)
mr = fork.mergerequests.create({'source_branch': 'wire', 'target_branch': 'main', 'title': 'Over the wire',
                                'target_project_id': ${String(upstream.id)}})
upstream = gl.projects.get(${String(upstream.id)}, lazy=True)
changes = upstream.mergerequests.get(mr.iid).changes()
out({'project': mr.project_id, 'source': mr.source_project_id, 'files': [c['new_path'] for c in changes['changes']]})
`,
    )
    expect(result).toEqual({ project: upstream.id, source: fork.id, files: ['wire.txt'] })
  })

  it("closes the merge requests between the fork and its upstream when the fork's relationship is removed", async () => {
    const open = async (projectId: unknown): Promise<string[]> =>
      ((await ok(bob.token, 'GET', `/projects/${String(projectId)}/merge_requests?state=opened`)) as Json[]).map((m) =>
        String(m.title),
      )
    expect(await open(upstream.id)).toEqual(['Over the wire', 'Second'])
    expect((await call(bob.token, 'DELETE', `/projects/${String(fork.id)}/fork`)).statusCode).toBe(204)
    expect(await open(upstream.id)).toEqual([])
    // The fork's own merge request is no crossing: it stays open.
    expect(await open(fork.id)).toEqual(['Second, in the fork'])
    const closed = await ok(ann.token, 'GET', upstreamMr(2))
    expect(closed).toMatchObject({ state: 'closed', closed_by: { username: 'up_bob' } })
  })

  it('keeps the merge requests a deleted fork opened in its upstream, closed and without source project', async () => {
    const gone = await ok(carol.token, 'POST', `/projects/${String(upstream.id)}/fork`, {
      path: 'core-gone',
      name: 'Core gone',
    })
    await commit(carol.token, gone.id, 'idea', 'idea.txt', 'main')
    const mr = await ok(carol.token, 'POST', `/projects/${String(gone.id)}/merge_requests`, {
      source_branch: 'idea',
      target_branch: 'main',
      title: 'From a fork about to go',
      target_project_id: upstream.id,
    })
    const res = await call(carol.token, 'DELETE', `/projects/${String(gone.id)}`)
    expect(res.statusCode, res.body).toBeLessThan(300)
    expect((await call(carol.token, 'GET', `/projects/${String(gone.id)}`)).statusCode).toBe(404)
    const kept = await ok(ann.token, 'GET', upstreamMr(mr.iid))
    expect(kept).toMatchObject({ title: 'From a fork about to go', state: 'closed', source_project_id: null })
    expect(await changedPaths(mr.iid)).toEqual(['idea.txt'])
    // It cannot be reopened (GitLab's reopenable?), rebased or merged any more.
    expect(await ok(ann.token, 'PUT', upstreamMr(mr.iid), { state_event: 'reopen' })).toMatchObject({ state: 'closed' })
    expect((await call(ann.token, 'PUT', upstreamMr(mr.iid, '/rebase'))).statusCode).toBe(403)
    expect((await call(ann.token, 'PUT', upstreamMr(mr.iid, '/merge'))).statusCode).toBeGreaterThanOrEqual(400)
    expect((await ok(ann.token, 'GET', upstreamMr(mr.iid, '/pipelines'))) as Json[]).toEqual([])
  })

  it("lists a commit's merge requests targeting the project, as GitLab's finder does: a fork's into it, not its own into the upstream, none of a private fork's", async () => {
    await commit(ann.token, upstream.id, 'shared-topic', 'topic.txt', 'main')
    const topic = (await ok(ann.token, 'GET', `/projects/${String(upstream.id)}/repository/branches/shared-topic`))
      .commit as Json
    const hidden = await ok(carol.token, 'POST', `/projects/${String(upstream.id)}/fork`, {
      path: 'core-private',
      name: 'Core private',
      visibility: 'private',
    })
    // Inside the private fork, on a commit the upstream holds too.
    const inFork = await ok(carol.token, 'POST', `/projects/${String(hidden.id)}/merge_requests`, {
      source_branch: 'shared-topic',
      target_branch: 'main',
      title: 'Inside the private fork',
      target_project_id: hidden.id,
    })
    const secret = await commit(carol.token, hidden.id, 'secret', 'secret.txt', 'main')
    const crossing = await ok(carol.token, 'POST', `/projects/${String(hidden.id)}/merge_requests`, {
      source_branch: 'secret',
      target_branch: 'main',
      title: 'From the private fork',
      target_project_id: upstream.id,
    })
    const ofCommit = async (token: string | null, projectId: unknown, sha: unknown): Promise<unknown[]> => {
      const res = await call(
        token,
        'GET',
        `/projects/${String(projectId)}/repository/commits/${String(sha)}/merge_requests`,
      )
      expect(res.statusCode, res.body).toBe(200)
      return (res.json() as Json[]).map((mr) => [mr.project_id, mr.iid, mr.title])
    }
    // The upstream: never the private fork's own merge request, whoever asks.
    for (const token of [ann.token, carol.token]) expect(await ofCommit(token, upstream.id, topic.id)).toEqual([])
    // The crossing merge request is the upstream's: listed there as in its merge request list (for bob,
    // no member of either).
    const listed = (
      (await ok(bob.token, 'GET', `/projects/${String(upstream.id)}/merge_requests?source_branch=secret`)) as Json[]
    ).map((mr) => [mr.project_id, mr.iid, mr.title])
    expect(listed).toEqual([[upstream.id, crossing.iid, 'From the private fork']])
    for (const token of [ann.token, bob.token]) expect(await ofCommit(token, upstream.id, secret.id)).toEqual(listed)
    // The fork: only what targets it (GitLab's of_projects is the target project).
    expect(await ofCommit(carol.token, hidden.id, topic.id)).toEqual([
      [hidden.id, inFork.iid, 'Inside the private fork'],
    ])
    expect(await ofCommit(carol.token, hidden.id, secret.id)).toEqual([])
    // Every merge request call is authenticated (the spec): anonymous gets 401, before the project is looked up.
    for (const projectId of [upstream.id, hidden.id, 999999]) {
      const res = await call(
        null,
        'GET',
        `/projects/${String(projectId)}/repository/commits/${String(topic.id)}/merge_requests`,
      )
      expect([res.statusCode, res.json()]).toEqual([401, { message: '401 Unauthorized' }])
    }
    // Not a member of the private fork: 404, as for any of its routes.
    for (const token of [ann.token, bob.token]) {
      const res = await call(
        token,
        'GET',
        `/projects/${String(hidden.id)}/repository/commits/${String(topic.id)}/merge_requests`,
      )
      expect([res.statusCode, res.json()]).toEqual([404, { message: '404 Project Not Found' }])
    }
  })
})
