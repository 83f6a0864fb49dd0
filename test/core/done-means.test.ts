import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../src/main/core/index'
import { Outbox } from '../../src/main/core/outbox/index'
import type { CachedGetResult, CachedList, SearchResult } from '../../src/shared/ipc/cache'
import type { JsonObject } from '../../src/shared/json'
import type { IpcResponse } from '../../src/shared/ipc/contract'
import type { OutboxEntry } from '../../src/shared/ipc/outbox'
import { seedUser, type SeededUser } from '../helpers/server'
import { desktopServices, RequestLog, startRestartableServer, type RestartableServer } from '../helpers/sync'

/*
 * Issue #4's definition of done, in one story through the IPC contract against a real Burrow
 * Server on 127.0.0.1: with the server stopped, everything synced can be read and searched and
 * edits queue; once it is back they land exactly once, and an edit someone else made meanwhile
 * is surfaced as a conflict instead of being overwritten.
 *
 * The desktop's network is cut at its fetch (a refused connection, as when the server is down)
 * for as long as the test needs after the server is back, so the other user's edit lands before
 * the desktop can replay: what a real outage with someone else working through it looks like.
 */

let server: RestartableServer
let log: RequestLog
let services: Awaited<ReturnType<typeof desktopServices>>
let outbox: Outbox
let core: Core
let owner: SeededUser
let colleague: SeededUser
let accountId: string
let projectId: number
let cut = false
const iids: number[] = []

async function call<T>(channel: string, ...args: unknown[]): Promise<T> {
  const response = (await core.dispatch(channel, args)) as IpcResponse<T>
  if (!response.ok) throw new Error(`${channel}: ${response.error.code} ${response.error.message}`)
  return response.result
}

async function api<T = JsonObject>(
  token: string,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: Record<string, unknown>,
): Promise<T> {
  const response = await server.request(token, { method, url: `/api/v4${url}`, payload })
  if (response.statusCode >= 400) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`)
  return response.json() as T
}

async function until(id: number, states: readonly string[]): Promise<OutboxEntry> {
  for (let i = 0; i < 1200; i++) {
    const entry = (await call<OutboxEntry[]>('outbox:list', { accountId, includeSettled: true })).find(
      (e) => e.id === id,
    )
    if (entry !== undefined && states.includes(entry.state)) return entry
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`outbox entry ${id} never reached ${states.join('/')}`)
}

beforeAll(async () => {
  server = await startRestartableServer()
  owner = seedUser(server)
  colleague = seedUser(server)
  projectId = (await api<{ id: number }>(owner.token, 'POST', '/projects', { name: 'Field notes' })).id
  await api(owner.token, 'POST', `/projects/${projectId}/members`, { user_id: colleague.user.id, access_level: 30 })
  for (const title of ['Compass drifts north', 'Tent pole snapped', 'Map legend unreadable']) {
    iids.push((await api<{ iid: number }>(owner.token, 'POST', `/projects/${projectId}/issues`, { title })).iid)
  }
  await api(colleague.token, 'POST', `/projects/${projectId}/issues/${iids[1]}/notes`, {
    body: 'Happened again near the glacier',
  })

  log = new RequestLog()
  log.beforeRequest = async () => {
    if (cut)
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      })
  }
  services = await desktopServices(log)
  outbox = new Outbox({ cache: services.cache, accounts: services.accounts })
  outbox.start()
  core = createCore({
    version: '0.1.0',
    mode: 'browser',
    serverUrl: server.url,
    accounts: services.accounts,
    cache: services.cache,
    outbox,
  })
  accountId = (await services.accounts.add({ baseUrl: server.url, token: owner.token })).id
  expect((await core.sync?.run(accountId))?.outcome).toBe('completed')
  await call<CachedGetResult>('api:get', accountId, `/projects/${projectId}`)
})

afterAll(async () => {
  await core.dispose()
  await outbox.dispose()
  services.dispose()
  await server.close()
})

describe('done means', () => {
  it('with the server stopped, everything synced can be read and searched', async () => {
    await server.stop()
    cut = true
    expect(await services.accounts.connectivityFor(accountId).probeNow()).toBe(false)
    const list = await call<CachedList<'issue'>>('issues:list', accountId, { project_id: projectId })
    expect(list.items.map((i) => i.data.title).sort()).toEqual([
      'Compass drifts north',
      'Map legend unreadable',
      'Tent pole snapped',
    ])
    const found = await call<SearchResult>('search:query', accountId, { query: 'glacier' })
    expect(found.hits).toEqual([expect.objectContaining({ iid: iids[1], matched_in: 'note' })])
    const detail = await call<{ discussions: { notes: { data: JsonObject }[] }[] }>('issues:get', accountId, {
      project_id: projectId,
      iid: iids[1],
    })
    expect(detail.discussions.flatMap((d) => d.notes.map((n) => n.data.body))).toEqual([
      'Happened again near the glacier',
    ])
    expect(await call<CachedGetResult>('api:get', accountId, `/projects/${projectId}`)).toMatchObject({
      stale: true,
      body: expect.objectContaining({ name: 'Field notes' }),
    })
  })

  it('edits queue, show at once, and land exactly once when it is back; a concurrent edit becomes a conflict', async () => {
    const ref = (iid: number) => ({ projectId, iid })
    const renamed = await call<OutboxEntry>('issues:update', accountId, {
      ...ref(iids[0]),
      changes: { title: 'Compass drifts north-east', state_event: 'close' },
    })
    const comment = await call<OutboxEntry>('issues:comment', accountId, {
      ...ref(iids[1]),
      body: 'Spare poles are in the blue bag',
    })
    const contested = await call<OutboxEntry>('issues:update', accountId, {
      ...ref(iids[2]),
      changes: { title: 'Map legend smudged by rain' },
    })
    expect([renamed, comment, contested].map((e) => e.state)).toEqual(['queued', 'queued', 'queued'])
    const pending = await call<CachedList<'issue'>>('issues:list', accountId, {
      project_id: projectId,
      state: 'closed',
    })
    expect(pending.items).toEqual([
      { data: expect.objectContaining({ iid: iids[0], title: 'Compass drifts north-east' }), pending: true },
    ])
    expect((await call<SearchResult>('search:query', accountId, { query: 'blue bag' })).hits.map((h) => h.iid)).toEqual(
      [iids[1]],
    )

    // The server comes back; someone else renames the third issue before the desktop reconnects.
    await server.restart()
    await api(colleague.token, 'PUT', `/projects/${projectId}/issues/${iids[2]}`, { title: 'Map legend reprinted' })
    cut = false
    // A probe sent while the network was still cut may be the one answering first.
    let online = false
    for (let i = 0; i < 20 && !online; i++) online = await services.accounts.connectivityFor(accountId).probeNow()
    expect(online).toBe(true)

    expect((await until(renamed.id, ['done'])).state).toBe('done')
    expect((await until(comment.id, ['done'])).state).toBe('done')
    const conflict = await until(contested.id, ['conflict', 'done', 'failed'])
    expect(conflict.state).toBe('conflict')
    expect(conflict.conflict).toMatchObject({
      local: { title: 'Map legend smudged by rain' },
      remote: { title: 'Map legend reprinted' },
    })

    expect(await api(owner.token, 'GET', `/projects/${projectId}/issues/${iids[0]}`)).toMatchObject({
      title: 'Compass drifts north-east',
      state: 'closed',
    })
    const notes = await api<JsonObject[]>(
      owner.token,
      'GET',
      `/projects/${projectId}/issues/${iids[1]}/notes?per_page=100`,
    )
    expect(notes.filter((n) => n.body === 'Spare poles are in the blue bag')).toHaveLength(1)
    expect(await api(owner.token, 'GET', `/projects/${projectId}/issues/${iids[2]}`)).toMatchObject({
      title: 'Map legend reprinted',
    })
    expect(log.count((e) => e.method === 'POST' && e.path === `/projects/${projectId}/issues/${iids[1]}/notes`)).toBe(1)
    expect(log.count((e) => e.method === 'PUT' && e.path === `/projects/${projectId}/issues/${iids[2]}`)).toBe(0)
  })
})
