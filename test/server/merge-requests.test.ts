import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { closingReferences } from '../../src/server/modules/merge-requests/merge'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { commitFiles, makeWorkRepo, remoteUrl, sh } from '../helpers/git'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>

describe('merge requests: create, read, update, delete, lists, approvals', () => {
  let s: ListeningServer
  let dev: SeededUser
  let dev2: SeededUser
  let reporter: SeededUser
  let stranger: SeededUser
  let group: NamespaceRow
  let project: ProjectRow
  let path: string

  const api = async (
    token: string | null,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: Json,
    headers?: Record<string, string>,
  ) => {
    const res = await s.request(token, { method, url: `/api/v4${url}`, payload, headers })
    return {
      status: res.statusCode,
      body: res.body === '' ? null : (JSON.parse(res.body) as unknown),
      headers: res.headers,
    }
  }
  const create = async (token: string, payload: Json) =>
    api(token, 'POST', `/projects/${project.id}/merge_requests`, payload)
  const iidsOf = (body: unknown): number[] => (body as Json[]).map((m) => m.iid as number).sort((a, b) => a - b)

  beforeAll(async () => {
    s = await startServer()
    dev = seedUser(s)
    dev2 = seedUser(s)
    reporter = seedUser(s)
    stranger = seedUser(s)
    group = seedGroup(s, { visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'app' })
    path = `${group.full_path}/app`
    seedMember(s, 'Project', project.id, dev.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, dev2.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, reporter.user.id, AccessLevel.REPORTER)
    const work = makeWorkRepo()
    commitFiles(work, { 'README.md': '# app\n' }, 'Initial commit')
    const url = remoteUrl(s.url, path, dev.token)
    await sh(work, 'push', '--quiet', url, 'main')
    for (const branch of ['feature-a', 'feature-b', 'feature-c', 'feature-d', 'feature-e', 'feature-f']) {
      await sh(work, 'checkout', '--quiet', '-b', branch, 'main')
      commitFiles(work, { [`${branch}.txt`]: `${branch}\n` }, `Add ${branch}`)
      await sh(work, 'push', '--quiet', url, branch)
    }
  })
  afterAll(async () => {
    await s.close()
  })

  it('creates a merge request with 201, iid 1, labels, assignees, reviewers and diff refs', async () => {
    const res = await create(dev.token, {
      source_branch: 'feature-a',
      target_branch: 'main',
      title: 'Add feature A',
      description: '- [x] done\n- [ ] todo\n\nCloses #1',
      labels: 'backend,ui',
      assignee_ids: [dev2.user.id],
      reviewer_ids: [reporter.user.id],
    })
    expect(res.status).toBe(201)
    const mr = res.body as Json
    expect(mr).toMatchObject({
      iid: 1,
      project_id: project.id,
      source_project_id: project.id,
      target_project_id: project.id,
      state: 'opened',
      source_branch: 'feature-a',
      target_branch: 'main',
      labels: ['backend', 'ui'],
      draft: false,
      work_in_progress: false,
      has_conflicts: false,
      changes_count: '1',
      subscribed: true,
      pipeline: null,
      task_completion_status: { count: 2, completed_count: 1 },
      references: { short: '!1', relative: '!1', full: `${path}!1` },
      web_url: expect.stringMatching(new RegExp(`/${path}/-/merge_requests/1$`)),
    })
    expect((mr.assignees as Json[]).map((u) => u.id)).toEqual([dev2.user.id])
    expect((mr.assignee as Json).id).toBe(dev2.user.id)
    expect((mr.reviewers as Json[]).map((u) => u.id)).toEqual([reporter.user.id])
    expect((mr.diff_refs as Json).head_sha).toBe(mr.sha)
    expect(mr.time_stats).toEqual({
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    })
  })

  it('gives assignees an assigned to-do and reviewers a review_requested to-do', () => {
    const todos = s.app.burrow.db
      .prepare("SELECT user_id, action FROM todos WHERE target_type = 'MergeRequest' ORDER BY user_id")
      .all() as Json[]
    expect(todos).toEqual(
      expect.arrayContaining([
        { user_id: dev2.user.id, action: 'assigned' },
        { user_id: reporter.user.id, action: 'review_requested' },
      ]),
    )
  })

  it('lists a review request through GET /todos with the merge request as target and its URL', async () => {
    const res = await api(reporter.token, 'GET', '/todos?type=MergeRequest&action=review_requested')
    const todo = (res.body as Json[])[0]
    expect(todo).toMatchObject({
      target_type: 'MergeRequest',
      target: { iid: 1, project_id: project.id, title: expect.any(String) },
    })
    expect(todo.target_url).toBe((todo.target as Json).web_url)
  })

  it('records an opened event for the new merge request', async () => {
    const res = await api(ROOT_TOKEN, 'GET', `/projects/${project.id}/events?target_type=merge_request`)
    expect(
      (res.body as Json[]).some(
        (e) => e.action_name === 'opened' && e.target_type === 'MergeRequest' && e.target_iid === 1,
      ),
    ).toBe(true)
  })

  it('answers 409 naming the open merge request for the same source branch', async () => {
    const res = await create(dev.token, { source_branch: 'feature-a', target_branch: 'main', title: 'Again' })
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ message: ['Another open merge request already exists for this source branch: !1'] })
  })

  it('answers 400 for an unknown source or target branch and for missing parameters', async () => {
    expect((await create(dev.token, { source_branch: 'nope', target_branch: 'main', title: 'x' })).body).toEqual({
      message: { source_branch: ['does not exist'] },
    })
    expect((await create(dev.token, { source_branch: 'feature-b', target_branch: 'nope', title: 'x' })).body).toEqual({
      message: { target_branch: ['does not exist'] },
    })
    const missing = await create(dev.token, { source_branch: 'feature-b', target_branch: 'main' })
    expect(missing.status).toBe(400)
    expect(missing.body).toEqual({ error: 'title is missing' })
  })

  it('refuses creation to a Reporter (403) and hides a private project from strangers (404)', async () => {
    expect(
      (await create(reporter.token, { source_branch: 'feature-b', target_branch: 'main', title: 'x' })).status,
    ).toBe(403)
    expect(
      (await create(stranger.token, { source_branch: 'feature-b', target_branch: 'main', title: 'x' })).status,
    ).toBe(404)
  })

  it('derives draft from Draft:, [Draft] and (Draft) prefixes and work_in_progress also from WIP:', async () => {
    const b = await create(dev.token, {
      source_branch: 'feature-b',
      target_branch: 'main',
      title: 'Draft: B',
      labels: 'backend',
    })
    expect(b.body).toMatchObject({ iid: 2, draft: true, work_in_progress: true })
    const c = await create(dev2.token, { source_branch: 'feature-c', target_branch: 'main', title: 'WIP: C' })
    expect(c.body).toMatchObject({ iid: 3, draft: false, work_in_progress: true })
    const upd = await api(dev2.token, 'PUT', `/projects/${project.id}/merge_requests/3`, { title: '[Draft] C' })
    expect(upd.body).toMatchObject({ draft: true })
    expect(
      (await api(dev2.token, 'PUT', `/projects/${project.id}/merge_requests/3`, { title: '(Draft) C' })).body,
    ).toMatchObject({ draft: true })
    expect(
      (await api(dev2.token, 'PUT', `/projects/${project.id}/merge_requests/3`, { title: 'C' })).body,
    ).toMatchObject({ draft: false, work_in_progress: false })
  })

  it('applies the approvals_before_merge rule: inherited when omitted, raised only above a positive project value', async () => {
    const db = s.app.burrow.db
    expect(
      db
        .prepare('SELECT approvals_before_merge AS a FROM merge_requests WHERE iid = 1 AND project_id = ?')
        .get(project.id),
    ).toEqual({ a: 0 })
    db.prepare("UPDATE projects SET settings = json_set(settings, '$.approvals_before_merge', 2) WHERE id = ?").run(
      project.id,
    )
    const d = await create(dev.token, {
      source_branch: 'feature-d',
      target_branch: 'main',
      title: 'D',
      approvals_before_merge: 1,
    })
    expect(d.body).toMatchObject({ approvals_before_merge: 2 })
    const e = await create(dev.token, {
      source_branch: 'feature-e',
      target_branch: 'main',
      title: 'E',
      approvals_before_merge: 3,
    })
    expect(e.body).toMatchObject({ approvals_before_merge: 3 })
    db.prepare("UPDATE projects SET settings = json_set(settings, '$.approvals_before_merge', 0) WHERE id = ?").run(
      project.id,
    )
    // With no project requirement, a given value takes no effect either.
    const f = await create(dev.token, {
      source_branch: 'feature-f',
      target_branch: 'main',
      title: 'F',
      approvals_before_merge: 3,
    })
    expect(f.status).toBe(201)
    expect(f.body).toMatchObject({ approvals_before_merge: 0 })
    expect(
      (await api(ROOT_TOKEN, 'DELETE', `/projects/${project.id}/merge_requests/${(f.body as Json).iid}`)).status,
    ).toBe(204)
  })

  it('updates labels with add_labels/remove_labels, milestone and assignees, and answers 412 on a stale If-Unmodified-Since', async () => {
    const add = await api(dev.token, 'PUT', `/projects/${project.id}/merge_requests/1`, {
      add_labels: 'extra',
      remove_labels: 'ui',
    })
    expect((add.body as Json).labels).toEqual(['backend', 'extra'])
    const stale = await api(
      dev.token,
      'PUT',
      `/projects/${project.id}/merge_requests/1`,
      { title: 'x' },
      { 'if-unmodified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' },
    )
    expect(stale.status).toBe(412)
  })

  it("answers an update naming no field with Grape's at_least_one_of message, changing nothing", async () => {
    const before = await api(dev.token, 'GET', `/projects/${project.id}/merge_requests/1`)
    const res = await api(dev.token, 'PUT', `/projects/${project.id}/merge_requests/1`, {})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      error:
        'title, description, target_branch, state_event, labels, add_labels, remove_labels, assignee_id, assignee_ids, reviewer_ids, milestone_id, remove_source_branch, squash, discussion_locked, allow_collaboration, allow_maintainer_to_push are missing, at least one parameter must be provided',
    })
    const after = await api(dev.token, 'GET', `/projects/${project.id}/merge_requests/1`)
    expect((after.body as Json).updated_at).toBe((before.body as Json).updated_at)
  })

  it('closes and reopens with state_event and records closed and reopened events', async () => {
    const closed = await api(dev.token, 'PUT', `/projects/${project.id}/merge_requests/5`, { state_event: 'close' })
    expect(closed.body).toMatchObject({ state: 'closed', closed_by: { id: dev.user.id } })
    const reopened = await api(dev.token, 'PUT', `/projects/${project.id}/merge_requests/5`, { state_event: 'reopen' })
    expect(reopened.body).toMatchObject({ state: 'opened', closed_by: null, closed_at: null })
    const actions = (
      s.app.burrow.db
        .prepare("SELECT action FROM events WHERE target_type = 'MergeRequest' AND target_iid = 5")
        .all() as Json[]
    ).map((e) => e.action)
    expect(actions).toEqual(['created', 'closed', 'reopened'])
  })

  describe('lists', () => {
    const list = async (query: string, token = dev.token) =>
      api(token, 'GET', `/projects/${project.id}/merge_requests?${query}`)

    it("lists a project's merge requests newest first with pagination headers", async () => {
      const res = await list('per_page=2')
      expect(res.status).toBe(200)
      expect((res.body as Json[]).map((m) => m.iid)).toEqual([5, 4])
      expect(res.headers['x-total']).toBe('5')
    })

    it('filters by state, labels, None/Any labels and not[labels]', async () => {
      await api(dev.token, 'PUT', `/projects/${project.id}/merge_requests/4`, { state_event: 'close' })
      expect(iidsOf((await list('state=closed')).body)).toEqual([4])
      expect(iidsOf((await list('state=opened')).body)).toEqual([1, 2, 3, 5])
      expect(iidsOf((await list('labels=backend')).body)).toEqual([1, 2])
      expect(iidsOf((await list('labels=backend,extra')).body)).toEqual([1])
      expect(iidsOf((await list('labels=None')).body)).toEqual([3, 4, 5])
      expect(iidsOf((await list('labels=Any')).body)).toEqual([1, 2])
      expect(iidsOf((await list('not[labels]=extra')).body)).toEqual([2, 3, 4, 5])
    })

    it('filters by author, assignee and reviewer (ids, usernames, None, Any) and rejects both reviewer forms', async () => {
      expect(iidsOf((await list(`author_id=${dev2.user.id}`)).body)).toEqual([3])
      expect(iidsOf((await list(`author_username=${dev.user.username}`)).body)).toEqual([1, 2, 4, 5])
      expect(iidsOf((await list(`not[author_id]=${dev.user.id}`)).body)).toEqual([3])
      expect(iidsOf((await list(`assignee_id=${dev2.user.id}`)).body)).toEqual([1])
      expect(iidsOf((await list('assignee_id=None')).body)).toEqual([2, 3, 4, 5])
      expect(iidsOf((await list(`reviewer_username=${reporter.user.username}`)).body)).toEqual([1])
      expect(iidsOf((await list('reviewer_id=Any')).body)).toEqual([1])
      expect(iidsOf((await list(`not[reviewer_id]=${reporter.user.id}`)).body)).toEqual([2, 3, 4, 5])
      const both = await list(`reviewer_id=1&reviewer_username=x`)
      expect(both.status).toBe(400)
    })

    it('filters by source and target branch, iids, search with in, wip and created range', async () => {
      expect(iidsOf((await list('source_branch=feature-b')).body)).toEqual([2])
      expect(iidsOf((await list('target_branch=other')).body)).toEqual([])
      expect(iidsOf((await list('iids[]=1&iids[]=3')).body)).toEqual([1, 3])
      expect(iidsOf((await list('search=feature%20A')).body)).toEqual([1])
      expect(iidsOf((await list('search=todo&in=title')).body)).toEqual([])
      expect(iidsOf((await list('search=todo&in=description')).body)).toEqual([1])
      expect(iidsOf((await list('wip=yes')).body)).toEqual([2])
      expect(iidsOf((await list('wip=no')).body)).toEqual([1, 3, 4, 5])
      expect(iidsOf((await list('created_after=2999-01-01T00:00:00Z')).body)).toEqual([])
      expect(iidsOf((await list('created_before=2999-01-01T00:00:00Z')).body)).toEqual([1, 2, 3, 4, 5])
    })

    it('refuses iids that are not integers and a view other than simple with 400, as Grape types them', async () => {
      expect(await list('iids[]=1&iids[]=abc')).toMatchObject({ status: 400, body: { error: 'iids is invalid' } })
      expect(await list('iids=x')).toMatchObject({ status: 400, body: { error: 'iids is invalid' } })
      expect(iidsOf((await list('iids=1,3')).body)).toEqual([1, 3])
      expect(await list('view=full')).toMatchObject({
        status: 400,
        body: { error: 'view does not have a valid value' },
      })
    })

    it('filters by milestone title, None and Any', async () => {
      const ms = await api(dev.token, 'POST', `/projects/${project.id}/milestones`, { title: 'v1' })
      await api(dev.token, 'PUT', `/projects/${project.id}/merge_requests/2`, { milestone_id: (ms.body as Json).id })
      expect(iidsOf((await list('milestone=v1')).body)).toEqual([2])
      expect(iidsOf((await list('milestone=Any')).body)).toEqual([2])
      expect(iidsOf((await list('milestone=None')).body)).toEqual([1, 3, 4, 5])
      expect(iidsOf((await list('not[milestone]=v1')).body)).toEqual([1, 3, 4, 5])
    })

    it('filters by my_reaction_emoji and matches nothing for deployment filters', async () => {
      s.app.burrow.db
        .prepare(
          "INSERT INTO award_emoji (name, user_id, awardable_type, awardable_id, created_at, updated_at) SELECT 'thumbsup', ?, 'MergeRequest', id, 'x', 'x' FROM merge_requests WHERE iid = 3 AND project_id = ?",
        )
        .run(dev.user.id, project.id)
      expect(iidsOf((await list('my_reaction_emoji=thumbsup')).body)).toEqual([3])
      expect(iidsOf((await list('my_reaction_emoji=None')).body)).toEqual([1, 2, 4, 5])
      expect(((await api(dev.token, 'GET', `/projects/${project.id}/merge_requests/3`)).body as Json).upvotes).toBe(1)
      expect(iidsOf((await list('environment=production')).body)).toEqual([])
    })

    it('orders by title ascending and returns the simple view', async () => {
      const res = await list('order_by=title&sort=asc&view=simple&state=opened')
      const rows = res.body as Json[]
      expect(rows.map((m) => m.title)).toEqual(['Add feature A', 'C', 'Draft: B', 'E'])
      expect(Object.keys(rows[0]).sort()).toEqual([
        'created_at',
        'description',
        'id',
        'iid',
        'project_id',
        'state',
        'title',
        'updated_at',
        'web_url',
      ])
    })

    it('returns label details with with_labels_details', async () => {
      const res = await list('with_labels_details=true&iids[]=1')
      expect((res.body as Json[])[0].labels).toEqual([
        expect.objectContaining({ name: 'backend', color: expect.any(String), text_color: expect.any(String) }),
        expect.objectContaining({ name: 'extra' }),
      ])
    })

    it("scopes GET /merge_requests to the caller's merge requests by default, assigned_to_me and all", async () => {
      expect(iidsOf((await api(dev2.token, 'GET', '/merge_requests')).body)).toEqual([3])
      expect(iidsOf((await api(dev2.token, 'GET', '/merge_requests?scope=assigned_to_me')).body)).toEqual([1])
      expect(iidsOf((await api(dev2.token, 'GET', '/merge_requests?scope=all')).body)).toEqual([1, 2, 3, 4, 5])
      expect(iidsOf((await api(stranger.token, 'GET', '/merge_requests?scope=all')).body)).toEqual([])
      expect((await api(null, 'GET', '/merge_requests')).status).toBe(401)
      // Every merge request call is authenticated (the spec), even on a public project.
      expect((await api(null, 'GET', '/merge_requests?scope=all')).body).toEqual({ message: '401 Unauthorized' })
      const pub = (await api(ROOT_TOKEN, 'POST', '/projects', { name: 'public-mrs', visibility: 'public' }))
        .body as Json
      for (const url of [
        `/projects/${pub.id}/merge_requests`,
        `/projects/${pub.id}/merge_requests/1`,
        `/projects/${pub.id}/merge_requests/1/notes`,
        `/projects/${pub.id}/merge_requests/1/award_emoji`,
      ]) {
        expect((await api(null, 'GET', url)).status).toBe(401)
      }
      const full = (await api(dev2.token, 'GET', '/merge_requests?scope=all&iids[]=1')).body as Json[]
      expect(full[0].references).toMatchObject({ relative: `${path}!1` })
    })

    it('combines scope with author_id and leaves out archived projects unless non_archived=false', async () => {
      expect(iidsOf((await api(dev2.token, 'GET', `/merge_requests?author_id=${dev.user.id}`)).body)).toEqual([])
      expect(iidsOf((await api(dev2.token, 'GET', `/merge_requests?scope=all&author_id=${dev.user.id}`)).body)).toEqual(
        [1, 2, 4, 5],
      )
      s.app.burrow.db.prepare('UPDATE projects SET archived = 1 WHERE id = ?').run(project.id)
      try {
        expect(iidsOf((await api(dev2.token, 'GET', '/merge_requests?scope=all')).body)).toEqual([])
        expect(iidsOf((await api(dev2.token, 'GET', '/merge_requests?scope=all&non_archived=false')).body)).toEqual([
          1, 2, 3, 4, 5,
        ])
      } finally {
        s.app.burrow.db.prepare('UPDATE projects SET archived = 0 WHERE id = ?').run(project.id)
      }
    })

    it("lists a group's merge requests with references relative to the group", async () => {
      const res = await api(dev.token, 'GET', `/groups/${group.id}/merge_requests?state=opened&iids[]=1`)
      expect((res.body as Json[]).map((m) => m.references)).toEqual([
        { short: '!1', relative: 'app!1', full: `${path}!1` },
      ])
    })

    it('filters by approved_by_ids and refuses more than five ids with 400', async () => {
      const approve = await api(dev.token, 'POST', `/projects/${project.id}/merge_requests/3/approve`)
      expect(approve.status).toBe(201)
      expect(iidsOf((await list(`approved_by_ids[]=${dev.user.id}`)).body)).toEqual([3])
      expect(iidsOf((await list('approved_by_ids=None&state=opened')).body)).toEqual([1, 2, 5])
      expect(
        (
          await list(
            'approved_by_ids[]=1&approved_by_ids[]=2&approved_by_ids[]=3&approved_by_ids[]=4&approved_by_ids[]=5&approved_by_ids[]=6',
          )
        ).status,
      ).toBe(400)
    })
  })

  describe('approvals', () => {
    it('lets a Developer approve once (401 the second time), shows approved_by, and unapproves (404 when not approved)', async () => {
      const first = await api(dev2.token, 'POST', `/projects/${project.id}/merge_requests/1/approve`)
      expect(first.status).toBe(201)
      expect(first.body).toMatchObject({
        iid: 1,
        approved: true,
        user_has_approved: true,
        approved_by: [{ user: { id: dev2.user.id } }],
      })
      expect((await api(dev2.token, 'POST', `/projects/${project.id}/merge_requests/1/approve`)).status).toBe(401)
      const approvals = await api(dev.token, 'GET', `/projects/${project.id}/merge_requests/1/approvals`)
      expect((approvals.body as Json).approved_by).toHaveLength(1)
      expect((await api(dev2.token, 'POST', `/projects/${project.id}/merge_requests/1/unapprove`)).status).toBe(201)
      expect((await api(dev2.token, 'POST', `/projects/${project.id}/merge_requests/1/unapprove`)).status).toBe(404)
    })

    it('refuses self-approval by the author with 401 and approval with a stale sha with 409', async () => {
      expect((await api(dev.token, 'POST', `/projects/${project.id}/merge_requests/1/approve`)).status).toBe(401)
      expect(
        (await api(dev2.token, 'POST', `/projects/${project.id}/merge_requests/1/approve`, { sha: '0'.repeat(40) }))
          .status,
      ).toBe(409)
    })

    it('records an approved event', () => {
      const row = s.app.burrow.db
        .prepare("SELECT COUNT(*) AS n FROM events WHERE action = 'approved' AND target_type = 'MergeRequest'")
        .get() as Json
      expect(row.n).toBeGreaterThanOrEqual(1)
    })
  })

  it('subscribes (304 when already subscribed) and unsubscribes (304 when not)', async () => {
    expect((await api(stranger.token, 'POST', `/projects/${project.id}/merge_requests/1/subscribe`)).status).toBe(404)
    expect((await api(dev.token, 'POST', `/projects/${project.id}/merge_requests/1/subscribe`)).status).toBe(304)
    const off = await api(dev.token, 'POST', `/projects/${project.id}/merge_requests/1/unsubscribe`)
    expect(off.body).toMatchObject({ subscribed: false })
    expect((await api(dev.token, 'POST', `/projects/${project.id}/merge_requests/1/unsubscribe`)).status).toBe(304)
  })

  it('marks a to-do (201) and answers 304 for a second one', async () => {
    const todo = await api(reporter.token, 'POST', `/projects/${project.id}/merge_requests/1/todo`)
    expect(todo.status).toBe(201)
    expect(todo.body).toMatchObject({
      action_name: 'marked',
      target_type: 'MergeRequest',
      target: { iid: 1 },
      state: 'pending',
    })
    expect((await api(reporter.token, 'POST', `/projects/${project.id}/merge_requests/1/todo`)).status).toBe(304)
  })

  it('tracks time: estimate (200), spent time (201), resets (200), as GitLab answers them', async () => {
    const est = await api(dev.token, 'POST', `/projects/${project.id}/merge_requests/1/time_estimate`, {
      duration: '1h30m',
    })
    expect(est).toMatchObject({ status: 200, body: { time_estimate: 5400, human_time_estimate: '1h 30m' } })
    const spent = await api(dev.token, 'POST', `/projects/${project.id}/merge_requests/1/add_spent_time`, {
      duration: '1w 2h',
    })
    expect(spent).toMatchObject({ status: 201, body: { total_time_spent: 151200, human_total_time_spent: '1w 2h' } })
    expect(
      ((await api(dev.token, 'GET', `/projects/${project.id}/merge_requests/1`)).body as Json).time_stats,
    ).toMatchObject({ time_estimate: 5400, total_time_spent: 151200 })
    expect(await api(dev.token, 'POST', `/projects/${project.id}/merge_requests/1/reset_spent_time`)).toMatchObject({
      status: 200,
      body: { total_time_spent: 0 },
    })
    expect(await api(dev.token, 'POST', `/projects/${project.id}/merge_requests/1/reset_time_estimate`)).toMatchObject({
      status: 200,
      body: { time_estimate: 0 },
    })
  })

  it('lists changes, diffs, commits and participants', async () => {
    const changes = (await api(dev.token, 'GET', `/projects/${project.id}/merge_requests/1/changes`)).body as Json
    expect(changes.overflow).toBe(false)
    expect((changes.changes as Json[]).map((c) => c.new_path)).toEqual(['feature-a.txt'])
    expect(
      ((await api(dev.token, 'GET', `/projects/${project.id}/merge_requests/1/diffs`)).body as Json[])[0],
    ).toMatchObject({ new_path: 'feature-a.txt', new_file: true })
    expect(
      ((await api(dev.token, 'GET', `/projects/${project.id}/merge_requests/1/commits`)).body as Json[]).map(
        (c) => c.title,
      ),
    ).toEqual(['Add feature-a'])
    const participants = (await api(dev.token, 'GET', `/projects/${project.id}/merge_requests/1/participants`))
      .body as Json[]
    expect(participants.map((u) => u.id)).toEqual([dev.user.id, dev2.user.id, reporter.user.id])
  })

  it('reports overflow when the changes pass the diff limits', async () => {
    s.app.burrow.settings.update({ diff_max_files: 0 })
    try {
      const changes = (await api(dev.token, 'GET', `/projects/${project.id}/merge_requests/1/changes`)).body as Json
      expect(changes.overflow).toBe(true)
      const raw = (
        await api(dev.token, 'GET', `/projects/${project.id}/merge_requests/1/changes?access_raw_diffs=true`)
      ).body as Json
      expect(raw.changes).toHaveLength(1)
    } finally {
      s.app.burrow.settings.update({ diff_max_files: 1000 })
    }
  })

  it("parses GitLab's closing patterns and lists the referenced issues from closes_issues", async () => {
    expect((await api(dev.token, 'GET', `/projects/${project.id}/merge_requests/1/closes_issues`)).body).toEqual([])
    const issue = (await api(dev.token, 'POST', `/projects/${project.id}/issues`, { title: 'Bug' })).body as Json
    await api(dev.token, 'PUT', `/projects/${project.id}/merge_requests/1`, {
      description: `Fixes #${issue.iid as number}, #999`,
    })
    const closes = (await api(dev.token, 'GET', `/projects/${project.id}/merge_requests/1/closes_issues`))
      .body as Json[]
    expect(closes.map((i) => [i.iid, i.title])).toEqual([[issue.iid, 'Bug']])
    expect(closingReferences('Closes #1\nFixes #2, #3 and #4\nResolves group/project#5\nmentions #9')).toEqual([
      { projectPath: null, iid: 1 },
      { projectPath: null, iid: 2 },
      { projectPath: null, iid: 3 },
      { projectPath: null, iid: 4 },
      { projectPath: 'group/project', iid: 5 },
    ])
  })

  it('counts open merge requests per label with with_counts', async () => {
    const labels = (await api(dev.token, 'GET', `/projects/${project.id}/labels?with_counts=true`)).body as Json[]
    const backend = labels.find((l) => l.name === 'backend')
    expect(backend?.open_merge_requests_count).toBe(2)
  })

  it("lists a milestone's merge requests", async () => {
    const ms = ((await api(dev.token, 'GET', `/projects/${project.id}/milestones?title=v1`)).body as Json[])[0]
    const res = await api(dev.token, 'GET', `/projects/${project.id}/milestones/${ms.id as number}/merge_requests`)
    expect((res.body as Json[]).map((m) => m.iid)).toEqual([2])
  })

  it('awards emoji on a merge request and counts them as upvotes', async () => {
    const award = await api(dev2.token, 'POST', `/projects/${project.id}/merge_requests/2/award_emoji`, {
      name: 'thumbsup',
    })
    expect(award.status).toBe(201)
    expect(((await api(dev.token, 'GET', `/projects/${project.id}/merge_requests/2`)).body as Json).upvotes).toBe(1)
  })

  it('follows merge_requests_access_level: private hides them from non-members of a public project, disabled from everyone (403)', async () => {
    const pub = seedProject(s, { namespaceId: group.id, path: 'public-app', visibility: 'public' })
    const setLevel = (level: string) =>
      s.app.burrow.db
        .prepare("UPDATE projects SET settings = json_set(settings, '$.merge_requests_access_level', ?) WHERE id = ?")
        .run(level, pub.id)
    expect((await api(stranger.token, 'GET', `/projects/${pub.id}/merge_requests`)).status).toBe(200)
    setLevel('private')
    expect((await api(stranger.token, 'GET', `/projects/${pub.id}/merge_requests`)).status).toBe(403)
    setLevel('disabled')
    expect((await api(ROOT_TOKEN, 'GET', `/projects/${pub.id}/merge_requests`)).status).toBe(403)
    expect((await api(dev.token, 'GET', `/projects/${project.id}/merge_requests/1`)).status).toBe(200)
  })

  it('deletes a merge request as Owner (204) and refuses a Developer (403)', async () => {
    expect((await api(dev.token, 'DELETE', `/projects/${project.id}/merge_requests/5`)).status).toBe(403)
    expect((await api(ROOT_TOKEN, 'DELETE', `/projects/${project.id}/merge_requests/5`)).status).toBe(204)
    expect((await api(ROOT_TOKEN, 'GET', `/projects/${project.id}/merge_requests/5`)).status).toBe(404)
  })
})
