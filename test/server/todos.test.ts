import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedMember } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** To-dos: what raises them (assignment, mentions, review requests, the todo endpoints), the list and its filters, marking done, and acting on a target settling them. */
describe('to-dos', () => {
  let s: TestServer
  let lead: SeededUser
  let dev: SeededUser
  let reviewer: SeededUser
  let base: string
  let projectId: number

  async function call(
    token: string,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: Json,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ): Promise<{ statusCode: number; body: any }> {
    const res = await s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
    return { statusCode: res.statusCode, body: res.body ? JSON.parse(res.body) : null }
  }
  const pending = async (u: SeededUser, query = ''): Promise<[string, string, string][]> =>
    ((await call(u.token, 'GET', `/todos?per_page=100${query}`)).body as Json[])
      .map((t) => [t.action_name, t.target_type, t.target.title])
      .sort() as [string, string, string][]

  beforeAll(async () => {
    s = await makeServer()
    lead = seedUser(s, { username: 'lena' })
    dev = seedUser(s, { username: 'dmitri' })
    reviewer = seedUser(s, { username: 'rosa' })
    const project = (await call(ROOT_TOKEN, 'POST', '/projects', { name: 'todo-app', initialize_with_readme: true }))
      .body
    projectId = project.id
    base = `/projects/${project.id}`
    for (const [u, level] of [
      [lead, AccessLevel.MAINTAINER],
      [dev, AccessLevel.DEVELOPER],
      [reviewer, AccessLevel.DEVELOPER],
    ] as const)
      seedMember(s, 'Project', project.id, u.user.id, level)
    for (const branch of ['feature', 'other']) {
      const commit = await call(dev.token, 'POST', `${base}/repository/commits`, {
        branch,
        start_branch: 'main',
        commit_message: branch,
        actions: [{ action: 'create', file_path: `${branch}.txt`, content: branch }],
      })
      expect(commit.statusCode).toBe(201)
    }
  })
  afterAll(async () => {
    await s.close()
  })

  it('raises assigned, mentioned, directly_addressed and review_requested to-dos', async () => {
    await call(lead.token, 'POST', `${base}/issues`, { title: 'Assigned at creation', assignee_ids: [dev.user.id] })
    const later = (await call(lead.token, 'POST', `${base}/issues`, { title: 'Assigned later' })).body
    await call(lead.token, 'PUT', `${base}/issues/${later.iid}`, { assignee_ids: [dev.user.id] })
    await call(lead.token, 'POST', `${base}/issues/${later.iid}/notes`, {
      body: `@${reviewer.user.username} please look`,
    })
    await call(lead.token, 'POST', `${base}/issues/${later.iid}/notes`, {
      body: `Thanks, cc @${reviewer.user.username}`,
    })
    const mr = (
      await call(dev.token, 'POST', `${base}/merge_requests`, {
        source_branch: 'feature',
        target_branch: 'main',
        title: 'Review me',
      })
    ).body
    await call(dev.token, 'PUT', `${base}/merge_requests/${mr.iid}`, { reviewer_ids: [reviewer.user.id] })
    expect(await pending(dev)).toEqual([
      ['assigned', 'Issue', 'Assigned at creation'],
      ['assigned', 'Issue', 'Assigned later'],
    ])
    expect(await pending(reviewer)).toEqual([
      ['directly_addressed', 'Issue', 'Assigned later'],
      ['mentioned', 'Issue', 'Assigned later'],
      ['review_requested', 'MergeRequest', 'Review me'],
    ])
  })

  it('filters the list by action, type, project and author', async () => {
    expect(await pending(reviewer, '&action=review_requested')).toEqual([
      ['review_requested', 'MergeRequest', 'Review me'],
    ])
    expect((await pending(reviewer, '&type=Issue')).map((t) => t[0])).toEqual(['directly_addressed', 'mentioned'])
    expect(await pending(reviewer, `&project_id=${projectId}&author_id=${dev.user.id}`)).toEqual([
      ['review_requested', 'MergeRequest', 'Review me'],
    ])
    expect(await pending(reviewer, '&project_id=99999')).toEqual([])
    expect((await call(reviewer.token, 'GET', '/todos?action=nonsense')).statusCode).toBe(400)
  })

  it('POST …/todo creates a marked to-do (201), then answers 304', async () => {
    const issue = (await call(lead.token, 'POST', `${base}/issues`, { title: 'Mark me' })).body
    const todo = await call(lead.token, 'POST', `${base}/issues/${issue.iid}/todo`)
    expect(todo.statusCode).toBe(201)
    expect(todo.body).toMatchObject({
      action_name: 'marked',
      target_type: 'Issue',
      state: 'pending',
      target: { iid: issue.iid },
      project: { id: projectId },
    })
    expect((await call(lead.token, 'POST', `${base}/issues/${issue.iid}/todo`)).statusCode).toBe(304)
    expect((await call(lead.token, 'POST', `${base}/merge_requests/1/todo`)).statusCode).toBe(201)
    expect((await call(lead.token, 'POST', `${base}/merge_requests/1/todo`)).statusCode).toBe(304)
  })

  it('marks one to-do done (someone else’s is 404) and then all of them', async () => {
    const mine = (await call(lead.token, 'GET', '/todos')).body as Json[]
    expect((await call(dev.token, 'POST', `/todos/${mine[0].id}/mark_as_done`)).statusCode).toBe(404)
    const done = await call(lead.token, 'POST', `/todos/${mine[0].id}/mark_as_done`)
    expect(done).toMatchObject({ statusCode: 201, body: { id: mine[0].id, state: 'done' } })
    expect(((await call(lead.token, 'GET', '/todos?state=done')).body as Json[]).map((t) => t.id)).toEqual([mine[0].id])
    expect((await call(lead.token, 'POST', '/todos/mark_as_done')).statusCode).toBe(204)
    expect(await pending(lead)).toEqual([])
  })

  it('acting on a target settles the actor’s own to-dos there, not other people’s', async () => {
    // Commenting settles the mention to-dos; approving settles the review request.
    const later = ((await call(dev.token, 'GET', `${base}/issues?search=Assigned%20later`)).body as Json[])[0]
    await call(reviewer.token, 'POST', `${base}/issues/${later.iid}/notes`, { body: 'On it' })
    expect(await pending(reviewer)).toEqual([['review_requested', 'MergeRequest', 'Review me']])
    expect(await pending(dev)).toEqual([
      ['assigned', 'Issue', 'Assigned at creation'],
      ['assigned', 'Issue', 'Assigned later'],
    ])
    await call(reviewer.token, 'POST', `${base}/merge_requests/1/approve`)
    expect(await pending(reviewer)).toEqual([])
    // Editing and reacting settle the assignee's.
    await call(dev.token, 'PUT', `${base}/issues/${later.iid}`, { add_labels: 'triaged' })
    const first = ((await call(dev.token, 'GET', `${base}/issues?search=Assigned%20at`)).body as Json[])[0]
    await call(dev.token, 'POST', `${base}/issues/${first.iid}/award_emoji`, { name: 'eyes' })
    expect(await pending(dev)).toEqual([])
  })

  it('merging settles the merger’s to-dos on the merge request', async () => {
    const mr = (
      await call(dev.token, 'POST', `${base}/merge_requests`, {
        source_branch: 'other',
        target_branch: 'main',
        title: 'Merge me',
        assignee_ids: [lead.user.id],
      })
    ).body
    expect(await pending(lead)).toEqual([['assigned', 'MergeRequest', 'Merge me']])
    for (let i = 0; i < 100; i++) {
      const status = (await call(lead.token, 'GET', `${base}/merge_requests/${mr.iid}`)).body.merge_status
      if (status === 'can_be_merged') break
      await new Promise((r) => setTimeout(r, 20))
    }
    expect((await call(lead.token, 'PUT', `${base}/merge_requests/${mr.iid}/merge`)).statusCode).toBe(200)
    expect(await pending(lead)).toEqual([])
  })
})
