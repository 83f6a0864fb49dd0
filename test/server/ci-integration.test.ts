import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { mergeabilityIdle } from '../../src/server/modules/merge-requests/mergeability'
import { commitFiles, createProject, jobStatuses, pipelinesOf, projectRunnersToken } from '../helpers/ci'
import { seedMember } from '../helpers/fixtures'
import { TestRunner, injectTransport } from '../helpers/runner'
import { makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

describe('CI with merge requests and environments', () => {
  let s: TestServer
  let maintainer: SeededUser
  let developer: SeededUser

  const get = (token: string, url: string) => s.request(token, { method: 'GET', url: `/api/v4${url}` })
  const send = (token: string, method: 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })

  async function setup(ci: string): Promise<{ pid: number; runner: TestRunner }> {
    const pid = await createProject(s, maintainer.token)
    seedMember(s, 'Project', pid, developer.user.id, AccessLevel.DEVELOPER)
    const runner = await TestRunner.register(
      injectTransport(s.app),
      await projectRunnersToken(s, maintainer.token, pid),
    )
    await commitFiles(s, maintainer.token, pid, 'main', { '.gitlab-ci.yml': ci })
    await runner.runAll()
    return { pid, runner }
  }

  async function openMergeRequest(
    pid: number,
    branch: string,
    files: Readonly<Record<string, string>>,
  ): Promise<{ iid: number; sha: string }> {
    const sha = await commitFiles(s, developer.token, pid, branch, files, { startBranch: 'main' })
    const res = await send(developer.token, 'POST', `/projects/${pid}/merge_requests`, {
      source_branch: branch,
      target_branch: 'main',
      title: `Change ${branch}`,
    })
    expect(res.statusCode).toBe(201)
    await mergeabilityIdle(s.app.burrow)
    return { iid: res.json().iid, sha }
  }

  beforeAll(async () => {
    s = await makeServer()
    maintainer = seedUser(s)
    developer = seedUser(s)
  })
  afterAll(async () => {
    await s.close()
  })

  describe('merge requests', () => {
    it('show the head pipeline of the source branch as pipeline and head_pipeline, with the build times', async () => {
      const { pid, runner } = await setup('test:\n  script: echo test\n')
      const { iid, sha } = await openMergeRequest(pid, 'feature', { 'f.txt': 'f' })
      const before = (await get(developer.token, `/projects/${pid}/merge_requests/${iid}`)).json()
      expect(before.pipeline).toMatchObject({
        id: expect.any(Number),
        sha,
        ref: 'feature',
        status: 'pending',
        web_url: expect.stringMatching(/\/-\/pipelines\/\d+$/),
      })
      expect(before.head_pipeline).toMatchObject({
        id: before.pipeline.id,
        status: 'pending',
        detailed_status: { text: 'pending' },
      })
      expect(before).toMatchObject({ latest_build_started_at: null, latest_build_finished_at: null })
      await runner.runAll()
      const after = (await get(developer.token, `/projects/${pid}/merge_requests/${iid}`)).json()
      expect(after.pipeline.status).toBe('success')
      expect(after.latest_build_started_at).toEqual(expect.any(String))
      expect(after.latest_build_finished_at).toEqual(expect.any(String))
      const list = await get(developer.token, `/projects/${pid}/merge_requests/${iid}/pipelines`)
      expect(list.json()).toEqual([
        expect.objectContaining({ id: before.pipeline.id, ref: 'feature', status: 'success' }),
      ])
    })

    it('answers null pipeline fields when the source branch has no pipeline', async () => {
      const pid = await createProject(s, maintainer.token)
      seedMember(s, 'Project', pid, developer.user.id, AccessLevel.DEVELOPER)
      const { iid } = await openMergeRequest(pid, 'plain', { 'p.txt': 'p' })
      expect((await get(developer.token, `/projects/${pid}/merge_requests/${iid}`)).json()).toMatchObject({
        pipeline: null,
        head_pipeline: null,
        latest_build_started_at: null,
      })
    })

    it('merge_when_pipeline_succeeds waits for the running head pipeline and merges when it succeeds', async () => {
      const { pid, runner } = await setup('test:\n  script: echo test\n')
      const { iid } = await openMergeRequest(pid, 'auto', { 'a.txt': 'a' })
      const set = await send(maintainer.token, 'PUT', `/projects/${pid}/merge_requests/${iid}/merge`, {
        merge_when_pipeline_succeeds: true,
        should_remove_source_branch: true,
      })
      expect(set.statusCode).toBe(200)
      expect(set.json()).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true })
      await runner.runAll()
      await mergeabilityIdle(s.app.burrow)
      const merged = (await get(developer.token, `/projects/${pid}/merge_requests/${iid}`)).json()
      expect(merged).toMatchObject({
        state: 'merged',
        merge_when_pipeline_succeeds: false,
        merged_by: { id: maintainer.user.id },
      })
      expect((await get(developer.token, `/projects/${pid}/repository/files/a.txt/raw?ref=main`)).body).toBe('a')
      expect((await get(developer.token, `/projects/${pid}/repository/branches/auto`)).statusCode).toBe(404)
    })

    it('does not merge when the head pipeline fails; the setting stays until cancelled', async () => {
      const { pid, runner } = await setup('test:\n  script: exit 1\n')
      const { iid } = await openMergeRequest(pid, 'failing', { 'x.txt': 'x' })
      expect(
        (
          await send(maintainer.token, 'PUT', `/projects/${pid}/merge_requests/${iid}/merge`, {
            merge_when_pipeline_succeeds: true,
          })
        ).json().merge_when_pipeline_succeeds,
      ).toBe(true)
      await runner.runAll()
      await mergeabilityIdle(s.app.burrow)
      expect((await get(developer.token, `/projects/${pid}/merge_requests/${iid}`)).json()).toMatchObject({
        state: 'opened',
        merge_when_pipeline_succeeds: true,
        pipeline: { status: 'failed' },
      })
      const cancelled = await send(
        developer.token,
        'POST',
        `/projects/${pid}/merge_requests/${iid}/cancel_merge_when_pipeline_succeeds`,
      )
      expect(cancelled.statusCode).toBe(201)
      expect(cancelled.json().merge_when_pipeline_succeeds).toBe(false)
    })

    it('merges at once when the head pipeline already finished', async () => {
      const { pid, runner } = await setup('test:\n  script: echo\n')
      const { iid } = await openMergeRequest(pid, 'done', { 'd.txt': 'd' })
      await runner.runAll()
      const res = await send(maintainer.token, 'PUT', `/projects/${pid}/merge_requests/${iid}/merge`, {
        merge_when_pipeline_succeeds: true,
      })
      expect(res.json()).toMatchObject({ state: 'merged', merge_when_pipeline_succeeds: false })
    })

    it('refuses merges with 405 while "Pipelines must succeed" is on and the head pipeline did not succeed', async () => {
      const { pid, runner } = await setup('test:\n  script: exit 1\n')
      expect(
        (await send(maintainer.token, 'PUT', `/projects/${pid}`, { only_allow_merge_if_pipeline_succeeds: true }))
          .statusCode,
      ).toBe(200)
      const { iid } = await openMergeRequest(pid, 'guarded', { 'g.txt': 'g' })
      await runner.runAll()
      const refused = await send(maintainer.token, 'PUT', `/projects/${pid}/merge_requests/${iid}/merge`)
      expect(refused.statusCode).toBe(405)
      expect(refused.json()).toEqual({ message: '405 Method Not Allowed' })
      await commitFiles(s, developer.token, pid, 'guarded', { '.gitlab-ci.yml': 'test:\n  script: echo fixed\n' })
      await mergeabilityIdle(s.app.burrow)
      await runner.runAll()
      expect((await send(maintainer.token, 'PUT', `/projects/${pid}/merge_requests/${iid}/merge`)).json().state).toBe(
        'merged',
      )
    })
  })

  describe('environments and deployments', () => {
    it('creates the environment and a deployment for a job with environment:, which follows the job', async () => {
      const { pid, runner } = await setup('build:\n  stage: build\n  script: b\n')
      await commitFiles(s, maintainer.token, pid, 'main', {
        '.gitlab-ci.yml': `deploy:
  stage: deploy
  script: echo deploy
  environment:
    name: review/$CI_COMMIT_REF_SLUG
    url: https://$CI_COMMIT_REF_SLUG.example.com
    on_stop: stop
stop:
  stage: deploy
  script: echo stop
  when: manual
  environment:
    name: review/$CI_COMMIT_REF_SLUG
    action: stop
`,
      })
      const envs = (await get(developer.token, `/projects/${pid}/environments`)).json() as {
        id: number
        name: string
        external_url: string
        state: string
      }[]
      expect(envs).toEqual([
        expect.objectContaining({ name: 'review/main', external_url: 'https://main.example.com', state: 'available' }),
      ])
      const [pipeline] = await pipelinesOf(s, developer.token, pid)
      const deployments = (await get(developer.token, `/projects/${pid}/deployments`)).json() as {
        status: string
        deployable: { id: number; name: string } | null
      }[]
      expect(deployments).toEqual([
        expect.objectContaining({
          status: 'created',
          ref: 'main',
          deployable: expect.objectContaining({ name: 'deploy', status: 'pending' }),
        }),
      ])
      await runner.runAll()
      const env = (await get(developer.token, `/projects/${pid}/environments/${envs[0].id}`)).json()
      expect(env.last_deployment).toMatchObject({
        status: 'success',
        ref: 'main',
        deployable: { name: 'deploy', status: 'success', pipeline: { id: pipeline.id }, web_url: expect.any(String) },
      })
      expect(await jobStatuses(s, developer.token, pid, pipeline.id)).toEqual({ deploy: 'success', stop: 'manual' })
      const stopJob = (
        (await get(developer.token, `/projects/${pid}/pipelines/${pipeline.id}/jobs?scope=manual`)).json() as {
          id: number
        }[]
      )[0]
      expect((await send(developer.token, 'POST', `/projects/${pid}/jobs/${stopJob.id}/play`)).statusCode).toBe(200)
      await runner.runAll()
      expect((await get(developer.token, `/projects/${pid}/environments/${envs[0].id}`)).json().state).toBe('stopped')
    })

    it('marks the deployment failed when the deploying job fails', async () => {
      const { pid } = await setup('deploy:\n  script: exit 1\n  environment: production\n')
      const deployments = (await get(developer.token, `/projects/${pid}/deployments`)).json() as { status: string }[]
      expect(deployments.map((d) => d.status)).toEqual(['failed'])
    })
  })
})
