import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

interface EventJson {
  readonly action_name: string
  readonly target_type: string | null
  readonly target_title: string | null
  readonly author_id: number
  readonly push_data?: Readonly<Record<string, unknown>>
  readonly note?: { readonly noteable_type: string }
}

// The Events section of the spec, driven end to end: each operation goes through the API and
// its activity event is read back through GET /projects/:id/events with the lowercase filters.
describe('activity events recorded by API operations', () => {
  let s: ListeningServer
  let owner: SeededUser
  let joiner: SeededUser
  let projectId = 0
  const api = `/api/v4`

  async function call(method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>, token = owner.token): Promise<Record<string, unknown>> {
    const res = await s.request(token, { method, url: `${api}${url}`, payload })
    if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`)
    return res.body ? (res.json() as Record<string, unknown>) : {}
  }

  async function events(action: string, targetType?: string): Promise<EventJson[]> {
    const query = new URLSearchParams({ action, per_page: '100' })
    if (targetType) query.set('target_type', targetType)
    const res = await s.request(owner.token, { method: 'GET', url: `${api}/projects/${projectId}/events?${query}` })
    expect(res.statusCode).toBe(200)
    return res.json() as EventJson[]
  }

  beforeAll(async () => {
    s = await startServer()
    owner = seedUser(s, { username: 'evowner' })
    joiner = seedUser(s, { username: 'evjoiner' })
    projectId = (await call('POST', '/projects', { name: 'events-demo', initialize_with_readme: true })).id as number

    const issue = await call('POST', `/projects/${projectId}/issues`, { title: 'Broken thing' })
    await call('PUT', `/projects/${projectId}/issues/${issue.iid}`, { state_event: 'close' })
    await call('PUT', `/projects/${projectId}/issues/${issue.iid}`, { state_event: 'reopen' })
    await call('POST', `/projects/${projectId}/issues/${issue.iid}/notes`, { body: 'Looking into it' })

    const milestone = await call('POST', `/projects/${projectId}/milestones`, { title: 'v1' })
    await call('PUT', `/projects/${projectId}/milestones/${milestone.id}`, { state_event: 'close' })
    await call('DELETE', `/projects/${projectId}/milestones/${milestone.id}`)

    await call('POST', `/projects/${projectId}/members`, { user_id: joiner.user.id, access_level: 30 })
    await call('DELETE', `/projects/${projectId}/members/${joiner.user.id}`)

    await call('POST', `/projects/${projectId}/repository/files/feature.txt`, { branch: 'feature', start_branch: 'main', content: 'feature\n', commit_message: 'Add feature' })
    const mr = await call('POST', `/projects/${projectId}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'Add feature' })
    await call('POST', `/projects/${projectId}/merge_requests/${mr.iid}/approve`, {}, ROOT_TOKEN)
    await call('PUT', `/projects/${projectId}/merge_requests/${mr.iid}/merge`, {})

    const snippet = await call('POST', `/projects/${projectId}/snippets`, { title: 'Snip', file_name: 'a.txt', content: 'x', visibility: 'private' })
    await call('POST', `/projects/${projectId}/snippets/${snippet.id}/notes`, { body: 'Nice snippet' })
  }, 60_000)
  afterAll(async () => {
    await s.close()
  })

  it.each([
    ['created', 'issue', 'opened', 'Issue'],
    ['closed', 'issue', 'closed', 'Issue'],
    ['reopened', 'issue', 'opened', 'Issue'],
    ['created', 'milestone', 'opened', 'Milestone'],
    ['closed', 'milestone', 'closed', 'Milestone'],
    ['destroyed', 'milestone', 'destroyed', 'Milestone'],
    ['created', 'merge_request', 'opened', 'MergeRequest'],
    ['approved', 'merge_request', 'approved', 'MergeRequest'],
    ['merged', 'merge_request', 'accepted', 'MergeRequest'],
  ] as const)('records %s on a %s (action_name %s, target_type %s)', async (action, filter, actionName, targetType) => {
    const found = await events(action, filter)
    expect(found.map((e) => [e.action_name, e.target_type])).toContainEqual([actionName, targetType])
  })

  it('records project creation with no target, as GitLab does, so target_type=project does not list it', async () => {
    expect((await events('created')).some((e) => e.action_name === 'created' && e.target_type === null)).toBe(true)
    expect(await events('created', 'project')).toEqual([])
  })

  it('records comments on issues and snippets as commented on a Note carrying its noteable', async () => {
    const found = await events('commented on', 'note')
    expect(found.map((e) => [e.action_name, e.target_type, e.note?.noteable_type]).sort()).toEqual([
      ['commented on', 'Note', 'Issue'],
      ['commented on', 'Note', 'Snippet'],
    ])
  })

  it('records joined and left for the membership', async () => {
    expect((await events('joined')).map((e) => [e.action_name, e.author_id])).toContainEqual(['joined', joiner.user.id])
    expect((await events('left')).map((e) => [e.action_name, e.author_id])).toContainEqual(['left', joiner.user.id])
  })

  it('records pushes made through the API (files, merge) with push_data', async () => {
    const pushes = await events('pushed')
    expect(pushes.length).toBeGreaterThan(0)
    expect(pushes.every((e) => e.push_data !== undefined && e.action_name.startsWith('pushed'))).toBe(true)
    expect(pushes.map((e) => e.push_data?.ref)).toEqual(expect.arrayContaining(['feature', 'main']))
  })
})
