import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OutboxEntry } from '../../src/shared/ipc/outbox'
import { makeOutboxWorld, type Json, type OutboxWorld } from '../helpers/outbox-world'

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
    queued.push(await w.outbox.enqueue(w.account.id, t, { kind: 'update', changes: { title: '  Edited offline ', description: 'Written on a plane' } }))
    queued.push(await w.outbox.enqueue(w.account.id, t, { kind: 'update', changes: { add_labels: ['added'], remove_labels: ['drop'] } }))
    queued.push(await w.outbox.enqueue(w.account.id, t, { kind: 'update', changes: { assignee_ids: [w.user.user.id], milestone_id: milestone.id as number } }))
    queued.push(await w.outbox.enqueue(w.account.id, t, { kind: 'comment', body: 'first offline comment' }))
    queued.push(await w.outbox.enqueue(w.account.id, t, { kind: 'comment', body: 'second offline comment' }))
    queued.push(await w.outbox.enqueue(w.account.id, t, { kind: 'time-estimate', seconds: 3 * 3600 }))
    queued.push(await w.outbox.enqueue(w.account.id, t, { kind: 'add-spent-time', seconds: 5400, summary: 'offline work' }))
    queued.push(await w.outbox.enqueue(w.account.id, t, { kind: 'todo' }))
    queued.push(await w.outbox.enqueue(w.account.id, t, { kind: 'subscription', subscribed: false }))
    queued.push(await w.outbox.enqueue(w.account.id, t, { kind: 'update', changes: { state_event: 'close' } }))
    queued.push(await w.outbox.enqueue(w.account.id, issueTarget(other.iid as number), { kind: 'comment', body: 'on the other issue' }))
    await w.outbox.idle()

    // Nothing reached the server; everything is queued, and the cache shows it as pending.
    expect(w.outbox.list({ accountId: w.account.id }).map((e) => e.state)).toEqual(queued.map(() => 'queued'))
    expect(await serverIssue(iid)).toMatchObject({ title: 'Offline target', state: 'opened', labels: ['drop', 'keep'] })
    expect(await notesOf(iid)).toHaveLength(0)
    const shown = w.reader.detail(w.account.id, 'issue', { parentId: w.project.id, iid })
    expect(shown?.item.pending).toBe(true)
    expect(shown?.item.data).toMatchObject({ title: 'Edited offline', description: 'Written on a plane', state: 'closed', subscribed: false, milestone: { id: milestone.id } })
    expect((shown?.item.data.labels as Json[]).map((l) => l.name)).toEqual(['keep', 'added'])
    expect((shown?.item.data.assignees as Json[]).map((u) => u.id)).toEqual([w.user.user.id])
    expect(shown?.item.data.time_stats).toMatchObject({ time_estimate: 10800, total_time_spent: 5400 })
    expect(shown?.discussions.flatMap((d) => d.notes.map((n) => n.data.body))).toEqual(['first offline comment', 'second offline comment'])

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
    const todos = (await w.api('GET', `/todos?type=Issue&project_id=${w.project.id}`)).body as Json[]
    expect(todos.map((td) => (td.target as Json).iid)).toEqual([iid])

    // The cache holds the server's version again, no longer pending.
    const confirmed = w.reader.detail(w.account.id, 'issue', { parentId: w.project.id, iid })
    expect(confirmed?.item.pending).toBe(false)
    expect(confirmed?.item.data).toMatchObject({ title: 'Edited offline', state: 'closed', updated_at: after.updated_at })
  })
})
