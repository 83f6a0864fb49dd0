import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { allRows, cachedStatement } from '../../src/server/db/statements'

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
})
