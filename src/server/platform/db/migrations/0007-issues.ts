/**
 * Issues and their assignees. Labels ride on label_links (0005), notes, subscriptions, award
 * emoji, time logs and to-dos on the polymorphic tables of 0006. The indexes follow the list
 * filters: a project's page by state and creation/update time must be an index range scan.
 */
export default {
  version: 7,
  name: 'issues',
  sql: `
CREATE TABLE issues (
  id INTEGER PRIMARY KEY,
  iid INTEGER NOT NULL,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  author_id INTEGER NOT NULL REFERENCES users(id),
  title TEXT NOT NULL,
  description TEXT,
  state TEXT NOT NULL DEFAULT 'opened' CHECK (state IN ('opened', 'closed')),
  confidential INTEGER NOT NULL DEFAULT 0,
  -- null until someone locks or unlocks the discussion, as GitLab returns it.
  discussion_locked INTEGER,
  issue_type TEXT NOT NULL DEFAULT 'issue' CHECK (issue_type IN ('issue', 'incident', 'test_case')),
  milestone_id INTEGER REFERENCES milestones(id) ON DELETE SET NULL,
  due_date TEXT,
  weight INTEGER,
  health_status TEXT,
  epic_id INTEGER,
  time_estimate INTEGER NOT NULL DEFAULT 0,
  closed_at TEXT,
  closed_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  moved_to_id INTEGER REFERENCES issues(id) ON DELETE SET NULL,
  duplicated_to_id INTEGER REFERENCES issues(id) ON DELETE SET NULL,
  relative_position INTEGER,
  last_edited_at TEXT,
  last_edited_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX issues_project_iid ON issues(project_id, iid);
-- Trailing confidential/author_id make the list indexes covering for the count and the
-- confidentiality test, so a filtered page never reads table rows it does not return.
CREATE INDEX issues_project_state_created ON issues(project_id, state, created_at, id, confidential, author_id);
CREATE INDEX issues_project_state_updated ON issues(project_id, state, updated_at, id, confidential, author_id);
CREATE INDEX issues_project_created ON issues(project_id, created_at, id, confidential, author_id);
CREATE INDEX issues_project_updated ON issues(project_id, updated_at, id, confidential, author_id);
-- Lists spanning many projects (/issues, group issues) walk time order and test the project.
CREATE INDEX issues_created ON issues(created_at, id);
CREATE INDEX issues_updated ON issues(updated_at, id);
CREATE INDEX issues_author_state_created ON issues(author_id, state, created_at);
CREATE INDEX issues_milestone ON issues(milestone_id) WHERE milestone_id IS NOT NULL;
CREATE INDEX issues_project_due ON issues(project_id, due_date) WHERE due_date IS NOT NULL;

CREATE TABLE issue_assignees (
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (issue_id, user_id)
);
CREATE INDEX issue_assignees_user ON issue_assignees(user_id, issue_id);
`,
}
