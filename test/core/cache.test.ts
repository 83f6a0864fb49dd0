import { describe, expect, it } from 'vitest'
import {
  Cache,
  CacheReader,
  openCacheDatabase,
  searchCache,
  type CacheChange,
  type JsonObject,
} from '../../src/main/core/cache/index'

const issue = (id: number, over: JsonObject = {}): JsonObject => ({
  id,
  iid: id,
  project_id: 1,
  title: `Issue ${id}`,
  description: null,
  state: 'opened',
  labels: [],
  assignees: [],
  author: { id: 9, username: 'al', name: 'Al' },
  user_notes_count: 0,
  created_at: `2024-01-0${id}T00:00:00.000Z`,
  updated_at: `2024-01-0${id}T00:00:00.000Z`,
  ...over,
})

function fresh(): { cache: Cache; reader: CacheReader; changes: CacheChange[] } {
  const cache = new Cache(openCacheDatabase(':memory:'))
  const changes: CacheChange[] = []
  cache.onDidChange((c) => changes.push(c))
  cache.upsert('acc', 'issue', [issue(1), issue(2)])
  cache.replaceLabels('acc', 'project', 1, [{ id: 7, name: 'bug', color: '#f00' }])
  return { cache, reader: new CacheReader(cache), changes }
}

describe('optimistic changes (the outbox contract)', () => {
  it('a patch shows in lists and filters at once, marked pending, with label titles expanded', () => {
    const { cache, reader, changes } = fresh()
    cache.applyOptimistic('acc', 'issue', { projectId: 1, iid: 2 }, { state: 'closed', labels: ['bug'] }, 41)
    const closed = reader.listIssues('acc', { state: 'closed', labels: 'bug' }, null)
    expect(closed.items).toEqual([
      {
        data: expect.objectContaining({ id: 2, state: 'closed', labels: [{ id: 7, name: 'bug', color: '#f00' }] }),
        pending: true,
      },
    ])
    expect(changes.at(-1)).toMatchObject({ accountId: 'acc', kinds: ['issue'], optimistic: true })
    expect(cache.pendingOutboxIds('acc', 'issue', 2)).toEqual([41])
  })

  it('newer server data keeps the pending patch on top; clearing returns to the server state', () => {
    const { cache, reader } = fresh()
    cache.applyOptimistic('acc', 'issue', { id: 2 }, { state: 'closed' }, 41)
    cache.upsert('acc', 'issue', [issue(2, { title: 'Renamed on the server', updated_at: '2024-02-01T00:00:00.000Z' })])
    expect(reader.detail('acc', 'issue', { id: 2 })?.item).toEqual({
      data: expect.objectContaining({ title: 'Renamed on the server', state: 'closed' }),
      pending: true,
    })
    cache.clearPending(41)
    expect(reader.detail('acc', 'issue', { id: 2 })?.item).toEqual({
      data: expect.objectContaining({ title: 'Renamed on the server', state: 'opened' }),
      pending: false,
    })
  })

  it('a provisional note appears in the discussions and in search until its entry is cleared', () => {
    const { cache, reader } = fresh()
    cache.applyOptimistic(
      'acc',
      'note',
      { id: -5 },
      {
        body: 'written on the train',
        noteable_type: 'Issue',
        noteable_id: 1,
        system: false,
        author: { id: 9, username: 'al' },
        created_at: '2024-03-01T00:00:00.000Z',
      },
      42,
    )
    expect(reader.detail('acc', 'issue', { id: 1 })?.discussions).toEqual([
      {
        id: 'pending--5',
        individual_note: true,
        notes: [{ data: expect.objectContaining({ id: -5, body: 'written on the train' }), pending: true }],
      },
    ])
    expect(searchCache(cache, 'acc', { query: 'train' }).hits.map((h) => [h.id, h.matched_in])).toEqual([[1, 'note']])
    cache.clearPending(42)
    expect(reader.detail('acc', 'issue', { id: 1 })?.discussions).toEqual([])
    expect(searchCache(cache, 'acc', { query: 'train' }).total).toBe(0)
  })

  it('a note written alone (the answer to a sent comment) joins its thread when the discussions are read, its JSON unchanged', () => {
    const { cache, reader } = fresh()
    const note = {
      id: 70,
      body: 'on line 2',
      type: 'DiffNote',
      noteable_type: 'Issue',
      noteable_id: 1,
      system: false,
      author: { id: 9, username: 'al' },
      created_at: '2024-03-01T00:00:00.000Z',
    }
    cache.upsert('acc', 'note', [note], { discussionId: null, position: Number.MAX_SAFE_INTEGER - 1 })
    expect(reader.detail('acc', 'issue', { id: 1 })?.discussions.map((d) => d.id)).toEqual(['pending-70'])
    const thread = 'a'.repeat(40)
    cache.replaceDiscussions('acc', 'issue', 1, [{ id: thread, individual_note: false, notes: [note] }])
    expect(reader.detail('acc', 'issue', { id: 1 })?.discussions).toEqual([
      { id: thread, individual_note: false, notes: [{ data: expect.objectContaining({ id: 70 }), pending: false }] },
    ])
  })

  it('refuses a patch for an item the cache does not hold, keyed by iid', () => {
    const { cache } = fresh()
    expect(() => cache.applyOptimistic('acc', 'issue', { projectId: 1, iid: 99 }, { state: 'closed' }, 43)).toThrow(
      expect.objectContaining({ code: 'not-cached' }),
    )
  })

  it('purging an account removes its rows and its search documents', () => {
    const { cache, reader } = fresh()
    cache.purgeAccount('acc')
    expect(reader.listIssues('acc', {}, null).total).toBe(0)
    expect(cache.db.prepare('SELECT COUNT(*) FROM search_docs').pluck().get()).toBe(0)
  })
})

describe('milestones:list progress', () => {
  it('counts each milestone’s issues (closed of all) and merge requests in the list itself, optimistic closes included', () => {
    const cache = new Cache(openCacheDatabase(':memory:'))
    const reader = new CacheReader(cache)
    const milestone = (id: number, title: string): JsonObject => ({
      id,
      iid: id,
      project_id: 1,
      title,
      description: null,
      state: 'active',
      due_date: null,
      start_date: null,
      created_at: '2024-01-01T00:00:00.000Z',
      updated_at: '2024-01-01T00:00:00.000Z',
    })
    cache.upsert('acc', 'milestone', [milestone(10, 'v1'), milestone(11, 'v2'), milestone(12, 'empty')])
    const ref = (id: number) => ({
      id,
      iid: id,
      title: `v${id}`,
      state: 'active',
      due_date: null,
      start_date: null,
      project_id: 1,
    })
    cache.upsert('acc', 'issue', [
      issue(1, { milestone: ref(10) }),
      issue(2, { milestone: ref(10), state: 'closed' }),
      issue(3, { milestone: ref(10) }),
      issue(4, { milestone: ref(11), state: 'closed' }),
      issue(5),
    ])
    cache.upsert('acc', 'merge_request', [
      { ...issue(6, { milestone: ref(11) }), source_branch: 'a', target_branch: 'main' },
    ])
    cache.applyOptimistic('acc', 'issue', { id: 3 }, { state: 'closed' }, 50)
    const byTitle = Object.fromEntries(
      reader.listMilestones('acc', {}).map((m) => [m.data.title, { progress: m.progress, mrs: m.merge_requests }]),
    )
    expect(byTitle).toEqual({
      v1: { progress: { total: 3, closed: 2, percent: 67 }, mrs: 0 },
      v2: { progress: { total: 1, closed: 1, percent: 100 }, mrs: 1 },
      empty: { progress: { total: 0, closed: 0, percent: 0 }, mrs: 0 },
    })
    expect(reader.milestone('acc', 10)?.progress).toEqual(byTitle.v1.progress)
  })
})

describe('bursts of writes (bulkWrites)', () => {
  it('keeps WAL checkpoints rare until the last of overlapping bursts ends, then restores the interval', async () => {
    const cache = new Cache(openCacheDatabase(':memory:'))
    const interval = (): unknown => cache.db.pragma('wal_autocheckpoint', { simple: true })
    let endFirst: () => void = () => undefined
    const first = cache.bulkWrites(() => new Promise<void>((resolve) => (endFirst = resolve)))
    expect(interval()).toBe(8192)
    await cache.bulkWrites(async () => {
      cache.upsert('acc', 'issue', [issue(1)])
    })
    // The first burst is still writing.
    expect(interval()).toBe(8192)
    endFirst()
    await first
    expect(interval()).toBe(1000)
    // A failing burst restores it too.
    await expect(cache.bulkWrites(() => Promise.reject(new Error('stopped')))).rejects.toThrow('stopped')
    expect(interval()).toBe(1000)
    cache.close()
  })
})

describe('an issue new to the cache with the iid of a cached one', () => {
  it('replaces the cached issue (deleted on the server since) with its labels, people and search document', () => {
    const cache = new Cache(openCacheDatabase(':memory:'))
    const count = (sql: string): number => cache.db.prepare(sql).pluck().get() as number
    cache.upsert('acc', 'issue', [
      issue(1, { title: 'Old quokka', labels: ['bug'], assignees: [{ id: 9, username: 'al', name: 'Al' }] }),
    ])
    const result = cache.upsert('acc', 'issue', [issue(3, { iid: 1, title: 'New wombat', labels: ['feature'] })])
    expect(result.changed.map((c) => c.id)).toEqual([3])
    expect(cache.db.prepare('SELECT id, iid, title FROM issues').all()).toEqual([
      { id: 3, iid: 1, title: 'New wombat' },
    ])
    expect(cache.db.prepare('SELECT item_id, title FROM item_labels').all()).toEqual([{ item_id: 3, title: 'feature' }])
    expect(count('SELECT count(*) FROM item_users')).toBe(0)
    expect(searchCache(cache, 'acc', { query: 'quokka' }).total).toBe(0)
    expect(searchCache(cache, 'acc', { query: 'wombat' }).total).toBe(1)
    cache.close()
  })
})
