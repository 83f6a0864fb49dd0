import type { CacheMigration } from './index'

/*
 * Full-text search, faster to write and to filter (core/cache/search.ts, cache.ts).
 *
 * Filters inside the index scan: each search document carries its item's project, group and
 * state (a note's are its item's), so `search:query` with `project_id`, `group_id` or `state`
 * filters the matches it walks instead of ranking a window of matches and filtering afterwards
 * (which lost older matches of a narrow filter behind newer ones of other projects).
 *
 * Indexing once per transaction: inserting a row into the FTS5 index from a per-row trigger
 * costs about three times what one `INSERT INTO search_fts … SELECT` of the transaction's new
 * documents does (measured on a 100-item sync page). New documents are listed in
 * `search_pending` by the insert trigger, and `Cache.transaction` indexes them just before its
 * commit, so the index never lags behind a committed transaction. Updates and deletes of a
 * document still pending must not touch the index (it does not hold the row yet: a 'delete'
 * of text it never indexed corrupts an external-content FTS5 table); the triggers check.
 */
const migration: CacheMigration = {
  version: 140,
  name: 'search-facets-deferred-index',
  sql: `
ALTER TABLE search_docs ADD COLUMN project_id INTEGER;
ALTER TABLE search_docs ADD COLUMN group_id INTEGER;
ALTER TABLE search_docs ADD COLUMN state TEXT;

UPDATE search_docs SET project_id = i.project_id, state = i.state
  FROM issues i WHERE search_docs.parent_kind = 'issue' AND i.acct = search_docs.acct AND i.id = search_docs.parent_id;
UPDATE search_docs SET project_id = m.project_id, state = m.state
  FROM merge_requests m WHERE search_docs.parent_kind = 'merge_request' AND m.acct = search_docs.acct AND m.id = search_docs.parent_id;
UPDATE search_docs SET group_id = e.group_id, state = e.state
  FROM epics e WHERE search_docs.parent_kind = 'epic' AND e.acct = search_docs.acct AND e.id = search_docs.parent_id;

CREATE TABLE search_pending (rowid INTEGER PRIMARY KEY);

DROP TRIGGER search_docs_ai;
DROP TRIGGER search_docs_ad;
DROP TRIGGER search_docs_au;
CREATE TRIGGER search_docs_ai AFTER INSERT ON search_docs BEGIN
  INSERT OR IGNORE INTO search_pending (rowid) VALUES (new.rowid);
END;
CREATE TRIGGER search_docs_ad AFTER DELETE ON search_docs BEGIN
  INSERT INTO search_fts (search_fts, rowid, title, body)
    SELECT 'delete', old.rowid, old.title, old.body WHERE NOT EXISTS (SELECT 1 FROM search_pending WHERE rowid = old.rowid);
  DELETE FROM search_pending WHERE rowid = old.rowid;
END;
CREATE TRIGGER search_docs_au AFTER UPDATE OF title, body ON search_docs
  WHEN NOT EXISTS (SELECT 1 FROM search_pending WHERE rowid = old.rowid) BEGIN
  INSERT INTO search_fts (search_fts, rowid, title, body) VALUES ('delete', old.rowid, old.title, old.body);
  INSERT INTO search_fts (rowid, title, body) VALUES (new.rowid, new.title, new.body);
END;
`,
}

export default migration
