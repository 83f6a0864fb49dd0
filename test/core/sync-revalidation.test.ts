import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Accounts } from '../../src/main/core/accounts/accounts'
import type { Cache } from '../../src/main/core/cache/index'
import { createCore, type Core } from '../../src/main/core/index'
import type { CachedGetResult, CachedList, SyncFinished } from '../../src/shared/ipc/cache'
import type { JsonObject } from '../../src/shared/json'
import type { IpcResponse } from '../../src/shared/ipc/contract'
import { ROOT_TOKEN, seedUser, type SeededUser } from '../helpers/server'
import { desktopServices, RequestLog, startRestartableServer, type RestartableServer } from '../helpers/sync'

/*
 * Against a real Burrow Server on 127.0.0.1: `api:get` revalidates its URL cache with
 * If-None-Match (the server's ETag, as GitLab sends one), and sync skips the epics of an
 * instance that refuses them (403 with `epics_enabled` off, as on GitLab's free tier).
 */

async function call<T>(core: Core, channel: string, ...args: unknown[]): Promise<T> {
  const response = (await core.dispatch(channel, args)) as IpcResponse<T>
  if (!response.ok) throw new Error(`${channel}: ${response.error.code} ${response.error.message}`)
  return response.result
}

interface World {
  server: RestartableServer
  log: RequestLog
  owner: SeededUser
  accounts: Accounts
  cache: Cache
  core: Core
  accountId: string
  dispose(): Promise<void>
}

async function api<T = JsonObject>(
  server: RestartableServer,
  token: string,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: Record<string, unknown>,
): Promise<T> {
  const response = await server.request(token, { method, url: `/api/v4${url}`, payload })
  if (response.statusCode >= 400) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`)
  return response.json() as T
}

async function makeWorld(): Promise<World> {
  const server = await startRestartableServer()
  const log = new RequestLog()
  const owner = seedUser(server, { username: `owner${Math.random().toString(36).slice(2, 7)}` })
  const services = await desktopServices(log)
  const core = createCore({
    version: '0.1.0',
    mode: 'browser',
    serverUrl: server.url,
    accounts: services.accounts,
    cache: services.cache,
  })
  const account = await services.accounts.add({ baseUrl: server.url, token: owner.token })
  return {
    server,
    log,
    owner,
    accounts: services.accounts,
    cache: services.cache,
    core,
    accountId: account.id,
    async dispose() {
      await core.dispose()
      services.dispose()
      await server.close()
    },
  }
}

describe('api:get revalidation with ETag', () => {
  let w: World
  let projectId: number
  beforeAll(async () => {
    w = await makeWorld()
    projectId = (
      await api<{ id: number }>(w.server, w.owner.token, 'POST', '/projects', {
        name: 'Revalidated',
        description: 'First words',
      })
    ).id
  })
  afterAll(async () => {
    await w.dispose()
  })

  const get = (path: string) => call<CachedGetResult>(w.core, 'api:get', w.accountId, path)

  it('sends the stored ETag and serves the stored body on a 304, fresh', async () => {
    const first = await get(`/projects/${projectId}`)
    expect(first).toMatchObject({
      status: 200,
      stale: false,
      body: expect.objectContaining({ description: 'First words' }),
    })
    w.log.clear()
    const second = await get(`/projects/${projectId}`)
    expect(w.log.entries).toEqual([
      expect.objectContaining({
        path: `/projects/${projectId}`,
        status: 304,
        ifNoneMatch: expect.stringMatching(/^W\/"/),
      }),
    ])
    expect(second).toMatchObject({ status: 200, stale: false, body: first.body })
    expect(Date.parse(second.fetchedAt)).toBeGreaterThanOrEqual(Date.parse(first.fetchedAt))
  })

  it('keeps a list’s pagination from the stored answer on a 304', async () => {
    for (const title of ['One', 'Two', 'Three'])
      await api(w.server, w.owner.token, 'POST', `/projects/${projectId}/issues`, { title })
    const first = await call<CachedGetResult>(w.core, 'api:get', w.accountId, `/projects/${projectId}/issues`, {
      per_page: 2,
    })
    w.log.clear()
    const second = await call<CachedGetResult>(w.core, 'api:get', w.accountId, `/projects/${projectId}/issues`, {
      per_page: 2,
    })
    expect(w.log.entries.map((e) => e.status)).toEqual([304])
    expect(second.page).toEqual(first.page)
    expect(second.page).toMatchObject({ total: 3, nextPage: 2 })
    expect(second.body).toEqual(first.body)
  })

  it('takes the new body and ETag once the resource changed, and serves that one offline', async () => {
    await api(w.server, w.owner.token, 'PUT', `/projects/${projectId}`, { description: 'Second words' })
    w.log.clear()
    const changed = await get(`/projects/${projectId}`)
    expect(w.log.entries.map((e) => e.status)).toEqual([200])
    expect(changed.body).toMatchObject({ description: 'Second words' })
    w.log.clear()
    expect((await get(`/projects/${projectId}`)).body).toMatchObject({ description: 'Second words' })
    expect(w.log.entries.map((e) => e.status)).toEqual([304])
    await w.server.stop()
    const offline = await get(`/projects/${projectId}`)
    expect(offline).toMatchObject({ stale: true, body: expect.objectContaining({ description: 'Second words' }) })
    await w.server.restart()
    await w.accounts.connectivityFor(w.accountId).probeNow()
  })
})

describe('sync on an instance without epics', () => {
  let w: World
  let groupId: number
  const sync = (reconcile = false): Promise<SyncFinished> =>
    (w.core.sync as NonNullable<Core['sync']>).run(w.accountId, { reconcile })
  const epicRequests = (): number => w.log.count((e) => e.path === `/groups/${groupId}/epics`)
  const setEpics = async (enabled: boolean): Promise<void> => {
    await api(w.server, ROOT_TOKEN, 'PUT', '/application/settings', { epics_enabled: enabled })
  }

  beforeAll(async () => {
    w = await makeWorld()
    groupId = (
      await api<{ id: number }>(w.server, w.owner.token, 'POST', '/groups', {
        name: 'Planning',
        path: `planning-${Math.random().toString(36).slice(2, 7)}`,
      })
    ).id
    await api(w.server, w.owner.token, 'POST', `/groups/${groupId}/epics`, { title: 'Roadmap epic' })
    await api(w.server, w.owner.token, 'POST', `/groups/${groupId}/milestones`, { title: 'Group milestone' })
    await setEpics(false)
  })
  afterAll(async () => {
    await w.dispose()
  })

  it('completes when the epics list answers 403, still syncing the group’s milestones', async () => {
    w.log.clear()
    const result = await sync()
    expect(result).toMatchObject({ outcome: 'completed', error: null })
    expect(w.log.entries.filter((e) => e.path === `/groups/${groupId}/epics`).map((e) => e.status)).toEqual([403])
    expect((await call<CachedList<'epic'>>(w.core, 'epics:list', w.accountId, {})).total).toBe(0)
    const milestones = await call<{ data: JsonObject }[]>(w.core, 'milestones:list', w.accountId, { group_id: groupId })
    expect(milestones.map((m) => m.data.title)).toEqual(['Group milestone'])
  })

  it('does not ask for epics again on the next runs', async () => {
    w.log.clear()
    expect((await sync()).outcome).toBe('completed')
    expect(epicRequests()).toBe(0)
  })

  it('asks again when reconciling, and stays skipped while they are refused', async () => {
    w.log.clear()
    expect((await sync(true)).outcome).toBe('completed')
    expect(epicRequests()).toBe(1)
    w.log.clear()
    expect((await sync()).outcome).toBe('completed')
    expect(epicRequests()).toBe(0)
  })

  it('picks epics up at the next reconciliation once the instance offers them, then syncs them incrementally', async () => {
    await setEpics(true)
    expect((await sync(true)).outcome).toBe('completed')
    const epics = await call<CachedList<'epic'>>(w.core, 'epics:list', w.accountId, {})
    expect(epics.items.map((i) => i.data.title)).toEqual(['Roadmap epic'])
    w.log.clear()
    expect((await sync()).outcome).toBe('completed')
    const asked = w.log.entries.filter((e) => e.path === `/groups/${groupId}/epics`)
    expect(asked).toHaveLength(1)
    expect(asked[0].query).toContain('updated_after=')
  })
})
