import type { CacheMigration } from './index'

/*
 * The to-do and alert watcher (core/notify) and the app preferences.
 *
 * What was announced is remembered as high-water marks, not as a list of keys: GitLab gives
 * to-dos ids and alerts per-project iids that only grow, so "everything up to N was seen" is
 * exact and stays one row however long the app runs. `notify_accounts.last_todo_id` NULL means
 * the account was never checked: its first check only records the mark (and announces a
 * summary count). `notify_projects` keeps, per project of the sync scope, the highest alert iid
 * seen and the status counts of its last check; `notify_alerts` the open alerts that check
 * listed (what the tray and `notify:list-alerts` show offline). Rows follow the account out
 * through cache_accounts.
 *
 * `app_preferences` holds the settings core needs (notifications on or off, the check
 * interval) as JSON values by key; not per account.
 */
const migration: CacheMigration = {
  version: 100,
  name: 'notify',
  sql: `
CREATE TABLE notify_accounts (
  acct INTEGER PRIMARY KEY REFERENCES cache_accounts(acct) ON DELETE CASCADE,
  last_todo_id INTEGER,
  todos_checked_at TEXT,
  alerts_checked_at TEXT,
  last_error TEXT
);

CREATE TABLE notify_projects (
  acct INTEGER NOT NULL REFERENCES cache_accounts(acct) ON DELETE CASCADE,
  project_id INTEGER NOT NULL,
  full_path TEXT NOT NULL,
  last_alert_iid INTEGER NOT NULL,
  open_count INTEGER NOT NULL,
  triggered_count INTEGER NOT NULL,
  checked_at TEXT NOT NULL,
  PRIMARY KEY (acct, project_id)
);

CREATE TABLE notify_alerts (
  acct INTEGER NOT NULL REFERENCES cache_accounts(acct) ON DELETE CASCADE,
  project_id INTEGER NOT NULL,
  iid INTEGER NOT NULL,
  status TEXT NOT NULL,
  created_at TEXT,
  json TEXT NOT NULL,
  PRIMARY KEY (acct, project_id, iid)
);
CREATE INDEX notify_alerts_newest ON notify_alerts (acct, created_at);

CREATE TABLE app_preferences (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`,
}

export default migration
