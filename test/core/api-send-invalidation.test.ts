import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writtenPaths } from '../../src/main/core/cache/http-cache'
import { createCore, type Core } from '../../src/main/core/index'
import type { ApiSendResult } from '../../src/shared/ipc/api'
import type { CachedGetResult } from '../../src/shared/ipc/cache'
import type { IpcError, IpcResponse } from '../../src/shared/ipc/contract'
import { seedUser, type SeededUser } from '../helpers/server'
import { desktopServices, RequestLog, startRestartableServer, type RestartableServer } from '../helpers/sync'

/*
 * A successful `api:send` drops the `api:get` answers it made outdated from the URL cache, so the
 * resource panels never show the state before the user's own write as the offline copy. Against
 * a real Burrow Server that is stopped to take the network away.
 */

type Json = Record<string, unknown>

let server: RestartableServer
let owner: SeededUser
let other: SeededUser
let core: Core
let dispose: () => void
let accountId: string
let otherAccountId: string
let projectId: number

async function call<T>(channel: string, ...args: unknown[]): Promise<T> {
  const response = (await core.dispatch(channel, args)) as IpcResponse<T>
  if (!response.ok)
    throw Object.assign(new Error(`${channel}: ${response.error.code} ${response.error.message}`), {
      ipc: response.error,
    })
  return response.result
}

async function failure(channel: string, ...args: unknown[]): Promise<IpcError> {
  const response = (await core.dispatch(channel, args)) as IpcResponse<unknown>
  if (response.ok) throw new Error(`${channel} answered ${JSON.stringify(response.result)}`)
  return response.error
}

const get = (path: string, query?: Json, account = accountId) =>
  query === undefined
    ? call<CachedGetResult>('api:get', account, path)
    : call<CachedGetResult>('api:get', account, path, query)
const refusedGet = (path: string, query?: Json) =>
  query === undefined ? failure('api:get', accountId, path) : failure('api:get', accountId, path, query)
const send = (request: Json, account = accountId) => call<ApiSendResult>('api:send', account, request)

async function api<T = Json>(token: string, method: 'GET' | 'POST', url: string, payload?: Json): Promise<T> {
  const response = await server.request(token, { method, url: `/api/v4${url}`, payload })
  if (response.statusCode >= 400) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`)
  return response.json() as T
}

/** Starts the server again and waits until core, probing, reads fresh answers again. */
async function backOnline(): Promise<void> {
  await server.restart()
  for (
    let i = 0;
    !(await get('/version').then(
      (r) => !r.stale,
      () => false,
    ));
    i += 1
  ) {
    if (i > 400) throw new Error('core did not come back online')
    await new Promise((r) => setTimeout(r, 25))
  }
}

/** Runs `check` with the server stopped (core then answers from its saved copies), and starts it again. */
async function offline(check: () => Promise<void>): Promise<void> {
  await server.stop()
  const outcome = await check().then(
    () => null,
    (error: unknown) => error,
  )
  await backOnline()
  if (outcome !== null) throw outcome
}

async function environment(name: string): Promise<number> {
  return (await api<{ id: number }>(owner.token, 'POST', `/projects/${projectId}/environments`, { name })).id
}

beforeAll(async () => {
  server = await startRestartableServer()
  owner = seedUser(server, { username: 'inval_owner' })
  other = seedUser(server, { username: 'inval_other' })
  const services = await desktopServices(new RequestLog())
  core = createCore({
    version: '0.1.0',
    mode: 'browser',
    serverUrl: server.url,
    accounts: services.accounts,
    cache: services.cache,
  })
  dispose = services.dispose
  accountId = (await services.accounts.add({ baseUrl: server.url, token: owner.token })).id
  otherAccountId = (await services.accounts.add({ baseUrl: server.url, token: other.token })).id
  projectId = (await api<{ id: number }>(owner.token, 'POST', '/projects', { name: 'Invalidated' })).id
  // A Reporter: reads environments, may not stop them.
  await api(owner.token, 'POST', `/projects/${projectId}/members`, { user_id: other.user.id, access_level: 20 })
})

afterAll(async () => {
  await core?.dispose()
  dispose?.()
  await server?.close()
})

describe('which saved answers a write outdates', () => {
  it('the written path with what lies below it, and its ancestors down to the project or group', () => {
    expect(writtenPaths('/projects/7/environments/5/stop')).toEqual({
      tree: '/projects/7/environments/5/stop',
      exact: ['/projects/7/environments/5', '/projects/7/environments'],
    })
    expect(writtenPaths('/groups/kestrel%2Fplatform/access_requests/3/approve')).toEqual({
      tree: '/groups/kestrel%2Fplatform/access_requests/3/approve',
      exact: ['/groups/kestrel%2Fplatform/access_requests/3', '/groups/kestrel%2Fplatform/access_requests'],
    })
    // Outside projects and groups every ancestor: the user and the list of users after a block.
    expect(writtenPaths('/users/4/block')).toEqual({ tree: '/users/4/block', exact: ['/users/4', '/users'] })
    expect(writtenPaths('/runners/3')).toEqual({ tree: '/runners/3', exact: ['/runners'] })
    // A write to a project's own record outdates it, not the list of projects.
    expect(writtenPaths('/projects/7')).toEqual({ tree: '/projects/7', exact: [] })
  })
})

describe('api:send and the URL cache', () => {
  it('after stopping an environment, its detail and every saved page of the list are gone; the project, the list of projects and sibling resources stay', async () => {
    const id = await environment('review/stop-me')
    await get(`/projects/${projectId}`)
    await get('/projects', { membership: true })
    await get(`/projects/${projectId}/environments`, { per_page: 20, page: 1 })
    await get(`/projects/${projectId}/environments`, { search: 'stop', per_page: 20, page: 1 })
    await get(`/projects/${projectId}/environments/${id}`)
    await get(`/projects/${projectId}/deployments`, { per_page: 20 })
    // The other account's copy of the same list is its own.
    await get(`/projects/${projectId}/environments`, { per_page: 20, page: 1 }, otherAccountId)

    const result = await send({ method: 'POST', path: `/projects/${projectId}/environments/${id}/stop` })
    expect(result.body).toMatchObject({ id, state: 'stopped' })

    await offline(async () => {
      for (const [path, query] of [
        [`/projects/${projectId}/environments/${id}`, undefined],
        [`/projects/${projectId}/environments`, { per_page: 20, page: 1 }],
        [`/projects/${projectId}/environments`, { search: 'stop', per_page: 20, page: 1 }],
      ] as const) {
        const refused = await refusedGet(path, query)
        expect(refused, path).toMatchObject({ code: 'offline', details: { read: 'not-saved' } })
        // Shown to the user as it is: no API path in it.
        expect(refused.message, path).not.toContain('/projects')
      }
      expect(await get(`/projects/${projectId}`)).toMatchObject({
        stale: true,
        body: expect.objectContaining({ id: projectId }),
      })
      expect(await get('/projects', { membership: true })).toMatchObject({ stale: true })
      expect(await get(`/projects/${projectId}/deployments`, { per_page: 20 })).toMatchObject({ stale: true })
      expect(await get(`/projects/${projectId}/environments`, { per_page: 20, page: 1 }, otherAccountId)).toMatchObject(
        { stale: true },
      )
    })
  })

  it('online again, the next read saves the new state for offline use', async () => {
    const id = await environment('review/read-again')
    await get(`/projects/${projectId}/environments/${id}`)
    await send({ method: 'POST', path: `/projects/${projectId}/environments/${id}/stop` })
    expect(await get(`/projects/${projectId}/environments/${id}`)).toMatchObject({
      stale: false,
      body: expect.objectContaining({ state: 'stopped' }),
    })
    await offline(async () => {
      expect(await get(`/projects/${projectId}/environments/${id}`)).toMatchObject({
        stale: true,
        body: expect.objectContaining({ state: 'stopped' }),
      })
    })
  })

  it('a deletion outdates what lies below the deleted item too', async () => {
    const id = await environment('review/delete-me')
    await send({ method: 'POST', path: `/projects/${projectId}/environments/${id}/stop` })
    await get(`/projects/${projectId}/environments/${id}`)
    await get(`/projects/${projectId}/environments/${id}/deployments`).catch(() => null)
    const before = await get(`/projects/${projectId}/environments`)
    expect((before.body as Json[]).some((e) => e.id === id)).toBe(true)
    await send({ method: 'DELETE', path: `/projects/${projectId}/environments/${id}` })
    await offline(async () => {
      expect(await refusedGet(`/projects/${projectId}/environments/${id}`)).toMatchObject({ code: 'offline' })
      expect(await refusedGet(`/projects/${projectId}/environments`)).toMatchObject({ code: 'offline' })
    })
  })

  it('also drops the other lists the write names in `invalidates`', async () => {
    const id = await environment('review/named')
    await get(`/projects/${projectId}/deployments`, { per_page: 20 })
    await get(`/projects/${projectId}/members`)
    await send({
      method: 'POST',
      path: `/projects/${projectId}/environments/${id}/stop`,
      invalidates: [`/projects/${projectId}/deployments`],
    })
    await offline(async () => {
      expect(await refusedGet(`/projects/${projectId}/deployments`, { per_page: 20 })).toMatchObject({
        code: 'offline',
      })
      expect(await get(`/projects/${projectId}/members`)).toMatchObject({ stale: true })
    })
  })

  it('a refused write outdates nothing', async () => {
    const id = await environment('review/kept')
    await get(`/projects/${projectId}/environments/${id}`)
    await get(`/projects/${projectId}/environments/${id}`, undefined, otherAccountId)
    // The Reporter may not stop it (403): neither account's saved copy goes.
    const refused = await failure('api:send', otherAccountId, {
      method: 'POST',
      path: `/projects/${projectId}/environments/${id}/stop`,
    })
    expect(refused.code).toBe('forbidden')
    const error = await failure('api:send', accountId, {
      method: 'POST',
      path: `/projects/${projectId}/environments/${id + 1000}/stop`,
    })
    expect(error).toMatchObject({ code: 'not-found' })
    await offline(async () => {
      expect(await get(`/projects/${projectId}/environments/${id}`)).toMatchObject({
        stale: true,
        body: expect.objectContaining({ state: 'available' }),
      })
      expect(await get(`/projects/${projectId}/environments/${id}`, undefined, otherAccountId)).toMatchObject({
        stale: true,
      })
    })
  })

  it('refuses `invalidates` that is not a short list of API paths', async () => {
    for (const invalidates of [
      '/projects',
      ['https://elsewhere.example/api'],
      ['/projects/../users'],
      Array.from({ length: 21 }, (_, i) => `/projects/${i}`),
    ]) {
      const error = await failure('api:send', accountId, {
        method: 'POST',
        path: `/projects/${projectId}/environments`,
        body: { name: 'x' },
        invalidates,
      })
      expect(error.code, JSON.stringify(invalidates).slice(0, 40)).toBe('invalid-arguments')
    }
  })

  it('api:get refuses the query objects api:send refuses (one check of a query), before any request', async () => {
    for (const query of [
      { 'per page': 20 },
      { per_page: Number.POSITIVE_INFINITY },
      { search: 'x'.repeat(10_001) },
      { ids: Array.from({ length: 501 }, (_, i) => i) },
    ]) {
      const error = await refusedGet(`/projects/${projectId}/environments`, query)
      expect(error.code, Object.keys(query)[0]).toBe('invalid-arguments')
    }
  })
})
