import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedMember } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

describe('quick actions in merge request comments', () => {
  let s: TestServer
  let dev: SeededUser
  let reviewer: SeededUser
  let reporter: SeededUser
  let base: string
  let branches = 0

  async function call(
    token: string,
    method: 'GET' | 'POST',
    url: string,
    payload?: Json,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ): Promise<{ statusCode: number; body: any }> {
    const res = await s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
    return { statusCode: res.statusCode, body: res.body ? JSON.parse(res.body) : null }
  }
  async function mergeRequest(title = 'Change'): Promise<number> {
    const branch = `change-${++branches}`
    const commit = await call(dev.token, 'POST', `${base}/repository/commits`, {
      branch,
      start_branch: 'main',
      commit_message: branch,
      actions: [{ action: 'create', file_path: `${branch}.txt`, content: branch }],
    })
    expect(commit.statusCode).toBe(201)
    return (
      await call(dev.token, 'POST', `${base}/merge_requests`, { source_branch: branch, target_branch: 'main', title })
    ).body.iid as number
  }
  const comment = (iid: number, body: string, token = dev.token) =>
    call(token, 'POST', `${base}/merge_requests/${iid}/notes`, { body })
  const show = async (iid: number): Promise<Json> =>
    (await call(dev.token, 'GET', `${base}/merge_requests/${iid}`)).body as Json

  beforeAll(async () => {
    s = await makeServer()
    dev = seedUser(s, { username: 'devon' })
    reviewer = seedUser(s, { username: 'reva' })
    reporter = seedUser(s, { username: 'reed' })
    const project = (await call(ROOT_TOKEN, 'POST', '/projects', { name: 'mr-quick', initialize_with_readme: true }))
      .body
    base = `/projects/${project.id}`
    seedMember(s, 'Project', project.id, dev.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, reviewer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, reporter.user.id, AccessLevel.REPORTER)
    expect((await call(ROOT_TOKEN, 'POST', `${base}/milestones`, { title: 'v2' })).statusCode).toBe(201)
  })
  afterAll(async () => {
    await s.close()
  })

  it('labels, assigns, asks for a review, sets the milestone and tracks time, keeping the rest of the comment', async () => {
    const iid = await mergeRequest()
    const r = await comment(
      iid,
      'Triage done.\n/label ~backend\n/assign @devon\n/assign_reviewer @reva\n/milestone %v2\n/estimate 2h\n/spend 30m',
    )
    expect(r.statusCode).toBe(201)
    expect(r.body.body).toBe('Triage done.')
    const mr = await show(iid)
    expect(mr).toMatchObject({
      labels: ['backend'],
      assignees: [{ username: 'devon' }],
      reviewers: [{ username: 'reva' }],
      milestone: { title: 'v2' },
    })
    expect(mr.time_stats).toMatchObject({ time_estimate: 7200, total_time_spent: 1800 })
    const todos = (await call(reviewer.token, 'GET', '/todos')).body as Json[]
    expect(todos.map((t) => [t.action_name, t.target.iid])).toEqual([['review_requested', iid]])
  })

  it('/draft and /ready change the title prefix; /title renames', async () => {
    const iid = await mergeRequest('Polish')
    expect((await comment(iid, '/draft')).body).toEqual({
      commands_changes: { draft: true },
      summary: ['Marked this merge request as a draft.'],
    })
    expect(await show(iid)).toMatchObject({ title: 'Draft: Polish', draft: true })
    await comment(iid, '/ready')
    expect(await show(iid)).toMatchObject({ title: 'Polish', draft: false })
    await comment(iid, '/title Polish the login page')
    expect((await show(iid)).title).toBe('Polish the login page')
  })

  it('/approve and /unapprove as the reviewer; /close and /reopen record events', async () => {
    const iid = await mergeRequest()
    expect((await comment(iid, '/approve', reviewer.token)).body.summary).toEqual([
      'Approved the current merge request.',
    ])
    const approvals = (await call(dev.token, 'GET', `${base}/merge_requests/${iid}/approvals`)).body
    expect(approvals.approved_by.map((a: Json) => a.user.username)).toEqual(['reva'])
    await comment(iid, '/unapprove', reviewer.token)
    expect((await call(dev.token, 'GET', `${base}/merge_requests/${iid}/approvals`)).body.approved_by).toEqual([])
    await comment(iid, '/close')
    expect((await show(iid)).state).toBe('closed')
    await comment(iid, '/reopen')
    expect((await show(iid)).state).toBe('opened')
    // GitLab names a reopening `opened` too; the action filter tells them apart.
    const events = (await call(ROOT_TOKEN, 'GET', `${base}/events?target_type=merge_request`)).body as Json[]
    expect(
      events
        .filter((e) => e.target_iid === iid)
        .map((e) => e.action_name)
        .sort(),
    ).toEqual(['approved', 'closed', 'opened', 'opened'])
    const reopened = (await call(ROOT_TOKEN, 'GET', `${base}/events?target_type=merge_request&action=reopened`))
      .body as Json[]
    expect(reopened.map((e) => e.target_iid)).toEqual([iid])
  })

  it('leaves commands a Reporter may not run as text, and /approve for an author who may not approve', async () => {
    const iid = await mergeRequest()
    const r = await comment(iid, '/label ~nope\n/close', reporter.token)
    expect(r.body.body).toBe('/label ~nope\n/close')
    expect((await comment(iid, '/approve')).body.body).toBe('/approve')
    expect((await show(iid)).labels).toEqual([])
  })

  it('never offers merge request commands on issues', async () => {
    const issue = (await call(dev.token, 'POST', `${base}/issues`, { title: 'Not an MR' })).body
    expect((await call(dev.token, 'POST', `${base}/issues/${issue.iid}/notes`, { body: '/draft' })).body.body).toBe(
      '/draft',
    )
  })
})
