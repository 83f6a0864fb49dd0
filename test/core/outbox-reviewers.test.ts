import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { itemChangesProblem, mergeRequestUpdateArgs, updateArgs } from '../../src/shared/ipc/outbox-schema'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedMember } from '../helpers/fixtures'
import { makeOutboxWorld, type Json, type OutboxWorld } from '../helpers/outbox-world'
import { seedUser, type SeededUser } from '../helpers/server'

/*
 * A merge request's reviewers (`reviewer_ids`) through the outbox against a real Burrow Server:
 * shown pending in the cache with the cached users, sent when the instance is back, and
 * compared with the server's reviewers (unordered) for conflicts like the assignees.
 */

let w: OutboxWorld
let ruth: SeededUser
let sam: SeededUser
let branches = 0
beforeAll(async () => {
  w = await makeOutboxWorld()
  // A repository with a main branch to open merge requests against.
  await w.api('POST', `/projects/${w.project.id}/repository/commits`, {
    branch: 'main',
    commit_message: 'First',
    actions: [{ action: 'create', file_path: 'README.md', content: 'hello\n' }],
  })
  ruth = seedUser(w.server, { name: 'Ruth Reviewer' })
  sam = seedUser(w.server, { name: 'Sam Second' })
  for (const u of [ruth, sam]) seedMember(w.server, 'Project', w.project.id, u.user.id, AccessLevel.DEVELOPER)
  // The users are in the cache (sync brings them), so the pending merge request can show their names.
  w.cache.upsert(w.account.id, 'user', [
    (await w.api('GET', `/users/${ruth.user.id}`)).body as Json,
    (await w.api('GET', `/users/${sam.user.id}`)).body as Json,
  ])
})
afterAll(async () => w.close())

/** A merge request of a new branch, its server JSON in the cache as a sync would leave it. */
async function cachedMergeRequest(attrs: Json = {}): Promise<Json> {
  const branch = `review-${++branches}`
  const commit = await w.api('POST', `/projects/${w.project.id}/repository/commits`, {
    branch,
    start_branch: 'main',
    commit_message: `Work on ${branch}`,
    actions: [{ action: 'create', file_path: `${branch}.txt`, content: 'work\n' }],
  })
  expect(commit.status).toBe(201)
  const created = (
    await w.api('POST', `/projects/${w.project.id}/merge_requests`, {
      source_branch: branch,
      target_branch: 'main',
      title: `Merge ${branch}`,
      ...attrs,
    })
  ).body as Json
  const mr = await serverMergeRequest(created.iid as number)
  w.cache.upsert(w.account.id, 'merge_request', [mr])
  return mr
}
const serverMergeRequest = async (iid: number): Promise<Json> =>
  (await w.api('GET', `/projects/${w.project.id}/merge_requests/${iid}`)).body as Json
const shown = (iid: number) => w.reader.detail(w.account.id, 'merge_request', { parentId: w.project.id, iid })?.item
const reviewerIds = (mr: Json): number[] => ((mr.reviewers ?? []) as { id: number }[]).map((r) => r.id).sort()
const target = (iid: number) => ({ type: 'merge_request' as const, projectId: w.project.id, iid })

describe('reviewers through the outbox', () => {
  it('queued offline they show pending with their names, land once the server is back, and an empty list removes them', async () => {
    const iid = (await cachedMergeRequest()).iid as number
    await w.goOffline()
    const set = await w.outbox.enqueue(w.account.id, target(iid), {
      kind: 'update',
      changes: { reviewer_ids: [ruth.user.id, sam.user.id] },
    })
    await w.outbox.idle()
    expect(w.outbox.get(set.id).state).toBe('queued')
    expect(shown(iid)).toMatchObject({
      pending: true,
      data: {
        reviewers: [
          { id: ruth.user.id, name: 'Ruth Reviewer' },
          { id: sam.user.id, name: 'Sam Second' },
        ],
      },
    })
    expect(reviewerIds(await serverMergeRequest(iid))).toEqual([])

    await w.goOnline()
    expect((await w.until(set.id)).state).toBe('done')
    expect(reviewerIds(await serverMergeRequest(iid))).toEqual([ruth.user.id, sam.user.id].sort())

    const cleared = await w.outbox.enqueue(w.account.id, target(iid), { kind: 'update', changes: { reviewer_ids: [] } })
    expect((await w.until(cleared.id)).state).toBe('done')
    expect(reviewerIds(await serverMergeRequest(iid))).toEqual([])
    expect(shown(iid)?.data.reviewers).toEqual([])
  })

  it('reviewers changed on the server meanwhile are a conflict naming both lists; the same set in another order is not', async () => {
    const iid = (await cachedMergeRequest({ reviewer_ids: [ruth.user.id] })).iid as number
    await w.goOffline()
    const mine = await w.outbox.enqueue(w.account.id, target(iid), {
      kind: 'update',
      changes: { reviewer_ids: [sam.user.id] },
    })
    await w.api('PUT', `/projects/${w.project.id}/merge_requests/${iid}`, { reviewer_ids: [w.user.user.id] })
    await w.goOnline()
    const conflicted = await w.until(mine.id)
    expect(conflicted.state).toBe('conflict')
    expect(conflicted.conflict).toMatchObject({
      local: { reviewer_ids: [sam.user.id] },
      remote: { reviewer_ids: [w.user.user.id] },
    })
    expect(conflicted.reason).toContain('reviewers')

    const both = (await cachedMergeRequest({ reviewer_ids: [ruth.user.id, sam.user.id] })).iid as number
    const same = await w.outbox.enqueue(w.account.id, target(both), {
      kind: 'update',
      changes: { reviewer_ids: [sam.user.id, ruth.user.id] },
    })
    expect(await w.until(same.id)).toMatchObject({ state: 'done', reason: 'The server already had these changes.' })
  })

  it('refuses malformed reviewers at the boundary, and reviewers on issues', () => {
    expect(itemChangesProblem({ reviewer_ids: [0] })).toContain('reviewer_ids')
    expect(itemChangesProblem({ reviewer_ids: 'ruth' })).toContain('reviewer_ids')
    expect(itemChangesProblem({ reviewer_ids: [] })).toBeNull()
    expect(mergeRequestUpdateArgs(['acct', { projectId: 1, iid: 2, changes: { reviewer_ids: [3] } }])).toBeNull()
    expect(updateArgs(['acct', { projectId: 1, iid: 2, changes: { reviewer_ids: [3] } }])).toBe(
      'issues have no reviewer_ids',
    )
  })
})
