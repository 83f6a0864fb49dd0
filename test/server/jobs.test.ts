import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { findJobById } from '../../src/server/modules/pipelines/queries'
import { jobArtifactsOfType, readJobArtifact } from '../../src/server/modules/pipelines/artifacts'
import { commitFiles, createProject, instanceToken, jobStatuses, pipelinesOf, projectRunnersToken } from '../helpers/ci'
import { seedGroup, seedMember } from '../helpers/fixtures'
import { TestRunner, injectTransport, storedZip, type JobSpec } from '../helpers/runner'
import { ROOT_TOKEN, makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

describe('Jobs and the runner job API', () => {
  let s: TestServer
  let maintainer: SeededUser
  let developer: SeededUser
  let reporter: SeededUser

  const get = (token: string | null, url: string) => s.request(token, { method: 'GET', url: `/api/v4${url}` })
  const send = (
    token: string | null,
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
  ) => s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
  const transport = () => injectTransport(s.app)

  /** A project with members and a runner of its own; `ci` pushed to main by the Maintainer. */
  async function setup(
    ci: string,
    runnerOptions: Parameters<typeof TestRunner.register>[2] = {},
  ): Promise<{ pid: number; runner: TestRunner; pipelineId: number }> {
    const pid = await createProject(s, maintainer.token)
    seedMember(s, 'Project', pid, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', pid, reporter.user.id, AccessLevel.REPORTER)
    const runner = await TestRunner.register(
      transport(),
      await projectRunnersToken(s, maintainer.token, pid),
      runnerOptions,
    )
    await commitFiles(s, maintainer.token, pid, 'main', { '.gitlab-ci.yml': ci })
    const [pipeline] = await pipelinesOf(s, maintainer.token, pid)
    return { pid, runner, pipelineId: pipeline.id }
  }

  async function jobId(pid: number, pipelineId: number, name: string): Promise<number> {
    const jobs = (await get(maintainer.token, `/projects/${pid}/pipelines/${pipelineId}/jobs?per_page=100`)).json() as {
      id: number
      name: string
    }[]
    return (jobs.find((j) => j.name === name) as { id: number }).id
  }

  beforeAll(async () => {
    s = await makeServer()
    maintainer = seedUser(s)
    developer = seedUser(s)
    reporter = seedUser(s)
  })
  afterAll(async () => {
    await s.close()
  })

  describe('POST /jobs/request', () => {
    it('answers 204 with X-GitLab-Last-Update when nothing waits, 403 for an unknown token', async () => {
      const runner = await TestRunner.register(transport(), await instanceToken(s))
      const res = await send(null, 'POST', '/jobs/request', { token: runner.token })
      expect(res.statusCode).toBe(204)
      expect(res.headers['x-gitlab-last-update']).toEqual(expect.any(String))
      expect((await send(null, 'POST', '/jobs/request', { token: 'glrt-unknown' })).statusCode).toBe(403)
      expect((await send(ROOT_TOKEN, 'DELETE', `/runners/${runner.id}`)).statusCode).toBe(204)
    })

    it('hands out the job with token, job, git and runner info, steps, variables, image and artifacts', async () => {
      const { pid, runner } = await setup(`variables:
  GLOBAL: g
build:
  image: alpine:3.20
  variables:
    LOCAL: l
  before_script: [setup]
  script: [echo $LOCAL, make]
  after_script: [cleanup]
  timeout: 30m
  artifacts:
    paths: [dist/]
    expire_in: 1 week
    reports:
      sast: gl-sast-report.json
      junit: report.xml
`)
      const job = (await runner.requestJob()) as JobSpec & Record<string, unknown>
      expect(job).toMatchObject({
        id: expect.any(Number),
        token: expect.stringMatching(/^glcbt-/),
        allow_git_fetch: true,
        job_info: { name: 'build', stage: 'test', project_id: pid },
        git_info: {
          ref: 'main',
          sha: expect.stringMatching(/^[0-9a-f]{40}$/),
          ref_type: 'branch',
          repo_url: expect.stringMatching(/^http:\/\/gitlab-ci-token:glcbt-[^@]+@burrow\.test\/.+\.git$/),
        },
        runner_info: { timeout: 1800 },
        steps: [
          {
            name: 'script',
            script: ['setup', 'echo $LOCAL', 'make'],
            timeout: 1800,
            when: 'on_success',
            allow_failure: false,
          },
          { name: 'after_script', script: ['cleanup'], when: 'always', allow_failure: true },
        ],
        image: { name: 'alpine:3.20' },
        artifacts: [
          {
            name: 'artifacts',
            paths: ['dist/'],
            when: 'on_success',
            expire_in: '1 week',
            artifact_type: 'archive',
            artifact_format: 'zip',
          },
          {
            name: 'sast',
            paths: ['gl-sast-report.json'],
            when: 'always',
            artifact_type: 'sast',
            artifact_format: 'raw',
          },
          { name: 'junit', paths: ['report.xml'], artifact_type: 'junit', artifact_format: 'gzip' },
        ],
        dependencies: [],
      })
      const vars = Object.fromEntries(job.variables.map((v) => [v.key, v]))
      expect(vars.CI_JOB_ID.value).toBe(String(job.id))
      expect(vars.CI_JOB_NAME.value).toBe('build')
      expect(vars.CI_COMMIT_SHA.value).toBe(job.git_info.sha)
      expect(vars.CI_COMMIT_REF_NAME.value).toBe('main')
      expect(vars.CI_COMMIT_BRANCH.value).toBe('main')
      expect(vars.CI_PIPELINE_SOURCE.value).toBe('push')
      expect(vars.CI_PROJECT_ID.value).toBe(String(pid))
      expect(vars.CI_JOB_TOKEN).toMatchObject({ value: job.token, masked: true, public: false })
      expect(vars.GLOBAL.value).toBe('g')
      expect(vars.LOCAL.value).toBe('l')
      expect(vars.GITLAB_USER_LOGIN.value).toBe(maintainer.user.username)
      expect((await get(maintainer.token, `/projects/${pid}/jobs/${job.id}`)).json()).toMatchObject({
        status: 'running',
        runner: { id: runner.id },
      })
    })

    it('passes project variables, protected ones only to protected branches', async () => {
      const pid = await createProject(s, maintainer.token)
      const runner = await TestRunner.register(transport(), await projectRunnersToken(s, maintainer.token, pid))
      expect(
        (await send(maintainer.token, 'POST', `/projects/${pid}/variables`, { key: 'OPEN', value: 'o' })).statusCode,
      ).toBe(201)
      expect(
        (
          await send(maintainer.token, 'POST', `/projects/${pid}/variables`, {
            key: 'SECRET',
            value: 's3cr3t-value',
            protected: true,
            masked: true,
          })
        ).statusCode,
      ).toBe(201)
      await commitFiles(s, maintainer.token, pid, 'main', { '.gitlab-ci.yml': 'j:\n  script: j\n' })
      const onMain = await runner.requestJob()
      expect(onMain?.variables).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ key: 'OPEN', value: 'o', public: false, masked: false }),
          expect.objectContaining({ key: 'SECRET', value: 's3cr3t-value', masked: true }),
        ]),
      )
      await commitFiles(s, maintainer.token, pid, 'topic', { x: 'x' }, { startBranch: 'main' })
      const onTopic = await runner.requestJob()
      expect(onTopic?.git_info.ref).toBe('topic')
      expect(onTopic?.variables.map((v) => v.key)).toContain('OPEN')
      expect(onTopic?.variables.map((v) => v.key)).not.toContain('SECRET')
    })

    it('gives tagged jobs only to runners with those tags, and untagged ones only to runners that run untagged jobs', async () => {
      const { pid, runner, pipelineId } = await setup('tagged:\n  script: t\n  tags: [gpu]\nplain:\n  script: p\n', {
        tagList: ['linux'],
        runUntagged: false,
      })
      expect(await runner.requestJob()).toBeNull()
      const gpu = await TestRunner.register(transport(), await projectRunnersToken(s, maintainer.token, pid), {
        tagList: ['gpu', 'linux'],
        runUntagged: false,
      })
      expect((await gpu.requestJob())?.job_info.name).toBe('tagged')
      expect(await gpu.requestJob()).toBeNull()
      const untagged = await TestRunner.register(transport(), await projectRunnersToken(s, maintainer.token, pid))
      expect((await untagged.requestJob())?.job_info.name).toBe('plain')
      expect(await jobStatuses(s, maintainer.token, pid, pipelineId)).toEqual({ tagged: 'running', plain: 'running' })
    })

    it('looks past a long queue of jobs the runner cannot take', async () => {
      const { runner, pipelineId, pid } = await setup(
        'blocked:\n  script: b\n  tags: [nobody]\n  parallel: 150\nfree:\n  script: f\n',
      )
      expect((await runner.requestJob())?.job_info.name).toBe('free')
      const pending = await get(
        maintainer.token,
        `/projects/${pid}/pipelines/${pipelineId}/jobs?scope=pending&per_page=1`,
      )
      expect(pending.headers['x-total']).toBe('150')
    })

    it('gives ref_protected runners only jobs of protected branches', async () => {
      const { pid, runner } = await setup('j:\n  script: j\n', { accessLevel: 'ref_protected' })
      await commitFiles(s, maintainer.token, pid, 'topic', { x: 'x' }, { startBranch: 'main' })
      expect((await runner.requestJob())?.git_info.ref).toBe('main')
      expect(await runner.requestJob()).toBeNull()
    })

    it('gives nothing to a paused runner', async () => {
      const { runner } = await setup('j:\n  script: j\n')
      expect((await send(maintainer.token, 'PUT', `/runners/${runner.id}`, { active: false })).statusCode).toBe(200)
      expect(await runner.requestJob()).toBeNull()
      expect((await send(maintainer.token, 'PUT', `/runners/${runner.id}`, { active: true })).statusCode).toBe(200)
      expect(await runner.requestJob()).not.toBeNull()
    })

    it("lets group runners take jobs of the group's projects, and instance runners only where shared runners are enabled", async () => {
      const group = seedGroup(s)
      seedMember(s, 'Namespace', group.id, maintainer.user.id, AccessLevel.OWNER)
      const inGroup = await createProject(s, maintainer.token, { namespace_id: group.id })
      const groupToken = (
        await send(maintainer.token, 'POST', `/groups/${group.id}/runners/reset_registration_token`)
      ).json().token as string
      const groupRunner = await TestRunner.register(transport(), groupToken)
      const outside = await createProject(s, maintainer.token)
      // The tag keeps other tests' pending jobs away from the instance runner.
      await commitFiles(s, maintainer.token, outside, 'main', {
        '.gitlab-ci.yml': 'j:\n  script: j\n  tags: [shared-test]\n',
      })
      await commitFiles(s, maintainer.token, inGroup, 'main', { '.gitlab-ci.yml': 'j:\n  script: j\n' })
      const taken = await groupRunner.requestJob()
      expect(taken?.job_info.project_id).toBe(inGroup)
      expect(await groupRunner.requestJob()).toBeNull()
      expect(
        (await send(maintainer.token, 'PUT', `/projects/${outside}`, { shared_runners_enabled: false })).statusCode,
      ).toBe(200)
      const shared = await TestRunner.register(transport(), await instanceToken(s), {
        tagList: ['shared-test'],
        runUntagged: false,
      })
      expect(await shared.requestJob()).toBeNull()
      expect(
        (await send(maintainer.token, 'PUT', `/projects/${outside}`, { shared_runners_enabled: true })).statusCode,
      ).toBe(200)
      expect((await shared.requestJob())?.job_info.project_id).toBe(outside)
      expect((await send(ROOT_TOKEN, 'DELETE', `/runners/${shared.id}`)).statusCode).toBe(204)
    })

    it('lists artifacts of earlier stages as dependencies, with the job token to download them', async () => {
      const { pid, pipelineId } = await setup(
        'build:\n  stage: build\n  script: b\n  artifacts:\n    paths: [dist/]\ntest:\n  stage: test\n  script: t\n',
      )
      const runner = await TestRunner.register(transport(), await projectRunnersToken(s, maintainer.token, pid), {
        workspace: { 'dist/app.js': 'console.log(1)' },
      })
      await runner.runOnce()
      const test = (await runner.requestJob()) as JobSpec
      const buildId = await jobId(pid, pipelineId, 'build')
      expect(test.dependencies).toEqual([
        {
          id: buildId,
          name: 'build',
          token: test.token,
          artifacts_file: { filename: 'artifacts.zip', size: expect.any(Number) },
        },
      ])
      const download = await s.app.inject({
        method: 'GET',
        url: `/api/v4/jobs/${buildId}/artifacts`,
        headers: { 'job-token': test.token },
      })
      expect(download.statusCode).toBe(200)
      expect(download.rawPayload.equals(storedZip({ 'dist/app.js': 'console.log(1)' }))).toBe(true)
      expect(
        (
          await s.app.inject({
            method: 'GET',
            url: `/api/v4/jobs/${buildId}/artifacts`,
            headers: { 'job-token': 'glcbt-wrong' },
          })
        ).statusCode,
      ).toBe(403)
    })
  })

  describe('PUT /jobs/:id and PATCH /jobs/:id/trace', () => {
    it('appends the log at the offset the server has, answering 202 with Range and Job-Status', async () => {
      const { runner } = await setup('j:\n  script: j\n')
      const job = (await runner.requestJob()) as JobSpec
      const first = await runner.patchTrace(job, 0, 'hello ')
      expect(first.status).toBe(202)
      expect(first.headers).toMatchObject({ range: '0-6', 'job-status': 'running' })
      const wrong = await runner.patchTrace(job, 3, 'again')
      expect(wrong.status).toBe(416)
      expect(wrong.headers.range).toBe('0-6')
      expect((await runner.patchTrace(job, 6, 'world\n')).headers.range).toBe('0-12')
      const missing = await s.app.inject({
        method: 'PATCH',
        url: `/api/v4/jobs/${job.id}/trace`,
        headers: { 'job-token': job.token, 'content-type': 'text/plain' },
        payload: 'x',
      })
      expect(missing.statusCode).toBe(400)
      expect(missing.json()).toEqual({ message: '400 Missing header Content-Range' })
    })

    it('refuses a wrong job token with 403', async () => {
      const { runner } = await setup('j:\n  script: j\n')
      const job = (await runner.requestJob()) as JobSpec
      expect((await runner.updateJob({ id: job.id, token: 'glcbt-wrong' }, 'success')).status).toBe(403)
      expect((await runner.patchTrace({ id: job.id, token: 'glcbt-wrong' }, 0, 'x')).status).toBe(403)
    })

    it('finishes a job: success keeps the log as a trace artifact; a second update answers 403 with Job-Status', async () => {
      const { pid, runner } = await setup("j:\n  script: j\n  coverage: '/Coverage: \\d+\\.\\d+%/'\n")
      const job = (await runner.requestJob()) as JobSpec
      expect((await runner.updateJob(job, 'running')).status).toBe(200)
      await runner.patchTrace(job, 0, 'Coverage: 12.5%\nCoverage: 81.25%\n')
      const done = await runner.updateJob(job, 'success', { exit_code: 0 })
      expect(done.status).toBe(200)
      const again = await runner.updateJob(job, 'failed')
      expect(again.status).toBe(403)
      expect(again.headers['job-status']).toBe('success')
      const detail = (await get(maintainer.token, `/projects/${pid}/jobs/${job.id}`)).json()
      expect(detail).toMatchObject({
        status: 'success',
        coverage: 81.25,
        artifacts: [{ file_type: 'trace', filename: 'job.log', file_format: 'raw', size: 33 }],
      })
      expect((await get(maintainer.token, `/projects/${pid}/jobs/${job.id}/trace`)).body).toBe(
        'Coverage: 12.5%\nCoverage: 81.25%\n',
      )
    })

    it('takes the whole log in the legacy trace parameter and the failure reason', async () => {
      const { pid, runner } = await setup('j:\n  script: j\n')
      const job = (await runner.requestJob()) as JobSpec
      expect(
        (await runner.updateJob(job, 'failed', { trace: 'whole log\n', failure_reason: 'runner_system_failure' }))
          .status,
      ).toBe(200)
      expect((await get(maintainer.token, `/projects/${pid}/jobs/${job.id}/trace`)).body).toBe('whole log\n')
      expect((await get(maintainer.token, `/projects/${pid}/jobs/${job.id}`)).json()).toMatchObject({
        status: 'failed',
        failure_reason: 'runner_system_failure',
      })
    })
  })

  describe('artifacts', () => {
    it('stores uploads by type under the data directory and serves the archive', async () => {
      const { pid, pipelineId } = await setup(
        'build:\n  script: b\n  artifacts:\n    paths: [out/]\n    expire_in: 2 days\n    reports:\n      sast: gl-sast-report.json\n',
      )
      const report = '{"version":"15.0.0","vulnerabilities":[{"id":"1","name":"SQL injection"}]}'
      const runner = await TestRunner.register(transport(), await projectRunnersToken(s, maintainer.token, pid), {
        workspace: { 'out/a.txt': 'A', 'gl-sast-report.json': report },
      })
      await runner.runOnce()
      const id = await jobId(pid, pipelineId, 'build')
      const job = (await get(maintainer.token, `/projects/${pid}/jobs/${id}`)).json()
      expect(job.artifacts_file).toEqual({ filename: 'artifacts.zip', size: expect.any(Number) })
      expect(job.artifacts.map((a: { file_type: string }) => a.file_type).sort()).toEqual(['archive', 'sast', 'trace'])
      expect(Date.parse(job.artifacts_expire_at) - Date.now()).toBeGreaterThan(47 * 3600_000)
      const zip = await s.app.inject({
        method: 'GET',
        url: `/api/v4/projects/${pid}/jobs/${id}/artifacts`,
        headers: { 'private-token': reporter.token },
      })
      expect(zip.statusCode).toBe(200)
      expect(zip.headers['content-disposition']).toBe('attachment; filename="artifacts.zip"')
      expect(zip.rawPayload.equals(storedZip({ 'out/a.txt': 'A' }))).toBe(true)
      const byRef = await s.app.inject({
        method: 'GET',
        url: `/api/v4/projects/${pid}/jobs/artifacts/main/download?job=build`,
        headers: { 'private-token': reporter.token },
      })
      expect(byRef.rawPayload.equals(zip.rawPayload)).toBe(true)
      // Reports are retrievable by type for the features that read them.
      const [sast] = jobArtifactsOfType(s.app.burrow, { projectId: pid, fileType: 'sast', pipelineId })
      expect(readJobArtifact(s.app.burrow, sast).toString()).toBe(report)
    })

    it('refuses a second artifact of the same type, and uncompresses gzip reports when read', async () => {
      const { pid, runner, pipelineId } = await setup('j:\n  script: j\n')
      const job = (await runner.requestJob()) as JobSpec
      const content = '{"dependency_files":[]}'
      expect(
        (
          await runner.uploadArtifact(
            job,
            'dependency_scanning',
            'gzip',
            'gl-dependency-scanning-report.json.gz',
            gzipSync(content),
          )
        ).status,
      ).toBe(201)
      const twice = await runner.uploadArtifact(job, 'dependency_scanning', 'gzip', 'again.gz', gzipSync(content))
      expect(twice.status).toBe(400)
      expect(JSON.parse(twice.text)).toEqual({ message: 'Another artifact of the same type already exists' })
      const [row] = jobArtifactsOfType(s.app.burrow, { projectId: pid, fileType: 'dependency_scanning', pipelineId })
      expect(readJobArtifact(s.app.burrow, row).toString()).toBe(content)
      expect(
        (await runner.uploadArtifact({ id: job.id, token: 'glcbt-wrong' }, 'archive', 'zip', 'a.zip', Buffer.from('x')))
          .status,
      ).toBe(403)
      const badType = await runner.uploadArtifact(job, 'nonsense', 'raw', 'x', Buffer.from('x'))
      expect(badType.status).toBe(400)
    })

    it('answers 404 when a job has no archive; erasing removes artifacts and the log', async () => {
      const { pid, runner, pipelineId } = await setup('j:\n  script: echo hi\n')
      await runner.runOnce()
      const id = await jobId(pid, pipelineId, 'j')
      expect((await get(maintainer.token, `/projects/${pid}/jobs/${id}/artifacts`)).statusCode).toBe(404)
      expect((await send(developer.token, 'POST', `/projects/${pid}/jobs/${id}/erase`)).statusCode).toBe(403)
      const erased = await send(maintainer.token, 'POST', `/projects/${pid}/jobs/${id}/erase`)
      expect(erased.statusCode).toBe(201)
      expect(erased.json()).toMatchObject({ erased_at: expect.any(String), artifacts: [] })
      expect((await get(maintainer.token, `/projects/${pid}/jobs/${id}/trace`)).body).toBe('')
      const notErasable = await send(maintainer.token, 'POST', `/projects/${pid}/jobs/${id}/erase`)
      expect(notErasable.json()).toEqual({ message: '403 Forbidden - Job is not erasable!' })
    })

    it("deletes a job's artifacts but keeps its log (204, Maintainer)", async () => {
      const { pid, pipelineId } = await setup('b:\n  script: b\n  artifacts:\n    paths: [x]\n')
      const runner = await TestRunner.register(transport(), await projectRunnersToken(s, maintainer.token, pid), {
        workspace: { x: 'x' },
      })
      await runner.runOnce()
      const id = await jobId(pid, pipelineId, 'b')
      expect((await send(developer.token, 'DELETE', `/projects/${pid}/jobs/${id}/artifacts`)).statusCode).toBe(403)
      expect((await send(maintainer.token, 'DELETE', `/projects/${pid}/jobs/${id}/artifacts`)).statusCode).toBe(204)
      expect(
        (await get(maintainer.token, `/projects/${pid}/jobs/${id}`))
          .json()
          .artifacts.map((a: { file_type: string }) => a.file_type),
      ).toEqual(['trace'])
    })
  })

  describe('Jobs API', () => {
    it("lists a project's jobs newest first, filtered by one or several scopes", async () => {
      const { pid, runner } = await setup(
        'a:\n  stage: build\n  script: a\nb:\n  stage: build\n  script: exit 1\nc:\n  stage: test\n  script: c\n',
      )
      await runner.runAll()
      const names = async (q: string) =>
        ((await get(reporter.token, `/projects/${pid}/jobs${q}`)).json() as { name: string }[]).map((j) => j.name)
      expect(await names('')).toEqual(['c', 'b', 'a'])
      expect(await names('?scope=failed')).toEqual(['b'])
      expect(await names('?scope[]=success&scope[]=skipped')).toEqual(['c', 'a'])
      const bad = await get(reporter.token, `/projects/${pid}/jobs?scope=nope`)
      expect(bad.statusCode).toBe(400)
      expect(bad.json()).toEqual({ message: 'Scope contains invalid value(s)' })
    })

    it("answers a job with GitLab's Job fields, 404 for another project's job", async () => {
      const { pid, runner, pipelineId } = await setup('j:\n  script: j\n  tags: [b, a]\n', { tagList: ['a', 'b'] })
      await runner.runOnce()
      const id = await jobId(pid, pipelineId, 'j')
      const job = (await get(reporter.token, `/projects/${pid}/jobs/${id}`)).json()
      expect(job).toMatchObject({
        id,
        status: 'success',
        stage: 'test',
        name: 'j',
        ref: 'main',
        tag: false,
        coverage: null,
        allow_failure: false,
        created_at: expect.any(String),
        started_at: expect.any(String),
        finished_at: expect.any(String),
        erased_at: null,
        duration: expect.any(Number),
        queued_duration: expect.any(Number),
        user: { id: maintainer.user.id },
        commit: { id: expect.any(String), title: 'Update CI' },
        pipeline: { id: pipelineId, project_id: pid, ref: 'main', status: 'success' },
        web_url: expect.stringMatching(new RegExp(`/-/jobs/${id}$`)),
        runner: { id: runner.id, description: 'test runner' },
        tag_list: ['a', 'b'],
        artifacts_expire_at: null,
        archived: false,
      })
      const other = await createProject(s, maintainer.token)
      const missing = await get(maintainer.token, `/projects/${other}/jobs/${id}`)
      expect(missing.statusCode).toBe(404)
      expect(missing.json()).toEqual({ message: '404 Not found' })
    })

    it('cancels (201), retries (201) and refuses retrying a job that has not finished (403)', async () => {
      const { pid, runner, pipelineId } = await setup(
        'a:\n  stage: build\n  script: a\nb:\n  stage: test\n  script: b\n',
      )
      const id = await jobId(pid, pipelineId, 'a')
      const notYet = await send(developer.token, 'POST', `/projects/${pid}/jobs/${id}/retry`)
      expect(notYet.statusCode).toBe(403)
      expect(notYet.json()).toEqual({ message: '403 Forbidden - Job is not retryable' })
      expect((await send(reporter.token, 'POST', `/projects/${pid}/jobs/${id}/cancel`)).statusCode).toBe(403)
      const canceled = await send(developer.token, 'POST', `/projects/${pid}/jobs/${id}/cancel`)
      expect(canceled.statusCode).toBe(201)
      expect(canceled.json().status).toBe('canceled')
      expect(await jobStatuses(s, developer.token, pid, pipelineId)).toEqual({ a: 'canceled', b: 'skipped' })
      expect((await pipelinesOf(s, developer.token, pid))[0].status).toBe('canceled')
      const retried = await send(developer.token, 'POST', `/projects/${pid}/jobs/${id}/retry`)
      expect(retried.statusCode).toBe(201)
      expect(retried.json()).toMatchObject({ name: 'a', status: 'pending', user: { id: developer.user.id } })
      expect(retried.json().id).not.toBe(id)
      expect(await jobStatuses(s, developer.token, pid, pipelineId)).toEqual({ a: 'pending', b: 'created' })
      await runner.runAll()
      expect((await pipelinesOf(s, developer.token, pid))[0].status).toBe('success')
      expect(findJobById(s.app.burrow.db, id)?.retried).toBe(1)
    })
  })
})
