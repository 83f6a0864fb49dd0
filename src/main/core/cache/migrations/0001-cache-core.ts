import type { CacheMigration } from './index'

/*
 * The synced resources get one table each: the raw API JSON (`json`, as the server sent it, with
 * the outbox's optimistic patches applied) plus the columns the list filters and orders use.
 * `base_json` holds the server's JSON while patches are pending (see cache/optimistic.ts).
 * Every row belongs to an account through `acct`, a small integer standing for the account's
 * UUID (cache_accounts), which keeps 100k-row indexes small.
 */
const migration: CacheMigration = {
  version: 1,
  name: 'cache-core',
  sql: `
CREATE TABLE cache_accounts (
  acct INTEGER PRIMARY KEY,
  account_id TEXT NOT NULL UNIQUE
);

CREATE TABLE projects (
  acct INTEGER NOT NULL REFERENCES cache_accounts(acct) ON DELETE CASCADE,
  id INTEGER NOT NULL,
  name TEXT NOT NULL,
  path_with_namespace TEXT NOT NULL,
  namespace_id INTEGER,
  namespace_full_path TEXT,
  archived INTEGER NOT NULL DEFAULT 0,
  last_activity_at TEXT,
  json TEXT NOT NULL,
  synced INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (acct, id)
);
CREATE INDEX projects_path ON projects (acct, path_with_namespace);

CREATE TABLE groups (
  acct INTEGER NOT NULL REFERENCES cache_accounts(acct) ON DELETE CASCADE,
  id INTEGER NOT NULL,
  name TEXT NOT NULL,
  full_path TEXT NOT NULL,
  parent_id INTEGER,
  json TEXT NOT NULL,
  synced INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (acct, id)
);
CREATE INDEX groups_path ON groups (acct, full_path);

CREATE TABLE users (
  acct INTEGER NOT NULL REFERENCES cache_accounts(acct) ON DELETE CASCADE,
  id INTEGER NOT NULL,
  username TEXT NOT NULL,
  name TEXT NOT NULL,
  state TEXT,
  json TEXT NOT NULL,
  PRIMARY KEY (acct, id)
);
CREATE INDEX users_username ON users (acct, username COLLATE NOCASE);

CREATE TABLE issues (
  acct INTEGER NOT NULL REFERENCES cache_accounts(acct) ON DELETE CASCADE,
  id INTEGER NOT NULL,
  project_id INTEGER NOT NULL,
  iid INTEGER NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  state TEXT NOT NULL,
  confidential INTEGER NOT NULL DEFAULT 0,
  author_id INTEGER,
  milestone_id INTEGER,
  milestone_title TEXT,
  milestone_due TEXT,
  issue_type TEXT,
  weight INTEGER,
  due_date TEXT,
  upvotes INTEGER NOT NULL DEFAULT 0,
  user_notes_count INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  closed_at TEXT,
  json TEXT NOT NULL,
  base_json TEXT,
  notes_stale INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (acct, id)
);
CREATE UNIQUE INDEX issues_iid ON issues (acct, project_id, iid);
CREATE INDEX issues_updated ON issues (acct, updated_at, id);
CREATE INDEX issues_created ON issues (acct, created_at, id);
CREATE INDEX issues_project_updated ON issues (acct, project_id, updated_at, id);
CREATE INDEX issues_project_created ON issues (acct, project_id, created_at, id);
CREATE INDEX issues_state_updated ON issues (acct, state, updated_at, id);
CREATE INDEX issues_author ON issues (acct, author_id);
CREATE INDEX issues_milestone ON issues (acct, milestone_id);
CREATE INDEX issues_notes_stale ON issues (acct, project_id) WHERE notes_stale = 1;

CREATE TABLE merge_requests (
  acct INTEGER NOT NULL REFERENCES cache_accounts(acct) ON DELETE CASCADE,
  id INTEGER NOT NULL,
  project_id INTEGER NOT NULL,
  iid INTEGER NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  state TEXT NOT NULL,
  draft INTEGER NOT NULL DEFAULT 0,
  author_id INTEGER,
  milestone_id INTEGER,
  milestone_title TEXT,
  milestone_due TEXT,
  source_branch TEXT,
  target_branch TEXT,
  source_project_id INTEGER,
  upvotes INTEGER NOT NULL DEFAULT 0,
  user_notes_count INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  merged_at TEXT,
  closed_at TEXT,
  json TEXT NOT NULL,
  base_json TEXT,
  notes_stale INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (acct, id)
);
CREATE UNIQUE INDEX merge_requests_iid ON merge_requests (acct, project_id, iid);
CREATE INDEX merge_requests_updated ON merge_requests (acct, updated_at, id);
CREATE INDEX merge_requests_created ON merge_requests (acct, created_at, id);
CREATE INDEX merge_requests_project_updated ON merge_requests (acct, project_id, updated_at, id);
CREATE INDEX merge_requests_state_updated ON merge_requests (acct, state, updated_at, id);
CREATE INDEX merge_requests_author ON merge_requests (acct, author_id);
CREATE INDEX merge_requests_milestone ON merge_requests (acct, milestone_id);
CREATE INDEX merge_requests_notes_stale ON merge_requests (acct, project_id) WHERE notes_stale = 1;

CREATE TABLE epics (
  acct INTEGER NOT NULL REFERENCES cache_accounts(acct) ON DELETE CASCADE,
  id INTEGER NOT NULL,
  group_id INTEGER NOT NULL,
  iid INTEGER NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  state TEXT NOT NULL,
  confidential INTEGER NOT NULL DEFAULT 0,
  author_id INTEGER,
  parent_id INTEGER,
  start_date TEXT,
  due_date TEXT,
  upvotes INTEGER NOT NULL DEFAULT 0,
  user_notes_count INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  closed_at TEXT,
  json TEXT NOT NULL,
  base_json TEXT,
  notes_stale INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (acct, id)
);
CREATE UNIQUE INDEX epics_iid ON epics (acct, group_id, iid);
CREATE INDEX epics_updated ON epics (acct, updated_at, id);

CREATE TABLE milestones (
  acct INTEGER NOT NULL REFERENCES cache_accounts(acct) ON DELETE CASCADE,
  id INTEGER NOT NULL,
  project_id INTEGER,
  group_id INTEGER,
  iid INTEGER NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  state TEXT NOT NULL,
  start_date TEXT,
  due_date TEXT,
  created_at TEXT,
  updated_at TEXT,
  json TEXT NOT NULL,
  base_json TEXT,
  PRIMARY KEY (acct, id)
);
CREATE INDEX milestones_project ON milestones (acct, project_id);
CREATE INDEX milestones_group ON milestones (acct, group_id);

-- Labels as listed in one scope (a project's list includes its ancestor groups' labels), so
-- one label may appear in several scopes.
CREATE TABLE labels (
  acct INTEGER NOT NULL REFERENCES cache_accounts(acct) ON DELETE CASCADE,
  scope_kind TEXT NOT NULL CHECK (scope_kind IN ('project', 'group')),
  scope_id INTEGER NOT NULL,
  id INTEGER NOT NULL,
  name TEXT NOT NULL,
  color TEXT,
  json TEXT NOT NULL,
  PRIMARY KEY (acct, scope_kind, scope_id, id)
);
CREATE INDEX labels_name ON labels (acct, name COLLATE NOCASE);

-- Labels and people of issues, merge requests and epics, for the list filters.
CREATE TABLE item_labels (
  acct INTEGER NOT NULL,
  kind TEXT NOT NULL,
  item_id INTEGER NOT NULL,
  title TEXT NOT NULL COLLATE NOCASE,
  PRIMARY KEY (acct, kind, item_id, title)
) WITHOUT ROWID;
CREATE INDEX item_labels_title ON item_labels (acct, kind, title, item_id);

CREATE TABLE item_users (
  acct INTEGER NOT NULL,
  kind TEXT NOT NULL,
  item_id INTEGER NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('assignee', 'reviewer')),
  user_id INTEGER NOT NULL,
  PRIMARY KEY (acct, kind, item_id, role, user_id)
) WITHOUT ROWID;
CREATE INDEX item_users_user ON item_users (acct, kind, role, user_id, item_id);

CREATE TABLE discussions (
  acct INTEGER NOT NULL REFERENCES cache_accounts(acct) ON DELETE CASCADE,
  id TEXT NOT NULL,
  noteable_kind TEXT NOT NULL,
  noteable_id INTEGER NOT NULL,
  individual_note INTEGER NOT NULL DEFAULT 0,
  position INTEGER NOT NULL,
  PRIMARY KEY (acct, id)
);
CREATE INDEX discussions_noteable ON discussions (acct, noteable_kind, noteable_id, position);

CREATE TABLE notes (
  acct INTEGER NOT NULL REFERENCES cache_accounts(acct) ON DELETE CASCADE,
  id INTEGER NOT NULL,
  discussion_id TEXT,
  noteable_kind TEXT NOT NULL,
  noteable_id INTEGER NOT NULL,
  author_id INTEGER,
  body TEXT NOT NULL,
  system INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT,
  position INTEGER NOT NULL,
  json TEXT NOT NULL,
  base_json TEXT,
  PRIMARY KEY (acct, id)
);
CREATE INDEX notes_noteable ON notes (acct, noteable_kind, noteable_id, position);

CREATE TABLE todos (
  acct INTEGER NOT NULL REFERENCES cache_accounts(acct) ON DELETE CASCADE,
  id INTEGER NOT NULL,
  project_id INTEGER,
  group_id INTEGER,
  target_type TEXT,
  target_id INTEGER,
  action_name TEXT,
  state TEXT NOT NULL,
  author_id INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT,
  json TEXT NOT NULL,
  base_json TEXT,
  PRIMARY KEY (acct, id)
);
CREATE INDEX todos_created ON todos (acct, state, created_at);

-- Every other GET, by URL: what was seen online stays readable offline, marked stale.
CREATE TABLE http_cache (
  acct INTEGER NOT NULL REFERENCES cache_accounts(acct) ON DELETE CASCADE,
  url TEXT NOT NULL,
  status INTEGER NOT NULL,
  etag TEXT,
  headers TEXT NOT NULL,
  body TEXT,
  fetched_at TEXT NOT NULL,
  PRIMARY KEY (acct, url)
);

-- The outbox's optimistic changes, in the order they were applied (seq). See cache/optimistic.ts.
CREATE TABLE pending_changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  acct INTEGER NOT NULL REFERENCES cache_accounts(acct) ON DELETE CASCADE,
  outbox_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  item_id INTEGER NOT NULL,
  patch TEXT NOT NULL,
  created_row INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);
CREATE INDEX pending_changes_item ON pending_changes (acct, kind, item_id);
CREATE INDEX pending_changes_outbox ON pending_changes (outbox_id);

-- Full-text search: one document per issue, merge request, epic and user-written note.
CREATE TABLE search_docs (
  rowid INTEGER PRIMARY KEY,
  acct INTEGER NOT NULL,
  kind TEXT NOT NULL,
  item_id INTEGER NOT NULL,
  parent_kind TEXT NOT NULL,
  parent_id INTEGER NOT NULL,
  title TEXT,
  body TEXT,
  UNIQUE (acct, kind, item_id)
);
CREATE INDEX search_docs_parent ON search_docs (acct, parent_kind, parent_id);
CREATE VIRTUAL TABLE search_fts USING fts5(
  title, body,
  content = 'search_docs', content_rowid = 'rowid',
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3'
);
CREATE TRIGGER search_docs_ai AFTER INSERT ON search_docs BEGIN
  INSERT INTO search_fts (rowid, title, body) VALUES (new.rowid, new.title, new.body);
END;
CREATE TRIGGER search_docs_ad AFTER DELETE ON search_docs BEGIN
  INSERT INTO search_fts (search_fts, rowid, title, body) VALUES ('delete', old.rowid, old.title, old.body);
END;
CREATE TRIGGER search_docs_au AFTER UPDATE OF title, body ON search_docs BEGIN
  INSERT INTO search_fts (search_fts, rowid, title, body) VALUES ('delete', old.rowid, old.title, old.body);
  INSERT INTO search_fts (rowid, title, body) VALUES (new.rowid, new.title, new.body);
END;

-- Sync state (core/sync): what to sync, where each list stopped, when it last ran.
CREATE TABLE sync_scopes (
  acct INTEGER PRIMARY KEY REFERENCES cache_accounts(acct) ON DELETE CASCADE,
  mode TEXT NOT NULL CHECK (mode IN ('memberships', 'custom')),
  project_ids TEXT NOT NULL DEFAULT '[]',
  group_ids TEXT NOT NULL DEFAULT '[]',
  updated_at TEXT NOT NULL
);

CREATE TABLE sync_cursors (
  acct INTEGER NOT NULL REFERENCES cache_accounts(acct) ON DELETE CASCADE,
  resource TEXT NOT NULL,
  scope_kind TEXT NOT NULL,
  scope_id INTEGER NOT NULL,
  updated_after TEXT,
  seen_ids TEXT NOT NULL DEFAULT '[]',
  unsupported INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (acct, resource, scope_kind, scope_id)
);

CREATE TABLE sync_state (
  acct INTEGER PRIMARY KEY REFERENCES cache_accounts(acct) ON DELETE CASCADE,
  last_started_at TEXT,
  last_completed_at TEXT,
  last_reconciled_at TEXT,
  last_error TEXT
);
`,
}

export default migration
