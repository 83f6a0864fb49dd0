import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { migrate } from '../../src/server/platform/db/connection'
import { migrations } from '../../src/server/platform/db/migrations/index'

// The migrations of issue 11's new families (0030–0039) on databases made before them.

const t = '2026-01-01T00:00:00.000Z'

/** A database migrated up to (not including) `version`, with a user, a group, a project and a milestone. */
function existingBefore(version: number): Database.Database {
  const db = new Database(':memory:')
  db.pragma('foreign_keys = ON')
  migrate(
    db,
    migrations.filter((m) => m.version < version),
  )
  db.exec(`
    INSERT INTO users (id, username, name, email, created_at, updated_at) VALUES (1, 'ann', 'Ann', 'ann@example.com', '${t}', '${t}');
    INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at, updated_at) VALUES (1, 'group', 'G', 'g', 'g', 'G', '${t}', '${t}');
    INSERT INTO projects (id, namespace_id, name, path, created_at, updated_at, last_activity_at) VALUES (1, 1, 'P', 'p', '${t}', '${t}', '${t}');
    INSERT INTO milestones (id, project_id, iid, title, created_at, updated_at) VALUES (1, 1, 1, 'v1', '${t}', '${t}');
  `)
  return db
}

describe('migrations 0030–0039', () => {
  it('0030 gives existing projects releases, whose links and milestones go with them', () => {
    const db = existingBefore(30)
    migrate(db)
    db.exec(`
      INSERT INTO releases (id, project_id, tag, name, author_id, sha, released_at, created_at, updated_at) VALUES (1, 1, 'v1.0', 'One', 1, 'abc', '${t}', '${t}', '${t}');
      INSERT INTO release_links (release_id, name, url, created_at, updated_at) VALUES (1, 'bin', 'https://example.com/bin', '${t}', '${t}');
      INSERT INTO milestone_releases (milestone_id, release_id) VALUES (1, 1);
    `)
    expect(() =>
      db.exec(
        `INSERT INTO releases (project_id, tag, name, released_at, created_at, updated_at) VALUES (1, 'v1.0', 'Again', '${t}', '${t}', '${t}')`,
      ),
    ).toThrow(/UNIQUE/)
    db.exec('DELETE FROM users WHERE id = 1')
    expect(db.prepare('SELECT author_id FROM releases').get()).toEqual({ author_id: null })
    db.exec('DELETE FROM projects WHERE id = 1')
    expect(
      db
        .prepare(
          'SELECT (SELECT COUNT(*) FROM releases) + (SELECT COUNT(*) FROM release_links) + (SELECT COUNT(*) FROM milestone_releases) AS n',
        )
        .get(),
    ).toEqual({ n: 0 })
    expect(db.pragma('foreign_key_check')).toEqual([])
  })

  it('0031 gives existing projects boards, whose lists and scope labels go with their board or label', () => {
    const db = existingBefore(31)
    db.exec(
      `INSERT INTO labels (id, title, color, project_id, created_at, updated_at) VALUES (1, 'Doing', '#000000', 1, '${t}', '${t}')`,
    )
    migrate(db)
    db.exec(`
      INSERT INTO boards (id, project_id, name, milestone_id, assignee_id, created_at, updated_at) VALUES (1, 1, 'Dev', 1, 1, '${t}', '${t}');
      INSERT INTO board_lists (board_id, label_id, position, created_at, updated_at) VALUES (1, 1, 0, '${t}', '${t}');
      INSERT INTO board_labels (board_id, label_id) VALUES (1, 1);
    `)
    expect(() =>
      db.exec(`INSERT INTO boards (name, created_at, updated_at) VALUES ('Nobody', '${t}', '${t}')`),
    ).toThrow(/CHECK/)
    db.exec('DELETE FROM milestones WHERE id = 1; DELETE FROM users WHERE id = 1')
    expect(db.prepare('SELECT milestone_id, assignee_id FROM boards').get()).toEqual({
      milestone_id: null,
      assignee_id: null,
    })
    db.exec('DELETE FROM labels WHERE id = 1')
    expect(
      db.prepare('SELECT (SELECT COUNT(*) FROM board_lists) + (SELECT COUNT(*) FROM board_labels) AS n').get(),
    ).toEqual({ n: 0 })
    db.exec('DELETE FROM projects WHERE id = 1')
    expect(db.prepare('SELECT COUNT(*) AS n FROM boards').get()).toEqual({ n: 0 })
    expect(db.pragma('foreign_key_check')).toEqual([])
  })
})
