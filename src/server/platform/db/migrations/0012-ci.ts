/**
 * CI/CD core: runners and the projects they serve, registration tokens of groups and projects,
 * pipelines, their jobs (GitLab's `ci_builds`), job traces, job artifacts, project CI variables
 * and the pending "merge when the pipeline succeeds" of merge requests.
 */
export default {
  version: 12,
  name: 'ci',
  sql: `
CREATE TABLE ci_runners (
  id INTEGER PRIMARY KEY,
  runner_type TEXT NOT NULL CHECK (runner_type IN ('instance_type', 'group_type', 'project_type')),
  -- The group of a group runner; project runners are linked through ci_runner_projects.
  group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
  -- SHA-256 of the authentication token; the token itself is shown once, at registration.
  token_digest TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  maintenance_note TEXT,
  active INTEGER NOT NULL DEFAULT 1,
  locked INTEGER NOT NULL DEFAULT 0,
  run_untagged INTEGER NOT NULL DEFAULT 1,
  -- JSON array of tag names, sorted.
  tag_list TEXT NOT NULL DEFAULT '[]',
  access_level TEXT NOT NULL DEFAULT 'not_protected' CHECK (access_level IN ('not_protected', 'ref_protected')),
  maximum_timeout INTEGER,
  name TEXT,
  version TEXT,
  revision TEXT,
  platform TEXT,
  architecture TEXT,
  executor TEXT,
  ip_address TEXT,
  contacted_at TEXT,
  creator_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX ci_runners_type ON ci_runners(runner_type, id);
CREATE INDEX ci_runners_group ON ci_runners(group_id) WHERE group_id IS NOT NULL;

CREATE TABLE ci_runner_projects (
  runner_id INTEGER NOT NULL REFERENCES ci_runners(id) ON DELETE CASCADE,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (runner_id, project_id)
);
CREATE INDEX ci_runner_projects_project ON ci_runner_projects(project_id, runner_id);

-- Registration tokens of groups and projects (the instance's is an application setting).
CREATE TABLE ci_registration_tokens (
  source_type TEXT NOT NULL CHECK (source_type IN ('Project', 'Namespace')),
  source_id INTEGER NOT NULL,
  token TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (source_type, source_id)
);

CREATE TABLE ci_pipelines (
  id INTEGER PRIMARY KEY,
  iid INTEGER NOT NULL,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  ref TEXT NOT NULL,
  tag INTEGER NOT NULL DEFAULT 0,
  sha TEXT NOT NULL,
  before_sha TEXT NOT NULL DEFAULT '0000000000000000000000000000000000000000',
  -- Whether ref was protected when the pipeline was created (protected variables, ref_protected runners).
  protected INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL DEFAULT 'created',
  source TEXT NOT NULL,
  user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  yaml_errors TEXT,
  failure_reason TEXT,
  -- The commit as git had it when the pipeline was created (GitCommit JSON): jobs embed it.
  commit_json TEXT NOT NULL,
  -- JSON array of {key, value, variable_type} given when the pipeline was created.
  variables TEXT NOT NULL DEFAULT '[]',
  -- Merge request the pipeline ran for (source merge_request_event), if any.
  merge_request_id INTEGER REFERENCES merge_requests(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  committed_at TEXT
);
CREATE UNIQUE INDEX ci_pipelines_project_iid ON ci_pipelines(project_id, iid);
CREATE INDEX ci_pipelines_project ON ci_pipelines(project_id, id);
CREATE INDEX ci_pipelines_project_ref ON ci_pipelines(project_id, ref, id);
CREATE INDEX ci_pipelines_project_sha ON ci_pipelines(project_id, sha, id);

CREATE TABLE ci_builds (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  pipeline_id INTEGER NOT NULL REFERENCES ci_pipelines(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  stage TEXT NOT NULL,
  stage_idx INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'created',
  -- on_success, on_failure, always, manual, delayed.
  "when" TEXT NOT NULL DEFAULT 'on_success',
  allow_failure INTEGER NOT NULL DEFAULT 0,
  -- Names this job needs (JSON array), null when it follows the stage order.
  needs TEXT,
  -- JSON array of tag names the runner must carry.
  tag_list TEXT NOT NULL DEFAULT '[]',
  -- The job's normalised configuration (script, image, artifacts, environment, variables…) as JSON.
  options TEXT NOT NULL,
  environment TEXT,
  coverage REAL,
  user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  runner_id INTEGER REFERENCES ci_runners(id) ON DELETE SET NULL,
  -- SHA-256 of the job token, set when a runner picks the job up.
  token_digest TEXT UNIQUE,
  failure_reason TEXT,
  -- 1 once a retry replaced this job.
  retried INTEGER NOT NULL DEFAULT 0,
  exit_code INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  queued_at TEXT,
  started_at TEXT,
  finished_at TEXT,
  erased_at TEXT,
  artifacts_expire_at TEXT
);
CREATE INDEX ci_builds_pipeline ON ci_builds(pipeline_id, stage_idx, id);
CREATE INDEX ci_builds_project ON ci_builds(project_id, id);
CREATE INDEX ci_builds_pending ON ci_builds(status, id) WHERE status = 'pending';
CREATE INDEX ci_builds_runner ON ci_builds(runner_id, id) WHERE runner_id IS NOT NULL;

-- The job log as the runner sends it, appended in order.
CREATE TABLE ci_build_traces (
  build_id INTEGER PRIMARY KEY REFERENCES ci_builds(id) ON DELETE CASCADE,
  content BLOB NOT NULL
);

CREATE TABLE ci_job_artifacts (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  job_id INTEGER NOT NULL REFERENCES ci_builds(id) ON DELETE CASCADE,
  -- archive, metadata, trace, junit, sast, dependency_scanning, dotenv…
  file_type TEXT NOT NULL,
  -- zip, gzip or raw.
  file_format TEXT NOT NULL,
  filename TEXT NOT NULL,
  size INTEGER NOT NULL,
  file_sha256 TEXT NOT NULL,
  -- Path of the stored file, relative to the data directory.
  path TEXT NOT NULL,
  expire_at TEXT,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX ci_job_artifacts_job_type ON ci_job_artifacts(job_id, file_type);
CREATE INDEX ci_job_artifacts_project_type ON ci_job_artifacts(project_id, file_type, id);

CREATE TABLE ci_variables (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  variable_type TEXT NOT NULL DEFAULT 'env_var' CHECK (variable_type IN ('env_var', 'file')),
  protected INTEGER NOT NULL DEFAULT 0,
  masked INTEGER NOT NULL DEFAULT 0,
  raw INTEGER NOT NULL DEFAULT 0,
  environment_scope TEXT NOT NULL DEFAULT '*',
  description TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX ci_variables_project_key_scope ON ci_variables(project_id, key, environment_scope);

-- Merge requests set to merge when their head pipeline succeeds: who asked, with which options.
CREATE TABLE merge_request_auto_merges (
  merge_request_id INTEGER PRIMARY KEY REFERENCES merge_requests(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- JSON of the merge options (commit messages, squash, remove source branch, sha).
  params TEXT NOT NULL,
  created_at TEXT NOT NULL
);
`,
}
