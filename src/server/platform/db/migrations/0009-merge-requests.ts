/**
 * Merge requests, their assignees and reviewers, and approvals. Labels ride on label_links and
 * notes, award emoji, subscriptions, time logs and to-dos on the polymorphic tables of 0006.
 */
export default {
  version: 9,
  name: 'merge-requests',
  sql: `
CREATE TABLE merge_requests (
  id INTEGER PRIMARY KEY,
  iid INTEGER NOT NULL,
  -- The target project: the merge request lives there.
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  source_project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  source_branch TEXT NOT NULL,
  target_branch TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  state TEXT NOT NULL DEFAULT 'opened' CHECK (state IN ('opened', 'closed', 'locked', 'merged')),
  author_id INTEGER NOT NULL REFERENCES users(id),
  merged_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  merged_at TEXT,
  closed_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  closed_at TEXT,
  merge_commit_sha TEXT,
  squash_commit_sha TEXT,
  squash INTEGER NOT NULL DEFAULT 0,
  merge_when_pipeline_succeeds INTEGER NOT NULL DEFAULT 0,
  should_remove_source_branch INTEGER,
  force_remove_source_branch INTEGER NOT NULL DEFAULT 0,
  allow_collaboration INTEGER NOT NULL DEFAULT 0,
  milestone_id INTEGER REFERENCES milestones(id) ON DELETE SET NULL,
  time_estimate INTEGER NOT NULL DEFAULT 0,
  -- unchecked, checking, can_be_merged, cannot_be_merged (computed asynchronously).
  merge_status TEXT NOT NULL DEFAULT 'unchecked',
  merge_error TEXT,
  rebase_in_progress INTEGER NOT NULL DEFAULT 0,
  head_sha TEXT,
  base_sha TEXT,
  start_sha TEXT,
  discussion_locked INTEGER,
  approvals_before_merge INTEGER,
  first_deployed_to_production_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX merge_requests_project_iid ON merge_requests(project_id, iid);
CREATE INDEX merge_requests_project_state ON merge_requests(project_id, state, created_at);
CREATE INDEX merge_requests_author ON merge_requests(author_id, state);
CREATE INDEX merge_requests_source ON merge_requests(source_project_id, source_branch, state);
CREATE INDEX merge_requests_target ON merge_requests(project_id, target_branch, state);
CREATE INDEX merge_requests_milestone ON merge_requests(milestone_id);
CREATE INDEX merge_requests_updated ON merge_requests(updated_at);

CREATE TABLE merge_request_assignees (
  merge_request_id INTEGER NOT NULL REFERENCES merge_requests(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (merge_request_id, user_id)
);
CREATE INDEX merge_request_assignees_user ON merge_request_assignees(user_id);

CREATE TABLE merge_request_reviewers (
  merge_request_id INTEGER NOT NULL REFERENCES merge_requests(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (merge_request_id, user_id)
);
CREATE INDEX merge_request_reviewers_user ON merge_request_reviewers(user_id);

CREATE TABLE approvals (
  merge_request_id INTEGER NOT NULL REFERENCES merge_requests(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (merge_request_id, user_id)
);
CREATE INDEX approvals_user ON approvals(user_id);
`,
}
