/**
 * Pipeline schedules (GitLab's `ci_pipeline_schedules` and `ci_pipeline_schedule_variables`): a
 * cron expression in a timezone, the full ref it runs on, its owner and the next run the
 * scheduler looks for; variables sealed with the instance key like project CI/CD variables.
 * Pipelines remember the schedule that made them (`pipeline_schedule_id`).
 */
export default {
  version: 47,
  name: 'pipeline-schedules',
  sql: `
CREATE TABLE ci_pipeline_schedules (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  owner_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  description TEXT NOT NULL,
  ref TEXT NOT NULL,
  cron TEXT NOT NULL,
  cron_timezone TEXT NOT NULL,
  next_run_at TEXT,
  active INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX ci_pipeline_schedules_project ON ci_pipeline_schedules(project_id);
CREATE INDEX ci_pipeline_schedules_due ON ci_pipeline_schedules(next_run_at) WHERE active = 1;

CREATE TABLE ci_pipeline_schedule_variables (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  pipeline_schedule_id INTEGER NOT NULL REFERENCES ci_pipeline_schedules(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  encrypted_value TEXT NOT NULL,
  variable_type TEXT NOT NULL DEFAULT 'env_var' CHECK (variable_type IN ('env_var', 'file')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (pipeline_schedule_id, key)
);

ALTER TABLE ci_pipelines ADD COLUMN pipeline_schedule_id INTEGER REFERENCES ci_pipeline_schedules(id) ON DELETE SET NULL;
CREATE INDEX ci_pipelines_schedule ON ci_pipelines(pipeline_schedule_id) WHERE pipeline_schedule_id IS NOT NULL;
`,
}
