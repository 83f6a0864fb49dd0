import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { migrate } from '../../src/server/platform/db/connection'
import { migrations } from '../../src/server/platform/db/migrations/index'

describe('migrations', () => {
  it('applies every migration once and records each version', () => {
    const db = new Database(':memory:')
    migrate(db)
    migrate(db)
    const versions = (
      db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]
    ).map((r) => r.version)
    expect(versions).toEqual([...migrations].map((m) => m.version).sort((a, b) => a - b))
  })

  it('have unique version numbers', () => {
    const versions = migrations.map((m) => m.version)
    expect(new Set(versions).size).toBe(versions.length)
  })

  it('0019 renames the vulnerability state detected to opened and keeps each finding attached to its vulnerability', () => {
    const db = new Database(':memory:')
    db.pragma('foreign_keys = ON')
    migrate(
      db,
      migrations.filter((m) => m.version < 19),
    )
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
    const finding =
      db.prepare(`INSERT INTO vulnerability_findings (id, project_id, uuid, report_type, name, severity, confidence, scanner_id, primary_identifier_id,
      location_fingerprint, project_fingerprint, metadata_version, raw_metadata, created_at, updated_at, vulnerability_id)
      VALUES (?, 1, ?, 'sast', 'n', 'high', 'high', 1, 1, 'l', 'p', '15.0.0', '{}', '${t}', '${t}', ?)`)
    finding.run(1, 'u1', 7)
    finding.run(2, 'u2', 8)
    finding.run(3, 'u3', null)
    migrate(db)
    expect(db.prepare('SELECT id, state FROM vulnerabilities ORDER BY id').all()).toEqual([
      { id: 7, state: 'opened' },
      { id: 8, state: 'confirmed' },
    ])
    expect(db.prepare('SELECT id, vulnerability_id FROM vulnerability_findings ORDER BY id').all()).toEqual([
      { id: 1, vulnerability_id: 7 },
      { id: 2, vulnerability_id: 8 },
      { id: 3, vulnerability_id: null },
    ])
    expect(() => db.prepare("UPDATE vulnerabilities SET state = 'detected' WHERE id = 7").run()).toThrow(
      /CHECK constraint failed/,
    )
    expect(db.pragma('foreign_key_check')).toEqual([])
    // The findings still point at the table: deleting a vulnerability detaches its finding.
    db.prepare('DELETE FROM vulnerabilities WHERE id = 8').run()
    expect(db.prepare('SELECT vulnerability_id FROM vulnerability_findings WHERE id = 2').get()).toEqual({
      vulnerability_id: null,
    })
  })

  it('0023 gives existing users an empty wrong-password count and no lock', () => {
    const db = new Database(':memory:')
    migrate(
      db,
      migrations.filter((m) => m.version < 23),
    )
    const t = '2026-01-01T00:00:00.000Z'
    db.exec(
      `INSERT INTO users (id, username, name, email, created_at, updated_at) VALUES (4, 'ann', 'Ann', 'ann@example.com', '${t}', '${t}')`,
    )
    migrate(db)
    expect(db.prepare('SELECT id, username, failed_attempts, locked_until FROM users').all()).toEqual([
      { id: 4, username: 'ann', failed_attempts: 0, locked_until: null },
    ])
  })

  it('0040 and 0041 keep existing notes positions as their original ones and give existing merge requests their first diff version', () => {
    const db = new Database(':memory:')
    db.pragma('foreign_keys = ON')
    migrate(
      db,
      migrations.filter((m) => m.version < 40),
    )
    const t = '2026-01-01T00:00:00.000Z'
    const u = '2026-02-01T00:00:00.000Z'
    const position = JSON.stringify({ head_sha: 'c'.repeat(40), new_path: 'a.txt', new_line: 1 })
    db.exec(`
      INSERT INTO users (id, username, name, email, created_at, updated_at) VALUES (1, 'ann', 'Ann', 'ann@example.com', '${t}', '${t}');
      INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at, updated_at) VALUES (1, 'group', 'G', 'g', 'g', 'G', '${t}', '${t}');
      INSERT INTO projects (id, namespace_id, name, path, created_at, updated_at, last_activity_at) VALUES (1, 1, 'P', 'p', '${t}', '${t}', '${t}');
      INSERT INTO merge_requests (id, iid, project_id, source_project_id, source_branch, target_branch, title, author_id, head_sha, base_sha, start_sha, created_at, updated_at)
        VALUES (1, 1, 1, 1, 'f', 'main', 'With refs', 1, '${'c'.repeat(40)}', '${'a'.repeat(40)}', '${'b'.repeat(40)}', '${t}', '${u}'),
               (2, 2, 1, 1, 'g', 'main', 'Without refs', 1, NULL, NULL, NULL, '${t}', '${t}');
      INSERT INTO notes (id, noteable_type, noteable_id, project_id, author_id, body, type, discussion_id, position, created_at, updated_at)
        VALUES (1, 'MergeRequest', 1, 1, 1, 'On a line', 'DiffNote', '${'d'.repeat(40)}', '${position}', '${t}', '${t}'),
               (2, 'MergeRequest', 1, 1, 1, 'Plain', NULL, '${'e'.repeat(40)}', NULL, '${t}', '${t}');
    `)
    migrate(db)
    expect(db.prepare('SELECT id, position, original_position, line_code FROM notes ORDER BY id').all()).toEqual([
      { id: 1, position, original_position: position, line_code: null },
      { id: 2, position: null, original_position: null, line_code: null },
    ])
    expect(db.prepare('SELECT * FROM merge_request_diffs').all()).toEqual([
      {
        id: 1,
        merge_request_id: 1,
        head_commit_sha: 'c'.repeat(40),
        base_commit_sha: 'a'.repeat(40),
        start_commit_sha: 'b'.repeat(40),
        state: 'collected',
        real_size: null,
        created_at: u,
      },
    ])
    // Versions go with their merge request.
    db.prepare('DELETE FROM notes').run()
    db.prepare('DELETE FROM merge_requests WHERE id = 1').run()
    expect(db.prepare('SELECT COUNT(*) AS n FROM merge_request_diffs').get()).toEqual({ n: 0 })
  })

  it('0049 keeps merge requests whose source project (a fork) is deleted, and their children', () => {
    const db = new Database(':memory:')
    db.pragma('foreign_keys = ON')
    migrate(
      db,
      migrations.filter((m) => m.version < 49),
    )
    const t = '2026-01-01T00:00:00.000Z'
    db.exec(`
      INSERT INTO users (id, username, name, email, created_at, updated_at) VALUES (1, 'ann', 'Ann', 'ann@example.com', '${t}', '${t}');
      INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at, updated_at) VALUES (1, 'group', 'G', 'g', 'g', 'G', '${t}', '${t}');
      INSERT INTO projects (id, namespace_id, name, path, created_at, updated_at, last_activity_at) VALUES (1, 1, 'Up', 'up', '${t}', '${t}', '${t}'), (2, 1, 'Fork', 'fork', '${t}', '${t}', '${t}');
      INSERT INTO merge_requests (id, iid, project_id, source_project_id, source_branch, target_branch, title, author_id, created_at, updated_at)
        VALUES (7, 1, 1, 2, 'f', 'main', 'From the fork', 1, '${t}', '${t}'), (8, 1, 2, 2, 'g', 'main', 'In the fork', 1, '${t}', '${t}');
      INSERT INTO notes (id, noteable_type, noteable_id, project_id, author_id, body, discussion_id, created_at, updated_at)
        VALUES (1, 'MergeRequest', 7, 1, 1, 'Kept', '${'d'.repeat(40)}', '${t}', '${t}');
      INSERT INTO merge_request_diffs (merge_request_id, head_commit_sha, base_commit_sha, start_commit_sha, state, created_at)
        VALUES (7, '${'c'.repeat(40)}', '${'a'.repeat(40)}', '${'b'.repeat(40)}', 'collected', '${t}');
    `)
    migrate(db)
    db.prepare('DELETE FROM projects WHERE id = 2').run()
    expect(db.prepare('SELECT id, project_id, source_project_id, title FROM merge_requests').all()).toEqual([
      { id: 7, project_id: 1, source_project_id: null, title: 'From the fork' },
    ])
    expect(db.prepare('SELECT COUNT(*) AS n FROM merge_request_diffs WHERE merge_request_id = 7').get()).toEqual({
      n: 1,
    })
    // Indexes came back, ids are still never reused, and children still go with their merge request.
    const indexes = db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'merge_requests' AND sql IS NOT NULL`,
      )
      .all()
    expect(indexes).toContainEqual({ name: 'merge_requests_source' })
    expect(
      String((db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'merge_requests'`).get() as { sql: string }).sql),
    ).toMatch(/AUTOINCREMENT/)
    db.prepare('DELETE FROM merge_requests WHERE id = 7').run()
    expect(db.prepare('SELECT COUNT(*) AS n FROM merge_request_diffs').get()).toEqual({ n: 0 })
    const next = db
      .prepare(
        `INSERT INTO merge_requests (iid, project_id, source_project_id, source_branch, target_branch, title, author_id, created_at, updated_at) VALUES (2, 1, 1, 'h', 'main', 'New', 1, '${t}', '${t}') RETURNING id`,
      )
      .get() as { id: number }
    expect(next.id).toBe(9)
  })

  it('0047 keeps existing pipelines, unlinked, and a deleted schedule leaves its pipelines unlinked', () => {
    const db = new Database(':memory:')
    db.pragma('foreign_keys = ON')
    migrate(
      db,
      migrations.filter((m) => m.version < 47),
    )
    const t = '2026-01-01T00:00:00.000Z'
    db.exec(`
      INSERT INTO users (id, username, name, email, created_at, updated_at) VALUES (1, 'ann', 'Ann', 'ann@example.com', '${t}', '${t}');
      INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at, updated_at) VALUES (1, 'group', 'G', 'g', 'g', 'G', '${t}', '${t}');
      INSERT INTO projects (id, namespace_id, name, path, created_at, updated_at, last_activity_at) VALUES (1, 1, 'P', 'p', '${t}', '${t}', '${t}');
      INSERT INTO ci_pipelines (id, iid, project_id, ref, sha, source, commit_json, created_at, updated_at)
        VALUES (1, 1, 1, 'main', '${'a'.repeat(40)}', 'push', '{}', '${t}', '${t}');
    `)
    migrate(db)
    expect(db.prepare('SELECT id, source, pipeline_schedule_id FROM ci_pipelines').all()).toEqual([
      { id: 1, source: 'push', pipeline_schedule_id: null },
    ])
    db.exec(`
      INSERT INTO ci_pipeline_schedules (id, project_id, owner_id, description, ref, cron, cron_timezone, created_at, updated_at)
        VALUES (1, 1, 1, 'Nightly', 'refs/heads/main', '0 2 * * *', 'UTC', '${t}', '${t}');
      INSERT INTO ci_pipeline_schedule_variables (pipeline_schedule_id, key, encrypted_value, created_at, updated_at)
        VALUES (1, 'NIGHTLY', 'sealed', '${t}', '${t}');
      UPDATE ci_pipelines SET pipeline_schedule_id = 1;
      DELETE FROM ci_pipeline_schedules;
    `)
    expect(db.prepare('SELECT pipeline_schedule_id FROM ci_pipelines').all()).toEqual([{ pipeline_schedule_id: null }])
    expect(db.prepare('SELECT COUNT(*) AS n FROM ci_pipeline_schedule_variables').get()).toEqual({ n: 0 })
  })

  it("makes every table whose id is its rowid AUTOINCREMENT, so a deleted row's id is never handed out again", () => {
    const db = new Database(':memory:')
    migrate(db)
    const tables = db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as { name: string; sql: string }[]
    const primaryKey = db.prepare('SELECT name, type FROM pragma_table_info(?) WHERE pk > 0')
    const rowidIds = tables.filter((t) => {
      const key = primaryKey.all(t.name) as { name: string; type: string }[]
      return key.length === 1 && key[0].name === 'id' && key[0].type.toUpperCase() === 'INTEGER'
    })
    expect(rowidIds.length).toBeGreaterThan(40)
    expect(
      rowidIds.filter((t) => !/\bid\s+INTEGER\s+PRIMARY\s+KEY\s+AUTOINCREMENT\b/i.test(t.sql)).map((t) => t.name),
    ).toEqual([])
  })

  describe('0022 (ids never reused) on an existing database', () => {
    const t = '2026-01-01T00:00:00.000Z'
    // Up to 0022 only: later migrations change tables too.
    const through22 = migrations.filter((m) => m.version <= 22)
    /** A database at version 21 with rows in parent and child tables, foreign keys enforced as openDatabase does. */
    const existing = (): Database.Database => {
      const db = new Database(':memory:')
      db.pragma('foreign_keys = ON')
      migrate(
        db,
        migrations.filter((m) => m.version < 22),
      )
      db.exec(`
        INSERT INTO users (id, username, name, email, created_at, updated_at) VALUES (1, 'ann', 'Ann', 'ann@example.com', '${t}', '${t}'), (2, 'bob', 'Bob', 'bob@example.com', '${t}', '${t}');
        -- User 5 was deleted; its audit event still names it.
        INSERT INTO audit_events (author_id, entity_id, entity_type, details, created_at) VALUES (1, 5, 'User', '{}', '${t}');
        INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at, updated_at) VALUES (1, 'group', 'G', 'g', 'g', 'G', '${t}', '${t}');
        INSERT INTO projects (id, namespace_id, name, path, created_at, updated_at, last_activity_at) VALUES (1, 1, 'P', 'p', '${t}', '${t}', '${t}'), (2, 1, 'Q', 'q', '${t}', '${t}', '${t}');
        INSERT INTO milestones (id, project_id, iid, title, created_at, updated_at) VALUES (1, 1, 1, 'v1', '${t}', '${t}');
        INSERT INTO issues (id, iid, project_id, author_id, title, milestone_id, created_at, updated_at) VALUES (1, 1, 1, 1, 'a', 1, '${t}', '${t}'), (2, 2, 1, 2, 'b', NULL, '${t}', '${t}'), (3, 1, 2, 1, 'c', NULL, '${t}', '${t}');
        INSERT INTO issues (id, iid, project_id, author_id, title, moved_to_id, created_at, updated_at) VALUES (4, 3, 1, 1, 'd', 1, '${t}', '${t}');
        INSERT INTO issue_assignees (issue_id, user_id) VALUES (1, 2), (3, 2);
        INSERT INTO internal_ids (scope_type, scope_id, usage, last_value) VALUES ('Project', 1, 'issues', 3), ('Project', 2, 'issues', 1), ('Namespace', 9, 'epics', 4);
        -- Project 2 is deleted (its issue and assignment cascade), its counter is left behind.
        DELETE FROM projects WHERE id = 2;
      `)
      return db
    }
    /** Everything the rebuild must keep: each table's rows, every index, each table's foreign keys. */
    const snapshot = (db: Database.Database) => {
      const tables = (
        db
          .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('sqlite_sequence', 'schema_migrations') ORDER BY name",
          )
          .all() as { name: string }[]
      ).map((r) => r.name)
      return {
        rows: Object.fromEntries(
          tables.map((name) => [name, db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all()]),
        ),
        indexes: db.prepare("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name").all(),
        foreignKeys: Object.fromEntries(
          tables.map((name) => [name, db.prepare('SELECT * FROM pragma_foreign_key_list(?)').all(name)]),
        ),
        definitions: Object.fromEntries(
          tables.map((name) => [name, db.prepare('SELECT * FROM pragma_table_info(?)').all(name)]),
        ),
      }
    }

    it('keeps every row, index, column and foreign key, and enforcement stays on', () => {
      const db = existing()
      const before = snapshot(db)
      migrate(db, through22)
      // All but the counters of the deleted project 2 and group 9 (see the next test).
      const kept = (before.rows.internal_ids as { scope_id: number }[]).filter((c) => c.scope_id === 1)
      expect(snapshot(db)).toEqual({ ...before, rows: { ...before.rows, internal_ids: kept } })
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
      expect(db.pragma('foreign_key_check')).toEqual([])
      // The foreign keys still act: deleting the project cascades to its issues and their assignments.
      db.prepare('DELETE FROM projects WHERE id = 1').run()
      expect(db.prepare('SELECT COUNT(*) AS n FROM issues').get()).toEqual({ n: 0 })
      expect(db.prepare('SELECT COUNT(*) AS n FROM issue_assignees').get()).toEqual({ n: 0 })
    })

    it('hands out ids above every id the database has used or still names, and drops counters of deleted projects and groups', () => {
      const db = existing()
      migrate(db, through22)
      const insert = (sql: string): number => Number(db.prepare(sql).run().lastInsertRowid)
      // Project 2 was deleted, but its counter named it: 3, not 2.
      expect(
        insert(
          `INSERT INTO projects (namespace_id, name, path, created_at, updated_at, last_activity_at) VALUES (1, 'R', 'r', '${t}', '${t}', '${t}')`,
        ),
      ).toBe(3)
      // User 5 was deleted, but an audit event names it.
      expect(
        insert(
          `INSERT INTO users (username, name, email, created_at, updated_at) VALUES ('cy', 'Cy', 'cy@example.com', '${t}', '${t}')`,
        ),
      ).toBe(6)
      // Namespace 9's counter named it.
      expect(
        insert(
          `INSERT INTO namespaces (kind, name, path, full_path, full_name, created_at, updated_at) VALUES ('group', 'H', 'h', 'h', 'H', '${t}', '${t}')`,
        ),
      ).toBe(10)
      // Issue 3 (project 2) was cascaded away: a new issue gets 5, and so it goes on after deleting the newest.
      expect(
        insert(
          `INSERT INTO issues (iid, project_id, author_id, title, created_at, updated_at) VALUES (4, 1, 1, 'e', '${t}', '${t}')`,
        ),
      ).toBe(5)
      db.prepare('DELETE FROM issues WHERE id = 5').run()
      expect(
        insert(
          `INSERT INTO issues (iid, project_id, author_id, title, created_at, updated_at) VALUES (5, 1, 1, 'f', '${t}', '${t}')`,
        ),
      ).toBe(6)
      expect(db.prepare('SELECT scope_type, scope_id, last_value FROM internal_ids ORDER BY scope_id').all()).toEqual([
        { scope_type: 'Project', scope_id: 1, last_value: 3 },
      ])
    })

    it('keeps rows whose references were already dangling before the upgrade', () => {
      const db = existing()
      db.pragma('foreign_keys = OFF')
      db.prepare('INSERT INTO issue_assignees (issue_id, user_id) VALUES (1, 77)').run()
      db.pragma('foreign_keys = ON')
      migrate(db, through22)
      expect(db.prepare('SELECT user_id FROM issue_assignees WHERE issue_id = 1 ORDER BY user_id').all()).toEqual([
        { user_id: 2 },
        { user_id: 77 },
      ])
    })
  })

  it('rolls back a table rebuild that would leave rows pointing at missing parents, with enforcement back on', () => {
    const db = new Database(':memory:')
    db.pragma('foreign_keys = ON')
    const base = {
      version: 1,
      name: 'base',
      sql: 'CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (parent_id INTEGER REFERENCES parent(id) ON DELETE CASCADE); INSERT INTO parent VALUES (1); INSERT INTO child VALUES (1);',
    }
    const careless = {
      version: 2,
      name: 'careless',
      sql: 'CREATE TABLE parent_new (id INTEGER PRIMARY KEY AUTOINCREMENT); DROP TABLE parent; ALTER TABLE parent_new RENAME TO parent;',
      rebuildsTables: true,
    }
    migrate(db, [base])
    expect(() => migrate(db, [base, careless])).toThrow(
      /migration 2 \(careless\) would leave rows pointing at missing parents/,
    )
    expect(db.prepare('SELECT id FROM parent').all()).toEqual([{ id: 1 }])
    expect(db.prepare('SELECT version FROM schema_migrations').all()).toEqual([{ version: 1 }])
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
  })

  it('runs a lower-numbered migration that arrives after a higher one was applied', () => {
    const db = new Database(':memory:')
    const one = { version: 1, name: 'one', sql: 'CREATE TABLE one (id INTEGER)' }
    const two = { version: 2, name: 'two', sql: 'CREATE TABLE two (id INTEGER)' }
    const three = { version: 3, name: 'three', sql: 'CREATE TABLE three (id INTEGER)' }
    migrate(db, [one, three])
    migrate(db, [three, two, one])
    const tables = (
      db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('one', 'two', 'three') ORDER BY name",
        )
        .all() as { name: string }[]
    ).map((r) => r.name)
    expect(tables).toEqual(['one', 'three', 'two'])
  })
})
