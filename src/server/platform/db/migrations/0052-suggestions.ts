/**
 * Suggestions of merge request diff notes (GitLab's `suggestions`): one row per ```suggestion
 * block of a note, in the order they appear, with the lines it covers around the note's line, the
 * text those lines had when the note was written and what the block proposes. Applying one records
 * the commit it made; deleting the note deletes them.
 */
export default {
  version: 52,
  name: 'suggestions',
  sql: `
CREATE TABLE suggestions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
  relative_order INTEGER NOT NULL,
  lines_above INTEGER NOT NULL DEFAULT 0,
  lines_below INTEGER NOT NULL DEFAULT 0,
  from_line INTEGER NOT NULL,
  to_line INTEGER NOT NULL,
  from_content TEXT NOT NULL,
  to_content TEXT NOT NULL,
  applied INTEGER NOT NULL DEFAULT 0,
  commit_id TEXT,
  UNIQUE (note_id, relative_order)
);
`,
}
