/**
 * Issue boards of projects (GitLab's `boards`, `lists`, `board_labels`): a board's scope (milestone,
 * assignee, labels, weight), whether its Open and Closed lists show, and its label lists in order.
 * The Open and Closed lists are implied, never stored. A board belongs to a project or a group.
 */
export default {
  version: 31,
  name: 'boards',
  sql: `
CREATE TABLE boards (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  hide_backlog_list INTEGER NOT NULL DEFAULT 0,
  hide_closed_list INTEGER NOT NULL DEFAULT 0,
  milestone_id INTEGER REFERENCES milestones(id) ON DELETE SET NULL,
  assignee_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  weight INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK ((project_id IS NULL) <> (group_id IS NULL))
);
CREATE INDEX boards_project ON boards(project_id, id) WHERE project_id IS NOT NULL;
CREATE INDEX boards_group ON boards(group_id, id) WHERE group_id IS NOT NULL;

CREATE TABLE board_labels (
  board_id INTEGER NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
  label_id INTEGER NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
  PRIMARY KEY (board_id, label_id)
);

-- position orders a board's label lists from 0; deleting a label deletes its lists.
CREATE TABLE board_lists (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  board_id INTEGER NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
  label_id INTEGER NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (board_id, label_id)
);
CREATE INDEX board_lists_board ON board_lists(board_id, position);
`,
}
