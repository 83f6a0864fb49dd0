import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Mutation } from '../../src/shared/ipc/outbox'
import { makeOutboxWorld, type Json, type OutboxWorld } from '../helpers/outbox-world'
import type { ProxyMode } from '../helpers/switchable-proxy'

/*
 * Writes whose answer never comes back. The client gives up after a short timeout (the real
 * ApiClient timeout, set low), so the write's outcome is unknown: the outbox must read the server
 * to find out, and never send the write again blindly. The proxy counts what reached the server.
 */

let w: OutboxWorld
beforeAll(async () => {
  w = await makeOutboxWorld({ timeoutMs: 1_500 })
})
afterAll(async () => w.close())
afterEach(() => {
  w.proxy.mode = 'pass'
  w.proxy.only = null
})

const target = (iid: number) => ({ type: 'issue' as const, projectId: w.project.id, iid })

async function notesOf(iid: number): Promise<Json[]> {
  const res = await w.api('GET', `/projects/${w.project.id}/issues/${iid}/notes?per_page=100&sort=asc`)
  return (res.body as Json[]).filter((n) => n.system !== true)
}

/** Queues a write whose matching request is swallowed by the proxy, and waits for the outbox to give up on its answer. */
async function lost(
  iid: number,
  mutation: Mutation,
  mode: ProxyMode,
  only: (line: string) => boolean,
): Promise<number> {
  w.proxy.mode = mode
  w.proxy.only = only
  const entry = await w.outbox.enqueue(w.account.id, target(iid), mutation)
  const stuck = await w.until(entry.id, ['unknown-outcome'])
  expect(stuck.reason).toContain('timed out')
  expect(stuck.attempts).toBe(1)
  w.proxy.mode = 'pass'
  w.proxy.only = null
  return entry.id
}

const posts = (suffix: string): number =>
  w.proxy.forwarded.filter((l) => l.startsWith('POST') && l.split('?')[0].endsWith(suffix)).length

describe('a write whose response was lost', () => {
  it('a comment the server created is found by reading and marked reconciled, not posted again', async () => {
    const iid = (await w.cachedIssue()).iid as number
    const id = await lost(iid, { kind: 'comment', body: 'did this arrive?' }, 'hold-responses', (l) =>
      l.includes('/notes'),
    )
    expect(posts(`/issues/${iid}/notes`)).toBe(1)

    await w.goOnline()
    expect(await w.until(id)).toMatchObject({ state: 'reconciled', reason: 'The comment was found on the server.' })
    expect(posts(`/issues/${iid}/notes`)).toBe(1)
    expect((await notesOf(iid)).map((n) => n.body)).toEqual(['did this arrive?'])
    const shown = w.reader.detail(w.account.id, 'issue', { parentId: w.project.id, iid })
    expect(shown?.discussions.flatMap((d) => d.notes.map((n) => ({ body: n.data.body, pending: n.pending })))).toEqual([
      { body: 'did this arrive?', pending: false },
    ])
  })

  it('a comment that never reached the server is looked for, found missing and left for the user to send again: sent once on retry', async () => {
    const iid = (await w.cachedIssue()).iid as number
    const id = await lost(iid, { kind: 'comment', body: 'lost on the way' }, 'hold-requests', (l) =>
      l.includes('/notes'),
    )
    expect(posts(`/issues/${iid}/notes`)).toBe(0)

    await w.goOnline()
    // A comment could still be on its way into the server (a timed-out request it is still handling): not resent on its own.
    expect(await w.until(id)).toMatchObject({
      state: 'failed',
      status: null,
      attempts: 1,
      reason: 'The comment was not on the server. It did not take effect: send it again, or discard it.',
    })
    const reads = w.proxy.forwarded.filter((l) =>
      l.startsWith(`GET /api/v4/projects/${w.project.id}/issues/${iid}/notes`),
    )
    expect(reads).toHaveLength(1)
    expect(posts(`/issues/${iid}/notes`)).toBe(0)
    // Off the item until the user sends it again.
    const shown = w.reader.detail(w.account.id, 'issue', { parentId: w.project.id, iid })
    expect(shown?.discussions.flatMap((d) => d.notes.map((n) => n.data.body))).not.toContain('lost on the way')

    await w.outbox.retry(id)
    expect(await w.until(id)).toMatchObject({ state: 'done', attempts: 2 })
    expect(posts(`/issues/${iid}/notes`)).toBe(1)
    expect((await notesOf(iid)).map((n) => n.body)).toEqual(['lost on the way'])
  })

  it('spent time the server never recorded is left for the user to send again, not added on its own', async () => {
    const iid = (await w.cachedIssue()).iid as number
    const id = await lost(iid, { kind: 'add-spent-time', seconds: 900 }, 'hold-requests', (l) =>
      l.includes('/add_spent_time'),
    )
    await w.goOnline()
    expect(await w.until(id)).toMatchObject({
      state: 'failed',
      reason: 'The server had not recorded this time. It did not take effect: send it again, or discard it.',
    })
    expect(posts(`/issues/${iid}/add_spent_time`)).toBe(0)
  })

  it('an update the server never got is read back as missing and sent on its own: setting a value twice lands once', async () => {
    const iid = (await w.cachedIssue({ title: 'Not yet' })).iid as number
    const id = await lost(iid, { kind: 'update', changes: { title: 'Now' } }, 'hold-requests', (l) =>
      l.startsWith('PUT'),
    )
    await w.goOnline()
    expect(await w.until(id)).toMatchObject({
      state: 'done',
      attempts: 2,
      reason: 'The server did not have these changes. Sent again after the check.',
    })
    expect(((await w.api('GET', `/projects/${w.project.id}/issues/${iid}`)).body as Json).title).toBe('Now')
  })

  it('the same text posted twice on purpose stays twice: a found note is claimed by one entry only', async () => {
    const iid = (await w.cachedIssue()).iid as number
    const first = await w.outbox.enqueue(w.account.id, target(iid), { kind: 'comment', body: '+1' })
    expect((await w.until(first.id)).state).toBe('done')
    const id = await lost(iid, { kind: 'comment', body: '+1' }, 'hold-requests', (l) => l.includes('/notes'))
    await w.goOnline()
    // The first one's note is claimed by it: this one is not taken for found.
    expect((await w.until(id)).state).toBe('failed')
    await w.outbox.retry(id)
    expect((await w.until(id)).state).toBe('done')
    expect((await notesOf(iid)).map((n) => n.body)).toEqual(['+1', '+1'])
  })

  it('spent time the server recorded is recognised from the total before the request, and not added twice', async () => {
    const iid = (await w.cachedIssue()).iid as number
    await w.api('POST', `/projects/${w.project.id}/issues/${iid}/add_spent_time`, { duration: '1h' })
    const id = await lost(iid, { kind: 'add-spent-time', seconds: 1800 }, 'hold-responses', (l) =>
      l.includes('/add_spent_time'),
    )
    await w.goOnline()
    expect(await w.until(id)).toMatchObject({ state: 'reconciled', reason: 'The server recorded this time.' })
    expect(posts(`/issues/${iid}/add_spent_time`)).toBe(1)
    const stats = (await w.api('GET', `/projects/${w.project.id}/issues/${iid}/time_stats`)).body as Json
    expect(stats.total_time_spent).toBe(3600 + 1800)
  })

  it('spent time that cannot be told apart from someone else logging time is reported, not sent again', async () => {
    const iid = (await w.cachedIssue()).iid as number
    const id = await lost(iid, { kind: 'add-spent-time', seconds: 600 }, 'hold-responses', (l) =>
      l.includes('/add_spent_time'),
    )
    // Someone else logs time before the check.
    await w.api('POST', `/projects/${w.project.id}/issues/${iid}/add_spent_time`, { duration: '15m' })
    await w.goOnline()
    const entry = await w.until(id)
    expect(entry.state).toBe('failed')
    expect(entry.reason).toContain('someone else also logged time')
    expect(posts(`/issues/${iid}/add_spent_time`)).toBe(1)
    expect(
      ((await w.api('GET', `/projects/${w.project.id}/issues/${iid}/time_stats`)).body as Json).total_time_spent,
    ).toBe(600 + 900)
  })

  it('a comment of quick actions only leaves nothing to find: it is reported for the user to check, not resent', async () => {
    const iid = (await w.cachedIssue()).iid as number
    const id = await lost(iid, { kind: 'comment', body: '/label ~urgent' }, 'hold-responses', (l) =>
      l.includes('/notes'),
    )
    await w.goOnline()
    const entry = await w.until(id)
    expect(entry.state).toBe('failed')
    expect(entry.reason).toContain('only quick actions')
    expect(posts(`/issues/${iid}/notes`)).toBe(1)
  })

  it('an update whose answer was lost is read back and found applied', async () => {
    const iid = (await w.cachedIssue({ title: 'Before' })).iid as number
    const id = await lost(
      iid,
      { kind: 'update', changes: { title: 'After', add_labels: ['seen'] } },
      'hold-responses',
      (l) => l.startsWith('PUT'),
    )
    await w.goOnline()
    expect(await w.until(id)).toMatchObject({ state: 'reconciled', reason: 'The server has these changes.' })
    expect(
      w.proxy.forwarded.filter((l) => l.startsWith(`PUT /api/v4/projects/${w.project.id}/issues/${iid}`)),
    ).toHaveLength(1)
    const shown = w.reader.detail(w.account.id, 'issue', { parentId: w.project.id, iid })
    expect(shown?.item).toMatchObject({ pending: false, data: { title: 'After' } })
  })

  it('a to-do whose answer was lost is found on the to-do list', async () => {
    const iid = (await w.cachedIssue()).iid as number
    const id = await lost(iid, { kind: 'todo' }, 'hold-responses', (l) => l.includes('/todo'))
    await w.goOnline()
    expect(await w.until(id)).toMatchObject({ state: 'reconciled', reason: 'The to-do is on the server.' })
    expect(posts(`/issues/${iid}/todo`)).toBe(1)
  })
})
