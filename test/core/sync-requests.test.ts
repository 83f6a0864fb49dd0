import Database from 'better-sqlite3'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { CACHE_FILE, openCache, searchCache, type Cache } from '../../src/main/core/cache/index'
import { createCore, type Core } from '../../src/main/core/index'
import { CachedGet } from '../../src/main/core/cache/http-cache'
import { ISSUE_LINKS_PER_RUN, MILESTONES_REFRESH_MS } from '../../src/main/core/sync/run'
import type { SyncFinished } from '../../src/shared/ipc/cache'
import type { JsonObject } from '../../src/shared/json'
import { seedUser, type SeededUser } from '../helpers/server'
import {
  createIssues,
  desktopServices,
  RequestLog,
  startRestartableServer,
  type RestartableServer,
} from '../helpers/sync'

/*
 * How many requests a sync makes, on a real Burrow Server: cross-project lists where they
 * answer the same question, milestone lists only now and then.
 */

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

describe('sync requests across projects', () => {
  let server: RestartableServer
  let log: RequestLog
  let owner: SeededUser
  let core: Core
  let cache: Cache
  let accountId: string
  let dispose: () => void
  const projects: { id: number }[] = []
  let firstSync: { path: string; query: string }[] = []
  const sync = async (reconcile = false): Promise<SyncFinished> =>
    (core.sync as NonNullable<Core['sync']>).run(accountId, { reconcile })
  const titleOf = (id: number): unknown =>
    cache.db.prepare("SELECT json_extract(json, '$.title') FROM issues WHERE id = ?").pluck().get(id)

  beforeAll(async () => {
    server = await startRestartableServer()
    log = new RequestLog()
    owner = seedUser(server, { username: `owner${Math.random().toString(36).slice(2, 7)}` })
    for (const name of ['Alpha', 'Beta', 'Gamma'])
      projects.push(await api(server, owner.token, 'POST', '/projects', { name, initialize_with_readme: true }))
    for (const p of projects)
      await api(server, owner.token, 'POST', `/projects/${p.id}/issues`, { title: `First of ${p.id}` })
    const services = await desktopServices(log)
    cache = services.cache
    dispose = services.dispose
    core = createCore({
      version: '0.1.0',
      mode: 'browser',
      serverUrl: server.url,
      accounts: services.accounts,
      cache: services.cache,
    })
    accountId = (await services.accounts.add({ baseUrl: server.url, token: owner.token })).id
    log.clear()
    expect(await sync()).toMatchObject({ outcome: 'completed' })
    firstSync = log.entries.map((e) => ({ path: e.path, query: e.query }))
  })
  afterAll(async () => {
    await core.dispose()
    dispose()
    await server.close()
  })

  it('a first sync does not ask how many projects are visible: no project was synced before, so no list goes across them', () => {
    expect(firstSync.filter((e) => e.path === '/projects' && /[?&]per_page=1(&|$)/.test(e.query))).toEqual([])
    expect(firstSync.filter((e) => e.path === '/issues' || e.path === '/merge_requests')).toEqual([])
    expect(firstSync.filter((e) => /^\/projects\/\d+\/issues$/.test(e.path)).length).toBe(projects.length)
  })

  it('finds the items whose notes are stale through their index, not by reading every row', async () => {
    const prepared: string[] = []
    const prepare = cache.db.prepare.bind(cache.db)
    const spy = vi.spyOn(cache.db, 'prepare').mockImplementation((sql: string) => {
      prepared.push(sql)
      return prepare(sql)
    })
    try {
      expect(await sync()).toMatchObject({ outcome: 'completed' })
    } finally {
      spy.mockRestore()
    }
    const staleReads = prepared.filter((sql) =>
      /^SELECT id, iid FROM (issues|merge_requests) .*notes_stale = 1/.test(sql),
    )
    expect(staleReads.length).toBeGreaterThan(0)
    for (const sql of new Set(staleReads)) {
      const plan = cache.db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(1, 1)
        .map((row) => (row as { detail: string }).detail)
      expect(plan[0]).toMatch(/USING INDEX (issues|merge_requests)_notes_stale/)
    }
  })

  it('a sync with nothing changed asks once per list for all projects, and reads no milestone list', async () => {
    log.clear()
    expect(await sync()).toMatchObject({ outcome: 'completed', itemsSynced: 0 })
    const paths = log.entries.map((e) => e.path)
    expect(paths.filter((p) => /^\/projects\/\d+\/(issues|merge_requests|milestones)$/.test(p))).toEqual([])
    expect(paths.filter((p) => p === '/issues' || p === '/merge_requests').sort()).toEqual([
      '/issues',
      '/merge_requests',
    ])
    // Projects, groups, how many projects are visible, issues, merge requests, to-dos.
    expect(log.entries.length).toBeLessThanOrEqual(6)
    const issues = log.entries.find((e) => e.path === '/issues')
    expect(issues?.query).toMatch(/scope=all/)
    expect(issues?.query).toMatch(/updated_after=/)
    expect(issues?.query).toMatch(/non_archived=false/)
  })

  it('brings each project’s changes through the cross-project list, and milestones with the items that use them', async () => {
    const milestone = await api<{ id: number }>(server, owner.token, 'POST', `/projects/${projects[1].id}/milestones`, {
      title: 'Sprint 9',
    })
    const a = await api<{ id: number; iid: number }>(
      server,
      owner.token,
      'POST',
      `/projects/${projects[0].id}/issues`,
      { title: 'New in Alpha' },
    )
    const b = await api<{ id: number; iid: number }>(
      server,
      owner.token,
      'POST',
      `/projects/${projects[1].id}/issues`,
      { title: 'New in Beta', milestone_id: milestone.id },
    )
    log.clear()
    expect(await sync()).toMatchObject({ outcome: 'completed', itemsSynced: 2 })
    expect(log.count((e) => /^\/projects\/\d+\/issues$/.test(e.path))).toBe(0)
    expect(titleOf(a.id)).toBe('New in Alpha')
    expect(titleOf(b.id)).toBe('New in Beta')
    expect(cache.db.prepare('SELECT title FROM milestones WHERE id = ?').pluck().get(milestone.id)).toBe('Sprint 9')
    // Reconciling reads every list in full again, milestones included.
    log.clear()
    await sync(true)
    expect(log.count((e) => e.path === `/projects/${projects[2].id}/milestones`)).toBe(1)
  })

  it('a project new to the scope gets its own first sync, then joins the cross-project lists', async () => {
    const delta = await api<{ id: number }>(server, owner.token, 'POST', '/projects', { name: 'Delta' })
    const first = await api<{ id: number }>(server, owner.token, 'POST', `/projects/${delta.id}/issues`, {
      title: 'Delta one',
    })
    log.clear()
    await sync()
    expect(log.count((e) => e.path === `/projects/${delta.id}/issues`)).toBe(1)
    expect(log.count((e) => e.path === `/projects/${delta.id}/milestones`)).toBe(1)
    expect(titleOf(first.id)).toBe('Delta one')
    const second = await api<{ id: number }>(server, owner.token, 'POST', `/projects/${delta.id}/issues`, {
      title: 'Delta two',
    })
    log.clear()
    await sync()
    expect(log.count((e) => e.path === `/projects/${delta.id}/issues`)).toBe(0)
    expect(titleOf(second.id)).toBe('Delta two')
  })

  it('goes back to one list per project when the user can see projects outside the scope, leaving their items out', async () => {
    const stranger = seedUser(server, { username: `stranger${Math.random().toString(36).slice(2, 7)}` })
    const open = await api<{ id: number }>(server, stranger.token, 'POST', '/projects', {
      name: 'Open to all',
      visibility: 'public',
    })
    const foreign = await api<{ id: number }>(server, stranger.token, 'POST', `/projects/${open.id}/issues`, {
      title: 'Not ours',
    })
    const mine = await api<{ id: number }>(server, owner.token, 'POST', `/projects/${projects[2].id}/issues`, {
      title: 'New in Gamma',
    })
    log.clear()
    await sync()
    expect(log.count((e) => e.path === '/issues')).toBe(0)
    expect(log.count((e) => e.path === `/projects/${projects[2].id}/issues`)).toBe(1)
    expect(titleOf(mine.id)).toBe('New in Gamma')
    expect(titleOf(foreign.id)).toBeUndefined()
  })

  it('reads a milestone list again once it is older than the refresh interval', async () => {
    const state = (core.sync as NonNullable<Core['sync']>).state
    const old = new Date(Date.now() - MILESTONES_REFRESH_MS - 1000).toISOString()
    state.setCursor(accountId, 'milestones', 'project', projects[0].id, {
      updatedAfter: old,
      seenIds: [],
      unsupported: false,
    })
    log.clear()
    await sync()
    expect(log.count((e) => e.path === `/projects/${projects[0].id}/milestones`)).toBe(1)
    expect(log.count((e) => e.path === `/projects/${projects[1].id}/milestones`)).toBe(0)
  })
})

describe('sync writes a list a few pages at a time while the next one travels', () => {
  let server: RestartableServer
  let log: RequestLog
  let owner: SeededUser
  let projectId: number
  beforeAll(async () => {
    server = await startRestartableServer()
    log = new RequestLog()
    owner = seedUser(server, { username: `batch${Math.random().toString(36).slice(2, 7)}` })
    projectId = (await api<{ id: number }>(server, owner.token, 'POST', '/projects', { name: 'Many' })).id
    await createIssues(server, owner.token, projectId, 23)
  })
  afterAll(async () => {
    await server.close()
  })

  /** A core syncing two pages of 5 a commit into `cache` (default: the services' own). */
  const coreFor = (services: Awaited<ReturnType<typeof desktopServices>>, cache = services.cache): Core =>
    createCore({
      version: '0.1.0',
      mode: 'browser',
      serverUrl: server.url,
      accounts: services.accounts,
      cache,
      syncOptions: { perPage: 5, pagesPerCommit: 2 },
    })
  const issueCount = (cache: Cache): number => cache.db.prepare('SELECT count(*) FROM issues').pluck().get() as number
  const issuesDownloaded = (): number =>
    log.entries.filter((e) => e.path === `/projects/${projectId}/issues`).reduce((n, e) => n + (e.items ?? 0), 0)

  it('commits two pages together, the next request already sent, and keeps the page in hand when the server goes away', async () => {
    const services = await desktopServices(log)
    const core = coreFor(services)
    const accountId = (await services.accounts.add({ baseUrl: server.url, token: owner.token })).id
    try {
      // What the cache holds as each page of issues is asked for. Pages of 5 bring 5, then 4 new
      // each (updated_after includes its instant, so a page repeats the item it starts at). Pages
      // 1 and 2 are written once page 3 is asked for, pages 3 and 4 once page 5 is.
      const heldAtRequest: number[] = []
      log.beforeRequest = async (url) => {
        if (!url.pathname.endsWith('/issues')) return
        heldAtRequest.push(issueCount(services.cache))
        if (heldAtRequest.length === 6) await server.stop()
      }
      expect(await (core.sync as NonNullable<Core['sync']>).run(accountId)).toMatchObject({ outcome: 'offline' })
      expect(heldAtRequest).toEqual([0, 0, 0, 9, 9, 17])
      // Page 5, fetched and not yet due for a commit, is written when the run stops.
      expect(issueCount(services.cache)).toBe(21)
      log.beforeRequest = null
      await server.restart()
      expect(await (core.sync as NonNullable<Core['sync']>).run(accountId)).toMatchObject({ outcome: 'completed' })
      expect(issueCount(services.cache)).toBe(23)
    } finally {
      log.beforeRequest = null
      await core.dispose()
      services.dispose()
    }
  })

  it('resumes a run killed with pages in hand from the cursor committed with the pages before them', async () => {
    const services = await desktopServices(log)
    const core = coreFor(services)
    const accountId = (await services.accounts.add({ baseUrl: server.url, token: owner.token })).id
    const killed = mkdtempSync(join(tmpdir(), 'burrow-killed-'))
    let resumed: { core: Core; cache: Cache } | null = null
    try {
      // The cache's files as a process killed when page 5 is asked for leaves them: pages 1 and 2
      // committed with their cursor, pages 3 and 4 in hand and lost.
      let issueRequests = 0
      log.beforeRequest = async (url) => {
        if (url.pathname.endsWith('/issues') && ++issueRequests === 5)
          for (const file of [CACHE_FILE, `${CACHE_FILE}-wal`])
            copyFileSync(join(services.dir, file), join(killed, file))
      }
      expect(await (core.sync as NonNullable<Core['sync']>).run(accountId)).toMatchObject({ outcome: 'completed' })
      log.beforeRequest = null
      const cache = openCache({ userDataDir: killed })
      resumed = { core: coreFor(services, cache), cache }
      expect(issueCount(cache)).toBe(9)
      // Their search documents, left pending, are indexed when the cache opens again.
      expect(searchCache(cache, accountId, { query: 'issue', limit: 50 }).total).toBe(9)
      log.clear()
      expect(await (resumed.core.sync as NonNullable<Core['sync']>).run(accountId)).toMatchObject({
        outcome: 'completed',
      })
      // From the committed cursor (issue 9's instant): the 14 issues after it, and issue 9, 13, 17 and 21 again.
      expect(issuesDownloaded()).toBe(14 + 4)
      const titles = cache.db.prepare('SELECT title FROM issues ORDER BY iid').pluck().all()
      expect(titles).toEqual(Array.from({ length: 23 }, (_, i) => `Issue ${i + 1}`))
    } finally {
      log.beforeRequest = null
      await resumed?.core.dispose()
      resumed?.cache.close()
      rmSync(killed, { recursive: true, force: true })
      await core.dispose()
      services.dispose()
    }
  })
})

describe('sync indexes a list for search once, at its end', () => {
  it('leaves the pages of a list unindexed until it ends, and indexes what was written when the server goes away', async () => {
    const server = await startRestartableServer()
    const log = new RequestLog()
    const owner = seedUser(server, { username: `fts${Math.random().toString(36).slice(2, 7)}` })
    const project = await api<{ id: number }>(server, owner.token, 'POST', '/projects', { name: 'Indexed' })
    await createIssues(server, owner.token, project.id, 23, { title: 'Quokka' })
    const services = await desktopServices(log)
    const core = createCore({
      version: '0.1.0',
      mode: 'browser',
      serverUrl: server.url,
      accounts: services.accounts,
      cache: services.cache,
      // A commit a page: what is written, and what is indexed, as each page is asked for.
      syncOptions: { perPage: 5, pagesPerCommit: 1 },
    })
    const accountId = (await services.accounts.add({ baseUrl: server.url, token: owner.token })).id
    const count = (sql: string): number => services.cache.db.prepare(sql).pluck().get() as number
    const found = (): number => searchCache(services.cache, accountId, { query: 'quokka', limit: 50 }).total
    try {
      // As each page of issues is asked for: the documents written so far, and those indexed.
      const atRequest: { docs: number; pending: number; found: number }[] = []
      log.beforeRequest = async (url) => {
        if (!url.pathname.endsWith('/issues')) return
        atRequest.push({
          docs: count("SELECT count(*) FROM search_docs WHERE kind = 'issue'"),
          pending: count('SELECT count(*) FROM search_pending'),
          found: found(),
        })
        if (atRequest.length === 4) await server.stop()
      }
      expect(await (core.sync as NonNullable<Core['sync']>).run(accountId)).toMatchObject({ outcome: 'offline' })
      expect(atRequest.map((a) => a.docs)).toEqual([0, 0, 5, 9])
      expect(atRequest.map((a) => a.pending)).toEqual([0, 0, 5, 9])
      expect(atRequest.map((a) => a.found)).toEqual([0, 0, 0, 0])
      // The list stopped: what it wrote is indexed all the same.
      expect(count('SELECT count(*) FROM search_pending')).toBe(0)
      expect(found()).toBe(13)
      log.beforeRequest = null
      await server.restart()
      expect(await (core.sync as NonNullable<Core['sync']>).run(accountId)).toMatchObject({ outcome: 'completed' })
      expect(count('SELECT count(*) FROM search_pending')).toBe(0)
      expect(found()).toBe(23)
    } finally {
      await core.dispose()
      services.dispose()
      await server.close()
    }
  })
})

describe('sync works on two projects at once', () => {
  const start = async (): Promise<{
    server: RestartableServer
    log: RequestLog
    core: Core
    cache: Cache
    accountId: string
    projects: { id: number }[]
    close(): Promise<void>
  }> => {
    const server = await startRestartableServer()
    const log = new RequestLog()
    const owner = seedUser(server, { username: `pair${Math.random().toString(36).slice(2, 7)}` })
    const projects: { id: number }[] = []
    for (const name of ['First', 'Second']) {
      const project = await api<{ id: number }>(server, owner.token, 'POST', '/projects', { name })
      for (let i = 1; i <= 12; i++)
        await api(server, owner.token, 'POST', `/projects/${project.id}/issues`, { title: `${name} ${i}` })
      projects.push(project)
    }
    const services = await desktopServices(log)
    const core = createCore({
      version: '0.1.0',
      mode: 'browser',
      serverUrl: server.url,
      accounts: services.accounts,
      cache: services.cache,
      syncOptions: { perPage: 5 },
    })
    const accountId = (await services.accounts.add({ baseUrl: server.url, token: owner.token })).id
    return {
      server,
      log,
      core,
      cache: services.cache,
      accountId,
      projects,
      async close() {
        await core.dispose()
        services.dispose()
        await server.close()
      },
    }
  }

  it("has the second project's issues asked for while the first project's are still unanswered", async () => {
    const w = await start()
    try {
      const [first, second] = w.projects.map((p) => `/api/v4/projects/${p.id}/issues`)
      // The first project's first page waits (at most 5 s, so a sync of one project at a time still ends) for the second's.
      let secondAsked: () => void = () => undefined
      const secondRequest = new Promise<void>((resolve) => (secondAsked = resolve))
      let askedWhileFirstWaited: boolean | null = null
      w.log.beforeRequest = async (url) => {
        if (url.pathname === second) return secondAsked()
        if (url.pathname !== first || askedWhileFirstWaited !== null) return
        askedWhileFirstWaited = await Promise.race([
          secondRequest.then(() => true),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000)),
        ])
      }
      const progress: { scope: number | undefined; phase: string }[] = []
      w.core.events.subscribe((event, payload) => {
        if (event === 'sync:did-progress') progress.push({ scope: payload.scope?.id, phase: payload.phase })
      })
      expect(await (w.core.sync as NonNullable<Core['sync']>).run(w.accountId)).toMatchObject({ outcome: 'completed' })
      expect(askedWhileFirstWaited).toBe(true)
      expect(w.cache.db.prepare('SELECT count(*) FROM issues').pluck().get()).toBe(24)
      // Both projects' lists are told about, each under its own name.
      for (const p of w.projects) expect(progress).toContainEqual({ scope: p.id, phase: 'issues' })
    } finally {
      await w.close()
    }
  })

  it("stops the other project's work when one fails, and ends once both have stopped", async () => {
    const w = await start()
    try {
      const [first, second] = w.projects.map((p) => `/projects/${p.id}`)
      // The second project's second page of issues fails (a server error, not the network).
      let secondPages = 0
      w.log.beforeRequest = async (url) => {
        if (url.pathname !== `/api/v4${second}/issues` || ++secondPages !== 2) return
        return new Response(JSON.stringify({ message: '500 Internal Server Error' }), {
          status: 500,
          headers: { 'content-type': 'application/json' },
        })
      }
      expect(await (w.core.sync as NonNullable<Core['sync']>).run(w.accountId)).toMatchObject({ outcome: 'failed' })
      // The first project did not go on to its merge requests, milestones and labels.
      expect(w.log.entries.filter((e) => e.path.startsWith(`${first}/`) && !e.path.endsWith('/issues'))).toEqual([])
      expect(
        w.cache.db.prepare('SELECT count(*) FROM issues WHERE project_id = ?').pluck().get(w.projects[0].id),
      ).toBeLessThan(12)
    } finally {
      await w.close()
    }
  })
})

describe('sync checkpoints the WAL once, when the run ends', () => {
  it('checkpoints only a large WAL while it runs, and leaves what it wrote in the database file itself', async () => {
    const server = await startRestartableServer()
    const log = new RequestLog()
    const owner = seedUser(server, { username: `wal${Math.random().toString(36).slice(2, 7)}` })
    const project = await api<{ id: number }>(server, owner.token, 'POST', '/projects', { name: 'Checkpointed' })
    await createIssues(server, owner.token, project.id, 12)
    const services = await desktopServices(log)
    const core = createCore({
      version: '0.1.0',
      mode: 'browser',
      serverUrl: server.url,
      accounts: services.accounts,
      cache: services.cache,
      syncOptions: { perPage: 5 },
    })
    const accountId = (await services.accounts.add({ baseUrl: server.url, token: owner.token })).id
    const copies = mkdtempSync(join(tmpdir(), 'burrow-wal-'))
    const checkpointPages = (): unknown => services.cache.db.pragma('wal_autocheckpoint', { simple: true })
    try {
      const during: unknown[] = []
      log.beforeRequest = async (url) => {
        if (url.pathname.endsWith('/issues')) during.push(checkpointPages())
      }
      expect(await (core.sync as NonNullable<Core['sync']>).run(accountId)).toMatchObject({ outcome: 'completed' })
      expect(during).toEqual([8192, 8192, 8192])
      expect(checkpointPages()).toBe(1000)
      // The database file alone, without its WAL, holds the synced issues.
      copyFileSync(join(services.dir, CACHE_FILE), join(copies, CACHE_FILE))
      const copy = new Database(join(copies, CACHE_FILE), { readonly: true })
      try {
        expect(copy.prepare('SELECT count(*) FROM issues').pluck().get()).toBe(12)
      } finally {
        copy.close()
      }
    } finally {
      rmSync(copies, { recursive: true, force: true })
      await core.dispose()
      services.dispose()
      await server.close()
    }
  })
})

describe('sync reads issue links a few at a time', () => {
  it('has the next link list asked for while the first one is still unanswered', async () => {
    const server = await startRestartableServer()
    const log = new RequestLog()
    const owner = seedUser(server, { username: `links${Math.random().toString(36).slice(2, 7)}` })
    const project = await api<{ id: number }>(server, owner.token, 'POST', '/projects', { name: 'Linked' })
    for (let i = 1; i <= 3; i++)
      await api(server, owner.token, 'POST', `/projects/${project.id}/issues`, { title: `Issue ${i}` })
    const services = await desktopServices(log)
    const core = createCore({
      version: '0.1.0',
      mode: 'browser',
      serverUrl: server.url,
      accounts: services.accounts,
      cache: services.cache,
    })
    const accountId = (await services.accounts.add({ baseUrl: server.url, token: owner.token })).id
    try {
      // The first link request waits (at most 5 s, so a sync reading them one by one still ends)
      // for the next one to be asked for.
      let secondAsked: () => void = () => undefined
      const second = new Promise<void>((resolve) => (secondAsked = resolve))
      let linkRequests = 0
      let askedWhileFirstWaited = false
      log.beforeRequest = async (url) => {
        if (!url.pathname.endsWith('/links')) return
        linkRequests++
        if (linkRequests > 1) return secondAsked()
        const waited = await Promise.race([
          second.then(() => true),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000)),
        ])
        askedWhileFirstWaited = waited
      }
      // A project's first sync reads no links; then the three issues change and the next reads theirs.
      expect(await (core.sync as NonNullable<Core['sync']>).run(accountId)).toMatchObject({ outcome: 'completed' })
      expect(linkRequests).toBe(0)
      for (let iid = 1; iid <= 3; iid++)
        await api(server, owner.token, 'PUT', `/projects/${project.id}/issues/${iid}`, { title: `Issue ${iid}, again` })
      expect(await (core.sync as NonNullable<Core['sync']>).run(accountId)).toMatchObject({ outcome: 'completed' })
      expect(linkRequests).toBe(3)
      expect(askedWhileFirstWaited).toBe(true)
    } finally {
      await core.dispose()
      services.dispose()
      await server.close()
    }
  })
})

describe('sync looks up saved issue links only as far as it reads them', () => {
  it('a sync of more changed issues than it reads links for looks up no more saved copies than it reads', async () => {
    const server = await startRestartableServer()
    const owner = seedUser(server, { username: `many${Math.random().toString(36).slice(2, 7)}` })
    const project = await api<{ id: number }>(server, owner.token, 'POST', '/projects', { name: 'Many links' })
    const log = new RequestLog()
    const services = await desktopServices(log)
    const core = createCore({
      version: '0.1.0',
      mode: 'browser',
      serverUrl: server.url,
      accounts: services.accounts,
      cache: services.cache,
    })
    const accountId = (await services.accounts.add({ baseUrl: server.url, token: owner.token })).id
    // The project's first sync (empty) is behind us; then more issues than a run reads links for arrive.
    expect(await (core.sync as NonNullable<Core['sync']>).run(accountId)).toMatchObject({ outcome: 'completed' })
    for (let i = 1; i <= ISSUE_LINKS_PER_RUN + 5; i++)
      await api(server, owner.token, 'POST', `/projects/${project.id}/issues`, { title: `Issue ${i}` })
    const savedAt = vi.spyOn(CachedGet.prototype, 'savedAt')
    try {
      expect(await (core.sync as NonNullable<Core['sync']>).run(accountId)).toMatchObject({ outcome: 'completed' })
      const linkLookups = savedAt.mock.calls.filter(([, , path]) => path.endsWith('/links'))
      expect(log.count((e) => e.path.endsWith('/links'))).toBe(ISSUE_LINKS_PER_RUN)
      expect(linkLookups).toHaveLength(ISSUE_LINKS_PER_RUN)
    } finally {
      savedAt.mockRestore()
      await core.dispose()
      services.dispose()
      await server.close()
    }
  })
})
