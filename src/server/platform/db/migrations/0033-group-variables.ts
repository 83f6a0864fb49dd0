/**
 * Group CI/CD variables (GitLab's `ci_group_variables`): the projects of the group and of its
 * subgroups receive them in their jobs, below their own variables. Values are sealed as project
 * variables' are.
 */
export default {
  version: 33,
  name: 'group-variables',
  sql: `
CREATE TABLE ci_group_variables (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  group_id INTEGER NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  encrypted_value TEXT NOT NULL,
  variable_type TEXT NOT NULL DEFAULT 'env_var' CHECK (variable_type IN ('env_var', 'file')),
  protected INTEGER NOT NULL DEFAULT 0,
  masked INTEGER NOT NULL DEFAULT 0,
  raw INTEGER NOT NULL DEFAULT 0,
  environment_scope TEXT NOT NULL DEFAULT '*',
  description TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX ci_group_variables_group_key_scope ON ci_group_variables(group_id, key, environment_scope);
`,
}
