import type { CacheMigration } from './index'

/*
 * The full-text index keeps which column of a document holds a word, not where in it
 * (`detail = column`). Search asks for words and prefixes, each alone, and for words in the
 * title (core/cache/search.ts): never a phrase or NEAR, which need positions, nor bm25 or
 * snippet(). Without the positions the index is a third smaller (21 MB against 31 MB over
 * 100k bench issues, written with 19% less CPU) and a sync writes and merges that much less of
 * it (bench/sync.ts's initial sync: 4% fewer SQLite instructions, callgrind). Searches take as
 * long. The FTS table is built again from `search_docs` (its external content), so nothing is
 * pending afterwards.
 */
const migration: CacheMigration = {
  version: 142,
  name: 'search-detail-column',
  sql: `
DROP TABLE search_fts;
CREATE VIRTUAL TABLE search_fts USING fts5(
  title, body,
  content = 'search_docs', content_rowid = 'rowid',
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3 4',
  detail = column
);
INSERT INTO search_fts (search_fts) VALUES ('rebuild');
DELETE FROM search_pending;
`,
}

export default migration
