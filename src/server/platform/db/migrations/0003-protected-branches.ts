/**
 * Protected branches (GitLab's protected_branches and its three access-level tables, folded
 * into one with a `kind` column): who may push, merge and unprotect a branch or wildcard.
 */
export default {
  version: 3,
  name: 'protected-branches',
  sql: `
CREATE TABLE protected_branches (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  allow_force_push INTEGER NOT NULL DEFAULT 0,
  code_owner_approval_required INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, name)
);
CREATE TABLE protected_branch_access_levels (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  protected_branch_id INTEGER NOT NULL REFERENCES protected_branches(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('push', 'merge', 'unprotect')),
  access_level INTEGER,
  user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE
);
CREATE INDEX protected_branch_access_levels_branch ON protected_branch_access_levels(protected_branch_id);
`,
}
