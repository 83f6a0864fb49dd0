import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Accounts } from '../../src/main/core/accounts/accounts'
import type { Cache } from '../../src/main/core/cache/index'
import { createCore, type Core } from '../../src/main/core/index'
import type { CachedDetail, CachedList, SyncFinished, SyncProgress } from '../../src/shared/ipc/cache'
import type { JsonObject } from '../../src/shared/json'
import type { IpcResponse } from '../../src/shared/ipc/contract'
import { seedUser, type SeededUser } from '../helpers/server'
import {
  createIssues,
  desktopServices,
  RequestLog,
  startRestartableServer,
  type RestartableServer,
} from '../helpers/sync'

/** The result of a successful IPC call, or a failure naming the channel's error. */
async function call<T>(core: Core, channel: string, ...args: unknown[]): Promise<T> {
  const response = (await core.dispatch(channel, args)) as IpcResponse<T>
  if (!response.ok) throw new Error(`${channel}: ${response.error.code} ${response.error.message}`)
  return response.result
}

interface World {
  server: RestartableServer
  log: RequestLog
  owner: SeededUser
  other: SeededUser
  accounts: Accounts
  cache: Cache
  core: Core
  accountId: string
  projectId: number
  dispose(): Promise<void>
}

async function api<T = JsonObject>(
  server: RestartableServer,
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: Record<string, unknown>,
): Promise<T> {
  const response = await server.request(token, { method, url: `/api/v4${url}`, payload })
  if (response.statusCode >= 400) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`)
  return (response.body === '' ? undefined : response.json()) as T
}

/** A server with one project (and a branch for merge requests), a desktop core signed in as its owner. */
async function makeWorld(options: { perPage?: number; schedule?: boolean } = {}): Promise<World> {
  const server = await startRestartableServer()
  const log = new RequestLog()
  const owner = seedUser(server, { username: `owner${Math.random().toString(36).slice(2, 7)}` })
  const other = seedUser(server, { username: `other${Math.random().toString(36).slice(2, 7)}` })
  const project = await api<{ id: number }>(server, owner.token, 'POST', '/projects', {
    name: 'Sync Target',
    initialize_with_readme: true,
  })
  await api(server, owner.token, 'POST', `/projects/${project.id}/members`, {
    user_id: other.user.id,
    access_level: 30,
  })
  const services = await desktopServices(log)
  const core = createCore({
    version: '0.1.0',
    mode: 'browser',
    serverUrl: server.url,
    accounts: services.accounts,
    cache: services.cache,
    syncOptions: { perPage: options.perPage, schedule: options.schedule },
  })
  const account = await services.accounts.add({ baseUrl: server.url, token: owner.token })
  return {
    server,
    log,
    owner,
    other,
    accounts: services.accounts,
    cache: services.cache,
    core,
    accountId: account.id,
    projectId: project.id,
    async dispose() {
      await core.dispose()
      services.dispose()
      await server.close()
    },
  }
}

async function sync(w: World, reconcile = false): Promise<SyncFinished> {
  if (w.core.sync === null) throw new Error('no sync service')
  return w.core.sync.run(w.accountId, { reconcile })
}

const ids = (list: CachedList<'issue' | 'merge_request'>): number[] => list.items.map((i) => i.data.id)

describe('sync: initial, incremental, reconciliation', () => {
  let w: World
  let issues: { id: number; iid: number }[]
  let mr: { id: number; iid: number }
  beforeAll(async () => {
    w = await makeWorld()
    const milestone = await api<{ id: number }>(
      w.server,
      w.owner.token,
      'POST',
      `/projects/${w.projectId}/milestones`,
      { title: 'v1.0' },
    )
    issues = []
    for (let i = 1; i <= 12; i++) {
      issues.push(
        await api(w.server, w.owner.token, 'POST', `/projects/${w.projectId}/issues`, {
          title: i === 3 ? 'Crash when opening the settings dialog' : `Issue number ${i}`,
          description: i === 4 ? 'The renderer crashes on startup' : `Body ${i}`,
          labels: i % 2 === 0 ? 'bug' : 'feature',
          milestone_id: i <= 4 ? milestone.id : undefined,
          assignee_ids: i % 3 === 0 ? [w.other.user.id] : undefined,
        }),
      )
    }
    await api(w.server, w.other.token, 'POST', `/projects/${w.projectId}/issues/${issues[0].iid}/notes`, {
      body: 'Seen this with the quasar backend too',
    })
    await api(w.server, w.owner.token, 'POST', `/projects/${w.projectId}/repository/branches`, {
      branch: 'feature',
      ref: 'main',
    })
    mr = await api(w.server, w.owner.token, 'POST', `/projects/${w.projectId}/merge_requests`, {
      source_branch: 'feature',
      target_branch: 'main',
      title: 'Add the feature',
      milestone_id: milestone.id,
    })
    // The server settles mergeability in the background and moves updated_at when it does: wait
    // (bounded), or a later sync would rightly see the merge request changed.
    for (let attempt = 0; ; attempt++) {
      const current = await api(w.server, w.owner.token, 'GET', `/projects/${w.projectId}/merge_requests/${mr.iid}`)
      if (current.merge_status === 'can_be_merged' || current.merge_status === 'cannot_be_merged') break
      if (attempt >= 500) throw new Error(`merge request !${mr.iid} never settled its mergeability`)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  })
  afterAll(async () => {
    await w.dispose()
  })

  it('initial sync stores issues, merge requests, milestones, labels, notes of commented issues and reports progress', async () => {
    const progress: SyncProgress[] = []
    const finished: SyncFinished[] = []
    const changes: string[][] = []
    w.core.events.subscribe((event, payload) => {
      if (event === 'sync:did-progress') progress.push(payload)
      if (event === 'sync:did-finish') finished.push(payload)
      if (event === 'cache:did-change') changes.push([...payload.kinds])
    })
    const result = await sync(w)
    expect(result).toMatchObject({ outcome: 'completed', error: null })
    expect(finished).toEqual([result])
    expect(progress.some((p) => p.phase === 'issues' && p.scope?.id === w.projectId)).toBe(true)
    expect(changes.flat()).toEqual(expect.arrayContaining(['issue', 'merge_request', 'milestone', 'note']))

    const list = await call<CachedList<'issue'>>(w.core, 'issues:list', w.accountId, { project_id: w.projectId })
    expect(list.total).toBe(12)
    expect(ids(list)).toEqual(issues.map((i) => i.id).reverse())
    const mrs = await call<CachedList<'merge_request'>>(w.core, 'merge-requests:list', w.accountId, {
      project_id: w.projectId,
    })
    expect(ids(mrs)).toEqual([mr.id])
    const detail = await call<{ discussions: { notes: { data: JsonObject }[] }[]; stale: boolean }>(
      w.core,
      'issues:get',
      w.accountId,
      { project_id: w.projectId, iid: issues[0].iid },
    )
    expect(detail.discussions.flatMap((d) => d.notes.map((n) => n.data.body))).toContain(
      'Seen this with the quasar backend too',
    )
    const milestones = await call<{ data: JsonObject }[]>(w.core, 'milestones:list', w.accountId, {
      project_id: w.projectId,
    })
    expect(milestones.map((m) => m.data.title)).toEqual(['v1.0'])
    const ms = await call<{
      issues: unknown[]
      merge_requests: unknown[]
      progress: { total: number; closed: number }
    }>(w.core, 'milestones:get', w.accountId, milestones[0].data.id)
    expect(ms.issues).toHaveLength(4)
    expect(ms.merge_requests).toHaveLength(1)
    expect(ms.progress).toEqual({ total: 4, closed: 0, percent: 0 })
    const labels = await call<JsonObject[]>(w.core, 'labels:list', w.accountId, { project_id: w.projectId })
    expect(labels.map((l) => l.name).sort()).toEqual(['bug', 'feature'])
    const projects = await call<JsonObject[]>(w.core, 'projects:list', w.accountId, { synced: true })
    expect(projects.map((p) => p.id)).toEqual([w.projectId])
    const users = await call<JsonObject[]>(w.core, 'users:list', w.accountId, { search: w.other.user.username })
    expect(users.map((u) => u.id)).toEqual([w.other.user.id])
    expect(
      (await call<{ lastCompletedAt: string | null }>(w.core, 'sync:status', w.accountId)).lastCompletedAt,
    ).not.toBeNull()
  })

  it('a sync with nothing changed downloads no item again: one request per list, no discussions', async () => {
    w.log.clear()
    const result = await sync(w)
    expect(result).toMatchObject({ outcome: 'completed', itemsSynced: 0 })
    expect(w.log.count((e) => e.path === `/projects/${w.projectId}/issues`)).toBe(1)
    expect(w.log.count((e) => e.path === `/projects/${w.projectId}/merge_requests`)).toBe(1)
    expect(w.log.count((e) => e.path.endsWith('/discussions'))).toBe(0)
    expect(w.log.count((e) => e.path.endsWith('/labels'))).toBe(0)
  })

  it('an incremental sync downloads only the changed items and the notes of the commented one', async () => {
    await api(w.server, w.owner.token, 'PUT', `/projects/${w.projectId}/issues/${issues[5].iid}`, {
      title: 'Renamed while the desktop was away',
    })
    await api(w.server, w.owner.token, 'POST', `/projects/${w.projectId}/issues/${issues[7].iid}/notes`, {
      body: 'A new comment',
    })
    w.log.clear()
    const result = await sync(w)
    expect(result).toMatchObject({ outcome: 'completed', itemsSynced: 2 })
    const issueRequests = w.log.entries.filter((e) => e.path === `/projects/${w.projectId}/issues`)
    expect(issueRequests).toHaveLength(1)
    expect(issueRequests[0].query).toContain('updated_after=')
    // The two changed issues, plus the one already applied at the cursor's instant (skipped, not rewritten).
    expect(issueRequests[0].items).toBe(3)
    expect(w.log.entries.filter((e) => e.path.endsWith('/discussions')).map((e) => e.path)).toEqual([
      `/projects/${w.projectId}/issues/${issues[7].iid}/discussions`,
    ])
    const renamed = await call<{ item: { data: JsonObject } }>(w.core, 'issues:get', w.accountId, { id: issues[5].id })
    expect(renamed.item.data.title).toBe('Renamed while the desktop was away')
  })

  it('reconciliation removes issues and merge requests the server deleted', async () => {
    await api(w.server, w.owner.token, 'DELETE', `/projects/${w.projectId}/issues/${issues[10].iid}`)
    await api(w.server, w.owner.token, 'DELETE', `/projects/${w.projectId}/merge_requests/${mr.iid}`)
    const plain = await sync(w)
    expect(plain.itemsRemoved).toBe(0)
    expect(
      (await call<CachedList<'issue'>>(w.core, 'issues:list', w.accountId, { project_id: w.projectId })).total,
    ).toBe(12)
    const result = await sync(w, true)
    expect(result).toMatchObject({ outcome: 'completed', reconciled: true, itemsRemoved: 2 })
    const list = await call<CachedList<'issue'>>(w.core, 'issues:list', w.accountId, { project_id: w.projectId })
    expect(list.total).toBe(11)
    expect(ids(list)).not.toContain(issues[10].id)
    expect((await call<CachedList<'merge_request'>>(w.core, 'merge-requests:list', w.accountId, {})).total).toBe(0)
    expect(
      (await call<{ lastReconciledAt: string | null }>(w.core, 'sync:status', w.accountId)).lastReconciledAt,
    ).not.toBeNull()
  })

  it('full-text search ranks title matches first, matches prefixes and notes, and filters by state', async () => {
    const result = await call<{
      hits: { id: number; matched_in: string; snippet: { text: string; match: boolean }[] }[]
      total: number
    }>(w.core, 'search:query', w.accountId, { query: 'crash' })
    expect(result.hits.map((h) => h.id)).toEqual([issues[2].id, issues[3].id])
    expect(result.hits.map((h) => h.matched_in)).toEqual(['title', 'description'])
    // A title match shows the description below the title, not the title again.
    expect(result.hits[0].snippet.map((p) => p.text).join('')).toBe('Body 3')
    const prefix = await call<{ hits: { id: number }[] }>(w.core, 'search:query', w.accountId, { query: 'sett' })
    expect(prefix.hits.map((h) => h.id)).toEqual([issues[2].id])
    const inNote = await call<{ hits: { id: number; matched_in: string }[] }>(w.core, 'search:query', w.accountId, {
      query: 'quasar',
    })
    expect(inNote.hits).toEqual([expect.objectContaining({ id: issues[0].id, matched_in: 'note' })])
    expect(
      (await call<{ total: number }>(w.core, 'search:query', w.accountId, { query: 'crash', state: 'closed' })).total,
    ).toBe(0)
    expect((await call<{ total: number }>(w.core, 'search:query', 'another-account', { query: 'crash' })).total).toBe(0)
  })
})

/** Issues the run's requests of the world's project issue list brought, repeats included. */
function issuesDownloaded(w: World): number {
  return w.log.entries
    .filter((e) => e.path === `/projects/${w.projectId}/issues`)
    .reduce((n, e) => n + (e.items ?? 0), 0)
}

/** Stops the server when the run asks for the project's third page of issues (two pages committed). */
function stopAtThirdIssuePage(w: World): void {
  let issuePages = 0
  w.log.beforeRequest = async (url) => {
    if (url.pathname.endsWith(`/projects/${w.projectId}/issues`) && ++issuePages === 3) await w.server.stop()
  }
}

/** Starts the stopped server again, forgets the requests so far and waits until the account is seen online. */
async function backOnline(w: World): Promise<void> {
  w.log.beforeRequest = null
  w.log.clear()
  await w.server.restart()
  expect(await w.accounts.connectivityFor(w.accountId).probeNow()).toBe(true)
}

describe('sync: the server goes away mid-sync', () => {
  let w: World
  beforeAll(async () => {
    w = await makeWorld({ perPage: 5 })
    await createIssues(w.server, w.owner.token, w.projectId, 23)
  })
  afterAll(async () => {
    await w.dispose()
  })

  it('stops offline, then resumes from the committed pages without downloading them again, losing nothing', async () => {
    stopAtThirdIssuePage(w)
    const first = await sync(w)
    expect(first.outcome).toBe('offline')
    expect(w.accounts.connectivityFor(w.accountId).online).toBe(false)
    // Two pages committed: 5 issues, then 4 more (the second page is asked from the first's last
    // updated_at, so it starts with that issue again, already applied).
    expect((await call<CachedList<'issue'>>(w.core, 'issues:list', w.accountId, {})).total).toBe(9)
    // The stopped run indexed what it wrote for search before it ended, not at the next start.
    expect((await call<{ total: number }>(w.core, 'search:query', w.accountId, { query: 'issue' })).total).toBe(9)

    await backOnline(w)
    const second = await sync(w)
    expect(second.outcome).toBe('completed')
    // The 14 issues not yet cached, plus the one at the saved cursor's instant on each of the 4 pages asked from it.
    expect(issuesDownloaded(w)).toBe(14 + 4)
    expect(w.log.entries.find((e) => e.path === `/projects/${w.projectId}/issues`)?.query).toContain('updated_after=')
    const list = await call<CachedList<'issue'>>(w.core, 'issues:list', w.accountId, { limit: 100 })
    expect(list.total).toBe(23)
    expect(new Set(list.items.map((i) => i.data.title)).size).toBe(23)
  })

  it('is cancellable: a cancelled run stops and the next one completes', async () => {
    for (let i = 1; i <= 3; i++)
      await api(w.server, w.owner.token, 'POST', `/projects/${w.projectId}/issues`, { title: `Late ${i}` })
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    w.log.beforeRequest = async (url) => {
      if (url.pathname.endsWith('/issues')) await gate
    }
    const status = await call<{ state: string }>(w.core, 'sync:start', w.accountId)
    expect(status.state).toBe('running')
    const cancelling = call<{ state: string }>(w.core, 'sync:cancel', w.accountId)
    release()
    expect((await cancelling).state).toBe('idle')
    w.log.beforeRequest = null
    expect((await sync(w)).outcome).toBe('completed')
    expect((await call<CachedList<'issue'>>(w.core, 'issues:list', w.accountId, {})).total).toBe(26)
  })
})

describe('sync: the server goes away after a page ending at an instant several issues share', () => {
  let w: World
  beforeAll(async () => {
    w = await makeWorld({ perPage: 5 })
    // Issues 8, 9 and 10 updated at the same instant: the second page (1-5, then 5-9) ends with two
    // of them, and the third of that instant is on the page the server is gone for.
    await createIssues(w.server, w.owner.token, w.projectId, 13, { second: (i) => (i === 9 || i === 10 ? 8 : i) })
  })
  afterAll(async () => {
    await w.dispose()
  })

  it('resumes from that instant: the two applied are downloaded again, and the third is not lost', async () => {
    stopAtThirdIssuePage(w)
    expect((await sync(w)).outcome).toBe('offline')
    expect((await call<CachedList<'issue'>>(w.core, 'issues:list', w.accountId, {})).total).toBe(9)

    await backOnline(w)
    const second = await sync(w)
    expect(second.outcome).toBe('completed')
    // Issues 10-13, plus 8 and 9 again on the first page asked from their instant and 12 on the next.
    expect(issuesDownloaded(w)).toBe(4 + 3)
    expect(second.itemsSynced).toBe(4)
    const list = await call<CachedList<'issue'>>(w.core, 'issues:list', w.accountId, { limit: 100 })
    expect(list.items.map((i) => i.data.title).sort()).toEqual(
      Array.from({ length: 13 }, (_, i) => `Issue ${i + 1}`).sort(),
    )
  })
})

describe('sync status between runs', () => {
  let w: World
  beforeAll(async () => {
    w = await makeWorld({ schedule: true })
  })
  afterAll(async () => {
    await w.dispose()
  })

  it('turns offline, and says so at once, when any request finds the instance gone; back online it syncs again', async () => {
    const statuses: { accountId: string; state: string }[] = []
    const finished: SyncFinished[] = []
    w.core.events.subscribe((event, payload) => {
      if (event === 'sync:did-change-status') statuses.push(payload)
      if (event === 'sync:did-finish') finished.push(payload)
    })
    await expect.poll(() => finished.length, { timeout: 20_000 }).toBeGreaterThan(0)
    expect((await call<{ state: string }>(w.core, 'sync:status', w.accountId)).state).toBe('idle')

    // Not a sync run: a detail read between runs meets the stopped server.
    await w.server.stop()
    const read = await w.core.dispatch('api:get', [w.accountId, `/projects/${w.projectId}/members/all`])
    expect(read).toMatchObject({ ok: false, error: { code: 'offline' } })
    expect(statuses).toEqual([expect.objectContaining({ accountId: w.accountId, state: 'offline' })])
    expect((await call<{ state: string }>(w.core, 'sync:status', w.accountId)).state).toBe('offline')

    const runs = finished.length
    await w.server.restart()
    expect(await w.accounts.connectivityFor(w.accountId).probeNow()).toBe(true)
    await expect.poll(() => finished.length, { timeout: 20_000 }).toBeGreaterThan(runs)
    expect(finished.at(-1)?.outcome).toBe('completed')
    expect((await call<{ state: string }>(w.core, 'sync:status', w.accountId)).state).toBe('idle')
  })
})

describe('cached GETs and scope', () => {
  let w: World
  beforeAll(async () => {
    w = await makeWorld()
  })
  afterAll(async () => {
    await w.dispose()
  })

  it('api:get answers online, then from the URL cache marked stale once the server is gone', async () => {
    const online = await call<{ body: JsonObject[]; stale: boolean; page: { total: number | null } | null }>(
      w.core,
      'api:get',
      w.accountId,
      `/projects/${w.projectId}/members/all`,
      { per_page: 20 },
    )
    expect(online.stale).toBe(false)
    expect(online.body.map((m) => m.id).sort()).toEqual([w.owner.user.id, w.other.user.id].sort())
    expect(online.page?.total).toBe(2)
    await w.server.stop()
    const offline = await call<{ body: JsonObject[]; stale: boolean; fetchedAt: string }>(
      w.core,
      'api:get',
      w.accountId,
      `/projects/${w.projectId}/members/all`,
      { per_page: 20 },
    )
    expect(offline).toMatchObject({ stale: true, body: online.body })
    const never = await w.core.dispatch('api:get', [w.accountId, '/version'])
    expect(never).toMatchObject({ ok: false, error: { code: 'offline' } })
    await w.server.restart()
  })

  it('a custom scope syncs only the chosen projects and drops the others from the cache', async () => {
    const second = await api<{ id: number }>(w.server, w.owner.token, 'POST', '/projects', { name: 'Second' })
    await api(w.server, w.owner.token, 'POST', `/projects/${second.id}/issues`, { title: 'In the second project' })
    await api(w.server, w.owner.token, 'POST', `/projects/${w.projectId}/issues`, { title: 'In the first project' })
    await w.accounts.connectivityFor(w.accountId).probeNow()
    expect((await sync(w)).outcome).toBe('completed')
    expect((await call<CachedList<'issue'>>(w.core, 'issues:list', w.accountId, {})).total).toBe(2)
    expect(
      await call(w.core, 'sync:set-scope', w.accountId, { mode: 'custom', project_ids: [second.id], group_ids: [] }),
    ).toEqual({ mode: 'custom', project_ids: [second.id], group_ids: [] })
    expect((await sync(w)).outcome).toBe('completed')
    const list = await call<CachedList<'issue'>>(w.core, 'issues:list', w.accountId, {})
    expect(list.items.map((i) => i.data.title)).toEqual(['In the second project'])
    expect(await call(w.core, 'sync:get-scope', w.accountId)).toEqual({
      mode: 'custom',
      project_ids: [second.id],
      group_ids: [],
    })
  })

  it('refuses malformed arguments at the boundary', async () => {
    expect(await w.core.dispatch('issues:list', [w.accountId, { state: 'weird' }])).toMatchObject({
      ok: false,
      error: { code: 'invalid-arguments' },
    })
    expect(await w.core.dispatch('api:get', [w.accountId, '/projects/../users'])).toMatchObject({
      ok: false,
      error: { code: 'invalid-arguments' },
    })
    expect(
      await w.core.dispatch('sync:set-scope', [w.accountId, { mode: 'custom', project_ids: ['1'], group_ids: [] }]),
    ).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } })
  })
})

describe('sync: epics whose id is not their iid', () => {
  // Epic notes and discussions name the epic by id (GitLab's `:epic_id`), every other epic endpoint by iid.
  let w: World
  const epics: { groupId: number; id: number; iid: number; note: string }[] = []
  beforeAll(async () => {
    w = await makeWorld()
    for (const [name, count] of [
      ['Alpha', 1],
      ['Beta', 2],
    ] as const) {
      const group = await api<{ id: number }>(w.server, w.owner.token, 'POST', '/groups', {
        name,
        path: `${name.toLowerCase()}-${Math.random().toString(36).slice(2, 7)}`,
      })
      for (let n = 1; n <= count; n++) {
        const epic = await api<{ id: number; iid: number }>(
          w.server,
          w.owner.token,
          'POST',
          `/groups/${group.id}/epics`,
          { title: `${name} epic ${n}` },
        )
        const note = `Only on ${name} epic ${n}`
        await api(w.server, w.owner.token, 'POST', `/groups/${group.id}/epics/${epic.id}/notes`, { body: note })
        epics.push({ groupId: group.id, id: epic.id, iid: epic.iid, note })
      }
    }
    expect(epics.some((e) => e.id !== e.iid)).toBe(true)
  })
  afterAll(async () => {
    await w.dispose()
  })

  const notesOf = (detail: CachedDetail<'epic'>): unknown[] =>
    detail.discussions.flatMap((d) => d.notes.map((n) => n.data.body))

  it('sync stores each epic with its own discussion', async () => {
    expect((await sync(w)).outcome).toBe('completed')
    for (const e of epics) {
      const detail = await call<CachedDetail<'epic'>>(w.core, 'epics:get', w.accountId, {
        group_id: e.groupId,
        iid: e.iid,
      })
      expect(notesOf(detail), `epic ${e.groupId}&${e.iid}`).toEqual([e.note])
    }
  })

  it('opening an epic online refreshes it and its discussion, and keeps it in the cache', async () => {
    for (const e of epics) {
      const detail = await call<CachedDetail<'epic'>>(
        w.core,
        'epics:get',
        w.accountId,
        { group_id: e.groupId, iid: e.iid },
        { refresh: true },
      )
      expect(detail.stale).toBe(false)
      expect(notesOf(detail), `epic ${e.groupId}&${e.iid}`).toEqual([e.note])
    }
    expect((await call<CachedList<'epic'>>(w.core, 'epics:list', w.accountId, { state: 'all' })).total).toBe(
      epics.length,
    )
  })
})
