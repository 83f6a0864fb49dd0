import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reviewHandlers } from '../../src/main/core/outbox/review-channels'
import { lineCode, missingDrafts, withLineCodes } from '../../src/main/core/outbox/review'
import type { DiffPosition } from '../../src/shared/ipc/diff-position'
import { commentArgs, mergeRequestCommentArgs } from '../../src/shared/ipc/outbox-schema'
import { addDraftArgs, submitReviewArgs } from '../../src/shared/ipc/review'
import { makeOutboxWorld, type Json, type OutboxWorld } from '../helpers/outbox-world'

/*
 * Line comments and pending reviews of a merge request through core, against a real Burrow Server
 * behind a proxy that can take the network away: a line comment is queued like any comment and
 * lands as a thread; drafts written offline are kept in the cache database until the review is
 * submitted, when they move into the submission (and an approval queues behind it).
 */

let w: OutboxWorld
let branches = 0
beforeAll(async () => {
  w = await makeOutboxWorld()
  await w.api('POST', `/projects/${w.project.id}/repository/commits`, {
    branch: 'main',
    commit_message: 'First',
    actions: [{ action: 'create', file_path: 'README.md', content: 'hello\n' }],
  })
})
afterAll(async () => w.close())

const handlers = () => reviewHandlers(() => ({ outbox: w.outbox, accounts: w.accounts }))

/** A merge request adding `<branch>.txt` (two lines), its server JSON in the cache as a sync would leave it. */
async function cachedMergeRequest(): Promise<Json> {
  const branch = `line-comments-${++branches}`
  await w.api('POST', `/projects/${w.project.id}/repository/commits`, {
    branch,
    start_branch: 'main',
    commit_message: `Work on ${branch}`,
    actions: [{ action: 'create', file_path: `${branch}.txt`, content: 'first\nsecond\n' }],
  })
  const created = (
    await w.api('POST', `/projects/${w.project.id}/merge_requests`, {
      source_branch: branch,
      target_branch: 'main',
      title: `Merge ${branch}`,
    })
  ).body as Json
  const mr = (await w.api('GET', `/projects/${w.project.id}/merge_requests/${created.iid as number}`)).body as Json
  w.cache.upsert(w.account.id, 'merge_request', [mr])
  return mr
}

/** The position of an added line of the merge request's file, on its current diff version. */
function addedLine(mr: Json, line: number): DiffPosition {
  const refs = mr.diff_refs as { base_sha: string; start_sha: string; head_sha: string }
  const path = `${mr.source_branch as string}.txt`
  return { position_type: 'text', ...refs, old_path: path, new_path: path, old_line: null, new_line: line }
}

/** A position on a diff version no server has (for the checks that never reach one). */
const FAR_POSITION: DiffPosition = {
  position_type: 'text',
  base_sha: 'a'.repeat(40),
  start_sha: 'a'.repeat(40),
  head_sha: 'b'.repeat(40),
  old_path: 'a.txt',
  new_path: 'a.txt',
  old_line: null,
  new_line: 3,
}

const target = (iid: number) => ({ type: 'merge_request' as const, projectId: w.project.id, iid })
const shownNotes = (iid: number) =>
  w.reader
    .detail(w.account.id, 'merge_request', { parentId: w.project.id, iid })
    ?.discussions.flatMap((d) => d.notes.map((n) => ({ ...n.data, pending: n.pending }))) ?? []

describe('a line comment', () => {
  it('written offline shows pending as a diff note on its line, then lands once as a new thread when the server is back', async () => {
    const mr = await cachedMergeRequest()
    const iid = mr.iid as number
    await w.goOffline()
    const position = addedLine(mr, 2)
    const entry = await w.outbox.enqueue(w.account.id, target(iid), { kind: 'comment', body: 'Why two?', position })
    await w.outbox.idle()
    expect(w.outbox.get(entry.id).state).toBe('queued')
    expect(shownNotes(iid)).toMatchObject([{ body: 'Why two?', type: 'DiffNote', position, pending: true }])

    await w.goOnline()
    expect(await w.until(entry.id)).toMatchObject({ state: 'done' })
    const posted = w.proxy.forwarded.filter((l) =>
      l.startsWith(`POST /api/v4/projects/${w.project.id}/merge_requests/${iid}/`),
    )
    expect(posted.map((l) => l.split(' ')[1].split('/').pop())).toEqual(['discussions'])
    const threads = (await w.api('GET', `/projects/${w.project.id}/merge_requests/${iid}/discussions`)).body as Json[]
    const notes = threads.flatMap((t) => (t.notes as Json[]).filter((n) => n.system !== true))
    expect(notes).toMatchObject([{ body: 'Why two?', type: 'DiffNote', position: { ...position, line_range: null } }])
  })

  it('the contract refuses a position on an issue comment, on a reply, or with made-up fields', () => {
    const position = { ...FAR_POSITION }
    const ref = { projectId: 1, iid: 2, body: 'x' }
    expect(mergeRequestCommentArgs(['acct', { ...ref, position }])).toBeNull()
    expect(commentArgs(['acct', { ...ref, position }])).toBe('unknown field(s): position')
    expect(mergeRequestCommentArgs(['acct', { ...ref, position, discussionId: 'abc123' }])).toBe(
      'a reply takes no position: it goes in its thread',
    )
    expect(mergeRequestCommentArgs(['acct', { ...ref, position: { ...position, head_sha: 'HEAD' } }])).toBe(
      'position.head_sha must be a commit id',
    )
    expect(mergeRequestCommentArgs(['acct', { ...ref, position: { ...position, new_line: null } }])).toBe(
      'position must name a line (old_line or new_line)',
    )
    expect(mergeRequestCommentArgs(['acct', { ...ref, position: { ...position, line: 3 } }])).toBe(
      'position: unknown field(s): line',
    )
    expect(addDraftArgs(['acct', { projectId: 1, iid: 2, note: '  ' }])).toBe('note must be a non-empty string')
    expect(submitReviewArgs(['acct', { projectId: 1, iid: -2 }])).toBe('iid must be a positive integer')
  })

  it("a range's line codes are GitLab's: the path's SHA-1 with the old and new line", () => {
    const sha1 = createHash('sha1').update('src/a.ts').digest('hex')
    expect(lineCode('src/a.ts', 4, null)).toBe(`${sha1}_4_0`)
    const position: DiffPosition = {
      position_type: 'text',
      base_sha: 'a'.repeat(40),
      start_sha: 'a'.repeat(40),
      head_sha: 'b'.repeat(40),
      old_path: 'src/a.ts',
      new_path: 'src/a.ts',
      old_line: null,
      new_line: 7,
      line_range: {
        start: { type: null, old_line: 4, new_line: 5 },
        end: { type: 'new', old_line: null, new_line: 7 },
      },
    }
    expect(withLineCodes(position).line_range).toEqual({
      start: { type: null, old_line: 4, new_line: 5, line_code: `${sha1}_4_5` },
      end: { type: 'new', old_line: null, new_line: 7, line_code: `${sha1}_0_7` },
    })
  })
})

describe('a pending review', () => {
  it('drafts written offline are kept on this computer across a restart, and the submission takes them with the approval queued behind it', async () => {
    const mr = await cachedMergeRequest()
    const iid = mr.iid as number
    const ref = { projectId: w.project.id, iid }
    await w.goOffline()
    const onLine = await handlers()['reviews:add-draft'](w.account.id, {
      ...ref,
      note: 'Line one',
      position: addedLine(mr, 1),
    })
    const general = await handlers()['reviews:add-draft'](w.account.id, { ...ref, note: 'Overall fine' })
    expect(onLine).toMatchObject({ source: 'local', note: 'Line one', position: addedLine(mr, 1) })
    expect(general).toMatchObject({ source: 'local', position: null, discussionId: null })

    await w.restart()
    expect(await handlers()['reviews:drafts'](w.account.id, ref)).toEqual({
      drafts: [onLine, general],
      serverRead: false,
    })
    await handlers()['reviews:delete-draft'](w.account.id, { ...ref, draftId: general.id })
    await expect(handlers()['reviews:delete-draft'](w.account.id, { ...ref, draftId: general.id })).rejects.toThrow(
      'not kept on this computer',
    )

    const sha = (mr.diff_refs as { head_sha: string }).head_sha
    const submission = await handlers()['reviews:submit'](w.account.id, { ...ref, approveSha: sha })
    expect(submission).toMatchObject({
      state: 'queued',
      mutation: { kind: 'submit-review', drafts: [{ note: 'Line one', position: addedLine(mr, 1) }] },
    })
    expect((await handlers()['reviews:drafts'](w.account.id, ref)).drafts).toEqual([])
    const queued = w.outbox
      .list({ accountId: w.account.id })
      .filter((e) => e.target.type === 'merge_request' && e.target.iid === iid)
    expect(queued.map((e) => e.mutation)).toEqual([
      { kind: 'submit-review', drafts: [{ note: 'Line one', position: addedLine(mr, 1) }] },
      { kind: 'approve', sha },
    ])
    for (const e of queued) w.outbox.discard(e.id)
  })

  it('a draft the server already has (an earlier attempt) is not created again; two identical drafts need two', () => {
    const at = FAR_POSITION
    const drafts = [{ note: 'nit', position: at }, { note: 'nit', position: at }, { note: 'nit' }]
    expect(missingDrafts(drafts, [{ id: 1, note: 'nit', position: at }])).toEqual([
      { note: 'nit', position: at },
      { note: 'nit' },
    ])
    expect(missingDrafts(drafts, [{ id: 1, note: 'nit', position: { ...at, new_line: 4 } }])).toHaveLength(3)
    expect(missingDrafts([{ note: 'nit' }], [{ id: 2, note: 'nit', position: null }])).toEqual([])
  })
})
