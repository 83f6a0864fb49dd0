import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { migrate } from '../../src/server/platform/db/connection'
import { migrations } from '../../src/server/platform/db/migrations/index'

const t = '2026-01-01T00:00:00.000Z'

describe('migration 0043 (commit statuses)', () => {
  it('keeps the jobs of an existing database as builds, and lets external statuses be stored', () => {
    const db = new Database(':memory:')
    db.pragma('foreign_keys = ON')
    migrate(
      db,
      migrations.filter((m) => m.version < 43),
    )
    db.exec(`
      INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at, updated_at) VALUES (1, 'group', 'G', 'g', 'g', 'G', '${t}', '${t}');
      INSERT INTO projects (id, namespace_id, name, path, created_at, updated_at, last_activity_at) VALUES (1, 1, 'P', 'p', '${t}', '${t}', '${t}');
      INSERT INTO ci_pipelines (id, iid, project_id, ref, sha, source, commit_json, created_at, updated_at) VALUES (1, 1, 1, 'main', 'abc', 'push', '{}', '${t}', '${t}');
      INSERT INTO ci_builds (id, project_id, pipeline_id, name, stage, stage_idx, options, created_at, updated_at) VALUES (1, 1, 1, 'test', 'test', 0, '{}', '${t}', '${t}');
    `)
    migrate(db)
    expect(db.prepare('SELECT type, target_url, description FROM ci_builds WHERE id = 1').get()).toEqual({
      type: 'build',
      target_url: null,
      description: null,
    })
    db.exec(`INSERT INTO ci_builds (project_id, pipeline_id, name, stage, stage_idx, options, type, target_url, description, created_at, updated_at)
      VALUES (1, 1, 'jenkins', 'external', 1000000, '{}', 'external', 'https://ci.example.com/1', 'Queued', '${t}', '${t}')`)
    expect(() =>
      db.exec(`INSERT INTO ci_builds (project_id, pipeline_id, name, stage, stage_idx, options, type, created_at, updated_at)
        VALUES (1, 1, 'odd', 'x', 0, '{}', 'bridge', '${t}', '${t}')`),
    ).toThrow(/CHECK/)
    expect(db.pragma('foreign_key_check')).toEqual([])
  })
})
