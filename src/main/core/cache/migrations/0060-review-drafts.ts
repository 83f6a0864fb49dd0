import type { CacheMigration } from './index'

/*
 * The drafts of pending reviews written while the server could not be reached (core/outbox/
 * review-drafts.ts): kept here until the user submits the review, when they move into the
 * submission's outbox entry in the same transaction. `draft` is the JSON of a DraftInput
 * (note, position, discussionId).
 */
const migration: CacheMigration = {
  version: 60,
  name: 'review-drafts',
  sql: `
CREATE TABLE review_drafts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL,
  project_id INTEGER NOT NULL,
  iid INTEGER NOT NULL,
  draft TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX review_drafts_item ON review_drafts (account_id, project_id, iid);
`,
}

export default migration
