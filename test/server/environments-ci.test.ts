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

  it('shows the deploying job as last_deployment.deployable (GitLab\'s Job entity)', async () => {
    const [pipeline] = await pipelinesOf(s, owner.token, projectId)
    const env = (await req('GET', `/environments/${envId}`)).json()
    expect(env).toMatchObject({ name: 'production', external_url: 'https://prod.example.com', state: 'available', tier: 'production' })
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
  })

  it('lists the deployment with its job through the deployments API', async () => {
    const deployments = (await req('GET', '/deployments')).json() as { environment: { name: string }; deployable: { name: string } | null }[]
    expect(deployments.map((d) => [d.environment.name, d.deployable?.name])).toEqual([['production', 'deploy']])
  })

  it('refuses to update a job-made deployment through the API (403)', async () => {
    const [deployment] = (await req('GET', '/deployments')).json() as { id: number }[]
    const res = await s.request(owner.token, { method: 'PUT', url: `/api/v4/projects/${projectId}/deployments/${deployment.id}`, payload: { status: 'failed' } })
    expect(res.statusCode).toBe(403)
  })

  it('stop plays the on_stop job: the environment is stopping, then stopped when the job succeeds', async () => {
    const res = await req('POST', `/environments/${envId}/stop`)
    expect(res.statusCode).toBe(200)
    expect(res.json().state).toBe('stopping')
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
