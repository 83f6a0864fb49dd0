import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { itemChangesProblem, mergeRequestUpdateArgs, updateArgs } from '../../src/shared/ipc/outbox-schema'
import { makeOutboxWorld, type Json, type OutboxWorld } from '../helpers/outbox-world'

/*
 * The issue-only fields of an update (due date, weight, epic) through the outbox against a real
 * Burrow Server: shown pending in the cache, sent when the instance is back, cleared with null,
 * compared with the server's value for conflicts like every other field.
 */

let w: OutboxWorld
let projectId: number
let epic: { id: number; iid: number; title: string }
let someday: { id: number; iid: number; title: string }
let groupId: number
beforeAll(async () => {
  w = await makeOutboxWorld()
  const group = (
    await w.api('POST', '/groups', { name: 'Planning', path: `planning-${Math.random().toString(36).slice(2, 7)}` })
  ).body as Json
  // Two epics first, so the one used has an id different from its iid's neighbours in other tests.
  groupId = group.id as number
  someday = (await w.api('POST', `/groups/${group.id}/epics`, { title: 'Someday' })).body as typeof someday
  epic = (await w.api('POST', `/groups/${group.id}/epics`, { title: 'Roadmap' })).body as typeof epic
  const project = (await w.api('POST', '/projects', { name: 'Planned', namespace_id: group.id })).body as Json
  projectId = project.id as number
  // The epic is in the cache (sync brings epics), so the pending issue can show its title.
  w.cache.upsert(w.account.id, 'epic', [epic as unknown as Json, someday as unknown as Json])
})
afterAll(async () => w.close())

async function cachedIssue(attrs: Json = {}): Promise<Json> {
  const created = (await w.api('POST', `/projects/${projectId}/issues`, { title: 'Planned work', ...attrs }))
    .body as Json
  const issue = (await w.api('GET', `/projects/${projectId}/issues/${created.iid}`)).body as Json
  w.cache.upsert(w.account.id, 'issue', [issue])
  return issue
}
const serverIssue = async (iid: number): Promise<Json> =>
  (await w.api('GET', `/projects/${projectId}/issues/${iid}`)).body as Json
const shown = (iid: number) => w.reader.detail(w.account.id, 'issue', { parentId: projectId, iid })?.item

describe('due date, weight and epic through the outbox', () => {
  it('queued offline they show pending in the cache, land on the server once it is back, and null clears them', async () => {
    const issue = await cachedIssue()
    const iid = issue.iid as number
    const target = { type: 'issue' as const, projectId, iid }
    await w.goOffline()
    const set = await w.outbox.enqueue(w.account.id, target, {
      kind: 'update',
      changes: { due_date: '2030-01-15', weight: 3, epic_id: epic.id },
    })
    await w.outbox.idle()
    expect(w.outbox.get(set.id).state).toBe('queued')
    expect(shown(iid)).toMatchObject({
      pending: true,
      data: {
        due_date: '2030-01-15',
        weight: 3,
        epic: { id: epic.id, iid: epic.iid, title: 'Roadmap' },
        epic_iid: epic.iid,
      },
    })
    expect(await serverIssue(iid)).toMatchObject({ due_date: null, weight: null, epic: null })

    await w.goOnline()
    expect((await w.until(set.id)).state).toBe('done')
    expect(await serverIssue(iid)).toMatchObject({ due_date: '2030-01-15', weight: 3, epic: { id: epic.id } })
    expect(shown(iid)).toMatchObject({
      pending: false,
      data: { due_date: '2030-01-15', weight: 3, epic: { id: epic.id } },
    })

    const cleared = await w.outbox.enqueue(w.account.id, target, {
      kind: 'update',
      changes: { due_date: null, weight: null, epic_id: null },
    })
    expect((await w.until(cleared.id)).state).toBe('done')
    expect(await serverIssue(iid)).toMatchObject({ due_date: null, weight: null, epic: null })
  })

  it('a due date changed on the server meanwhile is a conflict keeping both dates; a weight nobody else touched still goes', async () => {
    const issue = await cachedIssue({ due_date: '2030-01-01', weight: 1 })
    const iid = issue.iid as number
    await w.goOffline()
    const mine = await w.outbox.enqueue(
      w.account.id,
      { type: 'issue', projectId, iid },
      { kind: 'update', changes: { due_date: '2030-02-02' } },
    )
    const weight = await w.outbox.enqueue(
      w.account.id,
      { type: 'issue', projectId, iid: (await cachedIssue({ weight: 1 })).iid as number },
      { kind: 'update', changes: { weight: 8 } },
    )
    await w.api('PUT', `/projects/${projectId}/issues/${iid}`, { due_date: '2030-03-03' })
    await w.goOnline()
    const conflicted = await w.until(mine.id)
    expect(conflicted.state).toBe('conflict')
    expect(conflicted.conflict).toMatchObject({ local: { due_date: '2030-02-02' }, remote: { due_date: '2030-03-03' } })
    expect(conflicted.reason).toContain('due date')
    expect((await w.until(weight.id)).state).toBe('done')

    await w.outbox.resolve(mine.id, { choice: 'mine' })
    expect((await w.until(mine.id)).state).toBe('done')
    expect((await serverIssue(iid)).due_date).toBe('2030-02-02')
  })

  it('issues:list by epic_id lists what GET /groups/:id/epics/:iid/issues lists, and an issue queued into another epic moves there at once, pending', async () => {
    const inEpic = [await cachedIssue({ epic_id: epic.id }), await cachedIssue({ epic_id: epic.id })]
    await cachedIssue({ epic_id: someday.id })
    const ids = (epicId: number | 'None' | 'Any'): number[] =>
      w.reader
        .listIssues(
          w.account.id,
          { project_id: projectId, epic_id: epicId, state: 'all', order_by: 'created_at', sort: 'desc' },
          null,
        )
        .items.map((i) => i.data.id as number)
    const onServer = async (iid: number): Promise<number[]> =>
      ((await w.api('GET', `/groups/${groupId}/epics/${iid}/issues`)).body as Json[])
        .map((i) => i.id as number)
        .sort((a, b) => b - a)
    expect(ids(epic.id)).toEqual(inEpic.map((i) => i.id as number).reverse())
    expect(ids(epic.id)).toEqual(await onServer(epic.iid))
    expect(ids(someday.id)).toEqual(await onServer(someday.iid))
    expect(ids('Any')).toEqual(expect.arrayContaining([...ids(epic.id), ...ids(someday.id)]))
    expect(ids('None')).not.toEqual(expect.arrayContaining(ids(epic.id)))

    await w.goOffline()
    const moved = inEpic[0]
    const entry = await w.outbox.enqueue(
      w.account.id,
      { type: 'issue', projectId, iid: moved.iid as number },
      { kind: 'update', changes: { epic_id: someday.id } },
    )
    await w.outbox.idle()
    expect(ids(epic.id)).toEqual([inEpic[1].id])
    expect(ids(someday.id)).toContain(moved.id)
    expect(
      w.reader
        .listIssues(w.account.id, { project_id: projectId, epic_id: someday.id }, null)
        .items.find((i) => i.data.id === moved.id)?.pending,
    ).toBe(true)
    await w.goOnline()
    expect((await w.until(entry.id)).state).toBe('done')
    expect(await onServer(someday.iid)).toContain(moved.id)
  })

  it('refuses malformed values at the boundary, and these fields on merge requests', () => {
    expect(itemChangesProblem({ due_date: '2030-02-30' })).toContain('due_date')
    expect(itemChangesProblem({ due_date: '15/01/2030' })).toContain('due_date')
    expect(itemChangesProblem({ weight: -1 })).toContain('weight')
    expect(itemChangesProblem({ weight: 1.5 })).toContain('weight')
    expect(itemChangesProblem({ epic_id: 0 })).toContain('epic_id')
    expect(itemChangesProblem({ due_date: null, weight: null, epic_id: null })).toBeNull()
    expect(updateArgs(['acct', { projectId: 1, iid: 2, changes: { weight: 2 } }])).toBeNull()
    expect(mergeRequestUpdateArgs(['acct', { projectId: 1, iid: 2, changes: { weight: 2 } }])).toBe(
      'merge requests have no weight',
    )
    expect(mergeRequestUpdateArgs(['acct', { projectId: 1, iid: 2, changes: { title: 'ok' } }])).toBeNull()
  })
})
