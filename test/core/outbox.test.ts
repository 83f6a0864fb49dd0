import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OutboxEntry } from '../../src/shared/ipc/outbox'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedMember } from '../helpers/fixtures'
import { makeOutboxWorld, type Json, type OutboxWorld } from '../helpers/outbox-world'
import { seedUser } from '../helpers/server'

let w: OutboxWorld
beforeAll(async () => {
  w = await makeOutboxWorld()
})
afterAll(async () => w.close())

const issueTarget = (iid: number) => ({ type: 'issue' as const, projectId: w.project.id, iid })

async function serverIssue(iid: number): Promise<Json> {
  return (await w.api('GET', `/projects/${w.project.id}/issues/${iid}`)).body as Json
}

async function notesOf(iid: number): Promise<Json[]> {
  const res = await w.api('GET', `/projects/${w.project.id}/issues/${iid}/notes?per_page=100&sort=asc`)
  return (res.body as Json[]).filter((n) => n.system !== true)
}

describe('offline writes, replayed when the instance is back', () => {
  it('queues every kind of issue write offline, shows them pending in the cache, and replays them in order with the server checked field by field', async () => {
    const milestone = (await w.api('POST', `/projects/${w.project.id}/milestones`, { title: 'v1' })).body as Json
    const other = (await w.api('POST', `/projects/${w.project.id}/issues`, { title: 'Other' })).body as Json
    const issue = await w.cachedIssue({ title: 'Offline target', labels: 'keep,drop' })
    const iid = issue.iid as number
    // The author is subscribed on creation: unsubscribing is the change.
    expect(issue.subscribed).toBe(true)
    await w.goOffline()

    const t = issueTarget(iid)
    const queued: OutboxEntry[] = []
    queued.push(
      await w.outbox.enqueue(w.account.id, t, {
        kind: 'update',
        changes: { title: '  Edited offline ', description: 'Written on a plane' },
      }),
    )
    queued.push(
      await w.outbox.enqueue(w.account.id, t, {
        kind: 'update',
        changes: { add_labels: ['added'], remove_labels: ['drop'] },
      }),
    )
    queued.push(
      await w.outbox.enqueue(w.account.id, t, {
        kind: 'update',
        changes: { assignee_ids: [w.user.user.id], milestone_id: milestone.id as number },
      }),
    )
    queued.push(await w.outbox.enqueue(w.account.id, t, { kind: 'comment', body: 'first offline comment' }))
    queued.push(await w.outbox.enqueue(w.account.id, t, { kind: 'comment', body: 'second offline comment' }))
    queued.push(await w.outbox.enqueue(w.account.id, t, { kind: 'time-estimate', seconds: 3 * 3600 }))
    queued.push(
      await w.outbox.enqueue(w.account.id, t, { kind: 'add-spent-time', seconds: 5400, summary: 'offline work' }),
    )
    queued.push(await w.outbox.enqueue(w.account.id, t, { kind: 'todo' }))
    queued.push(await w.outbox.enqueue(w.account.id, t, { kind: 'subscription', subscribed: false }))
    queued.push(await w.outbox.enqueue(w.account.id, t, { kind: 'update', changes: { state_event: 'close' } }))
    queued.push(
      await w.outbox.enqueue(w.account.id, issueTarget(other.iid as number), {
        kind: 'comment',
        body: 'on the other issue',
      }),
    )
    await w.outbox.idle()

    // Nothing reached the server; everything is queued, and the cache shows it as pending.
    expect(w.outbox.list({ accountId: w.account.id }).map((e) => e.state)).toEqual(queued.map(() => 'queued'))
    expect(await serverIssue(iid)).toMatchObject({ title: 'Offline target', state: 'opened', labels: ['drop', 'keep'] })
    expect(await notesOf(iid)).toHaveLength(0)
    const shown = w.reader.detail(w.account.id, 'issue', { parentId: w.project.id, iid })
    expect(shown?.item.pending).toBe(true)
    expect(shown?.item.data).toMatchObject({
      title: 'Edited offline',
      description: 'Written on a plane',
      state: 'closed',
      subscribed: false,
      milestone: { id: milestone.id },
    })
    expect((shown?.item.data.labels as Json[]).map((l) => l.name)).toEqual(['keep', 'added'])
    expect((shown?.item.data.assignees as Json[]).map((u) => u.id)).toEqual([w.user.user.id])
    expect(shown?.item.data.time_stats).toMatchObject({ time_estimate: 10800, total_time_spent: 5400 })
    expect(shown?.discussions.flatMap((d) => d.notes.map((n) => n.data.body))).toEqual([
      'first offline comment',
      'second offline comment',
    ])

    await w.goOnline()
    for (const e of queued) expect((await w.until(e.id)).state).toBe('done')

    const after = await serverIssue(iid)
    expect(after.title).toBe('Edited offline')
    expect(after.description).toBe('Written on a plane')
    expect([...(after.labels as string[])].sort()).toEqual(['added', 'keep'])
    expect((after.assignees as Json[]).map((u) => u.id)).toEqual([w.user.user.id])
    expect((after.milestone as Json).id).toBe(milestone.id)
    expect(after.state).toBe('closed')
    expect(after.time_stats).toMatchObject({ time_estimate: 10800, total_time_spent: 5400 })
    expect(after.subscribed).toBe(false)
    expect((await notesOf(iid)).map((n) => n.body)).toEqual(['first offline comment', 'second offline comment'])
    expect((await notesOf(other.iid as number)).map((n) => n.body)).toEqual(['on the other issue'])
    // The to-do was added, then the close queued after it marked it done (GitLab resolves the
    // actor's own to-dos on an item they act on).
    const todos = (await w.api('GET', `/todos?type=Issue&project_id=${w.project.id}&state=done`)).body as Json[]
    expect(todos.map((td) => (td.target as Json).iid)).toEqual([iid])

    // The cache holds the server's version again, no longer pending.
    const confirmed = w.reader.detail(w.account.id, 'issue', { parentId: w.project.id, iid })
    expect(confirmed?.item.pending).toBe(false)
    expect(confirmed?.item.data).toMatchObject({
      title: 'Edited offline',
      state: 'closed',
      updated_at: after.updated_at,
    })
  })
})

describe('scoped labels', () => {
  it("an added scoped label takes the place of the item's label of that scope in the cache at once, as the server does when the write lands", async () => {
    const issue = await w.cachedIssue({ title: 'Scoped offline', labels: 'workflow::blocked,bug' })
    const iid = issue.iid as number
    await w.goOffline()
    const entry = await w.outbox.enqueue(w.account.id, issueTarget(iid), {
      kind: 'update',
      changes: { add_labels: ['workflow::ready'] },
    })
    const shown = w.reader.detail(w.account.id, 'issue', { parentId: w.project.id, iid })
    expect((shown?.item.data.labels as Json[]).map((l) => l.name)).toEqual(['bug', 'workflow::ready'])
    await w.goOnline()
    expect((await w.until(entry.id)).state).toBe('done')
    expect([...((await serverIssue(iid)).labels as string[])].sort()).toEqual(['bug', 'workflow::ready'])
  })
})

describe('conflicts with changes made on the server meanwhile', () => {
  async function queuedWhileOffline(
    iid: number,
    changes: Parameters<OutboxWorld['outbox']['enqueue']>[2],
  ): Promise<OutboxEntry> {
    await w.goOffline()
    const entry = await w.outbox.enqueue(w.account.id, issueTarget(iid), changes)
    await w.outbox.idle()
    return entry
  }

  it('a remote title edit racing a queued one becomes a conflict keeping both versions; later writes to that item wait, other items go on', async () => {
    const issue = await w.cachedIssue({ title: 'Base title' })
    const iid = issue.iid as number
    const other = await w.cachedIssue({ title: 'Unrelated' })
    const mine = await queuedWhileOffline(iid, { kind: 'update', changes: { title: 'Mine' } })
    const behind = await w.outbox.enqueue(w.account.id, issueTarget(iid), { kind: 'comment', body: 'after my edit' })
    const elsewhere = await w.outbox.enqueue(w.account.id, issueTarget(other.iid as number), {
      kind: 'comment',
      body: 'unrelated item',
    })
    const theirs = (await w.api('PUT', `/projects/${w.project.id}/issues/${iid}`, { title: 'Theirs' })).body as Json

    await w.goOnline()
    const conflicted = await w.until(mine.id)
    expect(conflicted.state).toBe('conflict')
    expect(conflicted.conflict).toEqual({
      local: { title: 'Mine' },
      remote: { title: 'Theirs' },
      remoteUpdatedAt: theirs.updated_at,
    })
    expect(conflicted.base).toMatchObject({ updatedAt: issue.updated_at, fields: { title: 'Base title' } })
    expect(conflicted.reason).toContain('title')
    expect((await serverIssue(iid)).title).toBe('Theirs')
    // While the conflict is open the cache shows the server's version; the entry holds mine.
    expect(w.reader.detail(w.account.id, 'issue', { parentId: w.project.id, iid })?.item).toMatchObject({
      pending: false,
      data: { title: 'Theirs' },
    })

    expect((await w.until(elsewhere.id)).state).toBe('done')
    expect(w.outbox.get(behind.id)).toMatchObject({ state: 'queued', blockedBy: mine.id })
    expect(await notesOf(iid)).toHaveLength(0)
  })

  it('"keep mine" sends mine over theirs, then the writes that waited behind it', async () => {
    const issue = await w.cachedIssue({ title: 'Base title' })
    const iid = issue.iid as number
    const mine = await queuedWhileOffline(iid, { kind: 'update', changes: { title: 'Mine' } })
    const behind = await w.outbox.enqueue(w.account.id, issueTarget(iid), {
      kind: 'comment',
      body: 'waited for the title',
    })
    await w.api('PUT', `/projects/${w.project.id}/issues/${iid}`, { title: 'Theirs' })
    await w.goOnline()
    expect((await w.until(mine.id)).state).toBe('conflict')

    const resolved = await w.outbox.resolve(mine.id, { choice: 'mine' })
    expect(resolved).toMatchObject({ state: 'queued', conflict: null, base: { fields: { title: 'Theirs' } } })
    expect((await w.until(mine.id)).state).toBe('done')
    expect((await w.until(behind.id)).state).toBe('done')
    expect((await serverIssue(iid)).title).toBe('Mine')
    expect((await notesOf(iid)).map((n) => n.body)).toEqual(['waited for the title'])
  })

  it('"take theirs" discards mine and keeps the server version, in the cache too', async () => {
    const issue = await w.cachedIssue({ title: 'Base title', description: 'Base text' })
    const iid = issue.iid as number
    const mine = await queuedWhileOffline(iid, { kind: 'update', changes: { description: 'My text' } })
    await w.api('PUT', `/projects/${w.project.id}/issues/${iid}`, { description: 'Their text' })
    await w.goOnline()
    expect((await w.until(mine.id)).conflict).toMatchObject({
      local: { description: 'My text' },
      remote: { description: 'Their text' },
    })

    expect(await w.outbox.resolve(mine.id, { choice: 'theirs' })).toMatchObject({ state: 'discarded' })
    await w.outbox.idle()
    expect((await serverIssue(iid)).description).toBe('Their text')
    expect(w.reader.detail(w.account.id, 'issue', { parentId: w.project.id, iid })?.item).toMatchObject({
      pending: false,
      data: { description: 'Their text' },
    })
  })

  it('"edited" sends the version the user wrote after seeing both', async () => {
    const issue = await w.cachedIssue({ title: 'Base title' })
    const iid = issue.iid as number
    const mine = await queuedWhileOffline(iid, { kind: 'update', changes: { title: 'Mine' } })
    await w.api('PUT', `/projects/${w.project.id}/issues/${iid}`, { title: 'Theirs' })
    await w.goOnline()
    expect((await w.until(mine.id)).state).toBe('conflict')

    const edited = await w.outbox.resolve(mine.id, { choice: 'edited', changes: { title: 'Mine and theirs' } })
    expect(edited.mutation).toEqual({ kind: 'update', changes: { title: 'Mine and theirs' } })
    expect((await w.until(mine.id)).state).toBe('done')
    expect((await serverIssue(iid)).title).toBe('Mine and theirs')
  })

  it('a remote change to another field is no conflict: both changes are kept', async () => {
    const issue = await w.cachedIssue({ title: 'Base title', description: 'Base text', labels: 'one' })
    const iid = issue.iid as number
    const mine = await queuedWhileOffline(iid, { kind: 'update', changes: { title: 'My title', add_labels: ['two'] } })
    await w.api('PUT', `/projects/${w.project.id}/issues/${iid}`, { description: 'Their text', add_labels: 'three' })
    await w.goOnline()
    expect((await w.until(mine.id)).state).toBe('done')
    const after = await serverIssue(iid)
    expect(after).toMatchObject({ title: 'My title', description: 'Their text' })
    expect([...(after.labels as string[])].sort()).toEqual(['one', 'three', 'two'])
  })

  it('the same change made on the server meanwhile is done without sending anything', async () => {
    const issue = await w.cachedIssue({ title: 'Base title' })
    const iid = issue.iid as number
    const mine = await queuedWhileOffline(iid, { kind: 'update', changes: { state_event: 'close' } })
    await w.api('PUT', `/projects/${w.project.id}/issues/${iid}`, { state_event: 'close' })
    const puts = w.proxy.forwarded.filter((l) => l.startsWith('PUT')).length
    await w.goOnline()
    expect(await w.until(mine.id)).toMatchObject({ state: 'done', reason: 'The server already had these changes.' })
    expect(w.proxy.forwarded.filter((l) => l.startsWith('PUT')).length).toBe(puts)
  })
})

describe('writes the server refuses', () => {
  it('a 403 keeps its reason and status, takes its change off the cache, holds back later writes of the item, and can be retried once allowed', async () => {
    const guest = seedUser(w.server, { name: 'Gail Guest' })
    seedMember(w.server, 'Project', w.project.id, guest.user.id, AccessLevel.GUEST)
    const guestAccount = await w.accounts.add({ baseUrl: w.proxy.url, token: guest.token })
    const issue = await w.cachedIssue({ title: 'Owned by Olive' })
    const iid = issue.iid as number
    w.cache.upsert(guestAccount.id, 'issue', [issue])

    const edit = await w.outbox.enqueue(guestAccount.id, issueTarget(iid), {
      kind: 'update',
      changes: { title: 'Renamed by a guest' },
    })
    const later = await w.outbox.enqueue(guestAccount.id, issueTarget(iid), {
      kind: 'comment',
      body: 'after the rename',
    })
    const failed = await w.until(edit.id)
    expect(failed).toMatchObject({
      state: 'failed',
      status: 403,
      reason:
        'The server does not allow this change: “403 Forbidden”. The project may be archived or the discussion locked, or your role changed.',
    })
    expect(w.outbox.get(later.id)).toMatchObject({ state: 'queued', blockedBy: edit.id })
    expect(w.reader.detail(guestAccount.id, 'issue', { parentId: w.project.id, iid })?.item.data.title).toBe(
      'Owned by Olive',
    )
    expect((await serverIssue(iid)).title).toBe('Owned by Olive')

    w.server.app.burrow.db
      .prepare("UPDATE members SET access_level = ? WHERE source_type = 'Project' AND source_id = ? AND user_id = ?")
      .run(AccessLevel.REPORTER, w.project.id, guest.user.id)
    expect(await w.outbox.retry(edit.id)).toMatchObject({ state: 'queued', reason: null, status: null })
    expect(w.reader.detail(guestAccount.id, 'issue', { parentId: w.project.id, iid })?.item).toMatchObject({
      pending: true,
      data: { title: 'Renamed by a guest' },
    })
    expect((await w.until(edit.id)).state).toBe('done')
    expect((await w.until(later.id)).state).toBe('done')
    expect((await serverIssue(iid)).title).toBe('Renamed by a guest')
    expect((await notesOf(iid)).map((n) => n.body)).toEqual(['after the rename'])
  })

  it('a 404 (a reply to a thread that is gone) can be discarded: its provisional comment leaves the cache and the next write goes', async () => {
    const issue = await w.cachedIssue()
    const iid = issue.iid as number
    const reply = await w.outbox.enqueue(w.account.id, issueTarget(iid), {
      kind: 'reply',
      discussionId: 'f'.repeat(40),
      body: 'into the void',
    })
    const next = await w.outbox.enqueue(w.account.id, issueTarget(iid), { kind: 'comment', body: 'a plain comment' })
    expect(await w.until(reply.id)).toMatchObject({ state: 'failed', status: 404 })
    expect(w.outbox.get(reply.id).reason).toMatch(
      /^The server no longer has what this change is for: “404 .*”\. The issue \(or its thread\) may have been deleted or moved/,
    )
    expect(w.outbox.get(next.id).blockedBy).toBe(reply.id)

    expect(w.outbox.discard(reply.id)).toMatchObject({ state: 'discarded', reason: 'Discarded.' })
    expect((await w.until(next.id)).state).toBe('done')
    expect((await notesOf(iid)).map((n) => n.body)).toEqual(['a plain comment'])
    const shown = w.reader.detail(w.account.id, 'issue', { parentId: w.project.id, iid })
    expect(shown?.discussions.flatMap((d) => d.notes.map((n) => n.data.body))).not.toContain('into the void')
    expect(() => w.outbox.discard(reply.id)).toThrow(expect.objectContaining({ code: 'invalid-state' }))
  })

  it('an update the server accepts but silently ignores (an unknown milestone) is reported as failed, not done', async () => {
    const issue = await w.cachedIssue()
    const entry = await w.outbox.enqueue(w.account.id, issueTarget(issue.iid as number), {
      kind: 'update',
      changes: { milestone_id: 999_999 },
    })
    expect(await w.until(entry.id)).toMatchObject({
      state: 'failed',
      reason: 'The server accepted the update but did not apply: milestone.',
    })
  })
})

describe('an account removed with writes still queued', () => {
  it('fails them with the reason instead of keeping them queued forever', async () => {
    const other = seedUser(w.server)
    seedMember(w.server, 'Project', w.project.id, other.user.id, AccessLevel.DEVELOPER)
    const account = await w.accounts.add({ baseUrl: w.proxy.url, token: other.token })
    const issue = await w.cachedIssue()
    await w.goOffline()
    w.accounts.connectivityFor(account.id).reportNetworkError()
    const entry = await w.outbox.enqueue(account.id, issueTarget(issue.iid as number), {
      kind: 'comment',
      body: 'from an account about to go',
    })
    await w.accounts.remove(account.id)
    await w.goOnline()
    expect(await w.until(entry.id)).toMatchObject({
      state: 'failed',
      reason: 'The account was removed; this write cannot be sent.',
    })
    expect(await notesOf(issue.iid as number)).toHaveLength(0)
  })
})

describe('a change landing between the read and the write', () => {
  it('is caught by If-Unmodified-Since (412), compared again, and becomes a conflict instead of being overwritten', async () => {
    const issue = await w.cachedIssue({ title: 'Base title' })
    const iid = issue.iid as number
    let raced = false
    w.proxy.beforeForward = async (line) => {
      if (raced || !line.startsWith(`PUT /api/v4/projects/${w.project.id}/issues/${iid}`)) return
      raced = true
      await w.api('PUT', `/projects/${w.project.id}/issues/${iid}`, { title: 'Theirs, just in time' })
    }
    try {
      const entry = await w.outbox.enqueue(w.account.id, issueTarget(iid), {
        kind: 'update',
        changes: { title: 'Mine' },
      })
      expect(await w.until(entry.id)).toMatchObject({
        state: 'conflict',
        conflict: { local: { title: 'Mine' }, remote: { title: 'Theirs, just in time' } },
      })
      expect(
        w.proxy.forwarded.filter((l) => l.startsWith(`PUT /api/v4/projects/${w.project.id}/issues/${iid}`)),
      ).toHaveLength(1)
      expect((await serverIssue(iid)).title).toBe('Theirs, just in time')
    } finally {
      w.proxy.beforeForward = null
    }
  })
})
