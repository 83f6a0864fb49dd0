/**
 * Tables shared by issues, merge requests, epics and snippets: per-scope iid counters, notes
 * (comments and discussion threads), subscriptions, award emoji, time logs and to-dos. Each is
 * polymorphic on (type, id) the way GitLab's are, so every noteable family uses the same ones.
 */
export default {
  version: 6,
  name: 'collaboration-core',
  sql: `
-- Last iid handed out per scope and usage; never reused, even after deletes (GitLab's InternalId).
CREATE TABLE internal_ids (
  scope_type TEXT NOT NULL CHECK (scope_type IN ('Project', 'Namespace')),
  scope_id INTEGER NOT NULL,
  usage TEXT NOT NULL,
  last_value INTEGER NOT NULL,
  PRIMARY KEY (scope_type, scope_id, usage)
);

-- Comments, system notes and discussion replies of issues, merge requests, snippets, epics, commits.
CREATE TABLE notes (
  id INTEGER PRIMARY KEY,
  noteable_type TEXT NOT NULL CHECK (noteable_type IN ('Issue', 'MergeRequest', 'Snippet', 'Epic', 'Commit', 'AlertManagement::Alert')),
  noteable_id INTEGER NOT NULL,
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
  author_id INTEGER NOT NULL REFERENCES users(id),
  body TEXT NOT NULL,
  -- null for a plain comment, 'DiscussionNote' in a thread, 'DiffNote' on a diff line.
  type TEXT,
  discussion_id TEXT NOT NULL,
  system INTEGER NOT NULL DEFAULT 0,
  internal INTEGER NOT NULL DEFAULT 0,
  resolvable INTEGER NOT NULL DEFAULT 0,
  resolved_at TEXT,
  resolved_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  commit_id TEXT,
  position TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX notes_noteable ON notes(noteable_type, noteable_id, id);
CREATE INDEX notes_discussion ON notes(discussion_id, id);
CREATE INDEX notes_project_updated ON notes(project_id, updated_at);

-- Explicit subscribe/unsubscribe choices; absence means "participants are subscribed".
CREATE TABLE subscriptions (
  subscribable_type TEXT NOT NULL,
  subscribable_id INTEGER NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  subscribed INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (subscribable_type, subscribable_id, user_id)
);

CREATE TABLE award_emoji (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  awardable_type TEXT NOT NULL CHECK (awardable_type IN ('Issue', 'MergeRequest', 'Snippet', 'Note', 'Epic')),
  awardable_id INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (awardable_type, awardable_id, user_id, name)
);
CREATE INDEX award_emoji_awardable ON award_emoji(awardable_type, awardable_id);
CREATE INDEX award_emoji_user ON award_emoji(user_id, name);

-- Time spent entries (negative entries subtract); estimates live on the issue / merge request.
CREATE TABLE timelogs (
  id INTEGER PRIMARY KEY,
  trackable_type TEXT NOT NULL CHECK (trackable_type IN ('Issue', 'MergeRequest')),
  trackable_id INTEGER NOT NULL,
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  time_spent INTEGER NOT NULL,
  spent_at TEXT NOT NULL,
  summary TEXT,
  note_id INTEGER REFERENCES notes(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX timelogs_trackable ON timelogs(trackable_type, trackable_id);

-- To-do items. action: assigned, mentioned, build_failed, marked, approval_required,
-- unmergeable, directly_addressed, merge_train_removed, review_requested,
-- member_access_requested, review_submitted.
CREATE TABLE todos (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  author_id INTEGER NOT NULL REFERENCES users(id),
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
  target_type TEXT NOT NULL,
  target_id INTEGER NOT NULL,
  commit_id TEXT,
  action TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done')),
  body TEXT NOT NULL DEFAULT '',
  note_id INTEGER REFERENCES notes(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX todos_user_state ON todos(user_id, state, id);
CREATE INDEX todos_target ON todos(target_type, target_id);
`,
}
