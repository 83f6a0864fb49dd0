import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { migrate } from '../../src/server/platform/db/connection'
import { migrations } from '../../src/server/platform/db/migrations/index'

const t = '2026-01-01T00:00:00.000Z'

describe('migration 0048 (commit noteables)', () => {
  it('upgrades an existing database: its notes stay, commits get one noteable per project and SHA, gone with the project', () => {
    const db = new Database(':memory:')
    db.pragma('foreign_keys = ON')
    migrate(
      db,
      migrations.filter((m) => m.version < 48),
    )
    db.exec(`
      INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at, updated_at) VALUES (1, 'group', 'G', 'g', 'g', 'G', '${t}', '${t}');
      INSERT INTO projects (id, namespace_id, name, path, created_at, updated_at, last_activity_at) VALUES (1, 1, 'P', 'p', '${t}', '${t}', '${t}');
      INSERT INTO users (id, username, email, name, created_at, updated_at) VALUES (1, 'u', 'u@example.com', 'U', '${t}', '${t}');
      INSERT INTO notes (id, noteable_type, noteable_id, project_id, author_id, body, discussion_id, created_at, updated_at)
        VALUES (1, 'Issue', 7, 1, 1, 'kept', 'd1', '${t}', '${t}');
    `)
    migrate(db)
    expect(db.prepare('SELECT body FROM notes WHERE id = 1').get()).toEqual({ body: 'kept' })
    db.exec("INSERT INTO commit_noteables (project_id, sha) VALUES (1, 'abc')")
    expect(() => db.exec("INSERT INTO commit_noteables (project_id, sha) VALUES (1, 'abc')")).toThrow(/UNIQUE/)
    db.exec('DELETE FROM projects WHERE id = 1')
    expect(db.prepare('SELECT COUNT(*) AS n FROM commit_noteables').get()).toEqual({ n: 0 })
    expect(db.pragma('foreign_key_check')).toEqual([])
  })
})
