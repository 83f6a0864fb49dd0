/**
 * Administration resources of issue #6: project imports (their state and outcome; the source's
 * credentials are never stored), replication (Geo) nodes with their selective-sync namespaces,
 * and repository storage moves of projects, snippets and groups.
 */
export default {
  version: 15,
  name: 'imports-geo-storage-moves',
  sql: `
-- One row per imported project. import_url is the source's base URL without credentials.
CREATE TABLE project_imports (
  project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  import_type TEXT NOT NULL CHECK (import_type IN ('hosted_git', 'git_server')),
  import_source TEXT NOT NULL,
  import_url TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('scheduled', 'started', 'finished', 'failed')),
  error TEXT,
  correlation_id TEXT NOT NULL,
  stats TEXT NOT NULL DEFAULT '{}',
  user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX project_imports_status ON project_imports(status);

CREATE TABLE geo_nodes (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL COLLATE NOCASE UNIQUE,
  url TEXT NOT NULL,
  internal_url TEXT,
  is_primary INTEGER NOT NULL DEFAULT 0,
  enabled INTEGER NOT NULL DEFAULT 1,
  files_max_capacity INTEGER NOT NULL DEFAULT 10,
  repos_max_capacity INTEGER NOT NULL DEFAULT 25,
  verification_max_capacity INTEGER NOT NULL DEFAULT 100,
  container_repositories_max_capacity INTEGER NOT NULL DEFAULT 10,
  sync_object_storage INTEGER NOT NULL DEFAULT 0,
  selective_sync_type TEXT CHECK (selective_sync_type IN ('namespaces', 'shards')),
  selective_sync_shards TEXT NOT NULL DEFAULT '[]',
  minimum_reverification_interval INTEGER NOT NULL DEFAULT 7,
  -- Secondaries authenticate their users through an OAuth application on the primary; repair recreates it.
  oauth_application_uid TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX geo_nodes_one_primary ON geo_nodes(is_primary) WHERE is_primary = 1;

CREATE TABLE geo_node_namespace_links (
  geo_node_id INTEGER NOT NULL REFERENCES geo_nodes(id) ON DELETE CASCADE,
  namespace_id INTEGER NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
  PRIMARY KEY (geo_node_id, namespace_id)
);

-- Exactly one of project_id, snippet_id, group_id names what moves.
CREATE TABLE repository_storage_moves (
  id INTEGER PRIMARY KEY,
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  snippet_id INTEGER REFERENCES snippets(id) ON DELETE CASCADE,
  group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
  state TEXT NOT NULL DEFAULT 'initial'
    CHECK (state IN ('initial', 'scheduled', 'started', 'replicated', 'finished', 'failed', 'cleanup_failed')),
  source_storage_name TEXT NOT NULL,
  destination_storage_name TEXT NOT NULL,
  error_message TEXT,
  -- Who scheduled it: background steps record their audit events in that administrator's name.
  user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK ((project_id IS NOT NULL) + (snippet_id IS NOT NULL) + (group_id IS NOT NULL) = 1)
);
CREATE INDEX repository_storage_moves_project ON repository_storage_moves(project_id, id) WHERE project_id IS NOT NULL;
CREATE INDEX repository_storage_moves_snippet ON repository_storage_moves(snippet_id, id) WHERE snippet_id IS NOT NULL;
CREATE INDEX repository_storage_moves_group ON repository_storage_moves(group_id, id) WHERE group_id IS NOT NULL;
CREATE INDEX repository_storage_moves_pending ON repository_storage_moves(state) WHERE state IN ('scheduled', 'started');
`,
}
