/**
 * Fork networks (GitLab's `fork_networks` and `fork_network_members`): every project of a network
 * descends from its root by forks. A member row says which network a project is in and which project
 * it was forked from (null for the root, or once that project is deleted). A project's `forks_count`
 * is its number of direct forks, kept by triggers so deleting or unlinking a fork corrects it too.
 */
export default {
  version: 46,
  name: 'fork-networks',
  sql: `
CREATE TABLE fork_networks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  root_project_id INTEGER REFERENCES projects(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE fork_network_members (
  project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  fork_network_id INTEGER NOT NULL REFERENCES fork_networks(id) ON DELETE CASCADE,
  forked_from_project_id INTEGER REFERENCES projects(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  CHECK (forked_from_project_id IS NULL OR forked_from_project_id <> project_id)
);
CREATE INDEX fork_network_members_network ON fork_network_members(fork_network_id);
CREATE INDEX fork_network_members_forked_from ON fork_network_members(forked_from_project_id);
CREATE TRIGGER fork_network_members_count_insert AFTER INSERT ON fork_network_members
WHEN NEW.forked_from_project_id IS NOT NULL BEGIN
  UPDATE projects SET forks_count = forks_count + 1 WHERE id = NEW.forked_from_project_id;
END;
CREATE TRIGGER fork_network_members_count_delete AFTER DELETE ON fork_network_members
WHEN OLD.forked_from_project_id IS NOT NULL BEGIN
  UPDATE projects SET forks_count = MAX(forks_count - 1, 0) WHERE id = OLD.forked_from_project_id;
END;
CREATE TRIGGER fork_network_members_count_update AFTER UPDATE OF forked_from_project_id ON fork_network_members
WHEN OLD.forked_from_project_id IS NOT NEW.forked_from_project_id BEGIN
  UPDATE projects SET forks_count = MAX(forks_count - 1, 0) WHERE id = OLD.forked_from_project_id;
  UPDATE projects SET forks_count = forks_count + 1 WHERE id = NEW.forked_from_project_id;
END;
`,
}
