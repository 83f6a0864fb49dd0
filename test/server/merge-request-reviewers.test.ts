import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedMember } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

type Json = Record<string, unknown>

describe('merge request reviewers', () => {
  let s: TestServer
  let projectId: number
  let author: SeededUser
  let ann: SeededUser
  let bob: SeededUser
  let seq = 0

  const api = async <T = Json>(token: string | null, method: string, url: string, payload?: Json, status = 200) => {
    const res = await s.request(token, {
      method: method as 'GET',
      url: `/api/v4${url}`,
      ...(payload ? { payload } : {}),
    })
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status)
    return (res.body === '' ? null : res.json()) as T
  }
  const mrPath = (iid: number) => `/projects/${projectId}/merge_requests/${iid}`
  const reviewers = (iid: number) => api<Json[]>(author.token, 'GET', `${mrPath(iid)}/reviewers`)
  const states = async (iid: number) => (await reviewers(iid)).map((r) => [(r.user as Json).id, r.state])
  const pendingTodos = async (user: SeededUser) =>
    (await api<Json[]>(user.token, 'GET', '/todos')).map((t) => [t.action_name, (t.target as Json).iid])

  /** A new merge request by the author from its own branch, with these reviewers. */
  const newMergeRequest = async (reviewerIds: number[], extra: Json = {}): Promise<number> => {
    seq += 1
    await api(
      ROOT_TOKEN,
      'POST',
      `/projects/${projectId}/repository/commits`,
      {
        branch: `review-${seq}`,
        start_branch: 'main',
        commit_message: `Change ${seq}`,
        actions: [{ action: 'create', file_path: `review-${seq}.txt`, content: 'x\n' }],
      },
      201,
    )
    const mr = await api(
      author.token,
      'POST',
      `/projects/${projectId}/merge_requests`,
      {
        source_branch: `review-${seq}`,
        target_branch: 'main',
        title: `Change ${seq}`,
        reviewer_ids: reviewerIds,
        ...extra,
      },
      201,
    )
    return mr.iid as number
  }

  beforeAll(async () => {
    s = await makeServer()
    author = seedUser(s)
    ann = seedUser(s)
    bob = seedUser(s)
    const project = await api(
      ROOT_TOKEN,
      'POST',
      '/projects',
      { name: 'reviewed', visibility: 'private', initialize_with_readme: true },
      201,
    )
    projectId = project.id as number
    for (const user of [author, ann, bob]) seedMember(s, 'Project', projectId, user.user.id, AccessLevel.DEVELOPER)
  })
  afterAll(async () => {
    await s.close()
  })

  it('lists reviewers with their review state and when they were asked', async () => {
    const iid = await newMergeRequest([ann.user.id, bob.user.id])
    expect(await reviewers(iid)).toEqual([
      {
        user: expect.objectContaining({ id: ann.user.id, username: ann.user.username }),
        state: 'unreviewed',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
      {
        user: expect.objectContaining({ id: bob.user.id, username: bob.user.username }),
        state: 'unreviewed',
        created_at: expect.any(String),
      },
    ])
    // Unknown merge requests, readers who cannot see the project and anonymous callers are refused.
    await api(author.token, 'GET', `${mrPath(999)}/reviewers`, undefined, 404)
    await api(seedUser(s).token, 'GET', `${mrPath(iid)}/reviewers`, undefined, 404)
    await api(null, 'GET', `${mrPath(iid)}/reviewers`, undefined, 401)
  })

  it('shows reviewers on every merge request answer: list, single, update and an issue’s related merge requests', async () => {
    const issue = await api(author.token, 'POST', `/projects/${projectId}/issues`, { title: 'Reviewed bug' }, 201)
    const iid = await newMergeRequest([ann.user.id], { description: `Closes #${issue.iid}` })
    const ids = (mr: Json) => (mr.reviewers as Json[]).map((u) => u.id)
    expect(ids(await api(author.token, 'GET', mrPath(iid)))).toEqual([ann.user.id])
    const listed = await api<Json[]>(author.token, 'GET', `/projects/${projectId}/merge_requests?iids[]=${iid}`)
    expect(listed.map(ids)).toEqual([[ann.user.id]])
    const updated = await api(author.token, 'PUT', mrPath(iid), { reviewer_ids: [ann.user.id, bob.user.id] })
    expect(ids(updated)).toEqual([ann.user.id, bob.user.id])
    const related = await api<Json[]>(
      author.token,
      'GET',
      `/projects/${projectId}/issues/${issue.iid}/related_merge_requests`,
    )
    expect(related.map(ids)).toEqual([[ann.user.id, bob.user.id]])
  })

  it('asks each newly added reviewer once with a review_requested to-do, never the one who asks', async () => {
    const iid = await newMergeRequest([ann.user.id])
    await api(author.token, 'PUT', mrPath(iid), { reviewer_ids: [ann.user.id, bob.user.id, author.user.id] })
    expect(await pendingTodos(ann)).toContainEqual(['review_requested', iid])
    expect((await pendingTodos(ann)).filter(([, target]) => target === iid)).toHaveLength(1)
    expect((await pendingTodos(bob)).filter(([, target]) => target === iid)).toEqual([['review_requested', iid]])
    expect((await pendingTodos(author)).filter(([, target]) => target === iid)).toEqual([])
  })

  it('keeps a reviewer’s state when the reviewer list changes, and starts over for one asked again', async () => {
    const iid = await newMergeRequest([ann.user.id])
    await api(ann.token, 'POST', `${mrPath(iid)}/approve`, {}, 201)
    await api(author.token, 'PUT', mrPath(iid), { reviewer_ids: [ann.user.id, bob.user.id] })
    expect(await states(iid)).toEqual([
      [ann.user.id, 'approved'],
      [bob.user.id, 'unreviewed'],
    ])
    await api(author.token, 'PUT', mrPath(iid), { reviewer_ids: [bob.user.id] })
    await api(author.token, 'PUT', mrPath(iid), { reviewer_ids: [bob.user.id, ann.user.id] })
    expect(await states(iid)).toEqual([
      [ann.user.id, 'unreviewed'],
      [bob.user.id, 'unreviewed'],
    ])
  })

  it('follows a review: started by a draft, reviewed when published (the review request done), approved, unapproved', async () => {
    const iid = await newMergeRequest([ann.user.id])
    expect(await pendingTodos(ann)).toContainEqual(['review_requested', iid])
    await api(ann.token, 'POST', `${mrPath(iid)}/draft_notes`, { note: 'Hm' }, 201)
    expect(await states(iid)).toEqual([[ann.user.id, 'review_started']])
    await api(ann.token, 'POST', `${mrPath(iid)}/draft_notes/bulk_publish`, {}, 204)
    expect(await states(iid)).toEqual([[ann.user.id, 'reviewed']])
    expect((await pendingTodos(ann)).filter(([, target]) => target === iid)).toEqual([])

    await api(ann.token, 'POST', `${mrPath(iid)}/approve`, {}, 201)
    expect(await states(iid)).toEqual([[ann.user.id, 'approved']])
    await api(ann.token, 'POST', `${mrPath(iid)}/unapprove`, {}, 201)
    expect(await states(iid)).toEqual([[ann.user.id, 'unapproved']])

    // Somebody who is not a reviewer leaves no review state behind.
    await api(bob.token, 'POST', `${mrPath(iid)}/draft_notes`, { note: 'Drive-by' }, 201)
    await api(bob.token, 'POST', `${mrPath(iid)}/approve`, {}, 201)
    expect(await states(iid)).toEqual([[ann.user.id, 'unapproved']])
  })

  it('filters lists by reviewer: None, Any, an id and a username', async () => {
    const none = await newMergeRequest([])
    const reviewed = await newMergeRequest([bob.user.id])
    const list = async (query: string) =>
      (await api<Json[]>(author.token, 'GET', `/projects/${projectId}/merge_requests?${query}&per_page=100`))
        .map((m) => m.iid as number)
        .filter((i) => i === none || i === reviewed)
    expect(await list('reviewer_id=None')).toEqual([none])
    expect(await list('reviewer_id=Any')).toEqual([reviewed])
    expect(await list(`reviewer_id=${bob.user.id}`)).toEqual([reviewed])
    expect(await list(`reviewer_username=${bob.user.username}`)).toEqual([reviewed])
    expect(await list('reviewer_username=None')).toEqual([none])
  })
})
