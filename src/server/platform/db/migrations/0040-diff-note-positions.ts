/**
 * Diff notes (GitLab's DiffNote): `position` (already a column) is where the note shows now,
 * `original_position` where it was written, and `line_code` the line it names in that diff
 * (`<sha1 of the path>_<old line>_<new line>`). Notes written before keep their position as the
 * original one.
 */
export default {
  version: 40,
  name: 'diff-note-positions',
  sql: `
ALTER TABLE notes ADD COLUMN original_position TEXT;
ALTER TABLE notes ADD COLUMN line_code TEXT;
UPDATE notes SET original_position = position WHERE position IS NOT NULL;
`,
}
