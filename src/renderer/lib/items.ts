import type { AwardEmoji as ApiAwardEmoji } from '../../shared/api/award-emoji'
import type { TimeStats as ApiTimeStats } from '../../shared/api/common'
import type { Epic as ApiEpic } from '../../shared/api/epic'
import type { Issue as ApiIssue, IssueEpic } from '../../shared/api/issue'
import type { Label as ApiLabel } from '../../shared/api/label'
import type { MergeRequest as ApiMergeRequest, MergeRequestDetail } from '../../shared/api/merge-request'
import type { Note as ApiNote } from '../../shared/api/note'
import type { ProjectIdentity } from '../../shared/api/project'
import type { Commit as ApiCommit } from '../../shared/api/repository'
import type { Milestone as ApiMilestone } from '../../shared/api/milestone'
import type { Todo as ApiTodo } from '../../shared/api/todo'
import type { UserSummary } from '../../shared/api/user'
import type { CachedItem, CachedKind, CachedWire, SyncedProject } from '../../shared/ipc/cache'
import { labelNames } from '../../shared/labels'

/**
 * The API objects the triage views read, with the fields they use. The cache hands back the
 * server's JSON as it came (GitLab's shape, snake_case), typed by the wire model
 * (src/shared/ipc/cache.ts `CachedWire`); these types are picks of it, so a field's type is the
 * API's, and the `as…` functions read a cached object as its view type (labels as names).
 */

/** An author, assignee or reviewer as the views show them. */
export type UserRef = UserSummary

export type MilestoneRef = Readonly<
  Pick<ApiMilestone, 'id' | 'iid' | 'title' | 'state' | 'due_date' | 'start_date' | 'project_id' | 'group_id'>
>

export type TimeStats = Readonly<ApiTimeStats>

/**
 * The fields issues and merge requests share, typed as the wire model's; the state, people,
 * labels (names) and milestone as the views read them. `upvotes`/`downvotes` count 👍 and 👎.
 */
type Issuable = Readonly<
  Pick<
    ApiIssue,
    | 'id'
    | 'iid'
    | 'project_id'
    | 'title'
    | 'description'
    | 'created_at'
    | 'updated_at'
    | 'closed_at'
    | 'user_notes_count'
    | 'web_url'
  > &
    Partial<
      Pick<
        ApiIssue,
        | 'references'
        | 'time_stats'
        | 'subscribed'
        | 'discussion_locked'
        | 'task_completion_status'
        | 'upvotes'
        | 'downvotes'
      >
    >
> & {
  readonly state: string
  /** Null once the author's account is gone. */
  readonly author: UserRef | null
  readonly assignees: readonly UserRef[]
  readonly labels: readonly string[]
  readonly milestone: MilestoneRef | null
}

export type Issue = Issuable &
  Readonly<
    Pick<ApiIssue, 'confidential' | 'due_date'> &
      // moved_to_id: set once the issue was moved, the new issue's id (this one is closed).
      Partial<Pick<ApiIssue, 'issue_type' | 'weight' | 'moved_to_id' | 'merge_requests_count'>>
  > & {
    readonly epic?: Readonly<Pick<IssueEpic, 'id' | 'iid' | 'title' | 'group_id'>> | null
  }

export type MergeRequest = Issuable &
  Readonly<
    Pick<ApiMergeRequest, 'source_branch' | 'target_branch' | 'draft' | 'has_conflicts' | 'merged_at'> &
      Partial<
        Pick<
          MergeRequestDetail,
          'detailed_merge_status' | 'merge_error' | 'rebase_in_progress' | 'diverged_commits_count' | 'diff_refs'
        >
      >
  > & {
    readonly merge_status: string
    /** The source branch's head; null when its commits are gone. */
    readonly sha: string | null
    readonly reviewers?: readonly UserRef[]
    readonly pipeline?: {
      readonly id: number
      readonly status: string
      readonly web_url: string
      readonly ref: string
      readonly sha: string
    } | null
    readonly head_pipeline?: { readonly id: number; readonly status: string; readonly web_url: string } | null
    readonly changes_count?: string | null
  }

export type Epic = Readonly<
  Pick<
    ApiEpic,
    | 'id'
    | 'iid'
    | 'group_id'
    | 'parent_id'
    | 'title'
    | 'description'
    | 'confidential'
    | 'web_url'
    | 'start_date'
    | 'due_date'
    | 'created_at'
    | 'updated_at'
  >
> & {
  readonly state: string
  readonly references?: { readonly short: string; readonly full: string }
  readonly author: UserRef | null
  readonly labels: readonly string[]
}

export type Milestone = MilestoneRef &
  Readonly<Pick<ApiMilestone, 'description' | 'web_url' | 'created_at' | 'updated_at'>> & { readonly expired?: boolean }

/**
 * Whether a milestone may be set on an item of a project: the project's own, and those of its
 * group and the groups above it (a group milestone's group read from its `web_url`), as GitLab
 * offers. `namespace` is the project's namespace path (`group/subgroup`).
 */
export function milestoneFitsProject(m: Milestone, projectId: number, namespace: string | null): boolean {
  if (m.project_id !== undefined) return m.project_id === projectId
  const groupPath = /\/groups\/(.+)\/-\/milestones\//.exec(m.web_url)?.[1]
  return (
    groupPath === undefined ||
    (namespace !== null && (namespace === groupPath || namespace.startsWith(`${groupPath}/`)))
  )
}

export type Note = Readonly<
  Pick<ApiNote, 'id' | 'body' | 'created_at' | 'updated_at' | 'system'> &
    Partial<Pick<ApiNote, 'resolvable' | 'resolved' | 'suggestions'>>
> & { readonly author: UserRef }

export type Todo = Readonly<
  Pick<ApiTodo, 'id' | 'action_name' | 'target_type' | 'target_url' | 'body' | 'state' | 'created_at'>
> & {
  /** `state` of an issue, merge request or epic; an alert has none. */
  readonly target: {
    readonly id: number
    readonly iid: number
    readonly title: string
    readonly state?: string
    readonly project_id?: number
  } | null
  readonly author: UserRef
  readonly project: Readonly<Pick<ProjectIdentity, 'id' | 'name_with_namespace' | 'path_with_namespace'>> | null
}

export type Label = Readonly<
  Pick<ApiLabel, 'id' | 'name' | 'color' | 'description'> & Partial<Pick<ApiLabel, 'text_color'>>
>

/** A project of the account; `burrow_synced` when its items are synced to this computer. */
export type Project = Readonly<Pick<ProjectIdentity, 'id' | 'name' | 'path_with_namespace' | 'name_with_namespace'>> & {
  readonly burrow_synced?: boolean
}

/** Labels of an item as the wire model gives them: names, or label objects. */
type WithLabels = { readonly labels: CachedWire['issue']['labels'] }

/**
 * Whether the item's `labels` are names already (then the item is read as it is, not copied).
 * Checked as an array too: an item written offline may lack them.
 */
function hasLabelNames<T extends WithLabels>(data: T): data is T & { readonly labels: string[] } {
  return Array.isArray(data.labels) && data.labels.every((l) => typeof l === 'string')
}

/** The item with `labels` as names, the one shape the views use (label colours come from the account's labels). */
function withLabelNames<T extends WithLabels>(data: T): Omit<T, 'labels'> & { readonly labels: string[] } {
  return hasLabelNames(data) ? data : { ...data, labels: labelNames(data.labels) }
}

/** The cache returns the server's JSON typed by kind: these read it as the views do, labels as names. */
export const asIssue = (data: CachedWire['issue']): Issue => withLabelNames(data)
export const asMergeRequest = (data: CachedWire['merge_request']): MergeRequest => withLabelNames(data)
export const asEpic = (data: CachedWire['epic']): Epic => withLabelNames(data)
export const asMilestone = (data: CachedWire['milestone']): Milestone => data
export const asNote = (data: CachedWire['note']): Note => data
export const asTodo = (data: CachedWire['todo']): Todo => data
export const asLabel = (data: CachedWire['label']): Label => data
export const asProject = (data: SyncedProject): Project => data

/** A cached row with its account, for lists that mix accounts. */
export interface AccountItem<T> {
  readonly accountId: string
  readonly item: T
  readonly pending: boolean
  /** Issues: an open issue blocks this one (by the links saved on this computer). */
  readonly blocked?: boolean
}

export function withAccount<K extends CachedKind, T>(
  accountId: string,
  cached: CachedItem<K>,
  read: (data: CachedWire[K]) => T,
): AccountItem<T> {
  const row = { accountId, item: read(cached.data), pending: cached.pending }
  return cached.blocked === true ? { ...row, blocked: true } : row
}

/** The tag types a state is shown with (naive-ui's NTag `type`). */
export type StateTagType = 'success' | 'info' | 'default' | 'warning'

const STATE_TAGS: Readonly<Record<string, readonly [StateTagType, string]>> = {
  opened: ['success', 'Open'],
  // A milestone's open state.
  active: ['success', 'Open'],
  merged: ['info', 'Merged'],
  closed: ['default', 'Closed'],
  locked: ['warning', 'Locked'],
}

/**
 * How an issue's, merge request's, epic's or milestone's state reads on screen (`opened` is
 * "Open", as GitLab labels it) and the tag type it is shown with; an unknown state reads as it is.
 */
export function stateTag(state: string): readonly [StateTagType, string] {
  return STATE_TAGS[state] ?? ['default', state]
}

/** `#12` / `!3`, the way GitLab writes a reference inside its own project. */
export function shortReference(
  kind: 'issue' | 'merge_request',
  item: { readonly iid: number; readonly references?: { readonly short: string } },
): string {
  return item.references?.short ?? `${kind === 'issue' ? '#' : '!'}${item.iid}`
}

/** Seconds as GitLab shows durations (8-hour days, 5-day weeks): `1d 2h 30m`. */
export function formatDuration(seconds: number): string {
  if (seconds === 0) return '0m'
  const sign = seconds < 0 ? '-' : ''
  let rest = Math.abs(seconds)
  const parts: string[] = []
  for (const [unit, size] of [
    ['mo', 4 * 5 * 8 * 3600],
    ['w', 5 * 8 * 3600],
    ['d', 8 * 3600],
    ['h', 3600],
    ['m', 60],
  ] as const) {
    const n = Math.floor(rest / size)
    if (n > 0) parts.push(`${n}${unit}`)
    rest -= n * size
  }
  return sign + (parts.join(' ') || `${Math.abs(seconds)}s`)
}

/** An award emoji (`GET …/award_emoji`). */
export type AwardEmoji = Readonly<Pick<ApiAwardEmoji, 'id' | 'name'>> & { readonly user: UserRef }

/** A commit as merge request commit lists give it. */
export type Commit = Readonly<
  Pick<ApiCommit, 'id' | 'short_id' | 'title' | 'author_name' | 'created_at'> &
    Partial<Pick<ApiCommit, 'message' | 'authored_date' | 'web_url' | 'parent_ids'>>
>
