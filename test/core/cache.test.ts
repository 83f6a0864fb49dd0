import { describe, expect, it } from 'vitest'
import { Cache, CacheReader, openCacheDatabase, searchCache, type CacheChange, type JsonObject } from '../../src/main/core/cache/index'

const issue = (id: number, over: JsonObject = {}): JsonObject => ({
  id, iid: id, project_id: 1, title: `Issue ${id}`, description: null, state: 'opened', labels: [], assignees: [], author: { id: 9, username: 'al', name: 'Al' },
  user_notes_count: 0, created_at: `2024-01-0${id}T00:00:00.000Z`, updated_at: `2024-01-0${id}T00:00:00.000Z`, ...over,
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
    expect(closed.items).toEqual([{ data: expect.objectContaining({ id: 2, state: 'closed', labels: [{ id: 7, name: 'bug', color: '#f00' }] }), pending: true }])
    expect(changes.at(-1)).toMatchObject({ accountId: 'acc', kinds: ['issue'], optimistic: true })
    expect(cache.pendingOutboxIds('acc', 'issue', 2)).toEqual([41])
  })

  it('newer server data keeps the pending patch on top; clearing returns to the server state', () => {
    const { cache, reader } = fresh()
    cache.applyOptimistic('acc', 'issue', { id: 2 }, { state: 'closed' }, 41)
    cache.upsert('acc', 'issue', [issue(2, { title: 'Renamed on the server', updated_at: '2024-02-01T00:00:00.000Z' })])
    expect(reader.detail('acc', 'issue', { id: 2 })?.item).toEqual({ data: expect.objectContaining({ title: 'Renamed on the server', state: 'closed' }), pending: true })
    cache.clearPending(41)
    expect(reader.detail('acc', 'issue', { id: 2 })?.item).toEqual({ data: expect.objectContaining({ title: 'Renamed on the server', state: 'opened' }), pending: false })
  })

  it('a provisional note appears in the discussions and in search until its entry is cleared', () => {
    const { cache, reader } = fresh()
    cache.applyOptimistic('acc', 'note', { id: -5 }, { body: 'written on the train', noteable_type: 'Issue', noteable_id: 1, system: false, author: { id: 9, username: 'al' }, created_at: '2024-03-01T00:00:00.000Z' }, 42)
    expect(reader.detail('acc', 'issue', { id: 1 })?.discussions).toEqual([{ id: 'pending--5', individual_note: true, notes: [{ data: expect.objectContaining({ id: -5, body: 'written on the train' }), pending: true }] }])
    expect(searchCache(cache, 'acc', { query: 'train' }).hits.map((h) => [h.id, h.matched_in])).toEqual([[1, 'note']])
    cache.clearPending(42)
    expect(reader.detail('acc', 'issue', { id: 1 })?.discussions).toEqual([])
    expect(searchCache(cache, 'acc', { query: 'train' }).total).toBe(0)
  })

  it('refuses a patch for an item the cache does not hold, keyed by iid', () => {
    const { cache } = fresh()
    expect(() => cache.applyOptimistic('acc', 'issue', { projectId: 1, iid: 99 }, { state: 'closed' }, 43)).toThrow(expect.objectContaining({ code: 'not-cached' }))
  })

  it('purging an account removes its rows and its search documents', () => {
    const { cache, reader } = fresh()
    cache.purgeAccount('acc')
    expect(reader.listIssues('acc', {}, null).total).toBe(0)
    expect(cache.db.prepare('SELECT COUNT(*) FROM search_docs').pluck().get()).toBe(0)
  })
})
