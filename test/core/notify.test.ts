import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccountStore } from '../../src/main/core/accounts/account-store'
import { Accounts } from '../../src/main/core/accounts/accounts'
import { EncryptedFileSecretStore } from '../../src/main/core/accounts/encrypted-file-secret-store'
import { openCache, type Cache } from '../../src/main/core/cache/index'
import { createCore, type Core } from '../../src/main/core/index'
import { nextDelay } from '../../src/main/core/notify/index'
import type { Account, IpcResponse } from '../../src/shared/ipc/contract'
import type {
  AlertList,
  NotifyAlert,
  NotifyAnnouncement,
  NotifyCounts,
  NotifySummary,
} from '../../src/shared/ipc/notify'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'
import { startSwitchableProxy, type SwitchableProxy } from '../helpers/switchable-proxy'

/*
 * The to-do and alert watcher through createCore, as both shells run it, against a real Burrow
 * Server behind a proxy that can take the network away. The desktop account is root; Mara, a
 * Maintainer of root's project, makes the news: she assigns issues to root (to-dos) and
 * creates an alert integration whose URL receives alerts (GraphQL `httpIntegrationCreate`,
 * then a POST with the Bearer key, as a monitoring tool would).
 */

type Json = Record<string, unknown>

let server: ListeningServer
let proxy: SwitchableProxy
let mara: SeededUser
let dir: string
let accounts: Accounts
let cache: Cache
let core: Core
let account: Account
let project: { id: number; path_with_namespace: string }
let integration: { url: string; token: string }
const announcements: NotifyAnnouncement[] = []
const changes: NotifyCounts[] = []
/** `METHOD /path` of every request the desktop core tried, whether or not it got through. */
const attempts: string[] = []

async function api<T = Json>(token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: Json): Promise<T> {
  const res = await server.request(token, { method, url: `/api/v4${url}`, payload })
  if (res.statusCode >= 400) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
  return res.json() as T
}

async function graphql<T = Json>(token: string, query: string, variables: Json = {}): Promise<T> {
  const res = await server.request(token, { method: 'POST', url: '/api/graphql', payload: { query, variables } })
  const body = res.json() as { data?: T; errors?: unknown }
  if (body.errors !== undefined || body.data === undefined) throw new Error(`GraphQL: ${res.body}`)
  return body.data
}

/** A new to-do for root: Mara opens an issue assigned to root. */
async function assignRoot(title: string): Promise<{ iid: number; todoId: number }> {
  const issue = await api<{ iid: number; id: number }>(mara.token, 'POST', `/projects/${project.id}/issues`, {
    title,
    assignee_ids: [1],
  })
  const todos = await api<{ id: number; target: { id: number } }[]>(ROOT_TOKEN, 'GET', '/todos?state=pending')
  const todo = todos.find((t) => t.target.id === issue.id)
  if (todo === undefined) throw new Error('the server made no to-do for root')
  return { iid: issue.iid, todoId: todo.id }
}

/** An alert from the monitoring tool, straight to the server (the tool is not behind our proxy). */
async function postAlert(payload: Json): Promise<number> {
  const res = await fetch(`${server.url}${new URL(integration.url).pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${integration.token}` },
    body: JSON.stringify(payload),
  })
  if (res.status !== 200) throw new Error(`alert refused: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { iid: number }[])[0].iid
}

async function call<T>(channel: string, ...args: unknown[]): Promise<T> {
  const response = (await core.dispatch(channel, args)) as IpcResponse<T>
  if (!response.ok) throw new Error(`${channel}: ${response.error.code} ${response.error.message}`)
  return response.result
}

function makeCore(): Core {
  const c = createCore({
    version: '0.1.0',
    mode: 'browser',
    serverUrl: server.url,
    accounts,
    cache,
    notifyOptions: { schedule: true, intervalMs: 3_600_000 },
  })
  c.events.subscribe((event, payload) => {
    if (event === 'notify:did-announce') announcements.push(payload)
    if (event === 'notify:did-change') changes.push(payload)
  })
  return c
}

/** Resolves with the first announcement (already made or to come) that matches. */
function announced(match: (a: NotifyAnnouncement) => boolean): Promise<NotifyAnnouncement> {
  const found = announcements.find(match)
  if (found !== undefined) return Promise.resolve(found)
  return new Promise((resolve) => {
    const off = core.events.subscribe((event, payload) => {
      if (event === 'notify:did-announce' && match(payload)) {
        off()
        resolve(payload)
      }
    })
  })
}

/** Resolves once a `notify:did-change` (already sent or to come) satisfies the condition. */
function changed(match: (c: NotifyCounts) => boolean): Promise<NotifyCounts> {
  const last = changes.at(-1)
  if (last !== undefined && match(last)) return Promise.resolve(last)
  return new Promise((resolve) => {
    const off = core.events.subscribe((event, payload) => {
      if (event === 'notify:did-change' && match(payload)) {
        off()
        resolve(payload)
      }
    })
  })
}

const mine = (a: NotifyAnnouncement): boolean => a.accountId === account.id
const attemptsSince = (mark: number, pattern: RegExp): string[] =>
  attempts.slice(mark).filter((line) => pattern.test(line))

async function goOffline(): Promise<void> {
  await proxy.goOffline()
  await accounts.connectivityFor(account.id).probeNow()
}

async function goOnline(): Promise<void> {
  await proxy.goOnline()
  await accounts.connectivityFor(account.id).probeNow()
}

/** Waits for a condition that follows an event without one of its own (a purge after a removal). */
async function eventually(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10))
  expect(condition()).toBe(true)
}

beforeAll(async () => {
  server = await startServer()
  proxy = await startSwitchableProxy(server.url)
  mara = seedUser(server, { username: 'mara', name: 'Mara Maintainer' })
  project = await api(ROOT_TOKEN, 'POST', '/projects', { name: 'Pager' })
  await api(ROOT_TOKEN, 'POST', `/projects/${project.id}/members`, { user_id: mara.user.id, access_level: 40 })
  const created = await graphql<{
    httpIntegrationCreate: { errors: string[]; integration: { url: string; token: string } }
  }>(
    mara.token,
    'mutation($path: ID!) { httpIntegrationCreate(input: {projectPath: $path, name: "Prometheus", active: true}) { errors integration { url token } } }',
    { path: project.path_with_namespace },
  )
  integration = created.httpIntegrationCreate.integration

  // Already there before Burrow knows the account: one to-do, one triggered alert.
  await assignRoot('Rotate the on-call schedule')
  await postAlert({ title: 'Disk almost full', severity: 'high' })

  dir = mkdtempSync(join(tmpdir(), 'burrow-notify-'))
  accounts = new Accounts({
    store: new AccountStore(join(dir, 'accounts.json')),
    secrets: await EncryptedFileSecretStore.open(join(dir, 'secrets.enc.json'), 'notify test passphrase'),
    probeIntervalMs: 60_000,
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input))
      attempts.push(`${init?.method ?? 'GET'} ${url.pathname}`)
      return fetch(input, init)
    },
  })
  cache = openCache({ userDataDir: dir })
  core = makeCore()
})

afterAll(async () => {
  await core.dispose()
  accounts.dispose()
  cache.close()
  await proxy.close()
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('the to-do and alert watcher', () => {
  it('announces only a summary count of what was already there when the account is added', async () => {
    account = await call<Account>('accounts:add', { baseUrl: proxy.url, token: ROOT_TOKEN })
    await call('notify:check', account.id)
    // Alerts are read over the sync scope: the first sync brings the project.
    await core.sync!.run(account.id)
    await call('notify:check', account.id)

    expect(announcements.filter(mine).map((a) => [a.key, a.count, a.title])).toEqual([
      ['todos:summary', 1, '1 pending to-do'],
      ['alerts:summary', 1, '1 open alert'],
    ])
    const summary = await call<NotifySummary>('notify:summary')
    expect(summary).toMatchObject({
      pendingTodos: 1,
      openAlerts: 1,
      accounts: [
        {
          accountId: account.id,
          pendingTodos: 1,
          openAlerts: 1,
          triggeredAlerts: 1,
          state: 'watching',
          lastError: null,
        },
      ],
    })
    expect(summary.latestTodos.map((t) => t.title)).toEqual(['Mara Maintainer assigned you'])
    expect(summary.latestAlerts.map((a) => [a.title, a.severity, a.status])).toEqual([
      ['Disk almost full', 'high', 'triggered'],
    ])
  })

  it('announces a new to-do once, with its route, and not again on the next check', async () => {
    const { iid, todoId } = await assignRoot('Page the database team')
    const before = announcements.length
    await call('notify:check', account.id)
    await call('notify:check', account.id)

    expect(announcements.slice(before)).toEqual([
      {
        kind: 'todo',
        accountId: account.id,
        key: `todo:${todoId}`,
        title: 'Mara Maintainer assigned you',
        body: `Page the database team · ${project.path_with_namespace}#${iid}`,
        url: expect.stringContaining(`/-/issues/${iid}`),
        route: `/a/${account.id}/projects/${project.id}/issues/${iid}`,
        count: 1,
        topic: 'assignments',
      },
    ])
    expect((await call<NotifySummary>('notify:summary')).pendingTodos).toBe(2)
  })

  it('does not announce again after a restart of the core', async () => {
    const before = announcements.length
    await core.dispose()
    core = makeCore()
    await call('notify:check', account.id)
    expect(announcements.length).toBe(before)
    expect((await call<NotifySummary>('notify:summary')).latestTodos.map((t) => t.body)).toEqual([
      expect.stringContaining('Page the database team'),
      expect.stringContaining('Rotate the on-call schedule'),
    ])
  })

  it('announces a mention by another user as a mention', async () => {
    const issue = await api<{ iid: number }>(mara.token, 'POST', `/projects/${project.id}/issues`, {
      title: 'Who owns the pager?',
    })
    await api(mara.token, 'POST', `/projects/${project.id}/issues/${issue.iid}/notes`, {
      body: 'Can you take this one, @root?',
    })
    const before = announcements.length
    await call('notify:check', account.id)
    expect(announcements.slice(before).map((a) => [a.kind, a.topic, a.title])).toEqual([
      ['todo', 'mentions', 'Mara Maintainer mentioned you'],
    ])
  })

  it("leaves out the topics the account's preferences mute, and does not bring them back when switched on again", async () => {
    await call('preferences:set', { mutedTopics: { [account.id]: ['assignments'] } })
    try {
      await assignRoot('Muted assignment')
      const before = announcements.length
      await call('notify:check', account.id)
      expect(announcements.length).toBe(before)
      await call('preferences:set', { mutedTopics: {} })
      await call('notify:check', account.id)
      expect(announcements.length).toBe(before)
    } finally {
      await call('preferences:set', { mutedTopics: {} })
    }
  })

  it('announces an alert posted to a real HTTP integration, with its severity, project and page', async () => {
    const iid = await postAlert({
      title: 'API error rate above 5%',
      severity: 'critical',
      monitoring_tool: 'Prometheus',
    })
    await call('notify:check', account.id)
    const alert = await announced((a) => a.key === `alert:${project.id}:${iid}`)
    expect(alert).toEqual({
      kind: 'alert',
      accountId: account.id,
      key: `alert:${project.id}:${iid}`,
      title: `Critical alert in ${project.path_with_namespace}`,
      body: 'API error rate above 5%',
      url: expect.stringContaining(`/alert_management/${iid}/details`),
      route: `/a/${account.id}/projects/${project.id}/alerts/${iid}`,
      count: 1,
      topic: 'alerts',
    })
    const before = announcements.length
    await call('notify:check', account.id)
    expect(announcements.length).toBe(before)

    const list = await call<AlertList>('notify:list-alerts', { accountId: account.id })
    expect(list.stale).toBe(false)
    expect(list.items.map((a) => a.title)).toEqual(['API error rate above 5%', 'Disk almost full'])
    expect((await call<NotifySummary>('notify:summary')).openAlerts).toBe(2)
  })

  it('announces to-dos that a sync run brings without fetching them a second time', async () => {
    const { todoId } = await assignRoot('Review the runbook')
    const mark = attempts.length
    await core.sync!.run(account.id)
    await announced((a) => a.key === `todo:${todoId}`)
    // The watcher's next scheduled check (here: the one when the instance comes back) reads the list sync just wrote.
    await goOffline()
    await changed((c) => c.accounts.some((a) => a.accountId === account.id && a.state === 'offline'))
    await goOnline()
    await changed((c) => c.accounts.some((a) => a.accountId === account.id && a.state === 'watching'))
    expect(attemptsSince(mark, /^GET \/api\/v4\/todos$/)).toHaveLength(1)
    expect(attemptsSince(mark, /^POST \/api\/graphql$/)).toHaveLength(1)
  })

  it('does not ask the instance while it is offline, and catches up when it comes back', async () => {
    await goOffline()
    const mark = attempts.length
    const { todoId } = await assignRoot('Restart the queue workers')
    const iid = await postAlert({ title: 'Queue backlog growing', severity: 'medium' })

    expect(await call<NotifyCounts>('notify:check', account.id)).toMatchObject({
      accounts: [{ accountId: account.id, state: 'offline' }],
    })
    expect(announcements.some((a) => a.key === `todo:${todoId}`)).toBe(false)
    const offline = await call<AlertList>('notify:list-alerts', { accountId: account.id, status: 'triggered' })
    expect(offline.stale).toBe(true)
    expect(offline.items.map((a) => a.title)).toEqual(['API error rate above 5%', 'Disk almost full'])

    // Offline, nothing was even tried.
    expect(attemptsSince(mark, /./)).toEqual([])

    const todo = announced((a) => a.key === `todo:${todoId}`)
    const alert = announced((a) => a.key === `alert:${project.id}:${iid}`)
    await goOnline()
    expect((await todo).title).toBe('Mara Maintainer assigned you')
    expect((await alert).title).toBe(`Medium alert in ${project.path_with_namespace}`)
    expect(attemptsSince(mark, /./).slice(0, 3)).toEqual([
      'GET /api/v4/version',
      'GET /api/v4/todos',
      'POST /api/graphql',
    ])
  })

  it('changes an alert’s status and assignee through GraphQL, and the counts follow', async () => {
    const { items } = await call<AlertList>('notify:list-alerts', { accountId: account.id, status: 'triggered' })
    const disk = items.find((a) => a.title === 'Disk almost full')!
    const acknowledged = await call<NotifyAlert>('alerts:update-status', account.id, {
      projectId: project.id,
      iid: disk.iid,
      status: 'acknowledged',
    })
    expect(acknowledged).toMatchObject({
      iid: disk.iid,
      status: 'acknowledged',
      projectPath: project.path_with_namespace,
    })
    const assigned = await call<NotifyAlert>('alerts:assign', account.id, {
      projectId: project.id,
      iid: disk.iid,
      assigneeUsernames: ['mara'],
    })
    expect(assigned.assigneeUsernames).toEqual(['mara'])
    expect((await call<NotifySummary>('notify:summary')).accounts[0]).toMatchObject({
      openAlerts: 3,
      triggeredAlerts: 2,
    })

    await call<NotifyAlert>('alerts:update-status', account.id, {
      projectId: project.id,
      iid: disk.iid,
      status: 'resolved',
    })
    await changed((c) => c.openAlerts === 2)
    const resolved = await call<AlertList>('notify:list-alerts', { accountId: account.id, status: 'resolved' })
    expect(resolved.items.map((a) => a.iid)).toEqual([disk.iid])
  })

  it('refuses alert actions offline with the reason, and never queues them', async () => {
    await goOffline()
    const response = await core.dispatch('alerts:update-status', [
      account.id,
      { projectId: project.id, iid: 1, status: 'resolved' },
    ])
    expect(response).toMatchObject({
      ok: false,
      error: { code: 'offline', message: expect.stringContaining('It is not queued for later') },
    })
    const resolvedOffline = await core.dispatch('notify:list-alerts', [{ accountId: account.id, status: 'resolved' }])
    expect(resolvedOffline).toMatchObject({
      ok: false,
      error: { code: 'offline', message: expect.stringContaining('Only open alerts are kept for offline reading') },
    })
    await goOnline()
  })

  it('stops watching an account when it is removed, and its marks leave the disk', async () => {
    await call('accounts:remove', account.id)
    await changed((c) => c.accounts.every((a) => a.accountId !== account.id))
    expect(await call<NotifySummary>('notify:summary')).toMatchObject({
      accounts: [],
      pendingTodos: 0,
      openAlerts: 0,
      latestTodos: [],
      latestAlerts: [],
    })
    expect(await core.dispatch('notify:check', [account.id])).toMatchObject({
      ok: false,
      error: { code: 'account-not-found' },
    })
    // The watcher holds no timer or listener for it: a new to-do makes no request and no announcement.
    const mark = attempts.length
    const before = announcements.length
    await assignRoot('Nobody is watching')
    await call('notify:check')
    expect(attemptsSince(mark, /./)).toEqual([])
    expect(announcements.length).toBe(before)
    await eventually(() =>
      ['notify_accounts', 'notify_projects', 'notify_alerts'].every(
        (t) => cache.db.prepare(`SELECT COUNT(*) FROM ${t}`).pluck().get() === 0,
      ),
    )
  })
})

describe('failures', () => {
  it('leaves an account whose checks the instance refuses failing, with the reason', async () => {
    // GET /user works with read_user, the to-do list and GraphQL need api or read_api.
    const reader = seedUser(server, { username: 'reader', scopes: ['read_user'] })
    const added = await call<Account>('accounts:add', { baseUrl: proxy.url, token: reader.token })
    const counts = await call<NotifyCounts>('notify:check', added.id)
    expect(counts.accounts.find((a) => a.accountId === added.id)).toMatchObject({
      state: 'failing',
      lastError: 'The request requires higher privileges than provided by the access token.',
    })
    expect(announcements.filter((a) => a.accountId === added.id)).toEqual([])
  })
})

describe('back-off', () => {
  it('doubles the wait after each failed check, up to the cap', () => {
    expect([0, 1, 2, 3, 10].map((failures) => nextDelay(60_000, failures, 1_800_000))).toEqual([
      60_000, 120_000, 240_000, 480_000, 1_800_000,
    ])
  })
})
