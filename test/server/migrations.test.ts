import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { migrate } from '../../src/server/db/connection'
import { migrations } from '../../src/server/db/migrations/index'

describe('migrations', () => {
  it('applies every migration once and records each version', () => {
    const db = new Database(':memory:')
    migrate(db)
    migrate(db)
    const versions = (db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]).map((r) => r.version)
    expect(versions).toEqual([...migrations].map((m) => m.version).sort((a, b) => a - b))
  })

  it('have unique version numbers', () => {
    const versions = migrations.map((m) => m.version)
    expect(new Set(versions).size).toBe(versions.length)
  })

  it('runs a lower-numbered migration that arrives after a higher one was applied', () => {
    const db = new Database(':memory:')
    const one = { version: 1, name: 'one', sql: 'CREATE TABLE one (id INTEGER)' }
    const two = { version: 2, name: 'two', sql: 'CREATE TABLE two (id INTEGER)' }
    const three = { version: 3, name: 'three', sql: 'CREATE TABLE three (id INTEGER)' }
    migrate(db, [one, three])
    migrate(db, [three, two, one])
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('one', 'two', 'three') ORDER BY name").all() as { name: string }[]).map((r) => r.name)
    expect(tables).toEqual(['one', 'three', 'two'])
  })
})
