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

  async function call(
    method: 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
    token = owner.token,
  ): Promise<Record<string, unknown>> {
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

    await call('POST', `/projects/${projectId}/repository/files/feature.txt`, {
      branch: 'feature',
      start_branch: 'main',
      content: 'feature\n',
      commit_message: 'Add feature',
    })
    const mr = await call('POST', `/projects/${projectId}/merge_requests`, {
      source_branch: 'feature',
      target_branch: 'main',
      title: 'Add feature',
    })
    await call('POST', `/projects/${projectId}/merge_requests/${mr.iid}/approve`, {}, ROOT_TOKEN)
    await call('PUT', `/projects/${projectId}/merge_requests/${mr.iid}/merge`, {})

    const snippet = await call('POST', `/projects/${projectId}/snippets`, {
      title: 'Snip',
      file_name: 'a.txt',
      content: 'x',
      visibility: 'private',
    })
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

// Operations resources keep audit events only: GitLab's Events API has no target type for them,
// so recording activity events for them would put rows in feeds that no filter can select.
describe('operations resources record audit events, not activity events', () => {
  let s: ListeningServer
  let owner: SeededUser
  let projectId = 0
  let projectPath = ''
  const api = `/api/v4`

  async function call(
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const res = await s.request(owner.token, { method, url: `${api}${url}`, payload })
    if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`)
    return res.body ? (res.json() as Record<string, unknown>) : {}
  }

  async function graphql(query: string): Promise<Record<string, unknown>> {
    const res = await s.request(owner.token, { method: 'POST', url: '/api/graphql', payload: { query } })
    expect(res.statusCode).toBe(200)
    return (res.json() as { data: Record<string, unknown> }).data
  }

  beforeAll(async () => {
    s = await startServer()
    owner = seedUser(s, { username: 'opsowner' })
    const project = await call('POST', '/projects', { name: 'ops-demo', initialize_with_readme: true })
    projectId = project.id as number
    projectPath = project.path_with_namespace as string

    const env = await call('POST', `/projects/${projectId}/environments`, { name: 'staging' })
    await call('PUT', `/projects/${projectId}/environments/${env.id}`, { external_url: 'https://staging.example.com' })
    await call('POST', `/projects/${projectId}/environments/${env.id}/stop`)
    await call('DELETE', `/projects/${projectId}/environments/${env.id}`)
    await call('POST', `/projects/${projectId}/protected_environments`, {
      name: 'production',
      deploy_access_levels: [{ access_level: 40 }],
    })
    const cluster = await call('POST', `/projects/${projectId}/clusters/user`, {
      name: 'k8s',
      platform_cluster_attributes: { api_url: 'https://k8s.example.com', token: 'secret' },
    })
    await call('DELETE', `/projects/${projectId}/clusters/${cluster.id}`)
    await call('POST', `/projects/${projectId}/pages/domains`, { domain: 'ops.example.com' })
    await call('PATCH', `/projects/${projectId}/error_tracking/settings`, { active: true, integrated: true })
    await call('POST', `/projects/${projectId}/error_tracking/client_keys`)
    const created = await graphql(
      `mutation { httpIntegrationCreate(input: {projectPath: "${projectPath}", name: "Prometheus", active: true}) { errors integration { url token } } }`,
    )
    const integration = (created.httpIntegrationCreate as { integration: { url: string; token: string } }).integration
    const notify = (payload: Record<string, unknown>) =>
      s.app.inject({
        method: 'POST',
        url: new URL(integration.url).pathname,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${integration.token}` },
        payload: JSON.stringify(payload),
      })
    expect((await notify({ title: 'Disk full', fingerprint: 'disk' })).statusCode).toBe(200)
    expect(
      (await notify({ title: 'Disk full', fingerprint: 'disk', end_time: '2024-01-01T00:00:00Z' })).statusCode,
    ).toBe(200)
  }, 60_000)
  afterAll(async () => {
    await s.close()
  })

  it('leaves the activity feed with the project creation and its first push only', async () => {
    const res = await s.request(owner.token, { method: 'GET', url: `${api}/projects/${projectId}/events?per_page=100` })
    const events = res.json() as EventJson[]
    expect(events.map((e) => [e.action_name, e.target_type]).sort()).toEqual([
      ['created', null],
      ['pushed new', null],
    ])
  })

  it('records each change as a project audit event', async () => {
    const res = await s.request(owner.token, {
      method: 'GET',
      url: `${api}/projects/${projectId}/audit_events?per_page=100`,
    })
    const types = new Set((res.json() as { details: { target_type: string } }[]).map((a) => a.details.target_type))
    for (const type of [
      'Environment',
      'ProtectedEnvironment',
      'Clusters::Cluster',
      'PagesDomain',
      'ErrorTracking::ProjectErrorTrackingSetting',
      'ErrorTracking::ClientKey',
      'AlertManagement::HttpIntegration',
    ]) {
      expect(types, type).toContain(type)
    }
  })

  it.each(['environment', 'cluster', 'alert', 'vulnerability'])(
    'refuses target_type=%s with 400: GitLab has no such event target',
    async (targetType) => {
      const res = await s.request(owner.token, {
        method: 'GET',
        url: `${api}/projects/${projectId}/events?target_type=${targetType}`,
      })
      expect(res.statusCode).toBe(400)
    },
  )

  it.each(['issue', 'milestone', 'merge_request', 'note', 'project', 'snippet', 'user', 'epic', 'wiki', 'design'])(
    'accepts target_type=%s',
    async (targetType) => {
      const res = await s.request(owner.token, { method: 'GET', url: `${api}/events?target_type=${targetType}` })
      expect(res.statusCode).toBe(200)
    },
  )
})
