/**
 * What GitLab records about changes to issues, merge requests and epics besides the change itself:
 * the metadata of system notes (their action, and for cross-references the item and comment that
 * mentioned the noteable, so readers who cannot see that item do not see the note either), and
 * the resource events for labels, milestones and states, which GitLab keeps instead of system
 * notes since 11.x/13.x. One nullable foreign key per resource kind, as GitLab's tables have, so a
 * deleted issue, merge request or epic takes its events with it.
 */
export default {
  version: 20,
  name: 'system-notes-resource-events',
  sql: `
CREATE TABLE system_note_metadata (
  note_id INTEGER PRIMARY KEY REFERENCES notes(id) ON DELETE CASCADE,
  action TEXT NOT NULL,
  -- Cross-references: what mentioned the noteable ('Issue', 'MergeRequest', 'Epic') and the comment, if any.
  source_type TEXT,
  source_id INTEGER,
  source_note_id INTEGER REFERENCES notes(id) ON DELETE SET NULL
);
CREATE INDEX system_note_metadata_source ON system_note_metadata(source_type, source_id);

CREATE TABLE resource_label_events (
  id INTEGER PRIMARY KEY,
  issue_id INTEGER REFERENCES issues(id) ON DELETE CASCADE,
  merge_request_id INTEGER REFERENCES merge_requests(id) ON DELETE CASCADE,
  epic_id INTEGER REFERENCES epics(id) ON DELETE CASCADE,
  label_id INTEGER REFERENCES labels(id) ON DELETE SET NULL,
  user_id INTEGER NOT NULL REFERENCES users(id),
  action TEXT NOT NULL CHECK (action IN ('add', 'remove')),
  created_at TEXT NOT NULL,
  CHECK ((issue_id IS NOT NULL) + (merge_request_id IS NOT NULL) + (epic_id IS NOT NULL) = 1)
);
CREATE INDEX resource_label_events_issue ON resource_label_events(issue_id, id) WHERE issue_id IS NOT NULL;
CREATE INDEX resource_label_events_merge_request ON resource_label_events(merge_request_id, id) WHERE merge_request_id IS NOT NULL;
CREATE INDEX resource_label_events_epic ON resource_label_events(epic_id, id) WHERE epic_id IS NOT NULL;
CREATE INDEX resource_label_events_label ON resource_label_events(label_id);

CREATE TABLE resource_milestone_events (
  id INTEGER PRIMARY KEY,
  issue_id INTEGER REFERENCES issues(id) ON DELETE CASCADE,
  merge_request_id INTEGER REFERENCES merge_requests(id) ON DELETE CASCADE,
  milestone_id INTEGER REFERENCES milestones(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  action TEXT NOT NULL CHECK (action IN ('add', 'remove')),
  -- The issue's or merge request's state when the milestone changed.
  state TEXT NOT NULL,
  created_at TEXT NOT NULL,
  CHECK ((issue_id IS NOT NULL) + (merge_request_id IS NOT NULL) = 1)
);
CREATE INDEX resource_milestone_events_issue ON resource_milestone_events(issue_id, id) WHERE issue_id IS NOT NULL;
CREATE INDEX resource_milestone_events_merge_request ON resource_milestone_events(merge_request_id, id) WHERE merge_request_id IS NOT NULL;
CREATE INDEX resource_milestone_events_milestone ON resource_milestone_events(milestone_id);

CREATE TABLE resource_state_events (
  id INTEGER PRIMARY KEY,
  issue_id INTEGER REFERENCES issues(id) ON DELETE CASCADE,
  merge_request_id INTEGER REFERENCES merge_requests(id) ON DELETE CASCADE,
  epic_id INTEGER REFERENCES epics(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  state TEXT NOT NULL CHECK (state IN ('opened', 'closed', 'merged', 'locked', 'reopened')),
  source_commit TEXT,
  source_merge_request_id INTEGER REFERENCES merge_requests(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  CHECK ((issue_id IS NOT NULL) + (merge_request_id IS NOT NULL) + (epic_id IS NOT NULL) = 1)
);
CREATE INDEX resource_state_events_issue ON resource_state_events(issue_id, id) WHERE issue_id IS NOT NULL;
CREATE INDEX resource_state_events_merge_request ON resource_state_events(merge_request_id, id) WHERE merge_request_id IS NOT NULL;
CREATE INDEX resource_state_events_epic ON resource_state_events(epic_id, id) WHERE epic_id IS NOT NULL;
CREATE INDEX resource_state_events_source_merge_request ON resource_state_events(source_merge_request_id);
`,
}
