import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../src/main/core/index'
import type { OutboxChange, OutboxEntry } from '../../src/shared/ipc/outbox'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedMember } from '../helpers/fixtures'
import { commitFiles, makeWorkRepo, remoteUrl, sh } from '../helpers/git'
import { makeOutboxWorld, type Json, type OutboxWorld } from '../helpers/outbox-world'
import { seedUser } from '../helpers/server'

/*
 * The outbox through the IPC contract (createCore's dispatcher, as both shells use it): the
 * write channels of issues and merge requests, outbox:* and its event, validation at the
 * boundary, and the online-only merge request actions.
 */

let w: OutboxWorld
let core: Core
let mrIid: number
/** The work repository and its remote, for tests that push another branch. */
let work: string
let url: string
const changes: OutboxChange[] = []

beforeAll(async () => {
  w = await makeOutboxWorld()
  core = createCore({
    version: '0.1.0',
    mode: 'browser',
    serverUrl: w.server.url,
    accounts: w.accounts,
    outbox: w.outbox,
  })
  core.events.subscribe((event, payload) => {
    if (event === 'outbox:did-change') changes.push(payload)
  })
  // A repository with a branch to merge.
  const project = (await w.api('GET', `/projects/${w.project.id}`)).body as Json
  work = makeWorkRepo()
  url = remoteUrl(w.server.url, project.path_with_namespace as string, w.user.token)
  commitFiles(work, { 'README.md': '# outbox\n' }, 'Initial commit')
  await sh(work, 'push', '--quiet', url, 'main')
  await sh(work, 'checkout', '--quiet', '-b', 'feature', 'main')
  commitFiles(work, { 'feature.txt': 'feature\n' }, 'Add the feature')
  await sh(work, 'push', '--quiet', url, 'feature')
  const mr = await w.api('POST', `/projects/${w.project.id}/merge_requests`, {
    source_branch: 'feature',
    target_branch: 'main',
    title: 'Feature',
  })
  mrIid = (mr.body as Json).iid as number
  w.cache.upsert(w.account.id, 'merge_request', [
    (await w.api('GET', `/projects/${w.project.id}/merge_requests/${mrIid}`)).body as Json,
  ])
})
afterAll(async () => w.close())

async function ok<T>(channel: string, ...args: unknown[]): Promise<T> {
  const response = await core.dispatch(channel, args)
  if (!response.ok) throw new Error(`${channel} failed: ${JSON.stringify(response.error)}`)
  return response.result as T
}

describe('write channels', () => {
  it('issues:comment and issues:update queue entries, announce them with outbox:did-change, and reach the server', async () => {
    const iid = (await w.cachedIssue({ title: 'Through IPC' })).iid as number
    const ref = { projectId: w.project.id, iid }
    const comment = await ok<OutboxEntry>('issues:comment', w.account.id, { ...ref, body: 'over the bridge' })
    expect(comment).toMatchObject({
      accountId: w.account.id,
      target: { type: 'issue', ...ref },
      mutation: { kind: 'comment', body: 'over the bridge' },
      base: { fields: {} },
    })
    const update = await ok<OutboxEntry>('issues:update', w.account.id, {
      ...ref,
      changes: { title: 'Renamed over IPC', labels: ['ipc'] },
    })
    expect(update.base).toMatchObject({ fields: { title: 'Through IPC', labels: [] } })
    expect((await w.until(comment.id)).state).toBe('done')
    expect((await w.until(update.id)).state).toBe('done')

    expect(changes.filter((c) => c.entry.id === update.id).map((c) => c.entry.state)).toEqual([
      'queued',
      'sending',
      'done',
    ])
    const listed = await ok<OutboxEntry[]>('outbox:list', { accountId: w.account.id, includeSettled: true })
    expect(listed.map((e) => e.id)).toEqual(expect.arrayContaining([comment.id, update.id]))
    expect(await ok<OutboxEntry[]>('outbox:list')).toEqual([])
    expect((await w.api('GET', `/projects/${w.project.id}/issues/${iid}`)).body).toMatchObject({
      title: 'Renamed over IPC',
      labels: ['ipc'],
    })
  })

  it('merge request writes: comment, update, estimate, subscription and to-do', async () => {
    const ref = { projectId: w.project.id, iid: mrIid }
    const entries = [
      await ok<OutboxEntry>('merge-requests:comment', w.account.id, { ...ref, body: 'review note' }),
      await ok<OutboxEntry>('merge-requests:update', w.account.id, {
        ...ref,
        changes: { description: 'Explained', add_labels: ['review'] },
      }),
      await ok<OutboxEntry>('merge-requests:time-estimate', w.account.id, { ...ref, seconds: 7200 }),
      await ok<OutboxEntry>('merge-requests:add-spent-time', w.account.id, {
        ...ref,
        seconds: 600,
        summary: 'reviewing',
      }),
      await ok<OutboxEntry>('merge-requests:subscribe', w.account.id, { ...ref, subscribed: false }),
      await ok<OutboxEntry>('merge-requests:todo', w.account.id, ref),
    ]
    for (const e of entries) expect((await w.until(e.id)).state).toBe('done')
    const mr = (await w.api('GET', `/projects/${w.project.id}/merge_requests/${mrIid}`)).body as Json
    expect(mr).toMatchObject({
      description: 'Explained',
      labels: ['review'],
      subscribed: false,
      time_stats: { time_estimate: 7200, total_time_spent: 600 },
    })
    const notes = (await w.api('GET', `/projects/${w.project.id}/merge_requests/${mrIid}/notes`)).body as Json[]
    expect(notes.filter((n) => n.system !== true).map((n) => n.body)).toEqual(['review note'])
    const todos = (await w.api('GET', `/todos?type=MergeRequest`)).body as Json[]
    expect(todos.map((t) => t.target_type)).toEqual(['MergeRequest'])
  })

  it('todos:mark-done marks a to-do done', async () => {
    const iid = (await w.cachedIssue()).iid as number
    const todo = (await w.api('POST', `/projects/${w.project.id}/issues/${iid}/todo`)).body as Json
    w.cache.upsert(w.account.id, 'todo', [todo])
    const entry = await ok<OutboxEntry>('todos:mark-done', w.account.id, { todoId: todo.id })
    expect(entry.target).toEqual({ type: 'todo', todoId: todo.id })
    expect((await w.until(entry.id)).state).toBe('done')
    const pending = (await w.api('GET', '/todos')).body as Json[]
    expect(pending.map((t) => t.id)).not.toContain(todo.id)
  })

  it('refuses malformed requests at the boundary, with the reason', async () => {
    const ref = { projectId: w.project.id, iid: 1 }
    const cases: [string, unknown[], string][] = [
      [
        'issues:update',
        [w.account.id, { ...ref, changes: { labels: ['a,b'] } }],
        'labels must be a list of label names (no commas)',
      ],
      [
        'issues:update',
        [w.account.id, { ...ref, changes: { labels: ['a'], add_labels: ['b'] } }],
        'give labels, or add_labels/remove_labels, not both',
      ],
      ['issues:update', [w.account.id, { ...ref, changes: {} }], 'changes must change at least one field'],
      [
        'issues:update',
        [w.account.id, { ...ref, changes: { health_status: 'at_risk' } }],
        'unknown field(s): health_status',
      ],
      [
        'issues:update',
        [w.account.id, { ...ref, changes: { due_date: '2030-02-30' } }],
        'due_date must be a date (YYYY-MM-DD) or null',
      ],
      ['merge-requests:update', [w.account.id, { ...ref, changes: { weight: 3 } }], 'merge requests have no weight'],
      ['issues:comment', [w.account.id, { ...ref, body: '   ' }], 'body must be a non-empty string'],
      ['issues:time-estimate', [w.account.id, { ...ref, seconds: -5 }], 'seconds must be a non-negative integer'],
      ['outbox:resolve', [1, { choice: 'both' }], "resolution.choice must be 'mine', 'theirs' or 'edited'"],
      ['outbox:retry', ['1'], 'expected one outbox entry id (a positive integer)'],
      [
        'merge-requests:apply-suggestion',
        [w.account.id, { ...ref, suggestionId: 0 }],
        'suggestionId must be a positive integer',
      ],
      [
        'merge-requests:apply-suggestions',
        [w.account.id, { ...ref, suggestionIds: [] }],
        'suggestionIds must be a list of 1 to 100 suggestion ids, each given once',
      ],
      [
        'merge-requests:apply-suggestions',
        [w.account.id, { ...ref, suggestionIds: [3, 3] }],
        'suggestionIds must be a list of 1 to 100 suggestion ids, each given once',
      ],
      [
        'merge-requests:apply-suggestions',
        [w.account.id, { ...ref, suggestionIds: [1, -2] }],
        'suggestionIds must be a list of 1 to 100 suggestion ids, each given once',
      ],
      [
        'merge-requests:apply-suggestions',
        [w.account.id, { ...ref, suggestionIds: Array.from({ length: 101 }, (_, i) => i + 1) }],
        'suggestionIds must be a list of 1 to 100 suggestion ids, each given once',
      ],
      [
        'merge-requests:apply-suggestions',
        [w.account.id, { ...ref, suggestionIds: [1], commitMessage: ' \n ' }],
        'commitMessage must be a non-empty string',
      ],
    ]
    for (const [channel, args, message] of cases) {
      expect(await core.dispatch(channel, args)).toEqual({
        ok: false,
        error: { code: 'invalid-arguments', message: `${channel}: ${message}`, details: { channel } },
      })
    }
  })

  it('outbox:retry, outbox:discard and outbox:resolve explain why they cannot apply', async () => {
    expect(await core.dispatch('outbox:retry', [999_999])).toMatchObject({
      ok: false,
      error: { code: 'entry-not-found' },
    })
    const iid = (await w.cachedIssue()).iid as number
    const done = await ok<OutboxEntry>('issues:comment', w.account.id, {
      projectId: w.project.id,
      iid,
      body: 'settled',
    })
    await w.until(done.id)
    expect(await core.dispatch('outbox:resolve', [done.id, { choice: 'mine' }])).toMatchObject({
      ok: false,
      error: { code: 'invalid-state', message: 'This write is done, not in conflict.' },
    })
    expect(await core.dispatch('outbox:discard', [done.id])).toMatchObject({
      ok: false,
      error: { code: 'invalid-state', message: 'This write is already done.' },
    })
  })
})

describe('offline', () => {
  it('refuses merge, rebase, approvals and applying a suggestion with a readable reason, and queues nothing', async () => {
    await w.goOffline()
    try {
      const ref = { projectId: w.project.id, iid: mrIid }
      for (const [channel, what, request] of [
        ['merge-requests:merge', 'Merging', ref],
        ['merge-requests:rebase', 'Rebasing', ref],
        ['merge-requests:approve', 'Approving', ref],
        ['merge-requests:unapprove', 'Revoking an approval', ref],
        ['merge-requests:apply-suggestion', 'Applying a suggestion', { ...ref, suggestionId: 1 }],
        ['merge-requests:apply-suggestions', 'Applying suggestions', { ...ref, suggestionIds: [1, 2] }],
      ] as const) {
        const response = await core.dispatch(channel, [w.account.id, request])
        expect(response).toMatchObject({ ok: false, error: { code: 'offline' } })
        const message = (response as { error: { message: string } }).error.message
        expect(message).toBe(
          `${what} needs a connection to ${new URL(w.proxy.url).host}, which cannot be reached. It is not queued for later: it depends on the merge request as it is on the server when you do it.`,
        )
      }
      expect(await ok<OutboxEntry[]>('outbox:list')).toEqual([])
      expect(((await w.api('GET', `/projects/${w.project.id}/merge_requests/${mrIid}`)).body as Json).state).toBe(
        'opened',
      )
    } finally {
      await w.goOnline()
    }
  })

  it('refuses an edit of an item that is not in the cache, since it could not be checked for conflicts', async () => {
    const created = (await w.api('POST', `/projects/${w.project.id}/issues`, { title: 'Never synced' })).body as Json
    await w.goOffline()
    try {
      const response = await core.dispatch('issues:update', [
        w.account.id,
        { projectId: w.project.id, iid: created.iid, changes: { title: 'x' } },
      ])
      expect(response).toMatchObject({ ok: false, error: { code: 'not-cached' } })
      // A comment needs no base: it is queued.
      const comment = await ok<OutboxEntry>('issues:comment', w.account.id, {
        projectId: w.project.id,
        iid: created.iid,
        body: 'queued anyway',
      })
      expect(comment.state).toBe('queued')
    } finally {
      await w.goOnline()
    }
  })
})

describe('online', () => {
  it('applies a review suggestion as a commit, and passes the server’s refusal of a second apply as is', async () => {
    const path = `/projects/${w.project.id}/merge_requests/${mrIid}`
    const mr = (await w.api('GET', path)).body as Json
    const discussion = (
      await w.api('POST', `${path}/discussions`, {
        body: '```suggestion\nfeature, reviewed\n```',
        position: {
          ...(mr.diff_refs as Json),
          position_type: 'text',
          old_path: 'feature.txt',
          new_path: 'feature.txt',
          new_line: 1,
        },
      })
    ).body as Json
    const [suggestion] = ((discussion.notes as Json[])[0].suggestions ?? []) as Json[]
    const request = { projectId: w.project.id, iid: mrIid, suggestionId: suggestion.id }
    const applied = await ok<Json>('merge-requests:apply-suggestion', w.account.id, request)
    const head = ((await w.api('GET', path)).body as Json).sha
    expect(applied).toMatchObject({ id: suggestion.id, applied: true, commit_id: head })
    expect(head).not.toBe(mr.sha)
    expect(await core.dispatch('merge-requests:apply-suggestion', [w.account.id, request])).toMatchObject({
      ok: false,
      error: { code: 'validation', message: 'This suggestion has already been applied.' },
    })
    expect(await ok<OutboxEntry[]>('outbox:list')).toEqual([])
  })

  it('applies a batch of suggestions as one commit with its message, and passes the server’s refusals as is', async () => {
    await sh(work, 'checkout', '--quiet', '-b', 'batch', 'main')
    commitFiles(work, { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' }, 'Two files')
    await sh(work, 'push', '--quiet', url, 'batch')
    const created = await w.api('POST', `/projects/${w.project.id}/merge_requests`, {
      source_branch: 'batch',
      target_branch: 'main',
      title: 'Batch',
    })
    const iid = (created.body as Json).iid as number
    const suggest = async (mergeRequestIid: number, file: string, text: string): Promise<number> => {
      const path = `/projects/${w.project.id}/merge_requests/${mergeRequestIid}`
      const mr = (await w.api('GET', path)).body as Json
      const discussion = (
        await w.api('POST', `${path}/discussions`, {
          body: '```suggestion\n' + text + '\n```',
          position: {
            ...(mr.diff_refs as Json),
            position_type: 'text',
            old_path: file,
            new_path: file,
            new_line: 1,
          },
        })
      ).body as Json
      return ((discussion.notes as Json[])[0].suggestions as Json[])[0].id as number
    }
    const first = await suggest(iid, 'a.txt', 'alpha, reviewed')
    const second = await suggest(iid, 'b.txt', 'beta, reviewed')
    const elsewhere = await suggest(mrIid, 'feature.txt', 'feature, elsewhere')
    const ref = { projectId: w.project.id, iid }
    const path = `/projects/${w.project.id}/merge_requests/${iid}`
    const before = ((await w.api('GET', path)).body as Json).sha

    expect(
      await core.dispatch('merge-requests:apply-suggestions', [
        w.account.id,
        { ...ref, suggestionIds: [first, elsewhere] },
      ]),
    ).toMatchObject({
      ok: false,
      error: { code: 'validation', message: 'Suggestions must all be on the same branch.' },
    })
    expect(((await w.api('GET', path)).body as Json).sha).toBe(before)

    const message = 'Apply the review of both files\n\nAs discussed.'
    const applied = await ok<Json[]>('merge-requests:apply-suggestions', w.account.id, {
      ...ref,
      suggestionIds: [first, second],
      commitMessage: message,
    })
    const head = ((await w.api('GET', path)).body as Json).sha as string
    expect(head).not.toBe(before)
    expect(applied.map((s) => [s.id, s.applied, s.commit_id])).toEqual([
      [first, true, head],
      [second, true, head],
    ])
    const commit = (await w.api('GET', `/projects/${w.project.id}/repository/commits/${head}`)).body as Json
    expect(commit.message).toBe(message)
    expect(commit.parent_ids).toEqual([before])

    expect(
      await core.dispatch('merge-requests:apply-suggestions', [w.account.id, { ...ref, suggestionIds: [second] }]),
    ).toMatchObject({ ok: false, error: { code: 'validation', message: 'This suggestion has already been applied.' } })
    expect(await ok<OutboxEntry[]>('outbox:list')).toEqual([])
  })

  it('approves (as a reviewer) and merges a merge request right away', async () => {
    const ref = { projectId: w.project.id, iid: mrIid }
    const reviewer = seedUser(w.server, { name: 'Rae Reviewer' })
    seedMember(w.server, 'Project', w.project.id, reviewer.user.id, AccessLevel.DEVELOPER)
    const reviewerAccount = await w.accounts.add({ baseUrl: w.proxy.url, token: reviewer.token })
    const approvals = await ok<Json>('merge-requests:approve', reviewerAccount.id, ref)
    expect((approvals.approved_by as Json[]).map((a) => (a.user as Json).id)).toEqual([reviewer.user.id])
    const merged = await ok<Json>('merge-requests:merge', w.account.id, { ...ref, shouldRemoveSourceBranch: false })
    expect(merged).toMatchObject({ iid: mrIid, state: 'merged' })
  })
})
