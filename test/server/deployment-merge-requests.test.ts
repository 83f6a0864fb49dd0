import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeServer, ROOT_TOKEN, type TestServer } from '../helpers/server'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Merge requests shipped by deployments: the `environment` / `deployed_before` / `deployed_after`
 * list filters, `first_deployed_to_production_at`, and a deployment's merge requests. Three merge
 * requests; production deploys after the first merge and again after the second, staging once
 * after the second.
 */
describe('merge requests and the deployments that shipped them', () => {
  let s: TestServer
  let base: string
  let mark: string
  const deployedAt: Record<string, string> = {}
  const deploymentIds: Record<string, number> = {}

  async function call(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: Json,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ): Promise<{ statusCode: number; body: any }> {
    const res = await s.request(ROOT_TOKEN, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
    return { statusCode: res.statusCode, body: res.body ? JSON.parse(res.body) : null }
  }
  async function mergeRequest(branch: string, merge: boolean): Promise<number> {
    const commit = await call('POST', `${base}/repository/commits`, {
      branch,
      start_branch: 'main',
      commit_message: branch,
      actions: [{ action: 'create', file_path: `${branch}.txt`, content: branch }],
    })
    expect(commit.statusCode).toBe(201)
    const mr = await call('POST', `${base}/merge_requests`, {
      source_branch: branch,
      target_branch: 'main',
      title: branch,
    })
    expect(mr.statusCode).toBe(201)
    if (merge) expect((await call('PUT', `${base}/merge_requests/${mr.body.iid}/merge`)).statusCode).toBe(200)
    return mr.body.iid as number
  }
  async function deploy(key: string, environment: string): Promise<void> {
    const main = (await call('GET', `${base}/repository/branches/main`)).body.commit.id as string
    const d = await call('POST', `${base}/deployments`, {
      environment,
      sha: main,
      ref: 'main',
      tag: false,
      status: 'success',
    })
    expect(d.statusCode).toBe(201)
    deploymentIds[key] = d.body.id
    deployedAt[key] = d.body.finished_at ?? d.body.updated_at
    await new Promise((r) => setTimeout(r, 5))
  }
  const iids = async (query: string): Promise<number[]> => {
    const r = await call('GET', `${base}/merge_requests?${query}`)
    if (r.statusCode !== 200) throw new Error(JSON.stringify(r))
    return (r.body as Json[]).map((m) => m.iid as number).sort()
  }

  beforeAll(async () => {
    s = await makeServer()
    const project = await call('POST', '/projects', { name: 'shipping', initialize_with_readme: true })
    base = `/projects/${project.body.id}`
    expect((await call('POST', `${base}/environments`, { name: 'production', tier: 'production' })).statusCode).toBe(
      201,
    )
    expect((await call('POST', `${base}/environments`, { name: 'staging', tier: 'staging' })).statusCode).toBe(201)
    await mergeRequest('first', true)
    await deploy('prod1', 'production')
    mark = new Date().toISOString()
    await new Promise((r) => setTimeout(r, 5))
    await mergeRequest('second', true)
    await mergeRequest('third', false)
    await deploy('staging', 'staging')
    await deploy('prod2', 'production')
  })
  afterAll(async () => {
    await s.close()
  })

  it('environment: merge requests shipped to the environment (its first deployment ships everything merged before it)', async () => {
    expect(await iids('environment=production')).toEqual([1, 2])
    expect(await iids('environment=staging')).toEqual([1, 2])
    expect(await iids('environment=review')).toEqual([])
  })

  it('deployed_before / deployed_after: by when the shipping deployment finished', async () => {
    expect(await iids(`deployed_before=${mark}`)).toEqual([1])
    expect(await iids(`environment=production&deployed_after=${mark}`)).toEqual([2])
    expect(await iids(`deployed_after=${mark}`)).toEqual([1, 2])
    expect((await call('GET', `${base}/merge_requests?deployed_after=yesterday`)).statusCode).toBe(400)
  })

  it('first_deployed_to_production_at: when a production-tier deployment first shipped it', async () => {
    expect((await call('GET', `${base}/merge_requests/1`)).body.first_deployed_to_production_at).toBe(deployedAt.prod1)
    expect((await call('GET', `${base}/merge_requests/2`)).body.first_deployed_to_production_at).toBe(deployedAt.prod2)
    expect((await call('GET', `${base}/merge_requests/3`)).body.first_deployed_to_production_at).toBeNull()
  })

  it('lists the merge requests one deployment shipped; 404 for another project’s or an unknown deployment', async () => {
    expect(
      ((await call('GET', `${base}/deployments/${deploymentIds.prod2}/merge_requests`)).body as Json[]).map(
        (m) => m.iid,
      ),
    ).toEqual([2])
    expect(
      ((await call('GET', `${base}/deployments/${deploymentIds.staging}/merge_requests`)).body as Json[]).map(
        (m) => m.iid,
      ),
    ).toEqual([2, 1])
    expect((await call('GET', `${base}/deployments/9999/merge_requests`)).body).toEqual({
      message: '404 Deployment Not Found',
    })
  })

  it('links a deployment once, even when later merges land on the same branch', async () => {
    await mergeRequest('fourth', true)
    expect(await iids('environment=production')).toEqual([1, 2])
  })
})
