/**
 * Merge requests (spec "Merge request"): the list entity, the `view=simple` form, the single
 * form with its diff refs and pipelines, changes, approvals.
 */
import { Type, type Static } from 'typebox'
import {
  Entity,
  ItemLabels,
  Nullable,
  OpenObject,
  References,
  TaskCompletionStatus,
  TimeStats,
  Timestamp,
} from './common'
import { Milestone } from './milestone'
import { Pipeline, PipelineBasic } from './pipeline'
import { Commit, Diff } from './repository'
import { UserRef } from './user'

export const MergeRequestState = Type.Enum(['opened', 'closed', 'locked', 'merged'])

/** What names a merge request and says where it stands: every form starts with these. */
const itemFields = {
  id: Type.Integer(),
  iid: Type.Integer(),
  project_id: Type.Integer(),
  title: Type.String(),
  description: Nullable(Type.String()),
  state: MergeRequestState,
  created_at: Timestamp,
  updated_at: Timestamp,
}

/** The `view=simple` form: identity, title, description, state and URL only. */
export const MergeRequestSimple = Entity({ ...itemFields, web_url: Type.String() })
export type MergeRequestSimple = Static<typeof MergeRequestSimple>

const basicFields = {
  ...itemFields,
  merged_by: Nullable(UserRef),
  merge_user: Nullable(UserRef),
  merged_at: Nullable(Timestamp),
  closed_by: Nullable(UserRef),
  closed_at: Nullable(Timestamp),
  target_branch: Type.String(),
  source_branch: Type.String(),
  user_notes_count: Type.Integer(),
  upvotes: Type.Integer(),
  downvotes: Type.Integer(),
  author: Nullable(UserRef),
  assignees: Type.Array(UserRef),
  /** Deprecated: the first of `assignees`. */
  assignee: Nullable(UserRef),
  reviewers: Type.Array(UserRef),
  /** Null once the project the merge request came from (a fork) was deleted. */
  source_project_id: Nullable(Type.Integer()),
  target_project_id: Type.Integer(),
  labels: ItemLabels,
  draft: Type.Boolean(),
  /** Deprecated: `draft`, also true for the legacy `WIP` prefixes. */
  work_in_progress: Type.Boolean(),
  milestone: Nullable(Milestone),
  merge_when_pipeline_succeeds: Type.Boolean(),
  merge_status: Type.Enum(['unchecked', 'checking', 'can_be_merged', 'cannot_be_merged', 'cannot_be_merged_recheck']),
  /** `mergeable`, `not_open`, `draft_status`, `broken_status`, `unchecked`, `checking`… */
  detailed_merge_status: Type.String(),
  sha: Nullable(Type.String()),
  merge_commit_sha: Nullable(Type.String()),
  squash_commit_sha: Nullable(Type.String()),
  discussion_locked: Nullable(Type.Boolean()),
  should_remove_source_branch: Nullable(Type.Boolean()),
  force_remove_source_branch: Type.Boolean(),
  prepared_at: Timestamp,
  allow_collaboration: Type.Boolean(),
  allow_maintainer_to_push: Type.Boolean(),
  /** Deprecated: `references.short`. */
  reference: Type.String(),
  references: References,
  web_url: Type.String(),
  time_stats: TimeStats,
  squash: Type.Boolean(),
  squash_on_merge: Type.Boolean(),
  task_completion_status: TaskCompletionStatus,
  /** True when merge_status is `cannot_be_merged`. */
  has_conflicts: Type.Boolean(),
  blocking_discussions_resolved: Type.Boolean(),
  approvals_before_merge: Nullable(Type.Integer()),
  merge_error: Nullable(Type.String()),
}

/** GitLab's MergeRequestBasic: merge request lists. */
export const MergeRequest = Entity(basicFields)
export type MergeRequest = Static<typeof MergeRequest>

/** A merge request in a list: the basic entity, or the simple form with `view=simple`. */
export const MergeRequestListItem = Type.Union([MergeRequest, MergeRequestSimple])
export type MergeRequestListItem = Static<typeof MergeRequestListItem>

const detailFields = {
  ...basicFields,
  subscribed: Type.Boolean(),
  /** A string, as GitLab gives it (`"1000+"` past its limits). */
  changes_count: Type.String(),
  first_deployed_to_production_at: Nullable(Timestamp),
  diff_refs: Nullable(
    Entity({ base_sha: Nullable(Type.String()), head_sha: Type.String(), start_sha: Nullable(Type.String()) }),
  ),
  /** The diffs were limited. */
  overflow: Type.Boolean(),
  user: Entity({ can_merge: Type.Boolean() }),
  first_contribution: Type.Boolean(),
  /** With `include_diverged_commits_count=true`. */
  diverged_commits_count: Type.Optional(Type.Integer()),
  /** With `include_rebase_in_progress=true`. */
  rebase_in_progress: Type.Optional(Type.Boolean()),
  pipeline: Nullable(PipelineBasic),
  head_pipeline: Nullable(Pipeline),
  latest_build_started_at: Nullable(Timestamp),
  latest_build_finished_at: Nullable(Timestamp),
}

/** GitLab's MergeRequest entity: the single form (get, create, update, merge, subscribe…). */
export const MergeRequestDetail = Entity(detailFields)
export type MergeRequestDetail = Static<typeof MergeRequestDetail>

/** `GET …/merge_requests/:merge_request_iid/changes`: the single form with its file diffs. */
export const MergeRequestChanges = Entity({ ...detailFields, changes: Type.Array(Diff) })
export type MergeRequestChanges = Static<typeof MergeRequestChanges>

/** A reviewer's progress (GitLab's merge_request_reviewers.state). */
export const ReviewState = Type.Enum([
  'unreviewed',
  'review_started',
  'reviewed',
  'requested_changes',
  'approved',
  'unapproved',
])

/** `GET …/merge_requests/:merge_request_iid/reviewers`: a reviewer, their review state and when they were asked. */
export const MergeRequestReviewer = Entity({ user: UserRef, state: ReviewState, created_at: Timestamp })
export type MergeRequestReviewer = Static<typeof MergeRequestReviewer>

/** GitLab's Approvals entity (FREE: no approval rules). */
export const MergeRequestApprovals = Entity({
  ...itemFields,
  merge_status: Type.String(),
  approved: Type.Boolean(),
  approvals_required: Type.Integer(),
  approvals_left: Type.Integer(),
  require_password_to_approve: Type.Boolean(),
  approved_by: Type.Array(Entity({ user: UserRef })),
  suggested_approvers: Type.Array(UserRef),
  approvers: Type.Array(Entity({ user: UserRef })),
  /** Approval rules (PREMIUM) are not kept on Burrow Server: always empty. */
  approver_groups: Type.Array(OpenObject),
  user_has_approved: Type.Boolean(),
  user_can_approve: Type.Boolean(),
  approval_rules_left: Type.Array(OpenObject),
  has_approval_rules: Type.Boolean(),
  merge_request_approvers_available: Type.Boolean(),
  multiple_approval_rules_available: Type.Boolean(),
  invalid_approvers_rules: Type.Array(OpenObject),
})
export type MergeRequestApprovals = Static<typeof MergeRequestApprovals>

/** `GET …/approval_state`: approval rules (PREMIUM) are not kept, so there are none. */
export const MergeRequestApprovalState = Entity({
  approval_rules_overwritten: Type.Boolean(),
  rules: Type.Array(OpenObject),
})
export type MergeRequestApprovalState = Static<typeof MergeRequestApprovalState>

/** `GET …/merge_ref`: the commit of the merge ref. */
export const MergeRef = Entity({ commit_id: Type.String() })
export type MergeRef = Static<typeof MergeRef>

/** `PUT …/rebase` (202). */
export const RebaseStarted = Entity({ rebase_in_progress: Type.Boolean() })
export type RebaseStarted = Static<typeof RebaseStarted>

const diffVersionFields = {
  id: Type.Integer(),
  head_commit_sha: Type.String(),
  base_commit_sha: Nullable(Type.String()),
  start_commit_sha: Nullable(Type.String()),
  created_at: Timestamp,
  merge_request_id: Type.Integer(),
  /** `collected`, or `empty` when the version changes no file. */
  state: Type.Enum(['collected', 'empty']),
  /** The number of changed files, a string as GitLab gives it. */
  real_size: Nullable(Type.String()),
  patch_id_sha: Nullable(Type.String()),
}

/** A merge request diff version (GitLab's MergeRequestDiff entity): the diff refs of one push. */
export const MergeRequestDiffVersion = Entity(diffVersionFields)
export type MergeRequestDiffVersion = Static<typeof MergeRequestDiffVersion>

/** One diff version with its commits (newest first) and diffs (GitLab's MergeRequestDiffFull). */
export const MergeRequestDiffVersionDetail = Entity({
  ...diffVersionFields,
  commits: Type.Array(Commit),
  diffs: Type.Array(Diff),
})
export type MergeRequestDiffVersionDetail = Static<typeof MergeRequestDiffVersionDetail>
