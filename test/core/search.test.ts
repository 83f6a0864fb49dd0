import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  Cache,
  migrateCache,
  openCacheDatabase,
  searchCache,
  type CacheChange,
  type JsonObject,
} from '../../src/main/core/cache/index'
import { cacheMigrations } from '../../src/main/core/cache/migrations/index'

/*
 * The cache's full-text search on a real SQLite file (core/cache/search.ts, migration 140).
 * The ranking window is made small here (`{window}`) so its edges can be tested with a few rows.
 */

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function file(): string {
  const dir = mkdtempSync(join(tmpdir(), 'burrow-search-'))
  dirs.push(dir)
  return join(dir, 'cache.sqlite3')
}

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
  created_at: '2024-01-01T00:00:00.000Z',
  updated_at: '2024-01-01T00:00:00.000Z',
  ...over,
})

const note = (id: number, issueId: number, body: string): JsonObject => ({
  id,
  body,
  noteable_type: 'Issue',
  noteable_id: issueId,
  system: false,
  author: { id: 9, username: 'al', name: 'Al' },
  created_at: '2024-01-02T00:00:00.000Z',
})

const ids = (cache: Cache, account: string, params: Parameters<typeof searchCache>[2], window?: number): number[] =>
  searchCache(cache, account, params, { window }).hits.map((h) => h.id)

/** FTS5's own check that the index holds exactly the documents' text. */
function indexIsIntact(cache: Cache): boolean {
  cache.db.prepare("INSERT INTO search_fts (search_fts, rank) VALUES ('integrity-check', 1)").run()
  return true
}

describe('search over more matches than it ranks', () => {
  it('ranks the newest window of matches and estimates the total from their density', () => {
    const cache = new Cache(openCacheDatabase(file()))
    cache.upsert(
      'a',
      'issue',
      Array.from({ length: 30 }, (_, i) => issue(i + 1, { title: `Crash ${i + 1}` })),
    )
    const result = searchCache(cache, 'a', { query: 'crash', limit: 50 }, { window: 10 })
    expect(result.exact).toBe(false)
    expect(result.total).toBe(30)
    expect(result.hits.map((h) => h.id).sort((a, b) => a - b)).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30])
    cache.close()
  })

  it('is exact when the matches fit in the window', () => {
    const cache = new Cache(openCacheDatabase(file()))
    cache.upsert(
      'a',
      'issue',
      Array.from({ length: 10 }, (_, i) => issue(i + 1, { title: `Crash ${i + 1}` })),
    )
    expect(searchCache(cache, 'a', { query: 'crash' }, { window: 10 })).toMatchObject({ total: 10, exact: true })
    cache.close()
  })

  it('applies a project filter to every match, so an old match of a narrow filter is not lost behind newer ones', () => {
    const cache = new Cache(openCacheDatabase(file()))
    cache.upsert('a', 'issue', [issue(1, { title: 'Crash in the old project', project_id: 2 })])
    cache.upsert(
      'a',
      'issue',
      Array.from({ length: 20 }, (_, i) => issue(i + 2, { title: `Crash ${i}` })),
    )
    expect(searchCache(cache, 'a', { query: 'crash', project_id: 2 }, { window: 5 })).toMatchObject({
      total: 1,
      exact: true,
      hits: [expect.objectContaining({ id: 1, project_id: 2 })],
    })
    cache.close()
  })

  it('applies a group filter to its epics and to the issues of its projects and subgroups', () => {
    const cache = new Cache(openCacheDatabase(file()))
    cache.upsert('a', 'group', [
      { id: 5, name: 'Tools', full_path: 'tools' },
      { id: 6, name: 'Other', full_path: 'other' },
    ])
    cache.upsert('a', 'project', [
      { id: 1, name: 'cli', path_with_namespace: 'tools/sub/cli', namespace: { id: 7, full_path: 'tools/sub' } },
      { id: 2, name: 'web', path_with_namespace: 'other/web', namespace: { id: 6, full_path: 'other' } },
    ])
    cache.upsert('a', 'issue', [
      issue(1, { title: 'Crash in the cli', project_id: 1 }),
      issue(2, { title: 'Crash on the web', project_id: 2 }),
    ])
    cache.upsert('a', 'epic', [
      {
        id: 3,
        iid: 1,
        group_id: 5,
        title: 'Crash epic',
        state: 'opened',
        labels: [],
        created_at: '2024-01-01T00:00:00.000Z',
        updated_at: '2024-01-01T00:00:00.000Z',
      },
    ])
    expect(ids(cache, 'a', { query: 'crash', group_id: 5 }).sort()).toEqual([1, 3])
    expect(ids(cache, 'a', { query: 'crash', group_id: 6 })).toEqual([2])
    expect(ids(cache, 'a', { query: 'crash', project_id: 1 })).toEqual([1])
    cache.close()
  })

  it('does not let another account’s newer matches crowd an account’s own out of the window', () => {
    const cache = new Cache(openCacheDatabase(file()))
    cache.upsert('a', 'issue', [issue(1, { title: 'Crash here' }), issue(2, { title: 'Crash there' })])
    cache.upsert(
      'b',
      'issue',
      Array.from({ length: 20 }, (_, i) => issue(i + 1, { title: `Crash ${i}` })),
    )
    expect(searchCache(cache, 'a', { query: 'crash' }, { window: 5 })).toMatchObject({ total: 2, exact: true })
    cache.close()
  })
})

describe('search filters follow the items', () => {
  it('a state filter follows the item’s state, for matches in its notes too', () => {
    const cache = new Cache(openCacheDatabase(file()))
    cache.upsert('a', 'issue', [issue(1, { title: 'Settings dialog' })])
    cache.replaceDiscussions('a', 'issue', 1, [
      { id: 'd1', individual_note: true, notes: [note(11, 1, 'Seen with the quasar backend')] },
    ])
    expect(searchCache(cache, 'a', { query: 'quasar', state: 'opened' }).hits).toEqual([
      expect.objectContaining({ id: 1, matched_in: 'note' }),
    ])
    cache.upsert('a', 'issue', [
      issue(1, { title: 'Settings dialog', state: 'closed', updated_at: '2024-02-01T00:00:00.000Z' }),
    ])
    expect(ids(cache, 'a', { query: 'quasar', state: 'opened' })).toEqual([])
    expect(ids(cache, 'a', { query: 'quasar', state: 'closed' })).toEqual([1])
    // An optimistic reopen (the outbox) counts as the item's state until it is cleared.
    cache.applyOptimistic('a', 'issue', { id: 1 }, { state: 'opened' }, 7)
    expect(ids(cache, 'a', { query: 'quasar', state: 'opened' })).toEqual([1])
    cache.clearPending(7)
    expect(ids(cache, 'a', { query: 'quasar', state: 'opened' })).toEqual([])
    cache.close()
  })
})

describe('the index is written once per transaction', () => {
  it('finds what a transaction wrote once it commits, and keeps the index intact through inserts, edits and deletes in one transaction', () => {
    const cache = new Cache(openCacheDatabase(file()))
    cache.upsert('a', 'issue', [issue(1, { title: 'Keychain locked' })])
    cache.transaction(() => {
      cache.upsert('a', 'issue', [issue(2, { title: 'Parser stalls' })])
      cache.upsert('a', 'issue', [issue(2, { title: 'Parser crashes', updated_at: '2024-01-05T00:00:00.000Z' })])
      cache.upsert('a', 'issue', [issue(1, { title: 'Keychain unlocked', updated_at: '2024-01-05T00:00:00.000Z' })])
      cache.upsert('a', 'issue', [issue(3, { title: 'Short lived' })])
      cache.remove('a', 'issue', [3])
    })
    expect(ids(cache, 'a', { query: 'parser crashes' })).toEqual([2])
    expect(ids(cache, 'a', { query: 'stalls' })).toEqual([])
    expect(ids(cache, 'a', { query: 'unlocked' })).toEqual([1])
    expect(ids(cache, 'a', { query: 'short' })).toEqual([])
    expect(cache.db.prepare('SELECT count(*) FROM search_pending').pluck().get()).toBe(0)
    expect(indexIsIntact(cache)).toBe(true)
    cache.close()
  })

  it('leaves nothing behind from a transaction that rolls back', () => {
    const cache = new Cache(openCacheDatabase(file()))
    expect(() =>
      cache.transaction(() => {
        cache.upsert('a', 'issue', [issue(1, { title: 'Never committed' })])
        throw new Error('page refused')
      }),
    ).toThrow('page refused')
    cache.upsert('a', 'issue', [issue(2, { title: 'Committed' })])
    expect(ids(cache, 'a', { query: 'committed' })).toEqual([2])
    expect(ids(cache, 'a', { query: 'never' })).toEqual([])
    expect(indexIsIntact(cache)).toBe(true)
    cache.close()
  })
})

describe('an index deferred to later (a sync’s list)', () => {
  it('finds what deferred transactions wrote once indexSearchDocs runs, a rollback in between notwithstanding', () => {
    const cache = new Cache(openCacheDatabase(file()))
    cache.transaction(() => cache.upsert('a', 'issue', [issue(1, { title: 'Wombat burrow' })]), {
      deferSearchIndex: true,
    })
    cache.transaction(() => cache.upsert('a', 'issue', [issue(2, { title: 'Wombat tunnel' })]), {
      deferSearchIndex: true,
    })
    expect(ids(cache, 'a', { query: 'wombat' })).toEqual([])
    expect(() =>
      cache.transaction(() => {
        cache.upsert('a', 'issue', [issue(3, { title: 'Wombat never' })])
        throw new Error('page refused')
      }),
    ).toThrow('page refused')
    const announced: CacheChange[] = []
    cache.onDidChange((change) => announced.push(change))
    cache.indexSearchDocs()
    // Searches made before it (their prefix expansions too) are stale: the change says so.
    expect(announced).toMatchObject([{ accountId: 'a', kinds: ['issue'], projectIds: [1] }])
    expect(ids(cache, 'a', { query: 'wombat' }).sort()).toEqual([1, 2])
    expect(cache.db.prepare('SELECT count(*) FROM search_pending').pluck().get()).toBe(0)
    expect(indexIsIntact(cache)).toBe(true)
    cache.close()
  })

  it('indexes at the next open what a process stopped before indexing left pending', () => {
    const path = file()
    const first = new Cache(openCacheDatabase(path))
    first.transaction(() => first.upsert('a', 'issue', [issue(1, { title: 'Echidna spines' })]), {
      deferSearchIndex: true,
    })
    first.close()
    const reopened = new Cache(openCacheDatabase(path))
    expect(ids(reopened, 'a', { query: 'echidna' })).toEqual([1])
    expect(indexIsIntact(reopened)).toBe(true)
    reopened.close()
  })
})

describe('migrations 140 and 141 on a cache written before them', () => {
  it('gives existing documents their item’s project and state, and keeps them searchable', () => {
    const path = file()
    // Rows as the cache wrote them before migration 140 (its Cache class no longer can).
    const db = openCacheDatabase(
      path,
      cacheMigrations.filter((m) => m.version < 140),
    )
    db.prepare("INSERT INTO cache_accounts (acct, account_id) VALUES (1, 'a')").run()
    const row = db.prepare(
      "INSERT INTO issues (acct, id, project_id, iid, title, state, created_at, updated_at, json) VALUES (1, ?, ?, ?, ?, ?, '2024-01-01', '2024-01-01', '{}')",
    )
    const doc = db.prepare(
      "INSERT INTO search_docs (acct, kind, item_id, parent_kind, parent_id, title, body) VALUES (1, ?, ?, 'issue', ?, ?, ?)",
    )
    row.run(1, 4, 1, 'Crash at startup', 'closed')
    doc.run('issue', 1, 1, 'Crash at startup', null)
    row.run(2, 1, 2, 'Crash at exit', 'opened')
    doc.run('issue', 2, 2, 'Crash at exit', null)
    doc.run('note', 11, 2, null, 'A crash report')
    db.close()
    const cache = new Cache(openCacheDatabase(path))
    expect(ids(cache, 'a', { query: 'crash', state: 'closed' })).toEqual([1])
    expect(ids(cache, 'a', { query: 'report', state: 'opened', project_id: 1 })).toEqual([2])
    // Migration 141 rebuilt the index with 4-character prefixes from the documents.
    expect(cache.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'search_fts'").pluck().get()).toMatch(
      /prefix = '2 3 4'/,
    )
    expect(ids(cache, 'a', { query: 'repo' })).toEqual([2])
    cache.upsert('a', 'issue', [issue(3, { title: 'Crash after the upgrade' })])
    expect(ids(cache, 'a', { query: 'crash', project_id: 1 }).sort()).toEqual([2, 3])
    expect(indexIsIntact(cache)).toBe(true)
    migrateCache(cache.db)
    cache.close()
  })
})

describe('migration 142: an index of words without their positions', () => {
  it('rebuilds the index migration 141 left, which finds the same documents and stays intact through edits', () => {
    const path = file()
    const before = new Cache(
      openCacheDatabase(
        path,
        cacheMigrations.filter((m) => m.version < 142),
      ),
    )
    before.upsert('a', 'issue', [
      issue(1, { title: 'Crash at startup', description: 'The parser stops' }),
      issue(2, { title: 'Slow start', description: 'Crash reports pile up' }),
    ])
    before.upsert('a', 'note', [note(11, 2, 'A parser trace')])
    before.close()
    const cache = new Cache(openCacheDatabase(path))
    const sql = cache.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'search_fts'").pluck().get()
    expect(sql).toMatch(/detail = column/)
    expect(sql).toMatch(/prefix = '2 3 4'/)
    expect(ids(cache, 'a', { query: 'crash' })).toEqual([1, 2])
    expect(ids(cache, 'a', { query: 'pars' }).sort()).toEqual([1, 2])
    expect(searchCache(cache, 'a', { query: 'crash start' }).hits.map((h) => [h.id, h.matched_in])).toEqual([
      [1, 'title'],
      [2, 'description'],
    ])
    cache.upsert('a', 'issue', [issue(1, { title: 'Hang at startup', description: 'The parser stops' })])
    expect(ids(cache, 'a', { query: 'crash' })).toEqual([2])
    cache.remove('a', 'issue', [2])
    expect(ids(cache, 'a', { query: 'crash' })).toEqual([])
    expect(indexIsIntact(cache)).toBe(true)
    cache.close()
  })

  it('takes a word typed with a letter the index reads as a word break as the words on either side, not a phrase', () => {
    // U+19B0 is a letter today and a mark in SQLite's older tables: the index holds "quick" and "fix".
    const cache = new Cache(openCacheDatabase(file()))
    cache.upsert('a', 'issue', [issue(1, { title: 'quick\u19B0fix' }), issue(2, { title: 'quick' })])
    expect(ids(cache, 'a', { query: 'quick\u19B0fix' })).toEqual([1])
    expect(searchCache(cache, 'a', { query: 'quick\u19B0fi' }).hits.map((h) => [h.id, h.matched_in])).toEqual([
      [1, 'title'],
    ])
    cache.close()
  })
})

describe('snippets', () => {
  it('cut a long description around its first match, with the match marked', () => {
    const cache = new Cache(openCacheDatabase(file()))
    const description = `${'Lorem ipsum dolor sit amet. '.repeat(400)}The keychain daemon crashed here. ${'More text follows. '.repeat(400)}`
    cache.upsert('a', 'issue', [issue(1, { title: 'Unrelated title', description })])
    const [hit] = searchCache(cache, 'a', { query: 'keychain' }).hits
    expect(hit.matched_in).toBe('description')
    expect(hit.snippet[0]).toEqual({ text: '…', match: false })
    expect(hit.snippet.at(-1)).toEqual({ text: '…', match: false })
    expect(hit.snippet.filter((p) => p.match).map((p) => p.text)).toEqual(['keychain'])
    expect(hit.snippet.map((p) => p.text).join('').length).toBeLessThan(200)
    cache.close()
  })

  it('read as text, not as the Markdown it is written in', () => {
    const cache = new Cache(openCacheDatabase(file()))
    const description = [
      '### Summary',
      '',
      'The **keychain** daemon `crashed`, see [the log](https://example.com/log).',
      '',
      '1. Open it',
      '- [ ] check ~~twice~~ once',
      '> quoted snake_case',
      '```sh',
      'run --now',
      '```',
    ].join('\n')
    cache.upsert('a', 'issue', [issue(1, { title: 'Unrelated title', description })])
    const [hit] = searchCache(cache, 'a', { query: 'keychain' }).hits
    expect(hit.snippet.map((p) => p.text).join('')).toBe(
      'Summary The keychain daemon crashed, see the log. 1. Open it check twice once quoted snake_case run --now',
    )
    expect(hit.snippet.filter((p) => p.match).map((p) => p.text)).toEqual(['keychain'])
    cache.close()
  })
})

describe('what a person types finds what they mean', () => {
  const world = (): Cache => {
    const cache = new Cache(openCacheDatabase(file()))
    cache.upsert('a', 'group', [{ id: 5, name: 'Geo', full_path: 'geo' }])
    cache.upsert('a', 'project', [
      { id: 1, name: 'maps', path_with_namespace: 'geo/maps', namespace: { id: 5, full_path: 'geo' } },
      { id: 2, name: 'web', path_with_namespace: 'geo/web', namespace: { id: 5, full_path: 'geo' } },
    ])
    cache.upsert('a', 'issue', [
      issue(1, { iid: 22, title: 'Postcodes in Ireland are rejected', description: 'Eircode format' }),
      issue(2, { iid: 23, title: 'Address form', description: 'Irish postcodes fail validation' }),
      issue(3, { iid: 12, project_id: 2, title: 'Postcode lookup is slow' }),
      issue(4, { iid: 12, title: 'Unrelated' }),
    ])
    cache.upsert('a', 'merge_request', [
      {
        id: 40,
        iid: 4,
        project_id: 1,
        title: 'Accept Irish postcodes',
        description: null,
        state: 'opened',
        labels: [],
        assignees: [],
        created_at: '2024-01-01T00:00:00.000Z',
        updated_at: '2024-01-01T00:00:00.000Z',
      },
    ])
    cache.upsert('a', 'epic', [
      {
        id: 50,
        iid: 2,
        group_id: 5,
        title: 'Ireland launch',
        state: 'opened',
        labels: [],
        created_at: '2024-01-01T00:00:00.000Z',
        updated_at: '2024-01-01T00:00:00.000Z',
      },
    ])
    cache.upsert('a', 'milestone', [
      { id: 60, iid: 1, project_id: 1, title: 'Sprint 3', description: 'Postcode work for Ireland', state: 'active' },
      { id: 61, iid: 1, group_id: 5, title: 'Ireland GA', description: null, state: 'active' },
    ])
    return cache
  }

  it('matches every word as a prefix, in titles and descriptions, titles first', () => {
    const cache = world()
    // "postcode" is a prefix of "Postcodes": before, only the last word was.
    const hits = searchCache(cache, 'a', { query: 'postcode ireland' }).hits
    expect(hits.map((h) => [h.kind, h.id, h.matched_in])).toEqual([
      ['issue', 1, 'title'],
      ['milestone', 60, 'description'],
    ])
    const irish = searchCache(cache, 'a', { query: 'irish postc' }).hits
    // The merge request holds both words in its title, the issue only in its description.
    expect(irish.map((h) => [h.kind, h.id, h.matched_in])).toEqual([
      ['merge_request', 40, 'title'],
      ['issue', 2, 'description'],
    ])
    expect(searchCache(cache, 'a', { query: 'postcode ireland', kinds: ['issue'] }).hits.map((h) => h.id)).toEqual([1])
    cache.close()
  })

  it('ranks as a title match only a title where every word starts a word, diacritics and punctuation aside', () => {
    const cache = new Cache(openCacheDatabase(file()))
    cache.upsert('a', 'issue', [
      issue(1, { title: 'Café parser crash', description: 'seen twice' }),
      issue(2, { title: 'Reparse the cafe menu', description: 'the parser crashes' }),
      issue(3, { title: 'naïve-parser: cafés', description: null }),
      issue(4, { title: 'Menu', description: 'café parser' }),
      issue(5, { title: 'Parser for the café 𝔸parser', description: null }),
    ])
    cache.upsert('a', 'note', [note(100, 4, 'a newer comment: parser café')])
    const hits = searchCache(cache, 'a', { query: 'cafe pars' }).hits
    // Titles first (newest first), then the rest: "Reparse" does not start with "pars".
    expect(hits.map((h) => [h.id, h.matched_in])).toEqual([
      [5, 'title'],
      [3, 'title'],
      [1, 'title'],
      [4, 'note'],
      [2, 'description'],
    ])
    cache.close()
  })

  it('shows each hit with its project or group path and GitLab reference', () => {
    const cache = world()
    const byKind = Object.fromEntries(
      searchCache(cache, 'a', { query: 'ireland' }).hits.map((h) => [`${h.kind}:${h.id}`, [h.path, h.reference]]),
    )
    expect(byKind).toEqual({
      'issue:1': ['geo/maps', 'geo/maps#22'],
      'epic:50': ['geo', 'geo&2'],
      'milestone:60': ['geo/maps', 'geo/maps%"Sprint 3"'],
      'milestone:61': ['geo', 'geo%"Ireland GA"'],
    })
    expect(searchCache(cache, 'a', { query: 'accept' }).hits[0]).toMatchObject({
      kind: 'merge_request',
      path: 'geo/maps',
      reference: 'geo/maps!4',
    })
    cache.close()
  })

  it('answers a reference with the items it names', () => {
    const cache = world()
    const refs = (query: string, params: Partial<Parameters<typeof searchCache>[2]> = {}): string[] =>
      searchCache(cache, 'a', { query, ...params }).hits.map((h) => h.reference)
    expect(refs('#12').sort()).toEqual(['geo/maps#12', 'geo/web#12'])
    expect(refs('#12', { project_id: 2 })).toEqual(['geo/web#12'])
    expect(refs('geo/web#12')).toEqual(['geo/web#12'])
    expect(refs('GEO/MAPS#22')).toEqual(['geo/maps#22'])
    expect(refs('!4')).toEqual(['geo/maps!4'])
    expect(refs('&2')).toEqual(['geo&2'])
    expect(refs('geo&2')).toEqual(['geo&2'])
    expect(refs('&2', { group_id: 6 })).toEqual([])
    expect(refs('#99')).toEqual([])
    expect(refs('%spr')).toEqual(['geo/maps%"Sprint 3"'])
    expect(refs('%"Ireland GA"')).toEqual(['geo%"Ireland GA"'])
    expect(refs('geo%ire')).toEqual(['geo%"Ireland GA"'])
    expect(searchCache(cache, 'a', { query: '#22' }).hits[0]).toMatchObject({
      matched_in: 'reference',
      title: 'Postcodes in Ireland are rejected',
    })
    // A reference of a kind not asked for finds nothing.
    expect(refs('!4', { kinds: ['issue'] })).toEqual([])
    cache.close()
  })

  it('finds words typed by their beginnings even when the index holds many words starting alike, or none', () => {
    const cache = new Cache(openCacheDatabase(file()))
    const words = Array.from({ length: 40 }, (_, i) => `postcode${String.fromCharCode(97 + (i % 26))}${i}`)
    cache.upsert(
      'a',
      'issue',
      words.map((w, i) => issue(i + 1, { title: `${w} ireland` })),
    )
    expect(searchCache(cache, 'a', { query: 'postcode irel' }).total).toBe(40)
    expect(searchCache(cache, 'a', { query: 'postcodeb1 irel' }).hits.map((h) => h.title)).toEqual([
      'postcodeb1 ireland',
    ])
    expect(searchCache(cache, 'a', { query: 'postcodex9 irel' }).total).toBe(0)
    // A word added later is found (what the expansions remembered is dropped on change).
    cache.upsert('a', 'issue', [issue(100, { title: 'postcodex99 ireland' })])
    expect(searchCache(cache, 'a', { query: 'postcodex9 irel' }).total).toBe(1)
    cache.close()
  })
})
