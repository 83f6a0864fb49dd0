import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { outboxHandlers } from '../../src/main/core/outbox/channels'
import { OutboxError } from '../../src/main/core/outbox/outbox'
import type { DiffPosition } from '../../src/shared/ipc/diff-position'
import { commitCommentArgs, mergeRequestCommentArgs } from '../../src/shared/ipc/outbox-schema'
import { makeOutboxWorld, type Json, type OutboxWorld } from '../helpers/outbox-world'
import type { ProxyMode } from '../helpers/switchable-proxy'

/*
 * Comments on a commit through the outbox (`commits:comment`), against a real Burrow Server behind
 * a proxy that can take the network away or swallow answers: written offline they wait and land
 * once; a comment whose answer was lost is looked up among the commit's threads before anything
 * is sent again, and never sent again on its own.
 */

let w: OutboxWorld
let parent: string
let sha: string
beforeAll(async () => {
  w = await makeOutboxWorld({ timeoutMs: 1_500 })
  const first = await w.api('POST', `/projects/${w.project.id}/repository/commits`, {
    branch: 'main',
    commit_message: 'First',
    actions: [{ action: 'create', file_path: 'README.md', content: 'hello\n' }],
  })
  parent = (first.body as Json).id as string
  const second = await w.api('POST', `/projects/${w.project.id}/repository/commits`, {
    branch: 'main',
    commit_message: 'Add notes',
    actions: [{ action: 'create', file_path: 'notes.txt', content: 'one\ntwo\n' }],
  })
  sha = (second.body as Json).id as string
})
afterAll(async () => w.close())
afterEach(() => {
  w.proxy.mode = 'pass'
  w.proxy.only = null
})

const comment = (request: { body: string; discussionId?: string; position?: DiffPosition }) =>
  outboxHandlers(() => ({ outbox: w.outbox, accounts: w.accounts }))['commits:comment'](w.account.id, {
    projectId: w.project.id,
    sha,
    ...request,
  })

const discussionsPath = () => `/projects/${w.project.id}/repository/commits/${sha}/discussions`

interface Thread {
  readonly id: string
  readonly notes: readonly Json[]
}
async function threads(): Promise<Thread[]> {
  return (await w.api('GET', `${discussionsPath()}?per_page=100`)).body as Thread[]
}
const bodies = async (): Promise<string[][]> => (await threads()).map((t) => t.notes.map((n) => n.body as string))

const posts = (suffix: string): number =>
  w.proxy.forwarded.filter((l) => l.startsWith('POST') && l.split('?')[0].endsWith(suffix)).length

/** Line `line` of notes.txt, added by the commit, on the commit's own diff. */
const addedLine = (line: number): DiffPosition => ({
  position_type: 'text',
  base_sha: parent,
  start_sha: parent,
  head_sha: sha,
  old_path: 'notes.txt',
  new_path: 'notes.txt',
  old_line: null,
  new_line: line,
})

/** Queues a comment whose request (or answer) the proxy swallows, and waits for the outbox to give up on its answer. */
async function lost(request: Parameters<typeof comment>[0], mode: ProxyMode, only: string): Promise<number> {
  w.proxy.mode = mode
  w.proxy.only = (line) => line.startsWith('POST') && line.split('?')[0].endsWith(only)
  const entry = await comment(request)
  const stuck = await w.until(entry.id, ['unknown-outcome'])
  expect(stuck.reason).toContain('timed out')
  w.proxy.mode = 'pass'
  w.proxy.only = null
  return entry.id
}

describe('comments on a commit through the outbox', () => {
  it('written offline, a comment and a line comment wait for the network and land once each, in order', async () => {
    await w.goOffline()
    const before = posts('/discussions')
    const general = await comment({ body: 'Nice commit' })
    const line = await comment({ body: 'Why two lines?', position: addedLine(2) })
    expect(general).toMatchObject({ state: 'queued', target: { type: 'commit', projectId: w.project.id, sha } })
    expect(w.outbox.get(general.id).state).toBe('queued')
    expect(posts('/discussions')).toBe(before)

    await w.goOnline()
    expect(await w.until(general.id)).toMatchObject({ state: 'done', attempts: 1 })
    expect(await w.until(line.id)).toMatchObject({ state: 'done', attempts: 1 })
    expect(posts('/discussions')).toBe(before + 2)
    const landed = await threads()
    expect(landed.map((t) => t.notes[0].body)).toEqual(['Nice commit', 'Why two lines?'])
    expect(landed[1].notes[0]).toMatchObject({
      type: 'DiffNote',
      noteable_type: 'Commit',
      position: { head_sha: sha, base_sha: parent, new_path: 'notes.txt', new_line: 2, old_line: null },
    })
  })

  it('a reply lands in its thread', async () => {
    const thread = (await threads()).find((t) => t.notes[0].body === 'Why two lines?') as Thread
    const entry = await comment({ body: 'One per item', discussionId: thread.id })
    expect(await w.until(entry.id)).toMatchObject({ state: 'done', mutation: { kind: 'reply' } })
    const after = (await threads()).find((t) => t.id === thread.id) as Thread
    expect(after.notes.map((n) => n.body)).toEqual(['Why two lines?', 'One per item'])
  })

  it('a comment whose answer was lost is found among the commit’s threads and reconciled, not posted again', async () => {
    const sent = posts('/discussions')
    const id = await lost({ body: 'Did this arrive?' }, 'hold-responses', '/discussions')
    expect(posts('/discussions')).toBe(sent + 1)

    await w.goOnline()
    expect(await w.until(id)).toMatchObject({ state: 'reconciled', reason: 'The comment was found on the server.' })
    expect(posts('/discussions')).toBe(sent + 1)
    expect((await bodies()).flat().filter((b) => b === 'Did this arrive?')).toHaveLength(1)
  })

  it('a comment that never reached the server is looked up, found missing and left for the user: sent once on retry', async () => {
    const sent = posts('/discussions')
    const id = await lost({ body: 'Lost on the way' }, 'hold-requests', '/discussions')
    expect(posts('/discussions')).toBe(sent)

    await w.goOnline()
    expect(await w.until(id)).toMatchObject({
      state: 'failed',
      attempts: 1,
      reason: 'The comment was not on the server. It did not take effect: send it again, or discard it.',
    })
    expect(w.proxy.forwarded.some((l) => l.startsWith(`GET /api/v4${discussionsPath()}`))).toBe(true)
    expect(posts('/discussions')).toBe(sent)

    await w.outbox.retry(id)
    expect(await w.until(id)).toMatchObject({ state: 'done', attempts: 2 })
    expect((await bodies()).flat().filter((b) => b === 'Lost on the way')).toHaveLength(1)
  })

  it('a reply whose answer was lost is found in its thread', async () => {
    const thread = (await threads())[0]
    const id = await lost({ body: 'Agreed', discussionId: thread.id }, 'hold-responses', '/notes')
    await w.goOnline()
    expect(await w.until(id)).toMatchObject({ state: 'reconciled', reason: 'The comment was found on the server.' })
    const after = (await threads()).find((t) => t.id === thread.id) as Thread
    expect(after.notes.filter((n) => n.body === 'Agreed')).toHaveLength(1)
  })

  it('a line the commit does not change is refused by the server with its reason, nothing written', async () => {
    const before = await threads()
    const entry = await comment({ body: 'Off the diff', position: { ...addedLine(2), new_line: 40 } })
    expect(await w.until(entry.id)).toMatchObject({ state: 'failed', status: 400 })
    expect(w.outbox.get(entry.id).reason).toMatch(/^The server refused this change as invalid/)
    expect(await threads()).toEqual(before)
  })

  it('a line comment on one commit of a merge request lands as the merge request’s thread on that commit (commit_id)', async () => {
    const branch = 'one-commit'
    const first = await w.api('POST', `/projects/${w.project.id}/repository/commits`, {
      branch,
      start_branch: 'main',
      commit_message: 'First step',
      actions: [{ action: 'create', file_path: 'step.txt', content: 'alpha\nbeta\n' }],
    })
    const stepSha = (first.body as Json).id as string
    await w.api('POST', `/projects/${w.project.id}/repository/commits`, {
      branch,
      commit_message: 'Second step',
      actions: [{ action: 'update', file_path: 'step.txt', content: 'alpha\nbeta\ngamma\n' }],
    })
    const mr = (
      await w.api('POST', `/projects/${w.project.id}/merge_requests`, {
        source_branch: branch,
        target_branch: 'main',
        title: 'Two steps',
      })
    ).body as Json
    const iid = mr.iid as number
    const onStep: DiffPosition = {
      position_type: 'text',
      base_sha: sha,
      start_sha: sha,
      head_sha: stepSha,
      old_path: 'step.txt',
      new_path: 'step.txt',
      old_line: null,
      new_line: 2,
    }
    const handlers = outboxHandlers(() => ({ outbox: w.outbox, accounts: w.accounts }))
    const entry = await handlers['merge-requests:comment'](w.account.id, {
      projectId: w.project.id,
      iid,
      body: 'Beta on the first step',
      position: onStep,
      commitId: stepSha,
    })
    expect(entry.mutation).toEqual({
      kind: 'comment',
      body: 'Beta on the first step',
      position: onStep,
      commitId: stepSha,
    })
    expect(await w.until(entry.id)).toMatchObject({ state: 'done' })
    const threads = (await w.api('GET', `/projects/${w.project.id}/merge_requests/${iid}/discussions`)).body as Thread[]
    const notes = threads.flatMap((t) => t.notes).filter((n) => n.system !== true)
    expect(notes).toMatchObject([
      {
        body: 'Beta on the first step',
        type: 'DiffNote',
        commit_id: stepSha,
        position: { head_sha: stepSha, base_sha: sha, new_path: 'step.txt', new_line: 2 },
      },
    ])
  })

  it('only comments and replies apply to a commit, and the channel wants a full SHA', async () => {
    await expect(
      w.outbox.enqueue(w.account.id, { type: 'commit', projectId: w.project.id, sha }, { kind: 'todo' }),
    ).rejects.toThrow(OutboxError)
    const request = { projectId: w.project.id, sha, body: 'ok' }
    expect(commitCommentArgs([w.account.id, request])).toBeNull()
    expect(commitCommentArgs([w.account.id, { ...request, sha: sha.slice(0, 8) }])).toMatch(/full SHA/)
    expect(commitCommentArgs([w.account.id, { ...request, body: ' ' }])).toMatch(/body/)
    expect(commitCommentArgs([w.account.id, { ...request, discussionId: 'abc', position: addedLine(1) }])).toMatch(
      /reply takes no position/,
    )
    const onMergeRequest = { projectId: w.project.id, iid: 1, body: 'ok', commitId: sha }
    expect(mergeRequestCommentArgs([w.account.id, onMergeRequest])).toMatch(/commitId goes with a position/)
    expect(mergeRequestCommentArgs([w.account.id, { ...onMergeRequest, position: addedLine(1) }])).toBeNull()
    expect(
      mergeRequestCommentArgs([w.account.id, { ...onMergeRequest, position: addedLine(1), commitId: 'abc' }]),
    ).toMatch(/full SHA/)
  })
})
