import type { CacheMigration } from './index'

/*
 * A prefix index for 4-character prefixes too. The last word of a search is a prefix
 * (core/cache/search.ts); FTS5 answers a prefix its index does not cover by merging the
 * doclists of every term that starts with it, which is most of a search's cost for words like
 * `time`, `fail` or `numb` on a large cache (about 13 ms against 8 ms per query over 100k
 * issues, measured with bench/sync.ts). The index grows by about 4%, writes do not measurably
 * slow down. The FTS table is built again from `search_docs` (its external content), so nothing
 * is pending afterwards.
 */
const migration: CacheMigration = {
  version: 141,
  name: 'search-prefix-4',
  sql: `
DROP TABLE search_fts;
CREATE VIRTUAL TABLE search_fts USING fts5(
  title, body,
  content = 'search_docs', content_rowid = 'rowid',
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3 4'
);
INSERT INTO search_fts (search_fts) VALUES ('rebuild');
DELETE FROM search_pending;
`,
}

export default migration
