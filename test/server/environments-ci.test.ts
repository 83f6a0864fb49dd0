import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commitFiles, createProject, instanceToken, jobStatuses, pipelinesOf } from '../helpers/ci'
import { injectTransport, TestRunner } from '../helpers/runner'
import { makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

const CI = `
stages: [deploy]
deploy:
  stage: deploy
  script: echo deploying
  environment:
    name: production
    url: https://prod.example.com
    on_stop: stop_production
stop_production:
  stage: deploy
  script: echo stopping
  when: manual
  environment:
    name: production
    action: stop
`

describe('environments deployed by CI jobs', () => {
  let s: TestServer
  let owner: SeededUser
  let runner: TestRunner
  let projectId: number
  let envId: number

  const req = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
    s.request(owner.token, { method, url: `/api/v4/projects/${projectId}${url}`, ...(payload ? { payload } : {}) })

  beforeAll(async () => {
    s = await makeServer()
    owner = seedUser(s)
    projectId = await createProject(s, owner.token)
    runner = await TestRunner.register(injectTransport(s.app), await instanceToken(s))
    await commitFiles(s, owner.token, projectId, 'main', { '.gitlab-ci.yml': CI })
    await runner.runAll()
    const env = (await req('GET', '/environments?name=production')).json()[0] as { id: number }
    envId = env.id
  })
  afterAll(async () => {
    await s.close()
  })

  it("shows the deploying job as last_deployment.deployable (GitLab's Job entity)", async () => {
    const [pipeline] = await pipelinesOf(s, owner.token, projectId)
    const env = (await req('GET', `/environments/${envId}`)).json()
    expect(env).toMatchObject({
      name: 'production',
      external_url: 'https://prod.example.com',
      state: 'available',
      tier: 'production',
    })
    expect(env.last_deployment).toMatchObject({ status: 'success', ref: 'main', sha: pipeline.sha })
    expect(env.last_deployment.deployable).toMatchObject({
      name: 'deploy',
      stage: 'deploy',
      status: 'success',
      ref: 'main',
      tag: false,
      pipeline: { id: pipeline.id, sha: pipeline.sha, ref: 'main', status: expect.any(String) },
      commit: { id: pipeline.sha },
      web_url: expect.stringContaining('/-/jobs/'),
      artifacts: expect.any(Array),
    })
    const has = (object: Record<string, unknown>, keys: string[]) =>
      expect(Object.keys(object)).toEqual(expect.arrayContaining(keys))
    has(env.last_deployment, ['id', 'iid', 'ref', 'sha', 'created_at', 'status', 'user', 'deployable'])
    has(env.last_deployment.deployable, [
      'id',
      'status',
      'stage',
      'name',
      'ref',
      'tag',
      'coverage',
      'created_at',
      'started_at',
      'finished_at',
      'duration',
      'user',
      'commit',
      'pipeline',
      'web_url',
      'artifacts',
      'runner',
      'artifacts_expire_at',
    ])
    expect(env.last_deployment.deployable.runner).toMatchObject({
      id: expect.any(Number),
      runner_type: expect.any(String),
    })
    expect(env.last_deployment.deployable.runner).not.toHaveProperty('token')
    for (const artifact of env.last_deployment.deployable.artifacts as Record<string, unknown>[])
      has(artifact, ['file_type', 'size', 'filename', 'file_format'])
    expect(env.last_deployment.deployable.artifacts.length).toBeGreaterThan(0)
  })

  it('lists the deployment with its job through the deployments API', async () => {
    const deployments = (await req('GET', '/deployments')).json() as {
      environment: { name: string }
      deployable: { name: string } | null
    }[]
    expect(deployments.map((d) => [d.environment.name, d.deployable?.name])).toEqual([['production', 'deploy']])
  })

  it('refuses to update a job-made deployment through the API (403)', async () => {
    const [deployment] = (await req('GET', '/deployments')).json() as { id: number }[]
    const res = await s.request(owner.token, {
      method: 'PUT',
      url: `/api/v4/projects/${projectId}/deployments/${deployment.id}`,
      payload: { status: 'failed' },
    })
    expect(res.statusCode).toBe(403)
  })

  it('stop answers the environment stopped (the spec has no intermediate state) and plays its on_stop job', async () => {
    const res = await req('POST', `/environments/${envId}/stop`)
    expect(res.statusCode).toBe(200)
    expect(res.json().state).toBe('stopped')
    const [pipeline] = await pipelinesOf(s, owner.token, projectId)
    expect((await jobStatuses(s, owner.token, projectId, pipeline.id)).stop_production).toBe('pending')
    await runner.runAll()
    expect((await req('GET', `/environments/${envId}`)).json().state).toBe('stopped')
  })

  it('stop with force stops at once without running the on_stop job', async () => {
    await commitFiles(s, owner.token, projectId, 'main', { 'README.md': 'again\n' })
    await runner.runAll()
    expect((await req('GET', `/environments/${envId}`)).json().state).toBe('available')
    const res = await req('POST', `/environments/${envId}/stop`, { force: true })
    expect(res.json().state).toBe('stopped')
    const [pipeline] = await pipelinesOf(s, owner.token, projectId)
    expect((await jobStatuses(s, owner.token, projectId, pipeline.id)).stop_production).toBe('manual')
  })
})

describe('CI_ENVIRONMENT_* variables of a deploying job', () => {
  let s: TestServer
  let owner: SeededUser
  let runner: TestRunner
  let projectId: number

  const variable = (
    result: { job: { variables: readonly { key: string; value: string }[] } },
    key: string,
  ): string | undefined => result.job.variables.find((v) => v.key === key)?.value

  beforeAll(async () => {
    s = await makeServer()
    owner = seedUser(s)
    projectId = await createProject(s, owner.token)
    runner = await TestRunner.register(injectTransport(s.app), await instanceToken(s))
  })
  afterAll(async () => {
    await s.close()
  })

  it("CI_ENVIRONMENT_SLUG is the environment's stored slug (GitLab's environment slug, not the ref slug rule)", async () => {
    // A name that is not already a slug gets the hash suffix; the ref-slug rule would give `review-feature-x`.
    await commitFiles(s, owner.token, projectId, 'main', {
      '.gitlab-ci.yml': 'review:\n  script: echo hi\n  environment:\n    name: review/Feature_X\n',
    })
    const [result] = await runner.runAll()
    const env = (
      await s.request(owner.token, {
        method: 'GET',
        url: `/api/v4/projects/${projectId}/environments?name=${encodeURIComponent('review/Feature_X')}`,
      })
    ).json()[0] as { slug: string }
    expect(env.slug).toMatch(/^review-feature-x-[a-z0-9]{6}$/)
    expect(variable(result, 'CI_ENVIRONMENT_SLUG')).toBe(env.slug)
  })

  it("CI_ENVIRONMENT_TIER is the environment's tier (guessed from its name when the job gives none)", async () => {
    await commitFiles(s, owner.token, projectId, 'main', {
      '.gitlab-ci.yml': 'deploy:\n  script: echo hi\n  environment:\n    name: staging\n',
    })
    const [result] = await runner.runAll()
    expect(variable(result, 'CI_ENVIRONMENT_TIER')).toBe('staging')
  })

  it("CI_ENVIRONMENT_URL falls back to the environment's external URL when the job gives none", async () => {
    const env = (
      await s.request(owner.token, { method: 'GET', url: `/api/v4/projects/${projectId}/environments?name=staging` })
    ).json()[0] as { id: number }
    await s.request(owner.token, {
      method: 'PUT',
      url: `/api/v4/projects/${projectId}/environments/${env.id}`,
      payload: { external_url: 'https://staging.example.com' },
    })
    await commitFiles(s, owner.token, projectId, 'main', { 'README.md': 'again\n' })
    const [result] = await runner.runAll()
    expect(variable(result, 'CI_ENVIRONMENT_URL')).toBe('https://staging.example.com')
  })
})

describe('protected environments and CI deploy jobs', () => {
  let s: TestServer
  let maintainer: SeededUser
  let developer: SeededUser
  let runner: TestRunner
  let projectId: number

  const PROD_CI = `
stages: [build, deploy, after]
build:
  stage: build
  script: echo build
deploy:
  stage: deploy
  script: echo deploying
  environment:
    name: production
after:
  stage: after
  script: echo done
`

  async function latestJobs(): Promise<{ name: string; status: string; failure_reason?: string; id: number }[]> {
    const [pipeline] = await pipelinesOf(s, maintainer.token, projectId)
    return (
      await s.request(maintainer.token, {
        method: 'GET',
        url: `/api/v4/projects/${projectId}/pipelines/${pipeline.id}/jobs?per_page=100`,
      })
    ).json()
  }

  beforeAll(async () => {
    s = await makeServer()
    maintainer = seedUser(s, { username: 'pe-maintainer' })
    developer = seedUser(s, { username: 'pe-developer' })
    projectId = await createProject(s, maintainer.token)
    await s.request(maintainer.token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/members`,
      payload: { user_id: developer.user.id, access_level: 30 },
    })
    runner = await TestRunner.register(injectTransport(s.app), await instanceToken(s))
    const protectedRes = await s.request(maintainer.token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/protected_environments`,
      payload: { name: 'production', deploy_access_levels: [{ access_level: 40 }] },
    })
    expect(protectedRes.statusCode, protectedRes.body).toBe(201)
  })
  afterAll(async () => {
    await s.close()
  })

  it("a Developer's deploy job to a protected environment fails with protected_environment_failure and never reaches a runner", async () => {
    // Developers cannot push to the protected default branch: a feature branch deploys.
    await commitFiles(s, developer.token, projectId, 'feature', { '.gitlab-ci.yml': PROD_CI }, { startBranch: 'main' })
    const ran = await runner.runAll()
    expect(ran.map((r) => r.job.job_info.name)).toEqual(['build'])
    const jobs = await latestJobs()
    expect(jobs.find((j) => j.name === 'deploy')).toMatchObject({
      status: 'failed',
      failure_reason: 'protected_environment_failure',
    })
    expect(jobs.find((j) => j.name === 'after')?.status).toBe('skipped')
    const [pipeline] = await pipelinesOf(s, maintainer.token, projectId)
    expect(pipeline.status).toBe('failed')
  })

  it('the refused job leaves a failed deployment and the environment without a successful one', async () => {
    const deployments = (
      await s.request(maintainer.token, { method: 'GET', url: `/api/v4/projects/${projectId}/deployments` })
    ).json() as { status: string; ref: string; deployable: { name: string } }[]
    expect(deployments.map((d) => [d.deployable.name, d.ref, d.status])).toEqual([['deploy', 'feature', 'failed']])
    const env = (
      await s.request(maintainer.token, {
        method: 'GET',
        url: `/api/v4/projects/${projectId}/environments?name=production`,
      })
    ).json()[0] as { id: number }
    expect(
      (
        await s.request(maintainer.token, {
          method: 'GET',
          url: `/api/v4/projects/${projectId}/environments/${env.id}`,
        })
      ).json().last_deployment,
    ).toBeNull()
  })

  it('a Developer may not retry the refused job (403); a Maintainer retries it and it deploys', async () => {
    const deploy = (await latestJobs()).find((j) => j.name === 'deploy') as { id: number }
    const denied = await s.request(developer.token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/jobs/${deploy.id}/retry`,
    })
    expect(denied.statusCode).toBe(403)
    const retried = await s.request(maintainer.token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/jobs/${deploy.id}/retry`,
    })
    expect(retried.statusCode).toBe(201)
    expect(retried.json().status).toBe('pending')
    expect((await runner.runAll()).map((r) => r.job.job_info.name)).toEqual(['deploy', 'after'])
    const env = (
      await s.request(maintainer.token, {
        method: 'GET',
        url: `/api/v4/projects/${projectId}/environments?name=production`,
      })
    ).json()[0] as { id: number }
    const detail = (
      await s.request(maintainer.token, { method: 'GET', url: `/api/v4/projects/${projectId}/environments/${env.id}` })
    ).json()
    expect(detail.last_deployment).toMatchObject({ status: 'success', user: { username: 'pe-maintainer' } })
  })

  it("a Maintainer's pipeline deploys to the protected environment", async () => {
    await commitFiles(s, maintainer.token, projectId, 'main', { '.gitlab-ci.yml': PROD_CI })
    expect((await runner.runAll()).map((r) => r.job.job_info.name)).toEqual(['build', 'deploy', 'after'])
  })

  it('an unprotected environment takes deploy jobs from Developers', async () => {
    await commitFiles(s, developer.token, projectId, 'feature', {
      '.gitlab-ci.yml': PROD_CI.replace('name: production', 'name: staging'),
    })
    expect((await runner.runAll()).map((r) => r.job.job_info.name)).toEqual(['build', 'deploy', 'after'])
  })
})
