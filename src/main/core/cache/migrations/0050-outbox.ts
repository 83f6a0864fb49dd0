import type { CacheMigration } from './index'

/*
 * The outbox (core/outbox): every write the user makes, kept durably until the server has it,
 * refused it, or the user gives it up. `id` is the send order within an account; `item_key`
 * (`issue:PROJECT:IID`, `merge_request:PROJECT:IID`, `todo:ID`) groups the writes of one item,
 * which wait behind an earlier unsettled write of the same item. JSON columns: `target`,
 * `mutation`, `base` (the version it was made against), `conflict` ({local, remote}),
 * `progress` (facts recorded with `sending`, read back after a crash), `result` (ids the server
 * gave back, e.g. the note id of a comment).
 */
const migration: CacheMigration = {
  version: 50,
  name: 'outbox',
  sql: `
CREATE TABLE outbox_entries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL,
  item_key TEXT NOT NULL,
  target TEXT NOT NULL,
  kind TEXT NOT NULL,
  mutation TEXT NOT NULL,
  base TEXT,
  state TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'done', 'failed', 'conflict', 'unknown-outcome', 'reconciled', 'discarded')),
  reason TEXT,
  status INTEGER,
  conflict TEXT,
  progress TEXT,
  result TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  sent_at TEXT,
  settled_at TEXT
);
CREATE INDEX outbox_entries_unsettled ON outbox_entries (account_id, item_key, id) WHERE settled_at IS NULL;
CREATE INDEX outbox_entries_settled ON outbox_entries (settled_at) WHERE settled_at IS NOT NULL;
`,
}

export default migration
