import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { createDeployment, ensureEnvironment } from '../../src/server/modules/environments/service'
import { seedGroup, seedMember } from '../helpers/fixtures'
import { makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

interface Deployment {
  readonly id: number
  readonly iid: number
  readonly ref: string
  readonly sha: string
  readonly status: string
  readonly finished_at: string | null
  readonly environment: { readonly id: number; readonly name: string }
  readonly user: { readonly username: string }
  readonly deployable: unknown
}

describe('deployments API', () => {
  let s: TestServer
  let maintainer: SeededUser
  let developer: SeededUser
  let reporter: SeededUser
  let projectId: number
  let sha: string

  const req = (
    token: string | null,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
  ) => s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
  const base = (): string => `/projects/${projectId}/deployments`
  const deploy = async (environment: string, status = 'running', token = developer.token): Promise<Deployment> => {
    const res = await req(token, 'POST', base(), { environment, sha, ref: 'main', tag: false, status })
    expect(res.statusCode).toBe(201)
    return res.json() as Deployment
  }

  beforeAll(async () => {
    s = await makeServer()
    maintainer = seedUser(s)
    developer = seedUser(s)
    reporter = seedUser(s)
    const group = seedGroup(s, { path: 'deploys' })
    seedMember(s, 'Namespace', group.id, maintainer.user.id, AccessLevel.MAINTAINER)
    const created = await s.request(maintainer.token, {
      method: 'POST',
      url: '/api/v4/projects',
      payload: { name: 'api', namespace_id: group.id, initialize_with_readme: true },
    })
    expect(created.statusCode).toBe(201)
    projectId = created.json().id
    seedMember(s, 'Project', projectId, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', projectId, reporter.user.id, AccessLevel.REPORTER)
    sha = (await req(maintainer.token, 'GET', `/projects/${projectId}/repository/branches/main`)).json().commit.id
  })
  afterAll(async () => {
    await s.close()
  })

  it('creates a deployment (201), creating the environment on the way', async () => {
    const d = await deploy('staging')
    expect(d).toMatchObject({
      iid: 1,
      ref: 'main',
      sha,
      status: 'running',
      finished_at: null,
      deployable: null,
      user: { username: developer.user.username },
    })
    expect(d.environment).toMatchObject({ name: 'staging', slug: 'staging' })
    const envs = (await req(reporter.token, 'GET', `/projects/${projectId}/environments?name=staging`)).json()
    expect(envs).toEqual([expect.objectContaining({ id: d.environment.id, tier: 'staging', state: 'available' })])
  })

  it('numbers deployments per project', async () => {
    const d = await deploy('qa', 'success')
    expect(d.iid).toBe(2)
    expect(d.finished_at).not.toBeNull()
  })

  it('answers 400 for a commit or a ref the repository does not have', async () => {
    const res = await req(developer.token, 'POST', base(), {
      environment: 'staging',
      sha: 'f'.repeat(40),
      ref: 'nope',
      tag: false,
      status: 'running',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({
      message: { sha: ['The commit does not exist'], ref: ['The branch or tag does not exist'] },
    })
  })

  it('answers 400 for a status outside running, success, failed and canceled', async () => {
    const res = await req(developer.token, 'POST', base(), {
      environment: 'staging',
      sha,
      ref: 'main',
      tag: false,
      status: 'created',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'status does not have a valid value' })
  })

  it('answers 400 when tag is missing', async () => {
    const res = await req(developer.token, 'POST', base(), {
      environment: 'staging',
      sha,
      ref: 'main',
      status: 'running',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'tag is missing' })
  })

  it('refuses Reporters with 403', async () => {
    const res = await req(reporter.token, 'POST', base(), {
      environment: 'staging',
      sha,
      ref: 'main',
      tag: false,
      status: 'running',
    })
    expect(res.statusCode).toBe(403)
  })

  it('updates the status; success makes it the environment last_deployment', async () => {
    const d = await deploy('production')
    const res = await req(developer.token, 'PUT', `${base()}/${d.id}`, { status: 'success' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ id: d.id, status: 'success', finished_at: expect.any(String) })
    const env = (await req(reporter.token, 'GET', `/projects/${projectId}/environments/${d.environment.id}`)).json()
    expect(env.last_deployment).toMatchObject({ id: d.id, status: 'success', deployable: null })
    expect(env.last_deployment).not.toHaveProperty('environment')
  })

  it('refuses to update a deployment made by a CI job (403)', async () => {
    const db = s.app.burrow.db
    const env = ensureEnvironment(db, projectId, 'ci-env')
    const d = createDeployment(db, {
      projectId,
      environmentId: env.id,
      ref: 'main',
      sha,
      tag: false,
      userId: developer.user.id,
      deployableId: 77,
      status: 'running',
    })
    const res = await req(developer.token, 'PUT', `${base()}/${d.id}`, { status: 'success' })
    expect(res.statusCode).toBe(403)
    expect(res.json()).toEqual({
      message: '403 Forbidden - Deployments created using GitLab CI can not be updated using the API',
    })
  })

  it('lists with filters by environment and status, and orders', async () => {
    const byEnv = (await req(reporter.token, 'GET', `${base()}?environment=staging`)).json() as Deployment[]
    expect(byEnv.map((d) => d.environment.name)).toEqual(['staging'])
    const successes = (await req(reporter.token, 'GET', `${base()}?status=success`)).json() as Deployment[]
    expect(successes.every((d) => d.status === 'success')).toBe(true)
    const desc = (await req(reporter.token, 'GET', `${base()}?order_by=iid&sort=desc`)).json() as Deployment[]
    expect(desc.map((d) => d.iid)).toEqual([...desc.map((d) => d.iid)].sort((a, b) => b - a))
    expect((await req(reporter.token, 'GET', `${base()}?environment=unknown`)).json()).toEqual([])
  })

  it('gets one deployment and answers 404 Deployment Not Found for another id', async () => {
    const d = await deploy('single')
    expect((await req(reporter.token, 'GET', `${base()}/${d.id}`)).json()).toMatchObject({
      id: d.id,
      environment: { name: 'single' },
    })
    const res = await req(reporter.token, 'GET', `${base()}/999999`)
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: '404 Deployment Not Found' })
  })

  describe('DELETE', () => {
    it('refuses a running deployment (400)', async () => {
      const d = await deploy('del-running')
      const res = await req(maintainer.token, 'DELETE', `${base()}/${d.id}`)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: 'Cannot destroy running deployment' })
    })

    it('refuses the deployment currently deployed to its environment (400) and deletes an older one (204)', async () => {
      const older = await deploy('del-env', 'success')
      const latest = await deploy('del-env', 'success')
      const refused = await req(maintainer.token, 'DELETE', `${base()}/${latest.id}`)
      expect(refused.statusCode).toBe(400)
      expect(refused.json()).toEqual({ message: 'Deployment currently deployed to environment' })
      expect((await req(maintainer.token, 'DELETE', `${base()}/${older.id}`)).statusCode).toBe(204)
      expect((await req(maintainer.token, 'GET', `${base()}/${older.id}`)).statusCode).toBe(404)
    })

    it('needs Maintainer (403 for Developers)', async () => {
      const d = await deploy('del-dev', 'failed')
      expect((await req(developer.token, 'DELETE', `${base()}/${d.id}`)).statusCode).toBe(403)
    })
  })

  it('respects protected environments: Developers may not deploy to one protected for Maintainers', async () => {
    await req(maintainer.token, 'POST', `/projects/${projectId}/protected_environments`, {
      name: 'locked',
      deploy_access_levels: [{ access_level: 40 }],
    })
    const res = await req(developer.token, 'POST', base(), {
      environment: 'locked',
      sha,
      ref: 'main',
      tag: false,
      status: 'running',
    })
    expect(res.statusCode).toBe(403)
    await deploy('locked', 'running', maintainer.token)
  })
})
