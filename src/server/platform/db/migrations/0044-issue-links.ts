/**
 * Issue links (GitLab's `issue_links`): `source` relates to or blocks `target`. "Is blocked by" is
 * stored as the other issue blocking this one, so each pair is one row whichever side made it.
 * Deleting either issue deletes the link.
 */
export default {
  version: 44,
  name: 'issue-links',
  sql: `
CREATE TABLE issue_links (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  source_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  target_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  link_type TEXT NOT NULL DEFAULT 'relates_to' CHECK (link_type IN ('relates_to', 'blocks')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (source_id, target_id),
  CHECK (source_id <> target_id)
);
CREATE INDEX issue_links_target ON issue_links(target_id);
`,
}
