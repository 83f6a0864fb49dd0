/**
 * Snippets: project snippets (project_id set) and personal snippets (project_id NULL). The single
 * file's content is kept in the row; repository-backed, multi-file snippets can come later.
 */
export default {
  version: 8,
  name: 'snippets',
  sql: `
CREATE TABLE snippets (
  id INTEGER PRIMARY KEY,
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  author_id INTEGER NOT NULL REFERENCES users(id),
  title TEXT NOT NULL,
  description TEXT,
  file_name TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL DEFAULT '',
  visibility TEXT NOT NULL DEFAULT 'private' CHECK (visibility IN ('private', 'internal', 'public')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX snippets_project ON snippets(project_id, id);
CREATE INDEX snippets_author ON snippets(author_id, id);
`,
}
