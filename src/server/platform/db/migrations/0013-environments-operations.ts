/**
 * CI/CD operations resources: environments and their deployments, protected environments,
 * project clusters (certificate-based), Pages domains and integrated error tracking.
 * Secrets (cluster tokens, Pages private keys) are stored encrypted with the instance key
 * (auth/encryption.ts), never in clear.
 */
export default {
  version: 13,
  name: 'environments-operations',
  sql: `
-- environment_type is the folder: the first segment of a name with a '/' (review apps live in 'review').
CREATE TABLE environments (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  external_url TEXT,
  description TEXT,
  state TEXT NOT NULL DEFAULT 'available' CHECK (state IN ('available', 'stopping', 'stopped')),
  tier TEXT NOT NULL CHECK (tier IN ('production', 'staging', 'testing', 'development', 'other')),
  environment_type TEXT,
  auto_stop_at TEXT,
  auto_delete_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, name),
  UNIQUE (project_id, slug)
);
CREATE INDEX environments_review ON environments(project_id, environment_type, state, created_at);
CREATE INDEX environments_auto_delete ON environments(auto_delete_at) WHERE auto_delete_at IS NOT NULL;

-- deployable_id is the CI job that deployed (no foreign key: jobs belong to the pipelines family).
CREATE TABLE deployments (
  id INTEGER PRIMARY KEY,
  iid INTEGER NOT NULL,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  environment_id INTEGER NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
  ref TEXT NOT NULL,
  tag INTEGER NOT NULL DEFAULT 0,
  sha TEXT NOT NULL,
  user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  deployable_id INTEGER,
  status TEXT NOT NULL CHECK (status IN ('created', 'running', 'success', 'failed', 'canceled', 'skipped', 'blocked')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  finished_at TEXT,
  UNIQUE (project_id, iid)
);
CREATE INDEX deployments_environment ON deployments(environment_id, id);
CREATE INDEX deployments_deployable ON deployments(deployable_id) WHERE deployable_id IS NOT NULL;

CREATE TABLE protected_environments (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, name)
);
-- One of access_level (role), user_id or group_id decides; access_level keeps 40 (GitLab's column
-- default) on user and group entries.
CREATE TABLE protected_environment_deploy_access_levels (
  id INTEGER PRIMARY KEY,
  protected_environment_id INTEGER NOT NULL REFERENCES protected_environments(id) ON DELETE CASCADE,
  access_level INTEGER NOT NULL DEFAULT 40,
  user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
  CHECK (user_id IS NULL OR group_id IS NULL)
);
CREATE INDEX protected_environment_deploy_access_levels_env ON protected_environment_deploy_access_levels(protected_environment_id);

-- Certificate-based project clusters; the service-account token is AES-GCM encrypted.
CREATE TABLE clusters (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  name TEXT NOT NULL,
  domain TEXT,
  enabled INTEGER NOT NULL DEFAULT 1,
  managed INTEGER NOT NULL DEFAULT 1,
  provider_type TEXT NOT NULL CHECK (provider_type IN ('user', 'gcp', 'aws')),
  platform_type TEXT NOT NULL DEFAULT 'kubernetes',
  environment_scope TEXT NOT NULL DEFAULT '*',
  namespace_per_environment INTEGER NOT NULL DEFAULT 1,
  management_project_id INTEGER REFERENCES projects(id) ON DELETE SET NULL,
  api_url TEXT NOT NULL,
  namespace TEXT,
  authorization_type TEXT NOT NULL DEFAULT 'rbac' CHECK (authorization_type IN ('rbac', 'abac', 'unknown_authorization')),
  ca_cert TEXT,
  encrypted_token TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, environment_scope)
);

-- Domains are unique instance-wide, whatever their case; the private key is AES-GCM encrypted.
CREATE TABLE pages_domains (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  domain TEXT NOT NULL,
  certificate TEXT,
  encrypted_key TEXT,
  certificate_source TEXT NOT NULL DEFAULT 'user_provided' CHECK (certificate_source IN ('user_provided', 'gitlab_provided')),
  auto_ssl_enabled INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX pages_domains_domain ON pages_domains(domain COLLATE NOCASE);
CREATE INDEX pages_domains_project ON pages_domains(project_id, domain);

CREATE TABLE error_tracking_settings (
  project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  enabled INTEGER NOT NULL DEFAULT 0,
  integrated INTEGER NOT NULL DEFAULT 1,
  api_url TEXT,
  project_name TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE error_tracking_client_keys (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  active INTEGER NOT NULL DEFAULT 1,
  public_key TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX error_tracking_client_keys_project ON error_tracking_client_keys(project_id, id);
`,
}
