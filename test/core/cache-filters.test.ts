import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeQuery, type Query } from '../../src/main/core/api/query'
import { createCore, type Core } from '../../src/main/core/index'
import type { CachedList, IssueListParams, MergeRequestListParams } from '../../src/shared/ipc/cache'
import type { JsonObject } from '../../src/shared/json'
import type { IpcResponse } from '../../src/shared/ipc/contract'
import { seedUser, type SeededUser } from '../helpers/server'
import { desktopServices, RequestLog, startRestartableServer, type RestartableServer } from '../helpers/sync'

/*
 * The offline lists must answer like the server: the same parameters give the same items in
 * the same order, from the cache and from Burrow Server's own list endpoints.
 */

let server: RestartableServer
let owner: SeededUser
let dev: SeededUser
let core: Core
let accountId: string
let projectId: number
let dispose: () => void

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

async function cached(
  channel: 'issues:list' | 'merge-requests:list',
  params: IssueListParams | MergeRequestListParams,
): Promise<number[]> {
  const response = (await core.dispatch(channel, [
    accountId,
    { ...params, project_id: projectId, limit: 100 },
  ])) as IpcResponse<CachedList<'issue' | 'merge_request'>>
  if (!response.ok) throw new Error(response.error.message)
  return response.result.items.map((i) => i.data.id)
}

async function fromServer(resource: 'issues' | 'merge_requests', params: Record<string, unknown>): Promise<number[]> {
  const items = await api<JsonObject[]>(
    owner.token,
    'GET',
    `/projects/${projectId}/${resource}?${encodeQuery({ ...params, per_page: 100 } as Query)}`,
  )
  return items.map((i) => i.id as number)
}

beforeAll(async () => {
  server = await startRestartableServer()
  owner = seedUser(server)
  dev = seedUser(server)
  const project = await api<{ id: number }>(owner.token, 'POST', '/projects', {
    name: 'Filters',
    initialize_with_readme: true,
  })
  projectId = project.id
  await api(owner.token, 'POST', `/projects/${projectId}/members`, { user_id: dev.user.id, access_level: 30 })
  const v1 = await api<{ id: number }>(owner.token, 'POST', `/projects/${projectId}/milestones`, { title: 'v1' })
  const v2 = await api<{ id: number }>(owner.token, 'POST', `/projects/${projectId}/milestones`, {
    title: 'v2',
    due_date: '2030-01-01',
  })
  const words = [
    'Crash in parser',
    'Slow startup',
    'crash on exit',
    'Typo in docs',
    'Zebra stripes',
    'apple pie',
    'Parser hangs',
    'Memory leak',
  ]
  for (let i = 0; i < 24; i++) {
    const author = i % 4 === 0 ? dev : owner
    const labels = [i % 2 === 0 ? 'bug' : null, i % 3 === 0 ? 'UI' : null, i % 5 === 0 ? 'backend' : null]
      .filter((l) => l !== null)
      .join(',')
    const issue = await api<{ iid: number }>(author.token, 'POST', `/projects/${projectId}/issues`, {
      title: `${words[i % words.length]} ${i}`,
      description: i % 6 === 0 ? 'Steps: open the parser window' : `Nothing special ${i}`,
      labels,
      milestone_id: i % 3 === 1 ? v1.id : i % 3 === 2 ? v2.id : undefined,
      assignee_ids: i % 4 === 1 ? [dev.user.id] : i % 4 === 2 ? [owner.user.id] : undefined,
      confidential: i % 7 === 0,
      weight: i % 2 === 0 ? i % 5 : undefined,
      due_date: i % 5 === 0 ? `2031-0${1 + (i % 9)}-15` : undefined,
    })
    if (i % 5 === 3)
      await api(owner.token, 'PUT', `/projects/${projectId}/issues/${issue.iid}`, { state_event: 'close' })
  }
  for (const [i, branch] of ['one', 'two', 'three', 'four'].entries()) {
    await api(owner.token, 'POST', `/projects/${projectId}/repository/branches`, { branch, ref: 'main' })
    await api(i % 2 === 0 ? owner.token : dev.token, 'POST', `/projects/${projectId}/merge_requests`, {
      source_branch: branch,
      target_branch: 'main',
      title: i === 1 ? `Draft: ${branch} work` : `Crash fix ${branch}`,
      labels: i % 2 === 0 ? 'bug' : 'UI',
      assignee_ids: i === 3 ? [dev.user.id] : undefined,
      reviewer_ids: i === 0 ? [dev.user.id] : undefined,
      milestone_id: i < 2 ? v1.id : undefined,
    })
  }
  const log = new RequestLog()
  const services = await desktopServices(log)
  core = createCore({
    version: '0.1.0',
    mode: 'browser',
    serverUrl: server.url,
    accounts: services.accounts,
    cache: services.cache,
  })
  accountId = (await services.accounts.add({ baseUrl: server.url, token: owner.token })).id
  const synced = await core.sync?.run(accountId)
  if (synced?.outcome !== 'completed') throw new Error(`sync did not complete: ${JSON.stringify(synced)}`)
  dispose = () => {
    void core.dispose()
    services.dispose()
  }
})

afterAll(async () => {
  dispose()
  await server.close()
})

describe('issues:list answers like GET /projects/:id/issues', () => {
  const cases: [string, IssueListParams][] = [
    ['default order (created_at desc)', {}],
    ['state=opened', { state: 'opened' }],
    ['state=closed, order_by=updated_at asc', { state: 'closed', order_by: 'updated_at', sort: 'asc' }],
    ['one label, other case', { labels: 'ui' }],
    ['two labels, all required', { labels: 'bug,UI' }],
    ['labels=None', { labels: 'None' }],
    ['labels=Any', { labels: 'Any' }],
    ['not[labels]', { not: { labels: 'bug' } }],
    ['milestone title', { milestone: 'v1' }],
    ['milestone=None', { milestone: 'None' }],
    ['assignee_id', { assignee_id: 0 }],
    ['assignee_id=Any', { assignee_id: 'Any' }],
    ['assignee_username', { assignee_username: '' }],
    ['author_id', { author_id: 0 }],
    ['search in title and description', { search: 'parser' }],
    ['search in title only', { search: 'parser', in: 'title' }],
    ['confidential', { confidential: true }],
    ['iids', { iids: [1, 3, 5, 22] }],
    ['order_by=title asc', { order_by: 'title', sort: 'asc' }],
    ['order_by=due_date asc (nulls last)', { order_by: 'due_date', sort: 'asc' }],
    ['order_by=milestone_due desc', { order_by: 'milestone_due', sort: 'desc' }],
    ['order_by=weight asc', { order_by: 'weight', sort: 'asc' }],
    ['weight=None', { weight: 'None' }],
    [
      'combined: opened bug in v2 assigned to the owner',
      { state: 'opened', labels: 'bug', milestone: 'v2', assignee_id: 0 },
    ],
  ]
  for (const [name, raw] of cases) {
    it(name, async () => {
      // Ids of people are only known once the world exists.
      const params: IssueListParams = {
        ...raw,
        ...(raw.assignee_id === 0 ? { assignee_id: owner.user.id } : {}),
        ...(raw.author_id === 0 ? { author_id: dev.user.id } : {}),
        ...(raw.assignee_username === '' ? { assignee_username: dev.user.username } : {}),
      }
      const expected = await fromServer('issues', params as Record<string, unknown>)
      expect(expected.length).toBeGreaterThan(0)
      expect(await cached('issues:list', params)).toEqual(expected)
    })
  }
})

describe('merge-requests:list answers like GET /projects/:id/merge_requests', () => {
  const cases: [string, MergeRequestListParams][] = [
    ['default order', {}],
    ['labels', { labels: 'bug' }],
    ['milestone', { milestone: 'v1' }],
    ['reviewer_id', { reviewer_id: 0 }],
    ['assignee_id=None', { assignee_id: 'None' }],
    ['wip=yes', { wip: 'yes' }],
    ['search', { search: 'crash' }],
    ['order_by=title asc', { order_by: 'title', sort: 'asc' }],
    ['author_username', { author_username: '' }],
  ]
  for (const [name, raw] of cases) {
    it(name, async () => {
      const params: MergeRequestListParams = {
        ...raw,
        ...(raw.reviewer_id === 0 ? { reviewer_id: dev.user.id } : {}),
        ...(raw.author_username === '' ? { author_username: dev.user.username } : {}),
      }
      const expected = await fromServer('merge_requests', params as Record<string, unknown>)
      expect(expected.length).toBeGreaterThan(0)
      expect(await cached('merge-requests:list', params)).toEqual(expected)
    })
  }

  it('pages with offset and limit for virtual scrolling, with the total', async () => {
    const all = await cached('issues:list', {})
    const response = (await core.dispatch('issues:list', [
      accountId,
      { project_id: projectId, offset: 5, limit: 7 },
    ])) as IpcResponse<CachedList<'issue'>>
    expect(response).toMatchObject({ ok: true, result: { total: 24, offset: 5, limit: 7 } })
    if (response.ok) expect(response.result.items.map((i) => i.data.id)).toEqual(all.slice(5, 12))
  })
})
