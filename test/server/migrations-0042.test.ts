import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { migrate } from '../../src/server/platform/db/connection'
import { migrations } from '../../src/server/platform/db/migrations/index'

const t = '2026-01-01T00:00:00.000Z'

describe('migration 0042 (draft notes, reviewer state)', () => {
  it('gives an existing database draft notes and its reviewers a review state, and cleans both up with their owners', () => {
    const db = new Database(':memory:')
    db.pragma('foreign_keys = ON')
    migrate(
      db,
      migrations.filter((m) => m.version < 42),
    )
    db.exec(`
      INSERT INTO users (id, username, name, email, created_at, updated_at) VALUES (1, 'ann', 'Ann', 'ann@example.com', '${t}', '${t}');
      INSERT INTO users (id, username, name, email, created_at, updated_at) VALUES (2, 'bob', 'Bob', 'bob@example.com', '${t}', '${t}');
      INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at, updated_at) VALUES (1, 'group', 'G', 'g', 'g', 'G', '${t}', '${t}');
      INSERT INTO projects (id, namespace_id, name, path, created_at, updated_at, last_activity_at) VALUES (1, 1, 'P', 'p', '${t}', '${t}', '${t}');
      INSERT INTO merge_requests (id, iid, project_id, source_project_id, source_branch, target_branch, title, author_id, created_at, updated_at)
        VALUES (1, 1, 1, 1, 'topic', 'main', 'Topic', 1, '${t}', '${t}');
      INSERT INTO merge_request_reviewers (merge_request_id, user_id, created_at) VALUES (1, 2, '${t}');
    `)
    migrate(db)

    expect(db.prepare('SELECT user_id, state FROM merge_request_reviewers').all()).toEqual([
      { user_id: 2, state: 'unreviewed' },
    ])
    const draft = `INSERT INTO draft_notes (merge_request_id, author_id, note, created_at, updated_at) VALUES (1, 2, 'Hm', '${t}', '${t}')`
    db.exec(draft)
    expect(db.prepare('SELECT note, discussion_id, resolve_discussion, position FROM draft_notes').get()).toEqual({
      note: 'Hm',
      discussion_id: null,
      resolve_discussion: 0,
      position: null,
    })
    // A deleted user takes their drafts and review requests along; a deleted merge request its drafts.
    db.exec('DELETE FROM users WHERE id = 2')
    expect(
      db
        .prepare('SELECT (SELECT COUNT(*) FROM draft_notes) + (SELECT COUNT(*) FROM merge_request_reviewers) AS n')
        .get(),
    ).toEqual({ n: 0 })
    db.exec(draft.replace('1, 2,', '1, 1,'))
    db.exec('DELETE FROM merge_requests WHERE id = 1')
    expect(db.prepare('SELECT COUNT(*) AS n FROM draft_notes').get()).toEqual({ n: 0 })
    expect(db.pragma('foreign_key_check')).toEqual([])
  })
})
