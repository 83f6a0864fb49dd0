import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { allRows, cachedStatement, memoizedAll, memoizedGet } from '../../src/server/platform/db/statements'

function sampleDb(): Database.Database {
  const db = new Database(':memory:')
  db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, "odd name" TEXT, "quote""d" TEXT, n REAL, b BLOB, empty TEXT)`)
  const insert = db.prepare('INSERT INTO t (id, "odd name", "quote""d", n, b, empty) VALUES (?, ?, ?, ?, ?, NULL)')
  insert.run(1, 'a', 'x"y', 1.5, Buffer.from([1, 2]))
  insert.run(2, 'b\u2028c', '}', -2, null)
  return db
}

describe('statement helpers', () => {
  it('reuses one prepared statement per SQL text and database', () => {
    const db = sampleDb()
    expect(cachedStatement(db, 'SELECT 1')).toBe(cachedStatement(db, 'SELECT 1'))
    expect(cachedStatement(db, 'SELECT 1')).not.toBe(cachedStatement(sampleDb(), 'SELECT 1'))
  })

  it('builds the same objects as better-sqlite3, keys in column order, whatever the column names', () => {
    const db = sampleDb()
    const sql = 'SELECT t.*, t.id AS again FROM t WHERE id >= @min ORDER BY id'
    const expected = db.prepare(sql).all({ min: 1 })
    const actual = allRows<Record<string, unknown>>(db, sql, { min: 1 })
    expect(actual).toEqual(expected)
    expect(actual.map((r) => Object.keys(r))).toEqual(expected.map((r) => Object.keys(r as object)))
    expect(JSON.stringify(actual)).toBe(JSON.stringify(expected))
  })

  it('leaves statements prepared for other callers in their normal (object) mode', () => {
    const db = sampleDb()
    allRows(db, 'SELECT id FROM t ORDER BY id', {})
    expect(cachedStatement(db, 'SELECT id FROM t ORDER BY id').all()).toEqual([{ id: 1 }, { id: 2 }])
  })

  it('takes positional parameters too', () => {
    expect(allRows(sampleDb(), 'SELECT id FROM t WHERE id > ? ORDER BY id', [1])).toEqual([{ id: 2 }])
  })

  describe('memoised reads', () => {
    const count = 'SELECT COUNT(*) AS n FROM t WHERE id > ?'

    it('answers a repeated query from memory until this connection writes anything', () => {
      const db = sampleDb()
      const first = memoizedGet<{ n: number }>(db, count, [0])
      expect(first).toEqual({ n: 2 })
      expect(memoizedGet(db, count, [0])).toBe(first)
      expect(memoizedGet(db, count, [1])).toEqual({ n: 1 })
      db.prepare('INSERT INTO t (id) VALUES (3)').run()
      expect(memoizedGet(db, count, [0])).toEqual({ n: 3 })
      db.prepare('UPDATE t SET n = 0 WHERE id = 999').run()
      db.prepare('CREATE TABLE other (x)').run()
      db.prepare('INSERT INTO other VALUES (1)').run()
      expect(memoizedGet(db, count, [0])).not.toBe(first)
    })

    it('sees commits made through another connection', () => {
      const dir = mkdtempSync(join(tmpdir(), 'burrow-memo-'))
      try {
        const a = new Database(join(dir, 'db.sqlite'))
        a.pragma('journal_mode = WAL')
        a.exec('CREATE TABLE t (id INTEGER PRIMARY KEY)')
        expect(memoizedAll(a, 'SELECT id FROM t', [])).toEqual([])
        const b = new Database(join(dir, 'db.sqlite'))
        b.prepare('INSERT INTO t (id) VALUES (7)').run()
        b.close()
        expect(memoizedAll(a, 'SELECT id FROM t', [])).toEqual([{ id: 7 }])
        a.close()
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })

    it('never keeps what a transaction read (it may be rolled back)', () => {
      const db = sampleDb()
      expect(() =>
        db.transaction(() => {
          db.prepare('INSERT INTO t (id) VALUES (3)').run()
          expect(memoizedGet(db, count, [0])).toEqual({ n: 3 })
          throw new Error('roll back')
        })(),
      ).toThrow('roll back')
      expect(memoizedGet(db, count, [0])).toEqual({ n: 2 })
    })

    it('keeps answers per clock key (queries reading the date)', () => {
      const db = sampleDb()
      const today = memoizedAll(db, "SELECT date('now') AS d", [], '2020-01-01')
      expect(memoizedAll(db, "SELECT date('now') AS d", [], '2020-01-01')).toBe(today)
      expect(memoizedAll(db, "SELECT date('now') AS d", [], '2020-01-02')).not.toBe(today)
    })
  })
})
