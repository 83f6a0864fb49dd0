/**
 * Issues (spec "Issue"): the entity every issue list and write answers with, its statistics and
 * the epic it embeds.
 */
import { Type, type Static } from 'typebox'
import { Entity, IsoDate, ItemLabels, Nullable, References, TaskCompletionStatus, TimeStats, Timestamp } from './common'
import { Milestone } from './milestone'
import { UserRef } from './user'

/** The `epic` an issue of a group project embeds (GitLab's EpicBaseEntity): `url` is a path. */
export const IssueEpic = Entity({
  id: Type.Integer(),
  iid: Type.Integer(),
  title: Type.String(),
  url: Type.String(),
  group_id: Type.Integer(),
})
export type IssueEpic = Static<typeof IssueEpic>

/**
 * GitLab's Issue entity. `subscribed` only on single-issue answers; `severity` only on incidents;
 * `epic` and `epic_iid` only on issues of group projects while epics are on; `closed_by` only while
 * closed by an account that exists.
 */
export const Issue = Entity({
  id: Type.Integer(),
  iid: Type.Integer(),
  project_id: Type.Integer(),
  title: Type.String(),
  description: Nullable(Type.String()),
  state: Type.Enum(['opened', 'closed']),
  created_at: Timestamp,
  updated_at: Timestamp,
  closed_at: Nullable(Timestamp),
  closed_by: Nullable(UserRef),
  labels: ItemLabels,
  milestone: Nullable(Milestone),
  assignees: Type.Array(UserRef),
  author: Nullable(UserRef),
  /** `ISSUE`, `INCIDENT` or `TEST_CASE`. */
  type: Type.String(),
  /** Deprecated: the first of `assignees`. */
  assignee: Nullable(UserRef),
  user_notes_count: Type.Integer(),
  merge_requests_count: Type.Integer(),
  upvotes: Type.Integer(),
  downvotes: Type.Integer(),
  due_date: Nullable(IsoDate),
  confidential: Type.Boolean(),
  discussion_locked: Nullable(Type.Boolean()),
  issue_type: Type.Enum(['issue', 'incident', 'test_case']),
  web_url: Type.String(),
  time_stats: TimeStats,
  task_completion_status: TaskCompletionStatus,
  weight: Nullable(Type.Integer()),
  blocking_issues_count: Type.Integer(),
  has_tasks: Type.Boolean(),
  task_status: Type.String(),
  _links: Entity({
    self: Type.String(),
    notes: Type.String(),
    award_emoji: Type.String(),
    project: Type.String(),
    closed_as_duplicate_of: Nullable(Type.String()),
  }),
  references: References,
  /** Deprecated: `references.short`. */
  reference: Type.String(),
  severity: Type.Optional(Type.String()),
  subscribed: Type.Optional(Type.Boolean()),
  moved_to_id: Nullable(Type.Integer()),
  imported: Type.Boolean(),
  imported_from: Type.String(),
  service_desk_reply_to: Nullable(Type.String()),
  /** Deprecated: `epic.iid`. */
  epic_iid: Type.Optional(Nullable(Type.Integer())),
  epic: Type.Optional(Nullable(IssueEpic)),
  /** Iterations (PREMIUM) do not exist on Burrow Server. */
  iteration: Type.Null(),
  health_status: Nullable(Type.String()),
})
export type Issue = Static<typeof Issue>

/** `GET …/issues_statistics`: counts of the issues the list's filters select. */
export const IssueStatistics = Entity({
  statistics: Entity({
    counts: Entity({ all: Type.Integer(), closed: Type.Integer(), opened: Type.Integer() }),
  }),
})
export type IssueStatistics = Static<typeof IssueStatistics>
