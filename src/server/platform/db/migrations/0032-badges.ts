/**
 * Badges of projects and groups (GitLab's `badges`): a link and an image URL, both of which may
 * hold placeholders (%{project_path}, %{default_branch}…) filled in when a badge is shown.
 */
export default {
  version: 32,
  name: 'badges',
  sql: `
CREATE TABLE badges (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
  name TEXT,
  link_url TEXT NOT NULL,
  image_url TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK ((project_id IS NULL) <> (group_id IS NULL))
);
CREATE INDEX badges_project ON badges(project_id, id) WHERE project_id IS NOT NULL;
CREATE INDEX badges_group ON badges(group_id, id) WHERE group_id IS NOT NULL;
`,
}
