/**
 * Protected tags (GitLab's `protected_tags` and `protected_tag_create_access_levels`): a tag name
 * or `*` wildcard, and the roles that may create matching tags (0: no one). Deleting a matching tag
 * takes a Maintainer; moving one is refused to everybody.
 */
export default {
  version: 34,
  name: 'protected-tags',
  sql: `
CREATE TABLE protected_tags (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, name)
);

CREATE TABLE protected_tag_create_access_levels (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  protected_tag_id INTEGER NOT NULL REFERENCES protected_tags(id) ON DELETE CASCADE,
  access_level INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX protected_tag_create_access_levels_tag ON protected_tag_create_access_levels(protected_tag_id);
`,
}
