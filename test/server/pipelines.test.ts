import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { commitFiles, createProject, jobStatuses, pipelinesOf, projectRunnersToken } from '../helpers/ci'
import { seedMember } from '../helpers/fixtures'
import { TestRunner, injectTransport } from '../helpers/runner'
import { ROOT_TOKEN, makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

const THREE_STAGES = `build:
  stage: build
  script: echo build
test:
  stage: test
  script: echo test
deploy:
  stage: deploy
  script: echo deploy
`

describe('Pipelines', () => {
  let s: TestServer
  let owner: SeededUser
  let maintainer: SeededUser
  let developer: SeededUser
  let reporter: SeededUser
  let guest: SeededUser
  let outsider: SeededUser

  const get = (token: string | null, url: string) => s.request(token, { method: 'GET', url: `/api/v4${url}` })
  const send = (
    token: string | null,
    method: 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
  ) => s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })

  /** A private project of `owner` with members, a project runner, and (when given) a CI configuration a Maintainer pushed to main (protected). */
  async function setup(
    ci?: string,
    files: Readonly<Record<string, string>> = {},
  ): Promise<{ pid: number; runner: TestRunner; sha: string | null }> {
    const pid = await createProject(s, owner.token)
    seedMember(s, 'Project', pid, maintainer.user.id, AccessLevel.MAINTAINER)
    seedMember(s, 'Project', pid, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', pid, reporter.user.id, AccessLevel.REPORTER)
    seedMember(s, 'Project', pid, guest.user.id, AccessLevel.GUEST)
    const runner = await TestRunner.register(injectTransport(s.app), await projectRunnersToken(s, owner.token, pid))
    const sha =
      ci === undefined ? null : await commitFiles(s, maintainer.token, pid, 'main', { '.gitlab-ci.yml': ci, ...files })
    return { pid, runner, sha }
  }

  beforeAll(async () => {
    s = await makeServer()
    owner = seedUser(s)
    maintainer = seedUser(s)
    developer = seedUser(s)
    reporter = seedUser(s)
    guest = seedUser(s)
    outsider = seedUser(s)
  })
  afterAll(async () => {
    await s.close()
  })

  describe('created on push', () => {
    it('creates a push pipeline for a branch with a CI configuration; the first stage is pending, the rest created', async () => {
      const { pid, sha } = await setup(THREE_STAGES)
      const [pipeline] = await pipelinesOf(s, developer.token, pid)
      expect(pipeline).toMatchObject({
        iid: 1,
        project_id: pid,
        sha,
        ref: 'main',
        status: 'pending',
        source: 'push',
        web_url: expect.stringMatching(new RegExp(`/-/pipelines/${pipeline.id}$`)),
      })
      expect(await jobStatuses(s, developer.token, pid, pipeline.id)).toEqual({
        build: 'pending',
        test: 'created',
        deploy: 'created',
      })
      const detail = await get(developer.token, `/projects/${pid}/pipelines/${pipeline.id}`)
      expect(detail.json()).toMatchObject({
        before_sha: expect.stringMatching(/^[0-9a-f]{40}$/),
        tag: false,
        yaml_errors: null,
        user: { id: maintainer.user.id },
        started_at: null,
        finished_at: null,
      })
    })

    it('creates no pipeline for a push without a CI configuration', async () => {
      const { pid } = await setup()
      await commitFiles(s, maintainer.token, pid, 'main', { 'a.txt': 'a' })
      expect(await pipelinesOf(s, developer.token, pid)).toEqual([])
    })

    it('keeps a failed pipeline with yaml_errors for an invalid configuration', async () => {
      const { pid } = await setup('build:\n  scriptt: make\n')
      const [pipeline] = await pipelinesOf(s, developer.token, pid)
      expect(pipeline.status).toBe('failed')
      const detail = (await get(developer.token, `/projects/${pid}/pipelines/${pipeline.id}`)).json()
      expect(detail.yaml_errors).toBe(
        'jobs build config should implement the script:, run:, or trigger: keyword, jobs config should contain at least one visible job',
      )
      expect(await pipelinesOf(s, developer.token, pid, '?yaml_errors=true')).toHaveLength(1)
      expect(await pipelinesOf(s, developer.token, pid, '?yaml_errors=false')).toEqual([])
    })

    it('skips the pipeline when the commit message says [skip ci]', async () => {
      const { pid } = await setup()
      await commitFiles(
        s,
        maintainer.token,
        pid,
        'main',
        { '.gitlab-ci.yml': THREE_STAGES },
        { message: 'Docs only [skip ci]' },
      )
      const [pipeline] = await pipelinesOf(s, developer.token, pid)
      expect(pipeline.status).toBe('skipped')
      expect(await jobStatuses(s, developer.token, pid, pipeline.id)).toEqual({})
    })

    it('creates pipelines for new branches and tags', async () => {
      const { pid } = await setup('job:\n  script: echo\n')
      await commitFiles(s, developer.token, pid, 'feature', { 'f.txt': 'f' }, { startBranch: 'main' })
      expect(
        (await send(developer.token, 'POST', `/projects/${pid}/repository/tags`, { tag_name: 'v1.0.0', ref: 'main' }))
          .statusCode,
      ).toBe(201)
      const pipelines = await pipelinesOf(s, developer.token, pid)
      expect(pipelines.map((p) => p.ref)).toEqual(['v1.0.0', 'feature', 'main'])
      expect((await get(developer.token, `/projects/${pid}/pipelines/${pipelines[0].id}`)).json().tag).toBe(true)
      expect((await pipelinesOf(s, developer.token, pid, '?scope=tags')).map((p) => p.ref)).toEqual(['v1.0.0'])
      expect((await pipelinesOf(s, developer.token, pid, '?scope=branches')).map((p) => p.ref)).toEqual([
        'feature',
        'main',
      ])
    })

    it('applies rules, only and except per ref', async () => {
      const ci = `always:
  script: a
main-only:
  script: m
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
feature-manual:
  script: f
  rules:
    - if: $CI_COMMIT_BRANCH =~ /^feature/
      when: manual
not-main:
  script: n
  except: [main]
`
      const { pid } = await setup(ci)
      const [main] = await pipelinesOf(s, developer.token, pid)
      expect(await jobStatuses(s, developer.token, pid, main.id)).toEqual({ always: 'pending', 'main-only': 'pending' })
      await commitFiles(s, developer.token, pid, 'feature-x', { 'x.txt': 'x' }, { startBranch: 'main' })
      const [feature] = await pipelinesOf(s, developer.token, pid, '?ref=feature-x')
      expect(await jobStatuses(s, developer.token, pid, feature.id)).toEqual({
        always: 'pending',
        'feature-manual': 'manual',
        'not-main': 'pending',
      })
      // A blocking manual job next to pending ones: GitLab's composite status says running.
      expect(feature.status).toBe('running')
    })

    it('creates no pipeline when workflow:rules filter it out, or when no job is left', async () => {
      const { pid } = await setup('workflow:\n  rules:\n    - if: $CI_COMMIT_TAG\njob:\n  script: j\n')
      expect(await pipelinesOf(s, developer.token, pid)).toEqual([])
      await commitFiles(s, maintainer.token, pid, 'main', { '.gitlab-ci.yml': 'job:\n  script: j\n  only: [tags]\n' })
      expect(await pipelinesOf(s, developer.token, pid)).toEqual([])
    })

    it('reads local includes from the pushed commit', async () => {
      const { pid } = await setup('include: ci/jobs.yml\nmain:\n  script: m\n', {
        'ci/jobs.yml': 'included:\n  script: i\n',
      })
      const [pipeline] = await pipelinesOf(s, developer.token, pid)
      expect(await jobStatuses(s, developer.token, pid, pipeline.id)).toEqual({ included: 'pending', main: 'pending' })
    })

    it('decides rules:changes with the paths a push changed', async () => {
      const { pid } = await setup('docs:\n  script: d\n  rules:\n    - changes: ["docs/*"]\ncode:\n  script: c\n')
      await commitFiles(s, maintainer.token, pid, 'main', { 'docs/a.md': 'a' })
      await commitFiles(s, maintainer.token, pid, 'main', { 'src.txt': 's' })
      const [code, docs] = await pipelinesOf(s, developer.token, pid)
      expect(Object.keys(await jobStatuses(s, developer.token, pid, docs.id)).sort()).toEqual(['code', 'docs'])
      expect(Object.keys(await jobStatuses(s, developer.token, pid, code.id))).toEqual(['code'])
    })
  })

  describe('running stage by stage', () => {
    it('starts the next stage when the previous one succeeded and ends in success', async () => {
      const { pid, runner } = await setup(THREE_STAGES)
      const [pipeline] = await pipelinesOf(s, developer.token, pid)
      const first = await runner.runOnce()
      expect(first?.job.job_info.name).toBe('build')
      expect(await jobStatuses(s, developer.token, pid, pipeline.id)).toEqual({
        build: 'success',
        test: 'pending',
        deploy: 'created',
      })
      expect((await get(developer.token, `/projects/${pid}/pipelines/${pipeline.id}`)).json().status).toBe('running')
      expect((await runner.runAll()).map((r) => r.job.job_info.name)).toEqual(['test', 'deploy'])
      const done = (await get(developer.token, `/projects/${pid}/pipelines/${pipeline.id}`)).json()
      expect(done).toMatchObject({
        status: 'success',
        started_at: expect.any(String),
        finished_at: expect.any(String),
        duration: expect.any(Number),
        detailed_status: { text: 'passed', group: 'success', icon: 'status_success' },
      })
    })

    it('skips later on_success jobs after a failure, runs on_failure and always jobs; the pipeline fails', async () => {
      const { pid, runner } = await setup(`build:
  stage: build
  script: exit 1
test:
  stage: test
  script: t
cleanup:
  stage: deploy
  script: c
  when: always
notify:
  stage: deploy
  script: n
  when: on_failure
`)
      await runner.runAll()
      const [pipeline] = await pipelinesOf(s, developer.token, pid)
      expect(await jobStatuses(s, developer.token, pid, pipeline.id)).toEqual({
        build: 'failed',
        test: 'skipped',
        cleanup: 'success',
        notify: 'success',
      })
      expect(pipeline.status).toBe('failed')
      const job = (
        (await get(developer.token, `/projects/${pid}/pipelines/${pipeline.id}/jobs?scope=failed`)).json() as Record<
          string,
          unknown
        >[]
      )[0]
      expect(job).toMatchObject({ name: 'build', failure_reason: 'script_failure' })
    })

    it('lets a pipeline succeed past a job allowed to fail', async () => {
      const { pid, runner } = await setup(
        'lint:\n  stage: build\n  script: exit 1\n  allow_failure: true\ntest:\n  stage: test\n  script: t\n',
      )
      await runner.runAll()
      const [pipeline] = await pipelinesOf(s, developer.token, pid)
      expect(await jobStatuses(s, developer.token, pid, pipeline.id)).toEqual({ lint: 'failed', test: 'success' })
      expect(pipeline.status).toBe('success')
    })

    it('blocks on a manual job from rules until someone plays it (pipeline manual), then goes on', async () => {
      const { pid, runner } = await setup(`build:
  stage: build
  script: b
approve:
  stage: test
  script: a
  rules:
    - when: manual
deploy:
  stage: deploy
  script: d
`)
      await runner.runAll()
      const [pipeline] = await pipelinesOf(s, developer.token, pid)
      expect(await jobStatuses(s, developer.token, pid, pipeline.id)).toEqual({
        build: 'success',
        approve: 'manual',
        deploy: 'created',
      })
      expect(pipeline.status).toBe('manual')
      const approve = (
        (await get(developer.token, `/projects/${pid}/pipelines/${pipeline.id}/jobs?scope=manual`)).json() as {
          id: number
        }[]
      )[0]
      expect((await send(reporter.token, 'POST', `/projects/${pid}/jobs/${approve.id}/play`)).statusCode).toBe(403)
      const played = await send(developer.token, 'POST', `/projects/${pid}/jobs/${approve.id}/play`)
      expect(played.statusCode).toBe(200)
      expect(played.json()).toMatchObject({ id: approve.id, status: 'pending', user: { id: developer.user.id } })
      expect((await runner.runAll()).map((r) => r.job.job_info.name)).toEqual(['approve', 'deploy'])
      expect((await pipelinesOf(s, developer.token, pid))[0].status).toBe('success')
      expect((await send(developer.token, 'POST', `/projects/${pid}/jobs/${approve.id}/play`)).statusCode).toBe(200)
    })

    it('does not block on a manual job without rules (it may fail): the pipeline succeeds around it', async () => {
      const { pid, runner } = await setup(
        'build:\n  stage: build\n  script: b\noptional:\n  stage: test\n  script: o\n  when: manual\ndeploy:\n  stage: deploy\n  script: d\n',
      )
      await runner.runAll()
      const [pipeline] = await pipelinesOf(s, developer.token, pid)
      expect(await jobStatuses(s, developer.token, pid, pipeline.id)).toEqual({
        build: 'success',
        optional: 'manual',
        deploy: 'success',
      })
      expect(pipeline.status).toBe('success')
      const build = (
        (await get(developer.token, `/projects/${pid}/pipelines/${pipeline.id}/jobs?scope=success`)).json() as {
          id: number
          name: string
        }[]
      ).find((j) => j.name === 'build') as { id: number }
      const unplayable = await send(developer.token, 'POST', `/projects/${pid}/jobs/${build.id}/play`)
      expect(unplayable.statusCode).toBe(400)
      expect(unplayable.json()).toEqual({ message: '400 Bad request - Unplayable Job' })
    })

    it('starts a job as soon as its needs succeed (DAG), ahead of its stage', async () => {
      const { pid, runner } = await setup(`a:
  stage: build
  script: a
slow:
  stage: build
  script: s
  tags: [never-here]
b:
  stage: test
  script: b
  needs: [a]
c:
  stage: test
  script: c
`)
      await runner.runAll()
      const [pipeline] = await pipelinesOf(s, developer.token, pid)
      expect(await jobStatuses(s, developer.token, pid, pipeline.id)).toEqual({
        a: 'success',
        slow: 'pending',
        b: 'success',
        c: 'created',
      })
      expect(pipeline.status).toBe('running')
    })
  })

  describe('Pipelines API', () => {
    let pid: number
    let runner: TestRunner

    beforeAll(async () => {
      ;({ pid, runner } = await setup('build:\n  stage: build\n  script: b\ntest:\n  stage: test\n  script: exit 1\n'))
      await runner.runAll()
      await commitFiles(s, developer.token, pid, 'second', { 'x.txt': 'x' }, { startBranch: 'main' })
    })

    it('lists pipelines newest first with the documented filters', async () => {
      const all = await pipelinesOf(s, developer.token, pid)
      expect(all.map((p) => [p.ref, p.status])).toEqual([
        ['second', 'pending'],
        ['main', 'failed'],
      ])
      expect((await pipelinesOf(s, developer.token, pid, '?status=failed')).map((p) => p.ref)).toEqual(['main'])
      expect((await pipelinesOf(s, developer.token, pid, '?scope=finished')).map((p) => p.ref)).toEqual(['main'])
      expect((await pipelinesOf(s, developer.token, pid, '?scope=pending')).map((p) => p.ref)).toEqual(['second'])
      expect((await pipelinesOf(s, developer.token, pid, '?ref=main')).map((p) => p.ref)).toEqual(['main'])
      expect((await pipelinesOf(s, developer.token, pid, `?sha=${all[1].sha}`)).map((p) => p.ref)).toEqual(['main'])
      expect(
        (await pipelinesOf(s, developer.token, pid, `?username=${developer.user.username}`)).map((p) => p.ref),
      ).toEqual(['second'])
      expect(await pipelinesOf(s, developer.token, pid, '?source=api')).toEqual([])
      expect((await pipelinesOf(s, developer.token, pid, '?sort=asc')).map((p) => p.ref)).toEqual(['main', 'second'])
      expect((await pipelinesOf(s, developer.token, pid, '?order_by=ref&sort=asc')).map((p) => p.ref)).toEqual([
        'main',
        'second',
      ])
      expect(
        await pipelinesOf(
          s,
          developer.token,
          pid,
          `?updated_after=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
        ),
      ).toEqual([])
      expect((await get(developer.token, `/projects/${pid}/pipelines?status=bogus`)).json()).toEqual({
        error: 'status does not have a valid value',
      })
    })

    it('answers the latest pipeline of a ref (default branch by default)', async () => {
      expect((await get(developer.token, `/projects/${pid}/pipelines/latest`)).json()).toMatchObject({
        ref: 'main',
        status: 'failed',
      })
      expect((await get(developer.token, `/projects/${pid}/pipelines/latest?ref=second`)).json()).toMatchObject({
        ref: 'second',
      })
      expect((await get(developer.token, `/projects/${pid}/pipelines/latest?ref=none`)).statusCode).toBe(404)
    })

    it('answers 404 Not found for a pipeline of another project', async () => {
      const other = await createProject(s, owner.token)
      const [p] = await pipelinesOf(s, developer.token, pid)
      const res = await get(ROOT_TOKEN, `/projects/${other}/pipelines/${p.id}`)
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: '404 Not found' })
    })

    it('lets Reporters read pipelines, not Guests of a private project; non-members get 404', async () => {
      expect((await get(reporter.token, `/projects/${pid}/pipelines`)).statusCode).toBe(200)
      expect((await get(guest.token, `/projects/${pid}/pipelines`)).statusCode).toBe(403)
      expect((await get(outsider.token, `/projects/${pid}/pipelines`)).statusCode).toBe(404)
      expect((await get(null, `/projects/${pid}/pipelines`)).statusCode).toBe(404)
    })

    it("shows public projects' pipelines to anyone while jobs are public", async () => {
      const pub = await createProject(s, owner.token, { visibility: 'public' })
      await commitFiles(s, owner.token, pub, 'main', { '.gitlab-ci.yml': 'j:\n  script: j\n' })
      expect((await get(null, `/projects/${pub}/pipelines`)).json()).toHaveLength(1)
      expect((await send(owner.token, 'PUT', `/projects/${pub}`, { public_jobs: false })).statusCode).toBe(200)
      expect((await get(outsider.token, `/projects/${pub}/pipelines`)).statusCode).toBe(403)
    })

    it('creates a pipeline for a ref through the API (source api, variables given)', async () => {
      const res = await send(developer.token, 'POST', `/projects/${pid}/pipeline`, {
        ref: 'main',
        variables: [
          { key: 'GREETING', value: 'hi' },
          { key: 'CONF', value: 'x', variable_type: 'file' },
        ],
      })
      expect(res.statusCode).toBe(201)
      expect(res.json()).toMatchObject({
        ref: 'main',
        source: 'api',
        status: 'pending',
        user: { id: developer.user.id },
        detailed_status: { text: 'pending' },
      })
      const vars = await get(developer.token, `/projects/${pid}/pipelines/${res.json().id}/variables`)
      expect(vars.json()).toEqual([
        { variable_type: 'env_var', key: 'GREETING', value: 'hi' },
        { variable_type: 'file', key: 'CONF', value: 'x' },
      ])
      expect((await get(reporter.token, `/projects/${pid}/pipelines/${res.json().id}/variables`)).statusCode).toBe(403)
      let job = await runner.requestJob()
      while (job && job.variables.find((v) => v.key === 'CI_PIPELINE_ID')?.value !== String(res.json().id))
        job = await runner.requestJob()
      expect(job?.variables).toEqual(
        expect.arrayContaining([expect.objectContaining({ key: 'GREETING', value: 'hi', public: false })]),
      )
      expect(job?.variables.find((v) => v.key === 'CI_PIPELINE_SOURCE')?.value).toBe('api')
    })

    it("refuses to create pipelines with GitLab's errors", async () => {
      expect((await send(developer.token, 'POST', `/projects/${pid}/pipeline`, {})).json()).toEqual({
        error: 'ref is missing',
      })
      const unknown = await send(developer.token, 'POST', `/projects/${pid}/pipeline`, { ref: 'nope' })
      expect(unknown.statusCode).toBe(400)
      expect(unknown.json()).toEqual({ message: { base: ['Reference not found'] } })
      expect((await send(reporter.token, 'POST', `/projects/${pid}/pipeline`, { ref: 'main' })).statusCode).toBe(403)
      const bare = (await setup()).pid
      expect((await send(owner.token, 'POST', `/projects/${bare}/pipeline`, { ref: 'main' })).json()).toEqual({
        message: { base: ['Missing CI config file'] },
      })
      const tagsOnly = (await setup('j:\n  script: j\n  only: [tags]\n')).pid
      expect((await send(owner.token, 'POST', `/projects/${tagsOnly}/pipeline`, { ref: 'main' })).json()).toEqual({
        message: { base: ['No stages / jobs for this pipeline.'] },
      })
      const invalid = (await setup('j:\n  scriptt: j\n')).pid
      expect((await send(owner.token, 'POST', `/projects/${invalid}/pipeline`, { ref: 'main' })).json()).toEqual({
        message: {
          base: [
            'jobs j config should implement the script:, run:, or trigger: keyword',
            'jobs config should contain at least one visible job',
          ],
        },
      })
    })

    it('ignores [skip ci] for pipelines asked for through the API', async () => {
      const { pid: p } = await setup()
      await commitFiles(
        s,
        maintainer.token,
        p,
        'main',
        { '.gitlab-ci.yml': 'j:\n  script: j\n' },
        { message: 'wip [ci skip]' },
      )
      const res = await send(developer.token, 'POST', `/projects/${p}/pipeline`, { ref: 'main' })
      expect(res.json().status).toBe('pending')
    })

    it('retries the failed jobs of a pipeline (201), which then runs again', async () => {
      const [target] = await pipelinesOf(s, developer.token, pid, '?ref=main&status=failed')
      expect((await send(reporter.token, 'POST', `/projects/${pid}/pipelines/${target.id}/retry`)).statusCode).toBe(403)
      const res = await send(developer.token, 'POST', `/projects/${pid}/pipelines/${target.id}/retry`)
      expect(res.statusCode).toBe(201)
      // build passed and test waits again: success next to pending reads as running.
      expect(res.json().status).toBe('running')
      const withRetried = (
        await get(developer.token, `/projects/${pid}/pipelines/${target.id}/jobs?include_retried=true`)
      ).json() as { name: string; status: string }[]
      expect(withRetried.map((j) => [j.name, j.status])).toEqual([
        ['build', 'success'],
        ['test', 'failed'],
        ['test', 'pending'],
      ])
      expect(await jobStatuses(s, developer.token, pid, target.id)).toEqual({ build: 'success', test: 'pending' })
    })

    it('cancels a pipeline: pending and running jobs become canceled (200)', async () => {
      const { pid: p, runner: r } = await setup(THREE_STAGES)
      const running = await r.requestJob()
      expect(running?.job_info.name).toBe('build')
      const [pipeline] = await pipelinesOf(s, developer.token, p)
      const res = await send(developer.token, 'POST', `/projects/${p}/pipelines/${pipeline.id}/cancel`)
      expect(res.statusCode).toBe(200)
      expect(res.json().status).toBe('canceled')
      expect(await jobStatuses(s, developer.token, p, pipeline.id)).toEqual({
        build: 'canceled',
        test: 'canceled',
        deploy: 'canceled',
      })
      // The runner learns it on its next call: 403 with the job's status.
      const update = await r.updateJob(running as { id: number; token: string }, 'success')
      expect(update.status).toBe(403)
      expect(update.headers['job-status']).toBe('canceled')
    })

    it('deletes a pipeline for Owners only (204), then it is gone', async () => {
      const { pid: p } = await setup('j:\n  script: j\n')
      const [pipeline] = await pipelinesOf(s, owner.token, p)
      expect((await send(maintainer.token, 'DELETE', `/projects/${p}/pipelines/${pipeline.id}`)).statusCode).toBe(403)
      expect((await send(owner.token, 'DELETE', `/projects/${p}/pipelines/${pipeline.id}`)).statusCode).toBe(204)
      expect((await get(owner.token, `/projects/${p}/pipelines/${pipeline.id}`)).statusCode).toBe(404)
      const audit = (await get(owner.token, `/projects/${p}/audit_events`)).json() as {
        details: { custom_message?: string }
      }[]
      expect(
        audit.some((e) => e.details.custom_message?.startsWith('Deleted pipeline in main with status pending')),
      ).toBe(true)
    })

    it("lists a pipeline's jobs with scope filters; 400 for an unknown scope", async () => {
      const id = (await pipelinesOf(s, developer.token, pid, '?ref=main&sort=asc'))[0].id
      const success = (await get(developer.token, `/projects/${pid}/pipelines/${id}/jobs?scope[]=success`)).json() as {
        name: string
      }[]
      expect(success.map((j) => j.name)).toContain('build')
      const bad = await get(developer.token, `/projects/${pid}/pipelines/${id}/jobs?scope=bogus`)
      expect(bad.statusCode).toBe(400)
      expect(bad.json()).toEqual({ message: 'Scope contains invalid value(s)' })
    })
  })
})
