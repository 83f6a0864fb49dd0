import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
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
    const project = (
      await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: '/api/v4/projects',
        payload: { name: 'mrnotes', initialize_with_readme: true },
      })
    ).json()
    seedMember(s, 'Project', project.id, dev.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, mentioned.user.id, AccessLevel.REPORTER)
    base = `/api/v4/projects/${project.id}`
    const commit = await s.request(dev.token, {
      method: 'POST',
      url: `${base}/repository/commits`,
      payload: {
        branch: 'fix',
        start_branch: 'main',
        commit_message: 'Fix',
        actions: [{ action: 'create', file_path: 'fix.txt', content: 'fixed' }],
      },
    })
    expect(commit.statusCode).toBe(201)
    expect(
      (await s.request(dev.token, { method: 'POST', url: `${base}/issues`, payload: { title: 'Broken' } })).statusCode,
    ).toBe(201)
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
    const note = await s.request(dev.token, {
      method: 'POST',
      url: `${base}/merge_requests/1/notes`,
      payload: { body: 'Looks good' },
    })
    expect(note.statusCode).toBe(201)
    expect(note.json()).toMatchObject({ body: 'Looks good', noteable_type: 'MergeRequest', noteable_iid: 1 })
    const discussions = (
      await s.request(dev.token, { method: 'GET', url: `${base}/merge_requests/1/discussions` })
    ).json()
    expect(discussions).toHaveLength(1)
    expect(discussions[0]).toMatchObject({ individual_note: true, notes: [{ body: 'Looks good' }] })
  })

  it('raises a mention to-do from a merge request comment', async () => {
    await s.request(dev.token, {
      method: 'POST',
      url: `${base}/merge_requests/1/notes`,
      payload: { body: `please look @${mentioned.user.username}` },
    })
    const todos = (await s.request(mentioned.token, { method: 'GET', url: '/api/v4/todos' })).json()
    expect(todos).toEqual([expect.objectContaining({ action_name: 'mentioned', target_type: 'MergeRequest' })])
  })

  it('resolves a merge request thread as a Developer, refuses a Reporter, and unresolves it', async () => {
    const thread = (
      await s.request(mentioned.token, {
        method: 'POST',
        url: `${base}/merge_requests/1/discussions`,
        payload: { body: 'Why?' },
      })
    ).json()
    expect(thread.notes[0]).toMatchObject({
      type: 'DiscussionNote',
      resolvable: true,
      resolved: false,
      resolved_by: null,
    })
    const url = `${base}/merge_requests/1/discussions/${thread.id}`
    expect((await s.request(mentioned.token, { method: 'PUT', url, payload: { resolved: true } })).statusCode).toBe(403)
    const resolved = await s.request(dev.token, { method: 'PUT', url, payload: { resolved: true } })
    expect(resolved.statusCode).toBe(200)
    expect(resolved.json().notes[0]).toMatchObject({
      resolved: true,
      resolved_by: { id: dev.user.id },
      resolved_at: expect.any(String),
    })
    const note = await s.request(dev.token, {
      method: 'PUT',
      url: `${url}/notes/${thread.notes[0].id}`,
      payload: { resolved: false },
    })
    expect(note.json()).toMatchObject({ resolved: false, resolved_by: null, resolved_at: null })
    expect((await s.request(dev.token, { method: 'PUT', url, payload: {} })).json()).toEqual({
      error: 'resolved is missing',
    })
  })

  it('makes a replied-to comment resolvable; a lone comment is not (400 for its note, 403 for its thread)', async () => {
    const lone = (
      await s.request(dev.token, { method: 'POST', url: `${base}/merge_requests/1/notes`, payload: { body: 'Alone' } })
    ).json()
    expect(lone.resolvable).toBe(false)
    const threads = (
      await s.request(dev.token, { method: 'GET', url: `${base}/merge_requests/1/discussions?per_page=100` })
    ).json()
    const id = threads.find((t: { notes: { id: number }[] }) => t.notes[0].id === lone.id).id
    const url = `${base}/merge_requests/1/discussions/${id}`
    expect(
      (
        await s.request(dev.token, { method: 'PUT', url: `${url}/notes/${lone.id}`, payload: { resolved: true } })
      ).json(),
    ).toEqual({ message: '400 Bad request - Note is not resolvable' })
    expect((await s.request(dev.token, { method: 'PUT', url, payload: { resolved: true } })).statusCode).toBe(403)
    await s.request(mentioned.token, { method: 'POST', url: `${url}/notes`, payload: { body: 'Reply' } })
    const after = (await s.request(dev.token, { method: 'GET', url })).json()
    expect(after.notes.map((n: { resolvable: boolean; type: string }) => [n.type, n.resolvable])).toEqual([
      ['DiscussionNote', true],
      ['DiscussionNote', true],
    ])
  })

  it('has no thread-resolving route on issues (GitLab resolves merge request threads only)', async () => {
    const thread = (
      await s.request(dev.token, {
        method: 'POST',
        url: `${base}/issues/1/discussions`,
        payload: { body: 'Issue thread' },
      })
    ).json()
    expect(thread.notes[0].resolvable).toBe(false)
    expect(
      (
        await s.request(dev.token, {
          method: 'PUT',
          url: `${base}/issues/1/discussions/${thread.id}`,
          payload: { resolved: true },
        })
      ).statusCode,
    ).toBe(404)
  })

  it('answers 404 for notes of an unknown merge request', async () => {
    expect((await s.request(dev.token, { method: 'GET', url: `${base}/merge_requests/99/notes` })).statusCode).toBe(404)
  })

  it('counts and lists the merge request that closes an issue', async () => {
    expect((await s.request(dev.token, { method: 'GET', url: `${base}/issues/1` })).json().merge_requests_count).toBe(1)
    const related = (
      await s.request(dev.token, { method: 'GET', url: `${base}/issues/1/related_merge_requests` })
    ).json()
    expect(related.map((m: { iid: number }) => m.iid)).toEqual([1])
    const closedBy = (await s.request(dev.token, { method: 'GET', url: `${base}/issues/1/closed_by` })).json()
    expect(closedBy.map((m: { iid: number }) => m.iid)).toEqual([1])
    for (const list of ['related_merge_requests', 'closed_by']) {
      const second = await s.request(dev.token, { method: 'GET', url: `${base}/issues/1/${list}?per_page=1&page=2` })
      expect([second.json(), second.headers['x-total']]).toEqual([[], '1'])
    }
  })
})
