import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { reviewHandlers } from '../../src/main/core/outbox/review-channels'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedMember } from '../helpers/fixtures'
import { makeOutboxWorld, type Json, type OutboxWorld } from '../helpers/outbox-world'
import { seedUser, type SeededUser } from '../helpers/server'

/*
 * A review written offline and published when the server is back, against a real Burrow Server's
 * Draft notes API behind a proxy that can lose requests or their answers: the drafts become
 * draft notes and are published once, with the approval behind them; a submission whose answer
 * was lost is looked up, and sent again only for what the server lacks.
 */

let w: OutboxWorld
/** Who opens the merge requests: an author does not approve their own. */
let author: SeededUser
let branches = 0
beforeAll(async () => {
  w = await makeOutboxWorld({ timeoutMs: 1_500 })
  await w.api('POST', `/projects/${w.project.id}/repository/commits`, {
    branch: 'main',
    commit_message: 'First',
    actions: [{ action: 'create', file_path: 'README.md', content: 'hello\n' }],
  })
  author = seedUser(w.server, { name: 'Ada Author' })
  seedMember(w.server, 'Project', w.project.id, author.user.id, AccessLevel.DEVELOPER)
})
afterAll(async () => w.close())
afterEach(() => {
  w.proxy.mode = 'pass'
  w.proxy.only = null
})

const handlers = () => reviewHandlers(() => ({ outbox: w.outbox, accounts: w.accounts }))

async function cachedMergeRequest(): Promise<Json> {
  const branch = `publish-${++branches}`
  await w.api('POST', `/projects/${w.project.id}/repository/commits`, {
    branch,
    start_branch: 'main',
    commit_message: `Work on ${branch}`,
    actions: [{ action: 'create', file_path: `${branch}.txt`, content: 'first\nsecond\n' }],
  })
  const created = (
    await w.api(
      'POST',
      `/projects/${w.project.id}/merge_requests`,
      { source_branch: branch, target_branch: 'main', title: `Merge ${branch}` },
      author.token,
    )
  ).body as Json
  const mr = (await w.api('GET', `/projects/${w.project.id}/merge_requests/${created.iid as number}`)).body as Json
  w.cache.upsert(w.account.id, 'merge_request', [mr])
  return mr
}

const mrPath = (iid: number) => `/projects/${w.project.id}/merge_requests/${iid}`
const forwarded = (method: string, suffix: string): number =>
  w.proxy.forwarded.filter((l) => l.startsWith(method) && l.split('?')[0].endsWith(suffix)).length

/** The bodies of the merge request's notes on the server (no system notes), oldest first. */
async function published(iid: number): Promise<string[]> {
  const notes = (await w.api('GET', `${mrPath(iid)}/notes?sort=asc&per_page=100`)).body as Json[]
  return notes.filter((n) => n.system !== true).map((n) => n.body as string)
}

/** Writes two drafts offline and submits them; the submission's entry id. */
async function offlineReview(mr: Json, approve: boolean): Promise<number> {
  const ref = { projectId: w.project.id, iid: mr.iid as number }
  await w.goOffline()
  await handlers()['reviews:add-draft'](w.account.id, { ...ref, note: 'On line two' })
  await handlers()['reviews:add-draft'](w.account.id, { ...ref, note: 'In general' })
  const head = (mr.diff_refs as { head_sha: string }).head_sha
  const entry = await handlers()['reviews:submit'](w.account.id, approve ? { ...ref, approveSha: head } : ref)
  return entry.id
}

describe('a review written offline', () => {
  it('is published once when the server is back: its drafts as notes, then the approval', async () => {
    const mr = await cachedMergeRequest()
    const iid = mr.iid as number
    const id = await offlineReview(mr, true)
    await w.outbox.idle()
    expect(w.outbox.get(id).state).toBe('queued')

    await w.goOnline()
    expect(await w.until(id)).toMatchObject({ state: 'done' })
    const approval = w.outbox
      .list({ accountId: w.account.id, includeSettled: true })
      .find((e) => e.mutation.kind === 'approve')
    expect(approval && (await w.until(approval.id))).toMatchObject({ state: 'done', reason: null })
    expect(await published(iid)).toEqual(['On line two', 'In general'])
    expect(forwarded('POST', `/merge_requests/${iid}/draft_notes`)).toBe(2)
    expect(forwarded('POST', `/merge_requests/${iid}/draft_notes/bulk_publish`)).toBe(1)
    expect((await w.api('GET', `${mrPath(iid)}/draft_notes`)).body).toEqual([])
    const approvals = (await w.api('GET', `${mrPath(iid)}/approvals`)).body as { approved_by: { user: Json }[] }
    expect(approvals.approved_by.map((a) => a.user.id)).toEqual([w.user.user.id])
  })

  it('whose publish answer was lost is found published by reading, not published again', async () => {
    const mr = await cachedMergeRequest()
    const iid = mr.iid as number
    const id = await offlineReview(mr, false)
    w.proxy.mode = 'hold-responses'
    w.proxy.only = (l) => l.includes('/bulk_publish')
    await w.goOnline()
    expect((await w.until(id, ['unknown-outcome'])).reason).toContain('timed out')
    w.proxy.mode = 'pass'
    w.proxy.only = null
    await w.goOnline()
    expect(await w.until(id)).toMatchObject({
      state: 'reconciled',
      reason: 'The review was found published on the server.',
    })
    expect(forwarded('POST', `/merge_requests/${iid}/draft_notes/bulk_publish`)).toBe(1)
    expect(await published(iid)).toEqual(['On line two', 'In general'])
  })

  it('whose publish never reached the server is looked up, and sent again without making its drafts twice', async () => {
    const mr = await cachedMergeRequest()
    const iid = mr.iid as number
    const id = await offlineReview(mr, false)
    w.proxy.mode = 'hold-requests'
    w.proxy.only = (l) => l.includes('/bulk_publish')
    await w.goOnline()
    await w.until(id, ['unknown-outcome'])
    w.proxy.mode = 'pass'
    w.proxy.only = null
    await w.goOnline()
    expect(await w.until(id)).toMatchObject({ state: 'done', attempts: 2 })
    expect(forwarded('POST', `/merge_requests/${iid}/draft_notes`)).toBe(2)
    expect(forwarded('POST', `/merge_requests/${iid}/draft_notes/bulk_publish`)).toBe(1)
    expect(await published(iid)).toEqual(['On line two', 'In general'])
  })
})
