import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { mergeabilityIdle } from '../../src/server/modules/merge-requests/mergeability'
import { seedMember } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

describe('/merge, /rebase, /target_branch and the issuable commands on merge requests', () => {
  let s: TestServer
  let dev: SeededUser
  let maintainer: SeededUser
  let reporter: SeededUser
  let base: string
  let branches = 0

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
  async function commit(branch: string, start?: string): Promise<void> {
    const file = `${branch}-${++branches}.txt`
    const r = await call(start ? dev.token : ROOT_TOKEN, 'POST', `${base}/repository/commits`, {
      branch,
      ...(start ? { start_branch: start } : {}),
      commit_message: file,
      actions: [{ action: 'create', file_path: file, content: file }],
    })
    expect(r.statusCode).toBe(201)
  }
  async function mergeRequest(title = 'Change'): Promise<Json> {
    const branch = `change-${++branches}`
    await commit(branch, 'main')
    const mr = (
      await call(dev.token, 'POST', `${base}/merge_requests`, { source_branch: branch, target_branch: 'main', title })
    ).body as Json
    await mergeabilityIdle(s.app.burrow)
    return show(mr.iid as number)
  }
  const comment = (iid: number, body: string, token = dev.token, extra: Json = {}) =>
    call(token, 'POST', `${base}/merge_requests/${iid}/notes`, { body, ...extra })
  const show = async (iid: number): Promise<Json> =>
    (await call(dev.token, 'GET', `${base}/merge_requests/${iid}?include_rebase_in_progress=true`)).body as Json

  beforeAll(async () => {
    s = await makeServer()
    dev = seedUser(s, { username: 'dana' })
    maintainer = seedUser(s, { username: 'mona' })
    reporter = seedUser(s, { username: 'remy' })
    const project = (await call(ROOT_TOKEN, 'POST', '/projects', { name: 'merge-quick', initialize_with_readme: true }))
      .body
    base = `/projects/${project.id}`
    seedMember(s, 'Project', project.id, dev.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, reporter.user.id, AccessLevel.REPORTER)
    // main is protected: Maintainers merge into it.
    seedMember(s, 'Project', project.id, maintainer.user.id, AccessLevel.MAINTAINER)
  })
  afterAll(async () => {
    await s.close()
  })

  it('/merge with the head SHA merges now, through the merge service, and records the merged event', async () => {
    const mr = await mergeRequest()
    const r = await comment(mr.iid, '/merge', maintainer.token, { merge_request_diff_head_sha: mr.sha })
    expect([r.statusCode, r.body]).toEqual([
      202,
      { commands_changes: { merge: mr.sha }, summary: ['Merged this merge request.'] },
    ])
    const merged = await show(mr.iid)
    expect(merged).toMatchObject({ state: 'merged', merged_by: { username: 'mona' } })
    expect(merged.merge_commit_sha).toEqual(expect.any(String))
    const events = (await call(ROOT_TOKEN, 'GET', `${base}/events?action=merged`)).body as Json[]
    expect(events.map((e) => e.target_iid)).toContain(mr.iid)
  })

  it('/merge keeps the rest of the comment, which is saved before the merge', async () => {
    const mr = await mergeRequest()
    const r = await comment(mr.iid, 'Shipping it.\n/merge', maintainer.token, { merge_request_diff_head_sha: mr.sha })
    expect([r.statusCode, r.body.body, r.body.commands_changes]).toEqual([201, 'Shipping it.', { merge: mr.sha }])
    expect((await show(mr.iid)).state).toBe('merged')
  })

  it('/merge without the head SHA, or with a stale one, says so and merges nothing', async () => {
    const mr = await mergeRequest()
    expect((await comment(mr.iid, '/merge', maintainer.token)).body).toEqual({
      commands_changes: {},
      summary: ['The `/merge` quick action requires the SHA of the head of the branch.'],
    })
    expect(
      (await comment(mr.iid, '/merge', maintainer.token, { merge_request_diff_head_sha: '0'.repeat(40) })).body.summary,
    ).toEqual(['Branch has been updated since the merge was requested.'])
    expect((await show(mr.iid)).state).toBe('opened')
  })

  it('a Reporter, a Developer on the protected target, a draft and a project whose pipelines must succeed keep /merge as text', async () => {
    const mr = await mergeRequest()
    const byReporter = await comment(mr.iid, '/merge', reporter.token, { merge_request_diff_head_sha: mr.sha })
    expect([byReporter.statusCode, byReporter.body.body]).toEqual([201, '/merge'])
    expect((await comment(mr.iid, '/merge', dev.token, { merge_request_diff_head_sha: mr.sha })).body.body).toBe(
      '/merge',
    )
    const draft = await mergeRequest('Draft: not yet')
    expect(
      (await comment(draft.iid, '/merge', maintainer.token, { merge_request_diff_head_sha: draft.sha })).body.body,
    ).toBe('/merge')
    expect((await call(ROOT_TOKEN, 'PUT', base, { only_allow_merge_if_pipeline_succeeds: true })).statusCode).toBe(200)
    expect((await comment(mr.iid, '/merge', maintainer.token, { merge_request_diff_head_sha: mr.sha })).body.body).toBe(
      '/merge',
    )
    expect((await call(ROOT_TOKEN, 'PUT', base, { only_allow_merge_if_pipeline_succeeds: false })).statusCode).toBe(200)
    expect((await show(mr.iid)).state).toBe('opened')
  })

  it('/rebase replays the source branch on the target (and wins over /merge in the same note)', async () => {
    const mr = await mergeRequest()
    await commit('main')
    const mainHead = (await call(dev.token, 'GET', `${base}/repository/branches/main`)).body.commit.id as string
    const r = await comment(mr.iid, '/rebase\n/merge', maintainer.token, { merge_request_diff_head_sha: mr.sha })
    expect(r.body).toEqual({
      commands_changes: { rebase: true },
      summary: [`Scheduled a rebase of branch ${mr.source_branch}.`],
    })
    await mergeabilityIdle(s.app.burrow)
    const after = await show(mr.iid)
    expect(after).toMatchObject({ state: 'opened', rebase_in_progress: false, merge_error: null })
    const head = (await call(dev.token, 'GET', `${base}/repository/commits/${mr.source_branch}`)).body as Json
    expect(head.parent_ids).toEqual([mainHead])
  })

  it("/rebase needs push rights on the source branch: a Reporter's stays text", async () => {
    const mr = await mergeRequest()
    expect((await comment(mr.iid, '/rebase', reporter.token)).body.body).toBe('/rebase')
  })

  it('/target_branch retargets to an existing branch; an unknown branch is ignored; Reporters may not', async () => {
    await commit('stable', 'main')
    const mr = await mergeRequest()
    expect((await comment(mr.iid, '/target_branch stable')).body).toEqual({
      commands_changes: { target_branch: 'stable' },
      summary: ['Set target branch to stable.'],
    })
    expect((await show(mr.iid)).target_branch).toBe('stable')
    expect((await comment(mr.iid, '/target_branch no-such-branch')).body).toEqual({ commands_changes: {}, summary: [] })
    expect((await show(mr.iid)).target_branch).toBe('stable')
    expect((await comment(mr.iid, '/target_branch main', reporter.token)).body.body).toBe('/target_branch main')
  })

  it('/todo, /subscribe, /award and /copy_metadata work on merge requests too; /weight does not', async () => {
    const source = await mergeRequest()
    expect(
      (await call(dev.token, 'PUT', `${base}/merge_requests/${source.iid}`, { labels: 'backend' })).statusCode,
    ).toBe(200)
    const mr = await mergeRequest()
    const r = await comment(mr.iid, `/todo\n/unsubscribe\n/award :rocket:\n/copy_metadata !${source.iid}`)
    expect(r.body.summary).toEqual([
      'Added a to-do item.',
      'Unsubscribed from notifications.',
      'Toggled :rocket: emoji reaction.',
      `Copied labels and milestone from !${source.iid}.`,
    ])
    expect((await show(mr.iid)).labels).toEqual(['backend'])
    expect(((await call(dev.token, 'GET', '/todos')).body as Json[]).map((t) => t.target.iid)).toEqual([mr.iid])
    expect(
      ((await call(dev.token, 'GET', `${base}/merge_requests/${mr.iid}/award_emoji`)).body as Json[]).map(
        (e) => e.name,
      ),
    ).toEqual(['rocket'])
    expect((await comment(mr.iid, '/weight 2')).body.body).toBe('/weight 2')
  })
})
