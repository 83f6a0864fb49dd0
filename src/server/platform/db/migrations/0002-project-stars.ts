/** Project stars (GitLab's users_star_projects): who starred what, and since when. */
export default {
  version: 2,
  name: 'project-stars',
  sql: `
CREATE TABLE project_stars (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (project_id, user_id)
);
CREATE INDEX project_stars_user ON project_stars(user_id);
CREATE INDEX projects_namespace_created ON projects(namespace_id, created_at);
CREATE INDEX projects_created ON projects(created_at);
`,
}
