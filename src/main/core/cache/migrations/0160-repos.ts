import type { CacheMigration } from './index'

/*
 * Which repositories the user chose to clone (core/repos): one row per account and project,
 * with what the list shows while offline (path, name, default branch), the clone's state and
 * when it last matched the server. The clone itself is a bare repository on disk under
 * `repos/<account>/<project id>.git` in the user data dir; the row is the record that it is
 * wanted. `cloning` rows left by a launch that ended mid-clone are turned into `failed` at the
 * next start. Rows follow their account out through cache_accounts.
 */
const migration: CacheMigration = {
  version: 160,
  name: 'repos',
  sql: `
CREATE TABLE repo_clones (
  acct INTEGER NOT NULL REFERENCES cache_accounts(acct) ON DELETE CASCADE,
  project_id INTEGER NOT NULL,
  path_with_namespace TEXT NOT NULL,
  name TEXT NOT NULL,
  web_url TEXT,
  default_branch TEXT,
  state TEXT NOT NULL CHECK (state IN ('cloning', 'ready', 'failed')),
  added_at TEXT NOT NULL,
  cloned_at TEXT,
  fetched_at TEXT,
  last_error TEXT,
  size_bytes INTEGER,
  PRIMARY KEY (acct, project_id)
);
`,
}

export default migration
