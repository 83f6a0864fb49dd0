/**
 * Releases of projects (GitLab's `releases`, `release_links`, `milestone_releases`): one release
 * per tag of a project, its asset links and the milestones it ships. `sha` is the commit the tag
 * pointed at when the release was made, as GitLab records it.
 */
export default {
  version: 30,
  name: 'releases',
  sql: `
CREATE TABLE releases (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  tag TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT,
  author_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  sha TEXT,
  released_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, tag)
);
CREATE INDEX releases_project_released ON releases(project_id, released_at);

-- filepath is GitLab's direct asset path (kept with its leading '/').
CREATE TABLE release_links (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  release_id INTEGER NOT NULL REFERENCES releases(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  url TEXT NOT NULL,
  filepath TEXT,
  link_type TEXT NOT NULL DEFAULT 'other' CHECK (link_type IN ('other', 'runbook', 'image', 'package')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (release_id, name),
  UNIQUE (release_id, url)
);

CREATE TABLE milestone_releases (
  milestone_id INTEGER NOT NULL REFERENCES milestones(id) ON DELETE CASCADE,
  release_id INTEGER NOT NULL REFERENCES releases(id) ON DELETE CASCADE,
  PRIMARY KEY (milestone_id, release_id)
);
CREATE INDEX milestone_releases_release ON milestone_releases(release_id);
`,
}
