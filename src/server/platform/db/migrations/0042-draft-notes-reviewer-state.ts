/**
 * Review of merge requests (issue 9): draft notes (GitLab's `draft_notes`), the pending comments of
 * a review that only their author sees until they are published, and each reviewer's review state
 * (GitLab's `merge_request_reviewers.state`: unreviewed, reviewed, requested_changes, approved,
 * unapproved, review_started).
 */
export default {
  version: 42,
  name: 'draft-notes-reviewer-state',
  sql: `
CREATE TABLE draft_notes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  merge_request_id INTEGER NOT NULL REFERENCES merge_requests(id) ON DELETE CASCADE,
  author_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  note TEXT NOT NULL,
  -- The discussion this draft replies to (null: it starts a thread when published).
  discussion_id TEXT,
  resolve_discussion INTEGER NOT NULL DEFAULT 0,
  commit_id TEXT,
  line_code TEXT,
  -- A diff note's text position as JSON (null: a general comment).
  position TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX draft_notes_merge_request_author ON draft_notes(merge_request_id, author_id, id);
CREATE INDEX draft_notes_author ON draft_notes(author_id);

ALTER TABLE merge_request_reviewers ADD COLUMN state TEXT NOT NULL DEFAULT 'unreviewed';
`,
}
