import type { MergeRequestRow, MrCounts, MrLabelRow, ReviewerRow } from './queries'
import type { UserRow } from '../../platform/db/rows'
import type { Milestone } from '../../../shared/api/milestone'
import { labelBasicEntity } from '../labels'
import { userRef, userRefOrNull, type UserRef } from '../users'
import { timeStatsOf } from '../time-tracking'
import type {
  MergeRequest,
  MergeRequestApprovals,
  MergeRequestDetail as MergeRequestDetailEntity,
  MergeRequestReviewer,
  MergeRequestSimple,
} from '../../../shared/api/merge-request'

// GitLab's draft prefixes ("Draft:", "[Draft]", "(Draft)", "Draft - ", a bare "Draft").
const DRAFT = /^\s*(\[draft\]|\(draft\)|draft:|draft\s-\s|draft$)/i
// The legacy forms GitLab stopped treating as drafts; work_in_progress still reports them.
const WIP = /^\s*(\[wip\]|\(wip\)|wip:|wip\s-\s|wip$)/i

/** True when the title marks a draft merge request. */
export function isDraftTitle(title: string): boolean {
  return DRAFT.test(title)
}

/** True for drafts and for titles with the legacy `WIP` prefixes. */
export function isWorkInProgressTitle(title: string): boolean {
  return DRAFT.test(title) || WIP.test(title)
}

const TASK = /^[ \t]*(?:[-*+]|\d+[.)])[ \t]+\[([ xX~])\][ \t]/gm

/** Task list items of a description: how many, and how many are checked. */
export function taskCompletion(description: string | null): { count: number; completed_count: number } {
  let count = 0
  let completed = 0
  for (const m of (description ?? '').matchAll(TASK)) {
    count += 1
    if (m[1] !== ' ') completed += 1
  }
  return { count, completed_count: completed }
}

/** What one merge request's serialization needs besides its row, loaded once per page. */
export interface MergeRequestContext {
  readonly baseUrl: string
  /** Full path of the target project. */
  readonly projectPath: string
  /** The reference is relative to this project/group full path; null for a cross-project list. */
  readonly relativeTo: { readonly kind: 'project' | 'group'; readonly path: string } | null
  readonly users: ReadonlyMap<number, UserRow>
  readonly assignees: readonly UserRow[]
  readonly reviewers: readonly UserRow[]
  readonly labels: readonly MrLabelRow[]
  readonly withLabelDetails: boolean
  readonly milestone: Milestone | null
  readonly counts: MrCounts
}

/** `!iid` references: short, relative to where the list was asked, and full. */
function references(mr: MergeRequestRow, c: MergeRequestContext): { short: string; relative: string; full: string } {
  const short = `!${mr.iid}`
  const full = `${c.projectPath}${short}`
  let relative = full
  if (c.relativeTo?.kind === 'project' && c.relativeTo.path === c.projectPath) relative = short
  else if (c.relativeTo?.kind === 'group' && c.projectPath.startsWith(`${c.relativeTo.path}/`))
    relative = `${c.projectPath.slice(c.relativeTo.path.length + 1)}${short}`
  return { short, relative, full }
}

/** The fields every form of a merge request starts with: the simple form without its URL. */
type MergeRequestIdentity = Omit<MergeRequestSimple, 'web_url'>

/** What names a merge request and says where it stands: the approvals form starts with these. */
function mergeRequestIdentity(mr: MergeRequestRow): MergeRequestIdentity {
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.project_id,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    created_at: mr.created_at,
    updated_at: mr.updated_at,
  }
}

/** The `view=simple` form: identity, title, description, state and URL only. */
export function mergeRequestSimple(
  mr: MergeRequestRow,
  c: Pick<MergeRequestContext, 'baseUrl' | 'projectPath'>,
): MergeRequestSimple {
  // Written out, not spread from mergeRequestIdentity (see mergeRequestEntity): a page of these is a list too.
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.project_id,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    created_at: mr.created_at,
    updated_at: mr.updated_at,
    web_url: `${c.baseUrl}/${c.projectPath}/-/merge_requests/${mr.iid}`,
  }
}

/** GitLab's MergeRequestBasic entity. */
export function mergeRequestEntity(mr: MergeRequestRow, c: MergeRequestContext): MergeRequest {
  const user = (id: number | null): UserRef | null => (id === null ? null : userRefOrNull(c.users.get(id), c.baseUrl))
  const refs = references(mr, c)
  const draft = isDraftTitle(mr.title)
  const assignees = c.assignees.map((u) => userRef(u, c.baseUrl))
  // Written out, not spread from mergeRequestIdentity: a spread at the head of a literal gives nearly every object V8
  // builds from it a hidden class of its own (the objects stay fast, but reading them goes megamorphic), which cost
  // the list ~30% (bench sync fetch_only_ms).
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.project_id,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    created_at: mr.created_at,
    updated_at: mr.updated_at,
    merged_by: user(mr.merged_by_id),
    merge_user: user(mr.merged_by_id),
    merged_at: mr.merged_at,
    closed_by: user(mr.closed_by_id),
    closed_at: mr.closed_at,
    target_branch: mr.target_branch,
    source_branch: mr.source_branch,
    user_notes_count: c.counts.user_notes_count,
    upvotes: c.counts.upvotes,
    downvotes: c.counts.downvotes,
    author: user(mr.author_id),
    assignees,
    assignee: assignees[0] ?? null,
    reviewers: c.reviewers.map((u) => userRef(u, c.baseUrl)),
    source_project_id: mr.source_project_id,
    target_project_id: mr.project_id,
    labels: c.withLabelDetails ? c.labels.map(labelBasicEntity) : c.labels.map((l) => l.title),
    draft,
    work_in_progress: isWorkInProgressTitle(mr.title),
    milestone: c.milestone,
    merge_when_pipeline_succeeds: mr.merge_when_pipeline_succeeds === 1,
    merge_status: mr.merge_status,
    detailed_merge_status: detailedMergeStatus(mr, draft),
    sha: mr.head_sha,
    merge_commit_sha: mr.merge_commit_sha,
    squash_commit_sha: mr.squash_commit_sha,
    discussion_locked: mr.discussion_locked === null ? null : mr.discussion_locked === 1,
    should_remove_source_branch: mr.should_remove_source_branch === null ? null : mr.should_remove_source_branch === 1,
    force_remove_source_branch: mr.force_remove_source_branch === 1,
    prepared_at: mr.created_at,
    allow_collaboration: mr.allow_collaboration === 1,
    allow_maintainer_to_push: mr.allow_collaboration === 1,
    reference: refs.short,
    references: refs,
    web_url: `${c.baseUrl}/${c.projectPath}/-/merge_requests/${mr.iid}`,
    time_stats: timeStatsOf(mr.time_estimate, c.counts.total_time_spent),
    squash: mr.squash === 1,
    squash_on_merge: mr.squash === 1,
    task_completion_status: taskCompletion(mr.description),
    has_conflicts: mr.merge_status === 'cannot_be_merged',
    blocking_discussions_resolved: true,
    approvals_before_merge: mr.approvals_before_merge,
    merge_error: mr.merge_error,
  }
}

/** GitLab 15.6+'s detailed_merge_status, derived from what Burrow tracks. */
function detailedMergeStatus(mr: MergeRequestRow, draft: boolean): string {
  if (mr.state !== 'opened') return 'not_open'
  if (mr.merge_status === 'unchecked' || mr.merge_status === 'checking') return mr.merge_status
  if (draft) return 'draft_status'
  if (mr.merge_status === 'cannot_be_merged' || mr.merge_status === 'cannot_be_merged_recheck') return 'broken_status'
  return 'mergeable'
}

/** Extra fields of the single merge request form (GitLab's MergeRequest entity). */
export interface MergeRequestDetail {
  readonly subscribed: boolean
  readonly changesCount: number
  readonly canMerge: boolean
  readonly divergedCommitsCount?: number
  readonly includeRebaseInProgress: boolean
  readonly overflow: boolean
}

/** The fields the single form adds to the basic entity, apart from its pipelines. */
export type MergeRequestDetailFields = Omit<
  MergeRequestDetailEntity,
  keyof MergeRequest | keyof MergeRequestPipelineFields
>

/** The single form's pipeline fields: the latest pipeline, the head pipeline and its latest build's times. */
export type MergeRequestPipelineFields = Pick<
  MergeRequestDetailEntity,
  'pipeline' | 'head_pipeline' | 'latest_build_started_at' | 'latest_build_finished_at'
>

/** Fields the single-record form adds to the basic entity: subscription, diff refs, counters. */
export function mergeRequestDetailFields(mr: MergeRequestRow, d: MergeRequestDetail): MergeRequestDetailFields {
  return {
    subscribed: d.subscribed,
    changes_count: String(d.changesCount),
    first_deployed_to_production_at: mr.first_deployed_to_production_at,
    diff_refs: mr.head_sha ? { base_sha: mr.base_sha, head_sha: mr.head_sha, start_sha: mr.start_sha } : null,
    overflow: d.overflow,
    user: { can_merge: d.canMerge },
    first_contribution: false,
    ...(d.divergedCommitsCount !== undefined ? { diverged_commits_count: d.divergedCommitsCount } : {}),
    ...(d.includeRebaseInProgress ? { rebase_in_progress: mr.rebase_in_progress === 1 } : {}),
  }
}

/** GitLab's MergeRequestReviewer entity: the reviewer, their review state and when they were asked. */
export function reviewerEntity(reviewer: ReviewerRow, baseUrl: string): MergeRequestReviewer {
  return { user: userRef(reviewer.user, baseUrl), state: reviewer.state, created_at: reviewer.requestedAt }
}

/** The caller's side of a merge request's approvals. */
export interface ApprovalsViewer {
  readonly hasApproved: boolean
  /** The caller may approve and has not yet. */
  readonly canApprove: boolean
}

/** GitLab's Approvals entity, without approval rules (FREE): who approved and how many are left. */
export function approvalsEntity(
  mr: MergeRequestRow,
  approvers: readonly UserRow[],
  viewer: ApprovalsViewer,
  baseUrl: string,
): MergeRequestApprovals {
  const required = mr.approvals_before_merge ?? 0
  return {
    ...mergeRequestIdentity(mr),
    merge_status: mr.merge_status,
    approved: approvers.length >= required,
    approvals_required: required,
    approvals_left: Math.max(0, required - approvers.length),
    require_password_to_approve: false,
    approved_by: approvers.map((u) => ({ user: userRef(u, baseUrl) })),
    suggested_approvers: [],
    approvers: [],
    approver_groups: [],
    user_has_approved: viewer.hasApproved,
    user_can_approve: viewer.canApprove,
    approval_rules_left: [],
    has_approval_rules: false,
    merge_request_approvers_available: false,
    multiple_approval_rules_available: false,
    invalid_approvers_rules: [],
  }
}
