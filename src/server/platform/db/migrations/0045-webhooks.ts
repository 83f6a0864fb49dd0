/**
 * Webhooks (GitLab's `web_hooks` and `web_hook_logs`): project, group and system hooks with the
 * events they subscribe to, their secret token, URL variables and custom headers sealed with the
 * instance key, and the auto-disable state (`recent_failures`, `backoff_count`, `disabled_until`,
 * `permanently_disabled`). Each delivery is logged with its request and answer.
 */
export default {
  version: 45,
  name: 'webhooks',
  sql: `
CREATE TABLE web_hooks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  type TEXT NOT NULL CHECK (type IN ('ProjectHook', 'GroupHook', 'SystemHook')),
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  name TEXT,
  description TEXT,
  token_sealed TEXT,
  url_variables_sealed TEXT,
  custom_headers_sealed TEXT,
  push_events INTEGER NOT NULL DEFAULT 1,
  tag_push_events INTEGER NOT NULL DEFAULT 0,
  issues_events INTEGER NOT NULL DEFAULT 0,
  confidential_issues_events INTEGER NOT NULL DEFAULT 0,
  merge_requests_events INTEGER NOT NULL DEFAULT 0,
  note_events INTEGER NOT NULL DEFAULT 0,
  confidential_note_events INTEGER NOT NULL DEFAULT 0,
  pipeline_events INTEGER NOT NULL DEFAULT 0,
  job_events INTEGER NOT NULL DEFAULT 0,
  releases_events INTEGER NOT NULL DEFAULT 0,
  wiki_page_events INTEGER NOT NULL DEFAULT 0,
  repository_update_events INTEGER NOT NULL DEFAULT 0,
  push_events_branch_filter TEXT,
  branch_filter_strategy TEXT NOT NULL DEFAULT 'wildcard',
  enable_ssl_verification INTEGER NOT NULL DEFAULT 1,
  recent_failures INTEGER NOT NULL DEFAULT 0,
  backoff_count INTEGER NOT NULL DEFAULT 0,
  disabled_until TEXT,
  permanently_disabled INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK ((type = 'ProjectHook') = (project_id IS NOT NULL)),
  CHECK ((type = 'GroupHook') = (group_id IS NOT NULL))
);
CREATE INDEX web_hooks_project ON web_hooks(project_id) WHERE project_id IS NOT NULL;
CREATE INDEX web_hooks_group ON web_hooks(group_id) WHERE group_id IS NOT NULL;

CREATE TABLE web_hook_logs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  web_hook_id INTEGER NOT NULL REFERENCES web_hooks(id) ON DELETE CASCADE,
  trigger TEXT NOT NULL,
  url TEXT NOT NULL,
  request_headers TEXT NOT NULL,
  request_data TEXT NOT NULL,
  response_headers TEXT NOT NULL,
  response_body TEXT NOT NULL,
  response_status TEXT NOT NULL,
  execution_duration REAL NOT NULL,
  internal_error_message TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX web_hook_logs_hook ON web_hook_logs(web_hook_id, created_at);
`,
}
