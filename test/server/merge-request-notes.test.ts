import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/auth/access'
import { seedMember } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

describe('merge requests with notes and the issues they close', () => {
  let s: TestServer
  let dev: SeededUser
  let mentioned: SeededUser
  let base: string

  beforeAll(async () => {
    s = await makeServer()
    dev = seedUser(s)
    mentioned = seedUser(s)
    const project = (await s.request(ROOT_TOKEN, { method: 'POST', url: '/api/v4/projects', payload: { name: 'mrnotes', initialize_with_readme: true } })).json()
    seedMember(s, 'Project', project.id, dev.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, mentioned.user.id, AccessLevel.REPORTER)
    base = `/api/v4/projects/${project.id}`
    const commit = await s.request(dev.token, {
      method: 'POST',
      url: `${base}/repository/commits`,
      payload: { branch: 'fix', start_branch: 'main', commit_message: 'Fix', actions: [{ action: 'create', file_path: 'fix.txt', content: 'fixed' }] },
    })
    expect(commit.statusCode).toBe(201)
    expect((await s.request(dev.token, { method: 'POST', url: `${base}/issues`, payload: { title: 'Broken' } })).statusCode).toBe(201)
    const mr = await s.request(dev.token, {
      method: 'POST',
      url: `${base}/merge_requests`,
      payload: { source_branch: 'fix', target_branch: 'main', title: 'Fix it', description: 'Closes #1' },
    })
    expect(mr.statusCode).toBe(201)
  })
  afterAll(async () => {
    await s.close()
  })

  it('comments on a merge request and lists the comment as a discussion', async () => {
    const note = await s.request(dev.token, { method: 'POST', url: `${base}/merge_requests/1/notes`, payload: { body: 'Looks good' } })
    expect(note.statusCode).toBe(201)
    expect(note.json()).toMatchObject({ body: 'Looks good', noteable_type: 'MergeRequest', noteable_iid: 1 })
    const discussions = (await s.request(dev.token, { method: 'GET', url: `${base}/merge_requests/1/discussions` })).json()
    expect(discussions).toHaveLength(1)
    expect(discussions[0]).toMatchObject({ individual_note: true, notes: [{ body: 'Looks good' }] })
  })

  it('raises a mention to-do from a merge request comment', async () => {
    await s.request(dev.token, { method: 'POST', url: `${base}/merge_requests/1/notes`, payload: { body: `please look @${mentioned.user.username}` } })
    const todos = (await s.request(mentioned.token, { method: 'GET', url: '/api/v4/todos' })).json()
    expect(todos).toEqual([expect.objectContaining({ action_name: 'mentioned', target_type: 'MergeRequest' })])
  })

  it('answers 404 for notes of an unknown merge request', async () => {
    expect((await s.request(dev.token, { method: 'GET', url: `${base}/merge_requests/99/notes` })).statusCode).toBe(404)
  })

  it('counts and lists the merge request that closes an issue', async () => {
    expect((await s.request(dev.token, { method: 'GET', url: `${base}/issues/1` })).json().merge_requests_count).toBe(1)
    const related = (await s.request(dev.token, { method: 'GET', url: `${base}/issues/1/related_merge_requests` })).json()
    expect(related.map((m: { iid: number }) => m.iid)).toEqual([1])
    const closedBy = (await s.request(dev.token, { method: 'GET', url: `${base}/issues/1/closed_by` })).json()
    expect(closedBy.map((m: { iid: number }) => m.iid)).toEqual([1])
  })
})
