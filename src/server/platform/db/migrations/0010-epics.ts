/**
 * Epics (group-level issuables with iids per group), the issues they hold and the issues that
 * were promoted to them. Labels ride on label_links, notes, award emoji, subscriptions and to-dos
 * on the polymorphic tables of 0006. `epic_issues` is the one record of which epic holds an
 * issue, so the unused `issues.epic_id` of 0007 goes. Two indexes serve issue lists and burndown
 * charts.
 */
export default {
  version: 10,
  name: 'epics',
  sql: `
CREATE TABLE epics (
  id INTEGER PRIMARY KEY,
  iid INTEGER NOT NULL,
  group_id INTEGER NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
  author_id INTEGER NOT NULL REFERENCES users(id),
  parent_id INTEGER REFERENCES epics(id) ON DELETE SET NULL,
  -- Order among the parent's children.
  relative_position INTEGER,
  title TEXT NOT NULL,
  description TEXT,
  state TEXT NOT NULL DEFAULT 'opened' CHECK (state IN ('opened', 'closed')),
  confidential INTEGER NOT NULL DEFAULT 0,
  -- Dates are fixed or inherited (from the milestones of its issues and from child epics);
  -- the inherited ones are computed when read, so they never go stale.
  start_date_is_fixed INTEGER NOT NULL DEFAULT 0,
  start_date_fixed TEXT,
  due_date_is_fixed INTEGER NOT NULL DEFAULT 0,
  due_date_fixed TEXT,
  closed_at TEXT,
  closed_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  last_edited_at TEXT,
  last_edited_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX epics_group_iid ON epics(group_id, iid);
CREATE INDEX epics_group_created ON epics(group_id, created_at, id);
CREATE INDEX epics_group_updated ON epics(group_id, updated_at, id);
CREATE INDEX epics_parent ON epics(parent_id, relative_position) WHERE parent_id IS NOT NULL;
CREATE INDEX epics_author ON epics(author_id);

-- An issue belongs to at most one epic; the row id is the API's epic_issue_id.
CREATE TABLE epic_issues (
  id INTEGER PRIMARY KEY,
  epic_id INTEGER NOT NULL REFERENCES epics(id) ON DELETE CASCADE,
  issue_id INTEGER NOT NULL UNIQUE REFERENCES issues(id) ON DELETE CASCADE,
  relative_position INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX epic_issues_epic ON epic_issues(epic_id, relative_position);

ALTER TABLE issues DROP COLUMN epic_id;
ALTER TABLE issues ADD COLUMN promoted_to_epic_id INTEGER REFERENCES epics(id) ON DELETE SET NULL;

-- Burndown charts read an issue's closed/reopened events.
CREATE INDEX events_target ON events(target_type, target_id);

-- Issue lists count what a non-Reporter may see as all matching issues minus the confidential
-- ones hidden from them: this index keeps that second count to the (few) confidential rows.
CREATE INDEX issues_confidential ON issues(project_id, state, created_at) WHERE confidential = 1;
`,
}
