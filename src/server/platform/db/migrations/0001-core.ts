/**
 * Core schema: users and their credentials, namespaces (user namespaces and groups),
 * projects, memberships, access requests, activity and audit events, settings.
 */
export default {
  version: 1,
  name: 'core',
  sql: `
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  username TEXT NOT NULL COLLATE NOCASE UNIQUE,
  name TEXT NOT NULL,
  email TEXT NOT NULL COLLATE NOCASE UNIQUE,
  password_hash TEXT,
  password_reset_digest TEXT,
  state TEXT NOT NULL DEFAULT 'active',
  is_admin INTEGER NOT NULL DEFAULT 0,
  is_auditor INTEGER NOT NULL DEFAULT 0,
  user_type TEXT NOT NULL DEFAULT 'human',
  external INTEGER NOT NULL DEFAULT 0,
  bio TEXT NOT NULL DEFAULT '',
  location TEXT NOT NULL DEFAULT '',
  public_email TEXT NOT NULL DEFAULT '',
  skype TEXT NOT NULL DEFAULT '',
  linkedin TEXT NOT NULL DEFAULT '',
  twitter TEXT NOT NULL DEFAULT '',
  discord TEXT NOT NULL DEFAULT '',
  website_url TEXT NOT NULL DEFAULT '',
  organization TEXT NOT NULL DEFAULT '',
  job_title TEXT NOT NULL DEFAULT '',
  pronouns TEXT,
  note TEXT,
  avatar_url TEXT,
  private_profile INTEGER NOT NULL DEFAULT 0,
  projects_limit INTEGER NOT NULL DEFAULT 100000,
  can_create_group INTEGER NOT NULL DEFAULT 1,
  theme_id INTEGER NOT NULL DEFAULT 1,
  color_scheme_id INTEGER NOT NULL DEFAULT 1,
  two_factor_enabled INTEGER NOT NULL DEFAULT 0,
  commit_email TEXT,
  view_diffs_file_by_file INTEGER NOT NULL DEFAULT 0,
  shared_runners_minutes_limit INTEGER,
  extra_shared_runners_minutes_limit INTEGER,
  provisioned_by_group_id INTEGER,
  confirmed_at TEXT,
  last_sign_in_at TEXT,
  current_sign_in_at TEXT,
  last_sign_in_ip TEXT,
  current_sign_in_ip TEXT,
  sign_in_count INTEGER NOT NULL DEFAULT 0,
  last_activity_on TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX users_created_at ON users(created_at);

CREATE TABLE user_emails (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  email TEXT NOT NULL COLLATE NOCASE UNIQUE,
  confirmed_at TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE identities (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  extern_uid TEXT NOT NULL,
  saml_provider_id INTEGER,
  UNIQUE(provider, extern_uid)
);

CREATE TABLE user_custom_attributes (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (user_id, key)
);

CREATE TABLE user_follows (
  follower_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  followee_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (follower_id, followee_id)
);

-- Personal, impersonation and project (bot user) access tokens. Only a digest is stored.
CREATE TABLE personal_access_tokens (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT,
  token_digest TEXT NOT NULL UNIQUE,
  scopes TEXT NOT NULL,
  impersonation INTEGER NOT NULL DEFAULT 0,
  revoked INTEGER NOT NULL DEFAULT 0,
  expires_at TEXT,
  last_used_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX personal_access_tokens_user ON personal_access_tokens(user_id);

CREATE TABLE oauth_access_tokens (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_digest TEXT NOT NULL UNIQUE,
  refresh_digest TEXT UNIQUE,
  scopes TEXT NOT NULL,
  expires_in INTEGER NOT NULL,
  revoked_at TEXT,
  created_at TEXT NOT NULL
);

-- User namespaces (kind 'user') and groups (kind 'group') share one id space, as in GitLab.
CREATE TABLE namespaces (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('user', 'group')),
  name TEXT NOT NULL,
  path TEXT NOT NULL,
  full_path TEXT NOT NULL COLLATE NOCASE UNIQUE,
  full_name TEXT NOT NULL,
  parent_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
  owner_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  visibility TEXT NOT NULL DEFAULT 'private',
  description TEXT NOT NULL DEFAULT '',
  avatar_url TEXT,
  request_access_enabled INTEGER NOT NULL DEFAULT 1,
  repository_storage TEXT NOT NULL DEFAULT 'default',
  settings TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX namespaces_parent ON namespaces(parent_id);
CREATE UNIQUE INDEX namespaces_owner ON namespaces(owner_id) WHERE kind = 'user';

CREATE TABLE projects (
  id INTEGER PRIMARY KEY,
  namespace_id INTEGER NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  path TEXT NOT NULL,
  description TEXT,
  visibility TEXT NOT NULL DEFAULT 'private',
  default_branch TEXT,
  creator_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  archived INTEGER NOT NULL DEFAULT 0,
  repository_storage TEXT NOT NULL DEFAULT 'default',
  repository_read_only INTEGER NOT NULL DEFAULT 0,
  topics TEXT NOT NULL DEFAULT '[]',
  request_access_enabled INTEGER NOT NULL DEFAULT 1,
  star_count INTEGER NOT NULL DEFAULT 0,
  forks_count INTEGER NOT NULL DEFAULT 0,
  settings TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  last_activity_at TEXT NOT NULL,
  UNIQUE (namespace_id, path COLLATE NOCASE)
);
CREATE INDEX projects_storage ON projects(repository_storage);
CREATE INDEX projects_visibility ON projects(visibility, id);

-- A group's projects shared with another group, and groups shared with groups.
CREATE TABLE project_group_links (
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  group_id INTEGER NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
  group_access INTEGER NOT NULL,
  expires_at TEXT,
  PRIMARY KEY (project_id, group_id)
);
CREATE TABLE group_group_links (
  shared_group_id INTEGER NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
  shared_with_group_id INTEGER NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
  group_access INTEGER NOT NULL,
  expires_at TEXT,
  PRIMARY KEY (shared_group_id, shared_with_group_id)
);

-- Direct memberships; source_type is 'Project' or 'Namespace' (a group).
CREATE TABLE members (
  id INTEGER PRIMARY KEY,
  source_type TEXT NOT NULL CHECK (source_type IN ('Project', 'Namespace')),
  source_id INTEGER NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  access_level INTEGER NOT NULL,
  expires_at TEXT,
  created_by_id INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (source_type, source_id, user_id)
);
CREATE INDEX members_user ON members(user_id, source_type);

CREATE TABLE access_requests (
  id INTEGER PRIMARY KEY,
  source_type TEXT NOT NULL CHECK (source_type IN ('Project', 'Namespace')),
  source_id INTEGER NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  requested_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (source_type, source_id, user_id)
);

CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
  author_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  action TEXT NOT NULL,
  target_type TEXT,
  target_id INTEGER,
  target_iid INTEGER,
  target_title TEXT,
  push_data TEXT,
  note TEXT,
  data TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX events_project ON events(project_id, id);
CREATE INDEX events_author ON events(author_id, id);
CREATE INDEX events_created ON events(created_at);

CREATE TABLE audit_events (
  id INTEGER PRIMARY KEY,
  author_id INTEGER NOT NULL,
  entity_id INTEGER NOT NULL,
  entity_type TEXT NOT NULL CHECK (entity_type IN ('User', 'Group', 'Project')),
  details TEXT NOT NULL,
  ip_address TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX audit_events_entity ON audit_events(entity_type, entity_id, id);
CREATE INDEX audit_events_created ON audit_events(created_at);
`,
}
