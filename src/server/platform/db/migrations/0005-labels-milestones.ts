/**
 * Labels and milestones, plus the link table issues and merge requests will use to carry labels,
 * created now so that the issues migration only adds its own tables.
 */
export default {
  version: 5,
  name: 'labels-milestones',
  sql: `
-- A label belongs to exactly one group or one project (GitLab's GroupLabel / ProjectLabel).
CREATE TABLE labels (
  id INTEGER PRIMARY KEY,
  title TEXT NOT NULL,
  color TEXT NOT NULL,
  description TEXT,
  group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  priority INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK ((group_id IS NULL) <> (project_id IS NULL))
);
CREATE UNIQUE INDEX labels_group_title ON labels(group_id, title COLLATE NOCASE) WHERE group_id IS NOT NULL;
CREATE UNIQUE INDEX labels_project_title ON labels(project_id, title COLLATE NOCASE) WHERE project_id IS NOT NULL;

CREATE TABLE label_subscriptions (
  label_id INTEGER NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (label_id, user_id)
);

-- Which labels an issue, merge request or epic carries; filled by those families.
CREATE TABLE label_links (
  label_id INTEGER NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
  target_type TEXT NOT NULL CHECK (target_type IN ('Issue', 'MergeRequest', 'Epic')),
  target_id INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (label_id, target_type, target_id)
);
CREATE INDEX label_links_target ON label_links(target_type, target_id);

-- iid counts per project for project milestones and per group for group milestones.
CREATE TABLE milestones (
  id INTEGER PRIMARY KEY,
  iid INTEGER NOT NULL,
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  description TEXT,
  state TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'closed')),
  due_date TEXT,
  start_date TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK ((group_id IS NULL) <> (project_id IS NULL))
);
CREATE UNIQUE INDEX milestones_project_iid ON milestones(project_id, iid) WHERE project_id IS NOT NULL;
CREATE UNIQUE INDEX milestones_group_iid ON milestones(group_id, iid) WHERE group_id IS NOT NULL;
CREATE UNIQUE INDEX milestones_project_title ON milestones(project_id, title) WHERE project_id IS NOT NULL;
CREATE UNIQUE INDEX milestones_group_title ON milestones(group_id, title) WHERE group_id IS NOT NULL;
CREATE INDEX milestones_project_state ON milestones(project_id, state);
CREATE INDEX milestones_group_state ON milestones(group_id, state);
`,
}
