import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { commitFiles, createProject, instanceToken, pipelinesOf, projectRunnersToken } from '../helpers/ci'
import { seedMember } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { TestRunner, httpTransport, storedZip } from '../helpers/runner'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { remoteUrl, sh, shFails } from '../helpers/git'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

const CI = `build:
  stage: build
  script: echo build
  artifacts:
    paths: [dist/]
test:
  stage: test
  script: exit 1
deploy:
  stage: deploy
  script: echo deploy
  when: manual
  needs: [build]
`

describe('CI/CD over the wire', () => {
  let s: ListeningServer
  let maintainer: SeededUser
  let developer: SeededUser
  let pid: number
  let runner: TestRunner
  let pipelineId: number

  beforeAll(async () => {
    s = await startServer()
    maintainer = seedUser(s, { username: 'ci_wire_maintainer' })
    developer = seedUser(s, { username: 'ci_wire_developer' })
    pid = await createProject(s, maintainer.token, { path: 'ci-wire', name: 'ci-wire' })
    seedMember(s, 'Project', pid, developer.user.id, AccessLevel.DEVELOPER)
    // The runner talks HTTP to the listening server, like gitlab-runner.
    runner = await TestRunner.register(httpTransport(s.url), await projectRunnersToken(s, maintainer.token, pid), {
      description: 'wire runner',
      tagList: ['linux'],
      workspace: { 'dist/app.js': 'app' },
    })
    await commitFiles(s, maintainer.token, pid, 'main', { '.gitlab-ci.yml': CI })
    await runner.runAll()
    pipelineId = (await pipelinesOf(s, maintainer.token, pid))[0].id
  })
  afterAll(async () => {
    await s.close()
  })

  describe('python-gitlab', () => {
    it("lists, reads, updates and pauses runners; lists a runner's jobs", async () => {
      const out = await withPythonGitlab<{
        owned: number[]
        all: string[]
        detail: Record<string, unknown>
        paused: string
        jobs: string[]
        failed: string[]
        verify: boolean
      }>(
        s.url,
        { private_token: maintainer.token },
        `
owned = [r.id for r in gl.runners.list(type='project_type')]
r = gl.runners.get(${runner.id})
detail = {'description': r.description, 'tag_list': r.tag_list, 'runner_type': r.runner_type, 'has_token': hasattr(r, 'token')}
r.description = 'renamed by python'
r.tag_list = ['linux', 'python']
r.save()
r.active = False
r.save()
paused = gl.runners.get(${runner.id}).status
r.active = True
r.save()
jobs = [j.name for j in r.jobs.list(get_all=True)]
failed = [j.name for j in r.jobs.list(status='failed', get_all=True)]
try:
    gl.runners.verify(${JSON.stringify(runner.token)})
    verify = True
except Exception:
    verify = False
root = gitlab.Gitlab(os.environ['GL_URL'], private_token=${JSON.stringify(ROOT_TOKEN)})
all_runners = [x.runner_type for x in root.runners.all(scope='specific')]
out({'owned': owned, 'all': all_runners, 'detail': detail, 'paused': paused, 'jobs': jobs, 'failed': failed, 'verify': verify})
`,
      )
      expect(out.owned).toEqual([runner.id])
      expect(out.all).toEqual(['project_type'])
      expect(out.detail).toEqual({
        description: 'wire runner',
        tag_list: ['linux'],
        runner_type: 'project_type',
        has_token: false,
      })
      expect(out.paused).toBe('paused')
      expect(out.jobs).toEqual(['test', 'build'])
      expect(out.failed).toEqual(['test'])
      expect(out.verify).toBe(true)
    })

    it('registers a runner with the registration token and enables it in another project', async () => {
      const other = await createProject(s, maintainer.token)
      const out = await withPythonGitlab<{ id: number; enabled: number[]; after: number[] }>(
        s.url,
        { private_token: maintainer.token },
        `
created = gl.runners.create({'token': ${JSON.stringify(await projectRunnersToken(s, maintainer.token, pid))}, 'description': 'py registered', 'tag_list': ['py']})
project = gl.projects.get(${other}, lazy=True)
project.runners.create({'runner_id': created.id})
enabled = [x.id for x in project.runners.list(type='project_type')]
project.runners.delete(created.id)
after = [x.id for x in project.runners.list(type='project_type')]
out({'id': created.id, 'enabled': enabled, 'after': after})
`,
      )
      expect(out.enabled).toEqual([out.id])
      expect(out.after).toEqual([])
    })

    it('reads pipelines and jobs, retries, plays, reads the log and downloads artifacts', async () => {
      const out = await withPythonGitlab<{
        pipelines: string[]
        status: string
        jobs: Record<string, string>
        trace: string
        artifacts: number
        retried: string
        played: string
        variables: Record<string, string>
      }>(
        s.url,
        { private_token: developer.token },
        `
project = gl.projects.get(${pid})
pipelines = [p.status for p in project.pipelines.list(get_all=True)]
pipeline = project.pipelines.get(${pipelineId})
jobs = {j.name: j.status for j in pipeline.jobs.list(get_all=True)}
build = [j for j in pipeline.jobs.list(get_all=True) if j.name == 'build'][0]
job = project.jobs.get(build.id)
trace = job.trace().decode()
artifacts = len(job.artifacts())
failed = [j for j in pipeline.jobs.list(scope='failed', get_all=True)][0]
retried = project.jobs.get(failed.id).retry()['status']
manual = [j for j in pipeline.jobs.list(scope=['manual'], get_all=True)][0]
project.jobs.get(manual.id).play()
played = project.jobs.get(manual.id).status
created = project.pipelines.create({'ref': 'main', 'variables': [{'key': 'FROM_PY', 'value': 'yes'}]})
variables = {v.key: v.value for v in created.variables.list()}
created.cancel()
out({'pipelines': pipelines, 'status': pipeline.status, 'jobs': jobs, 'trace': trace, 'artifacts': artifacts, 'retried': retried, 'played': played, 'variables': variables})
`,
      )
      expect(out.pipelines).toEqual(['failed'])
      expect(out.status).toBe('failed')
      expect(out.jobs).toEqual({ build: 'success', test: 'failed', deploy: 'manual' })
      expect(out.played).toBe('pending')
      expect(out.trace).toBe('$ echo build\nbuild\nJob succeeded\n')
      expect(out.artifacts).toBe(storedZip({ 'dist/app.js': 'app' }).length)
      expect(out.retried).toBe('pending')
      expect(out.variables).toEqual({ FROM_PY: 'yes' })
      await runner.runAll()
    })

    it('lints configuration globally and in the project, and manages project variables', async () => {
      const out = await withPythonGitlab<{
        global: string
        errors: string[]
        project: boolean
        dry: boolean
        merged: string
        vars: string[]
      }>(
        s.url,
        { private_token: maintainer.token },
        `
result = gl.ci_lint.create({'content': 'job:\\n  script: echo\\n'})
bad = gl.ci_lint.create({'content': 'job:\\n  scriptt: echo\\n'})
project = gl.projects.get(${pid}, lazy=True)
current = project.ci_lint.get()
dry = project.ci_lint.create({'content': 'job:\\n  script: echo\\n  only: [tags]\\n', 'dry_run': True})
project.variables.create({'key': 'PY_VAR', 'value': 'v1'})
v = project.variables.get('PY_VAR')
v.value = 'v2'
v.save()
vars = [x.key + '=' + x.value for x in project.variables.list()]
project.variables.delete('PY_VAR')
out({'global': result.status, 'errors': bad.errors, 'project': current.valid, 'dry': dry.valid, 'merged': current.merged_yaml, 'vars': vars})
`,
      )
      expect(out.global).toBe('valid')
      expect(out.errors).toEqual([
        'jobs job config should implement the script:, run:, or trigger: keyword',
        'jobs config should contain at least one visible job',
      ])
      expect(out.project).toBe(true)
      expect(out.dry).toBe(false)
      expect(out.merged.startsWith('---\nbuild:\n')).toBe(true)
      expect(out.vars).toEqual(['PY_VAR=v2'])
    })
  })

  describe('git push', () => {
    it("a push over smart HTTP creates the pipeline from the pushed .gitlab-ci.yml; the runner takes its job, listed among the runner's jobs, and the merge request's head_pipeline succeeds", async () => {
      const project = await createProject(s, maintainer.token, { path: 'ci-wire-push', name: 'ci-wire-push' })
      const pushRunner = await TestRunner.register(
        httpTransport(s.url),
        await projectRunnersToken(s, maintainer.token, project),
        { description: 'push runner' },
      )
      const dir = mkdtempSync(join(tmpdir(), 'burrow-ci-push-'))
      await sh(dir, 'clone', '--quiet', remoteUrl(s.url, 'ci_wire_maintainer/ci-wire-push', maintainer.token), 'src')
      const src = join(dir, 'src')
      await sh(src, 'checkout', '--quiet', '-b', 'feature')
      writeFileSync(join(src, '.gitlab-ci.yml'), 'lint:\n  stage: test\n  script: echo lint\n')
      await sh(src, 'add', '.gitlab-ci.yml')
      await sh(src, 'commit', '--quiet', '-m', 'Add CI')
      const sha = await sh(src, 'rev-parse', 'HEAD')
      await sh(src, 'push', '--quiet', 'origin', 'feature')
      // The push listeners run once git http-backend has exited, after the push answered.
      let [pipeline] = await pipelinesOf(s, maintainer.token, project)
      for (let i = 0; i < 100 && !pipeline; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        ;[pipeline] = await pipelinesOf(s, maintainer.token, project)
      }
      expect(pipeline).toMatchObject({ sha, ref: 'feature', source: 'push', status: 'pending' })
      const mr = (
        await s.request(maintainer.token, {
          method: 'POST',
          url: `/api/v4/projects/${project}/merge_requests`,
          payload: { source_branch: 'feature', target_branch: 'main', title: 'CI' },
        })
      ).json()
      await pushRunner.runAll()
      const jobs = (
        await s.request(maintainer.token, { method: 'GET', url: `/api/v4/runners/${pushRunner.id}/jobs` })
      ).json() as { name: string; status: string; pipeline: { id: number }; commit: { id: string } }[]
      expect(jobs.map((j) => [j.name, j.status, j.pipeline.id, j.commit.id])).toEqual([
        ['lint', 'success', pipeline.id, sha],
      ])
      const merged = (
        await s.request(maintainer.token, {
          method: 'GET',
          url: `/api/v4/projects/${project}/merge_requests/${mr.iid}`,
        })
      ).json()
      expect(merged.head_pipeline).toMatchObject({ id: pipeline.id, sha, status: 'success' })
      rmSync(dir, { recursive: true, force: true })
    })
  })

  describe('git with the job token', () => {
    it("clones the job's own project while the job runs, never pushes, and stops working when the job ends", async () => {
      const created = await s.request(developer.token, {
        method: 'POST',
        url: `/api/v4/projects/${pid}/pipeline`,
        payload: { ref: 'main' },
      })
      expect(created.statusCode).toBe(201)
      let job = await runner.requestJob()
      while (job && job.variables.find((v) => v.key === 'CI_PIPELINE_ID')?.value !== String(created.json().id))
        job = await runner.requestJob()
      if (!job) throw new Error('no job for the new pipeline')
      const dir = mkdtempSync(join(tmpdir(), 'burrow-job-clone-'))
      await sh(dir, 'clone', '--quiet', '--branch', job.git_info.ref, job.git_info.repo_url, 'src')
      expect(await sh(join(dir, 'src'), 'rev-parse', 'HEAD')).toBe(job.git_info.sha)
      await sh(join(dir, 'src'), 'commit', '--allow-empty', '-q', '-m', 'from a job')
      expect(await shFails(join(dir, 'src'), 'push', 'origin', 'HEAD:refs/heads/from-job')).toMatch(
        /not allowed to push/,
      )
      const other = await createProject(s, maintainer.token, { path: 'ci-wire-other', name: 'ci-wire-other' })
      const otherUrl = job.git_info.repo_url.replace(/ci-wire\.git$/, 'ci-wire-other.git')
      expect(other).toBeGreaterThan(0)
      expect(await shFails(dir, 'clone', '--quiet', otherUrl, 'other')).toMatch(/not found|could not be found|403|404/i)
      expect((await runner.updateJob(job, 'success')).status).toBe(200)
      expect(await shFails(dir, 'clone', '--quiet', job.git_info.repo_url, 'after')).toMatch(
        /Authentication failed|401|could not read/i,
      )
    })
  })

  describe('@gitbeaker/rest', () => {
    it("lists, shows and edits runners, and lists a runner's jobs", async () => {
      const api = new Gitlab({ host: s.url, token: maintainer.token })
      const owned = await api.Runners.all({ owned: true })
      expect(owned.map((r) => r.id)).toContain(runner.id)
      const shown = await api.Runners.show(runner.id)
      expect(shown).toMatchObject({ id: runner.id, runner_type: 'project_type', is_shared: false })
      expect(shown).not.toHaveProperty('token')
      const edited = await api.Runners.edit(runner.id, {
        description: 'renamed by gitbeaker',
        tagList: ['linux'],
      } as never)
      expect(edited).toMatchObject({ description: 'renamed by gitbeaker', tag_list: ['linux'] })
      const projectRunners = await api.Runners.all({ projectId: pid })
      expect(projectRunners.map((r) => r.id)).toContain(runner.id)
      const jobs = await api.Runners.allJobs(runner.id, { status: 'success' })
      expect(jobs.length).toBeGreaterThan(0)
      const admin = new Gitlab({ host: s.url, token: ROOT_TOKEN })
      const forbidden = await api.Runners.all().catch(
        (e: { cause?: { response?: { status?: number } } }) => e.cause?.response?.status,
      )
      expect(forbidden).toBe(403)
      expect((await admin.Runners.all({ type: 'project_type' } as never)).map((r) => r.id)).toContain(runner.id)
    })

    it('registers, verifies and removes a runner by token', async () => {
      const api = new Gitlab({ host: s.url, token: maintainer.token })
      const registered = await api.Runners.register(await instanceToken(s), {
        description: 'gitbeaker runner',
      } as never)
      expect(registered).toMatchObject({ id: expect.any(Number), token: expect.stringMatching(/^glrt-/) })
      await api.Runners.verify({ token: registered.token } as never)
      await api.Runners.remove({ token: registered.token })
      const again = await api.Runners.verify({ token: registered.token } as never).catch(
        (e: { cause?: { response?: { status?: number } } }) => e.cause?.response?.status,
      )
      expect(again).toBe(403)
    })

    it('creates, shows, lists, retries, cancels and deletes pipelines and reads jobs', async () => {
      const api = new Gitlab({ host: s.url, token: developer.token })
      const created = await api.Pipelines.create(pid, 'main', {
        variables: [{ key: 'FROM_JS', value: 'yes' }],
      } as never)
      expect(created).toMatchObject({ ref: 'main', source: 'api', status: 'pending' })
      const shown = await api.Pipelines.show(pid, created.id)
      expect(shown).toMatchObject({ id: created.id, detailed_status: { text: 'pending' } })
      expect((await api.Pipelines.allVariables(pid, created.id)).map((v) => v.key)).toEqual(['FROM_JS'])
      const list = await api.Pipelines.all(pid, { ref: 'main' } as never)
      expect(list[0].id).toBe(created.id)
      const canceled = await api.Pipelines.cancel(pid, created.id)
      expect(canceled.status).toBe('canceled')
      const retried = await api.Pipelines.retry(pid, created.id)
      expect(retried.status).toBe('pending')
      const jobs = await api.Jobs.all(pid, { pipelineId: created.id })
      expect(jobs.map((j) => j.name)).toEqual(['build', 'test', 'deploy'])
      const job = await api.Jobs.show(pid, jobs[0].id)
      expect(job).toMatchObject({ name: 'build', status: 'pending', pipeline: { id: created.id } })
      const canceledJob = await api.Jobs.cancel(pid, jobs[0].id)
      expect(canceledJob.status).toBe('canceled')
      const latest = await api.Pipelines.showLatest(pid)
      expect(latest.id).toBe(created.id)
      const owner = new Gitlab({ host: s.url, token: maintainer.token })
      // Deleting pipelines is for Owners; the project belongs to the Maintainer's namespace.
      await owner.Pipelines.remove(pid, created.id)
      expect(
        await api.Pipelines.show(pid, created.id).catch(
          (e: { cause?: { response?: { status?: number } } }) => e.cause?.response?.status,
        ),
      ).toBe(404)
    })

    it('reads the log and downloads artifacts of a job', async () => {
      const api = new Gitlab({ host: s.url, token: developer.token })
      const build = (await api.Jobs.all(pid, { pipelineId })).find((j) => j.name === 'build') as { id: number }
      expect(await api.Jobs.showLog(pid, build.id)).toBe('$ echo build\nbuild\nJob succeeded\n')
      const archive = await api.JobArtifacts.downloadArchive(pid, { jobId: build.id })
      expect(Buffer.from(await (archive as Blob).arrayBuffer()).equals(storedZip({ 'dist/app.js': 'app' }))).toBe(true)
    })

    it('lints in the project', async () => {
      const api = new Gitlab({ host: s.url, token: maintainer.token })
      const checked = await api.Lint.check(pid, {})
      expect(checked).toMatchObject({ valid: true, errors: [] })
      const linted = await api.Lint.lint(pid, 'job:\n  script: echo\n  stage: nope\n')
      expect(linted).toMatchObject({
        valid: false,
        errors: ['job job: chosen stage does not exist; available stages are .pre, build, test, deploy, .post'],
      })
    })

    it('creates a runner without a registration token (Users.createCIRunner), which verifies and runs a job over HTTP', async () => {
      const api = new Gitlab({ host: s.url, token: maintainer.token })
      const created = (await api.Users.createCIRunner('project_type', {
        projectId: pid,
        description: 'beaker runner',
        tagList: ['wire-created'],
        runUntagged: false,
      })) as unknown as { id: number; token: string }
      expect(created).toEqual({
        id: expect.any(Number),
        token: expect.stringMatching(/^glrt-/),
        token_expires_at: null,
      })
      const made = TestRunner.connect(httpTransport(s.url), created)
      expect(await made.verify()).toBe(200)
      await commitFiles(s, maintainer.token, pid, 'main', {
        '.gitlab-ci.yml': 'tagged:\n  tags: [wire-created]\n  script: echo made\n',
      })
      expect(await made.runOnce()).toMatchObject({
        job: { job_info: { name: 'tagged', project_id: pid } },
        state: 'success',
      })
    })
  })
})
