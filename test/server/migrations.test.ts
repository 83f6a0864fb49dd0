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

  it('0019 renames the vulnerability state detected to opened and keeps each finding attached to its vulnerability', () => {
    const db = new Database(':memory:')
    db.pragma('foreign_keys = ON')
    migrate(db, migrations.filter((m) => m.version < 19))
    const t = '2026-01-01T00:00:00.000Z'
    db.exec(`
      INSERT INTO users (id, username, name, email, created_at, updated_at) VALUES (1, 'ann', 'Ann', 'ann@example.com', '${t}', '${t}');
      INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at, updated_at) VALUES (1, 'group', 'G', 'g', 'g', 'G', '${t}', '${t}');
      INSERT INTO projects (id, namespace_id, name, path, created_at, updated_at, last_activity_at) VALUES (1, 1, 'P', 'p', '${t}', '${t}', '${t}');
      INSERT INTO vulnerability_scanners (id, project_id, external_id, name, created_at, updated_at) VALUES (1, 1, 'semgrep', 'Semgrep', '${t}', '${t}');
      INSERT INTO vulnerability_identifiers (id, project_id, fingerprint, external_type, external_id, name, created_at, updated_at) VALUES (1, 1, 'f', 'cwe', '79', 'CWE-79', '${t}', '${t}');
      INSERT INTO vulnerabilities (id, project_id, author_id, title, state, severity, confidence, report_type, created_at, updated_at)
        VALUES (7, 1, 1, 'XSS', 'detected', 'high', 'high', 'sast', '${t}', '${t}'), (8, 1, 1, 'SQLi', 'confirmed', 'high', 'high', 'sast', '${t}', '${t}');
    `)
    const finding = db.prepare(`INSERT INTO vulnerability_findings (id, project_id, uuid, report_type, name, severity, confidence, scanner_id, primary_identifier_id,
      location_fingerprint, project_fingerprint, metadata_version, raw_metadata, created_at, updated_at, vulnerability_id)
      VALUES (?, 1, ?, 'sast', 'n', 'high', 'high', 1, 1, 'l', 'p', '15.0.0', '{}', '${t}', '${t}', ?)`)
    finding.run(1, 'u1', 7)
    finding.run(2, 'u2', 8)
    finding.run(3, 'u3', null)
    migrate(db)
    expect(db.prepare('SELECT id, state FROM vulnerabilities ORDER BY id').all()).toEqual([{ id: 7, state: 'opened' }, { id: 8, state: 'confirmed' }])
    expect(db.prepare('SELECT id, vulnerability_id FROM vulnerability_findings ORDER BY id').all()).toEqual([
      { id: 1, vulnerability_id: 7 },
      { id: 2, vulnerability_id: 8 },
      { id: 3, vulnerability_id: null },
    ])
    expect(() => db.prepare("UPDATE vulnerabilities SET state = 'detected' WHERE id = 7").run()).toThrow(/CHECK constraint failed/)
    expect(db.pragma('foreign_key_check')).toEqual([])
    // The findings still point at the table: deleting a vulnerability detaches its finding.
    db.prepare('DELETE FROM vulnerabilities WHERE id = 8').run()
    expect(db.prepare('SELECT vulnerability_id FROM vulnerability_findings WHERE id = 2').get()).toEqual({ vulnerability_id: null })
  })

  it('0023 gives existing users an empty wrong-password count and no lock', () => {
    const db = new Database(':memory:')
    migrate(db, migrations.filter((m) => m.version < 23))
    const t = '2026-01-01T00:00:00.000Z'
    db.exec(`INSERT INTO users (id, username, name, email, created_at, updated_at) VALUES (4, 'ann', 'Ann', 'ann@example.com', '${t}', '${t}')`)
    migrate(db)
    expect(db.prepare('SELECT id, username, failed_attempts, locked_until FROM users').all()).toEqual([{ id: 4, username: 'ann', failed_attempts: 0, locked_until: null }])
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
