import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { commitFiles, projectRunnersToken } from '../helpers/ci'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { TestRunner, injectTransport } from '../helpers/runner'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>

const CI_CONFIG = 'test:\n  script: echo ok\n'

describe('commit statuses', () => {
  let s: ListeningServer
  let project: ProjectRow
  let developer: SeededUser
  let reporter: SeededUser
  let mainSha: string

  const call = (token: string | null, method: string, url: string, payload?: Json) =>
    s.request(token, {
      method: method as 'GET',
      url: `/api/v4/projects/${project.id}${url}`,
      ...(payload ? { payload } : {}),
    })
  const post = (token: string | null, sha: string, payload: Json) => call(token, 'POST', `/statuses/${sha}`, payload)
  const statuses = async (sha: string, query = ''): Promise<Json[]> => {
    const res = await call(reporter.token, 'GET', `/repository/commits/${sha}/statuses${query}`)
    expect(res.statusCode, res.body).toBe(200)
    return res.json() as Json[]
  }
  const pipelinesOfCommit = async (sha: string): Promise<Json[]> =>
    (await call(ROOT_TOKEN, 'GET', `/pipelines?sha=${sha}`)).json() as Json[]

  beforeAll(async () => {
    s = await startServer()
    const group = seedGroup(s, { path: 'external-ci', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'private' })
    developer = seedUser(s)
    reporter = seedUser(s)
    seedMember(s, 'Project', project.id, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, reporter.user.id, AccessLevel.REPORTER)
    mainSha = await commitFiles(s, ROOT_TOKEN, project.id, 'main', { 'README.md': '# App\n' })
  })
  afterAll(async () => {
    await s.close()
  })

  it('creates an external pipeline for a commit without one, on the first branch holding it', async () => {
    const sha = await commitFiles(s, ROOT_TOKEN, project.id, 'feature', { 'a.txt': 'a\n' }, { startBranch: 'main' })
    expect(await pipelinesOfCommit(sha)).toEqual([])
    const res = await post(developer.token, sha, {
      state: 'pending',
      context: 'jenkins',
      target_url: 'https://ci.example.com/build/1',
      description: 'Queued',
    })
    expect(res.statusCode, res.body).toBe(201)
    const status = res.json() as Json
    expect(status).toMatchObject({
      sha,
      ref: 'feature',
      status: 'pending',
      name: 'jenkins',
      target_url: 'https://ci.example.com/build/1',
      description: 'Queued',
      allow_failure: false,
      coverage: null,
      started_at: null,
      finished_at: null,
      author: { id: developer.user.id, username: developer.user.username },
    })
    const pipelines = await pipelinesOfCommit(sha)
    expect(pipelines).toMatchObject([{ id: status.pipeline_id, source: 'external', ref: 'feature', status: 'pending' }])
    // External statuses are no jobs of the jobs API.
    expect((await call(ROOT_TOKEN, 'GET', `/pipelines/${status.pipeline_id}/jobs`)).json()).toEqual([])
    expect((await call(ROOT_TOKEN, 'GET', `/jobs/${status.id}`)).statusCode).toBe(404)
  })

  it('updates the open status of the same name, then starts a new one once it finished', async () => {
    const sha = await commitFiles(s, ROOT_TOKEN, project.id, 'flow', { 'b.txt': 'b\n' }, { startBranch: 'main' })
    const first = (await post(developer.token, sha, { state: 'pending', ref: 'flow', name: 'lint' })).json() as Json
    const running = await post(developer.token, sha, { state: 'running', ref: 'flow', name: 'lint' })
    expect(running.json()).toMatchObject({ id: first.id, status: 'running', started_at: expect.any(String) })
    const done = await post(developer.token, sha, { state: 'success', ref: 'flow', name: 'lint', coverage: 87.5 })
    expect(done.json()).toMatchObject({
      id: first.id,
      status: 'success',
      coverage: 87.5,
      finished_at: expect.any(String),
    })
    expect((await pipelinesOfCommit(sha))[0]).toMatchObject({ id: first.pipeline_id, status: 'success' })

    const again = (await post(developer.token, sha, { state: 'failed', ref: 'flow', name: 'lint' })).json() as Json
    expect(again.id).not.toBe(first.id)
    expect(again.pipeline_id).toBe(first.pipeline_id)
    expect((await pipelinesOfCommit(sha))[0]).toMatchObject({ status: 'failed' })
    expect((await statuses(sha)).map((x) => [x.id, x.status])).toEqual([[again.id, 'failed']])
    expect((await statuses(sha, '?all=true')).map((x) => x.id)).toEqual([first.id, again.id])
    expect((await statuses(sha, '?all=true&sort=desc')).map((x) => x.id)).toEqual([again.id, first.id])
  })

  it('joins the CI pipeline of the commit and lists its builds beside the external statuses', async () => {
    const sha = await commitFiles(
      s,
      ROOT_TOKEN,
      project.id,
      'with-ci',
      { '.gitlab-ci.yml': CI_CONFIG },
      { startBranch: 'main' },
    )
    const [pipeline] = await pipelinesOfCommit(sha)
    expect(pipeline).toMatchObject({ source: 'push', status: 'pending' })
    const ext = await post(developer.token, sha, { state: 'success', name: 'deploy-check' })
    expect(ext.json()).toMatchObject({ pipeline_id: pipeline.id, ref: 'with-ci' })

    const listed = await statuses(sha)
    expect(listed.map((x) => [x.name, x.status, x.target_url])).toEqual([
      ['test', 'pending', null],
      ['deploy-check', 'success', null],
    ])
    expect((await statuses(sha, '?stage=external')).map((x) => x.name)).toEqual(['deploy-check'])
    expect((await statuses(sha, '?name=test')).map((x) => x.name)).toEqual(['test'])
    expect(await statuses(sha, '?ref=other')).toEqual([])
    expect(await statuses(sha, `?pipeline_id=${Number(pipeline.id) + 1000}`)).toEqual([])
    // The job list of the pipeline keeps to its builds.
    expect(
      ((await call(ROOT_TOKEN, 'GET', `/pipelines/${pipeline.id}/jobs`)).json() as Json[]).map((j) => j.name),
    ).toEqual(['test'])
    // A build's name is taken.
    const taken = await post(developer.token, sha, { state: 'success', name: 'test' })
    expect(taken.statusCode).toBe(400)
    expect(taken.json()).toEqual({ message: { name: ['has already been taken'] } })
  })

  it('never offers an external status to a runner, and the pipeline waits for both', async () => {
    const runner = await TestRunner.register(
      injectTransport(s.app),
      await projectRunnersToken(s, ROOT_TOKEN, project.id),
    )
    const sha = await commitFiles(
      s,
      ROOT_TOKEN,
      project.id,
      'run-ci',
      { '.gitlab-ci.yml': CI_CONFIG },
      { startBranch: 'main' },
    )
    const external = (await post(developer.token, sha, { state: 'pending', name: 'external-wait' })).json() as Json
    const offered: string[] = []
    for (let job = await runner.requestJob(); job; job = await runner.requestJob()) offered.push(job.job_info.name)
    expect(offered.length).toBeGreaterThan(0)
    expect(offered.every((name) => name === 'test')).toBe(true)
    expect((await statuses(sha, '?name=external-wait'))[0]).toMatchObject({ id: external.id, status: 'pending' })
    expect((await pipelinesOfCommit(sha))[0]).toMatchObject({ status: 'running' })
  })

  it('refuses bad input with GitLab-style bodies and writes nothing', async () => {
    const sha = await commitFiles(s, ROOT_TOKEN, project.id, 'refusals', { 'c.txt': 'c\n' }, { startBranch: 'main' })
    const refusals: [Json, number, unknown][] = [
      [{ state: 'bogus' }, 400, { error: expect.stringContaining('state') }],
      [{}, 400, { error: expect.stringContaining('state') }],
      [
        { state: 'success', target_url: 'javascript:alert(1)' },
        400,
        { message: { target_url: ['must be a valid URL'] } },
      ],
      [
        { state: 'success', description: 'x'.repeat(256) },
        400,
        { message: { description: ['is too long (maximum is 255 characters)'] } },
      ],
      [
        { state: 'success', pipeline_id: 999999 },
        404,
        { message: '404 Pipeline for pipeline_id, sha and ref Not Found' },
      ],
    ]
    for (const [payload, code, body] of refusals) {
      const res = await post(developer.token, sha, payload)
      expect(res.statusCode, JSON.stringify(payload)).toBe(code)
      expect(res.json()).toEqual(body)
    }
    expect((await post(developer.token, 'f'.repeat(40), { state: 'success' })).json()).toEqual({
      message: '404 Commit Not Found',
    })
    expect((await post(developer.token, '--output=x', { state: 'success' })).statusCode).toBe(404)
    expect(await pipelinesOfCommit(sha)).toEqual([])

    // A second `pending` for an open status is a transition the state machine refuses.
    await post(developer.token, sha, { state: 'pending', name: 'twice' })
    const twice = await post(developer.token, sha, { state: 'pending', name: 'twice' })
    expect(twice.statusCode).toBe(400)
    expect(twice.json()).toEqual({
      message:
        'Cannot transition status via :enqueue from :pending (Reason(s): Status cannot transition via "enqueue")',
    })
  })

  it('lets Developers post and Reporters read; others are refused', async () => {
    const guest = seedUser(s)
    seedMember(s, 'Project', project.id, guest.user.id, AccessLevel.GUEST)
    const stranger = seedUser(s)
    expect((await post(reporter.token, mainSha, { state: 'success' })).statusCode).toBe(403)
    expect((await post(null, mainSha, { state: 'success' })).statusCode).toBe(401)
    expect((await post(stranger.token, mainSha, { state: 'success' })).statusCode).toBe(404)
    expect((await call(guest.token, 'GET', `/repository/commits/${mainSha}/statuses`)).statusCode).toBe(403)
    expect((await call(stranger.token, 'GET', `/repository/commits/${mainSha}/statuses`)).statusCode).toBe(404)
    expect((await call(reporter.token, 'GET', `/repository/commits/${'0'.repeat(40)}/statuses`)).json()).toEqual({
      message: '404 Commit Not Found',
    })
  })

  it('keeps a protected branch’s pipeline to those who may push or merge there', async () => {
    const protect = await call(ROOT_TOKEN, 'POST', '/protected_branches', {
      name: 'main',
      push_access_level: 40,
      merge_access_level: 40,
    })
    expect(protect.statusCode, protect.body).toBe(201)
    const refused = await post(developer.token, mainSha, { state: 'success', ref: 'main' })
    expect(refused.statusCode).toBe(403)
    expect(await pipelinesOfCommit(mainSha)).toEqual([])
    expect((await post(ROOT_TOKEN, mainSha, { state: 'success', ref: 'main' })).statusCode).toBe(201)
    await call(ROOT_TOKEN, 'DELETE', '/protected_branches/main')
  })

  it('blocks the merge of a merge request whose head has a failed external status when pipelines must succeed', async () => {
    await s.request(ROOT_TOKEN, {
      method: 'PUT',
      url: `/api/v4/projects/${project.id}`,
      payload: { only_allow_merge_if_pipeline_succeeds: true },
    })
    const sha = await commitFiles(s, ROOT_TOKEN, project.id, 'mergeable', { 'd.txt': 'd\n' }, { startBranch: 'main' })
    const mr = (
      await call(ROOT_TOKEN, 'POST', '/merge_requests', {
        source_branch: 'mergeable',
        target_branch: 'main',
        title: 'Externally checked',
      })
    ).json() as Json
    await post(developer.token, sha, { state: 'failed', name: 'ext', ref: 'mergeable' })
    const shown = (await call(ROOT_TOKEN, 'GET', `/merge_requests/${mr.iid}`)).json() as Json
    expect(shown.head_pipeline).toMatchObject({ source: 'external', status: 'failed', sha })
    const refused = await call(ROOT_TOKEN, 'PUT', `/merge_requests/${mr.iid}/merge`)
    expect(refused.statusCode).toBe(405)
    expect(refused.json()).toEqual({ message: '405 Method Not Allowed' })

    await post(developer.token, sha, { state: 'success', name: 'ext', ref: 'mergeable' })
    const merged = await call(ROOT_TOKEN, 'PUT', `/merge_requests/${mr.iid}/merge`)
    expect(merged.statusCode, merged.body).toBe(200)
    expect(merged.json()).toMatchObject({ state: 'merged' })
  })

  it('answers python-gitlab: commit.statuses.create and list', async () => {
    const sha = await commitFiles(s, ROOT_TOKEN, project.id, 'py', { 'e.txt': 'e\n' }, { startBranch: 'main' })
    const result = await withPythonGitlab<{ created: Json; listed: Json[] }>(
      s.url,
      { private_token: developer.token },
      `
commit = gl.projects.get(${project.id}, lazy=True).commits.get('${sha}', lazy=True)
st = commit.statuses.create({'state': 'running', 'name': 'ci/py', 'target_url': 'https://ci.example.com/7'})
created = {'status': st.status, 'name': st.name, 'ref': st.ref}
listed = [{'name': x.name, 'status': x.status} for x in commit.statuses.list(get_all=True)]
out({'created': created, 'listed': listed})
`,
    )
    expect(result).toEqual({
      created: { status: 'running', name: 'ci/py', ref: 'py' },
      listed: [{ name: 'ci/py', status: 'running' }],
    })
  })
})
