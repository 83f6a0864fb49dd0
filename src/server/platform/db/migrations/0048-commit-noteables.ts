/**
 * Commits as noteables. GitLab's notes on a commit carry its SHA instead of a noteable id; here a
 * note's `noteable_id` names a row of `commit_noteables`, one per commit of a project that has
 * been commented on or read for comments, so notes of commits share every query notes have (the
 * SHA is still in the note's `commit_id`). Deleting the project deletes them with its notes.
 */
export default {
  version: 48,
  name: 'commit-noteables',
  sql: `
CREATE TABLE commit_noteables (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  sha TEXT NOT NULL,
  UNIQUE (project_id, sha)
);
`,
}
