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
import type { ApiJson, CachedItem } from '../../shared/ipc/cache'

/**
 * The API objects the triage views read, with the fields they use. The cache hands back the
 * server's JSON as it came (GitLab's shape, snake_case); these types say which fields a view
 * relies on, and `as…` functions are the one place that JSON is taken at its word. Where they
 * are written as picks of the wire model (src/shared/api), a field's type is the API's.
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
  readonly author: UserRef
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
    readonly sha: string
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
    Partial<Pick<ApiNote, 'resolvable' | 'resolved'>>
> & { readonly author: UserRef }

export type Todo = Readonly<
  Pick<ApiTodo, 'id' | 'action_name' | 'target_type' | 'target_url' | 'body' | 'state' | 'created_at'>
> & {
  readonly target: {
    readonly id: number
    readonly iid: number
    readonly title: string
    readonly state: string
    readonly project_id?: number
  } | null
  readonly author: UserRef
  readonly project: Readonly<Pick<ProjectIdentity, 'id' | 'name_with_namespace' | 'path_with_namespace'>> | null
}

export type Label = Readonly<
  Pick<ApiLabel, 'id' | 'name' | 'color' | 'description'> & Partial<Pick<ApiLabel, 'text_color'>>
>

export interface Project {
  readonly id: number
  readonly name: string
  readonly path_with_namespace: string
  readonly name_with_namespace: string
  readonly burrow_synced?: boolean
}

/**
 * Label names from an item's `labels`, which hold titles, or label objects when the list was
 * asked `with_labels_details=true` — as sync asks, so cached items carry objects.
 */
export function labelNames(labels: unknown): string[] {
  if (!Array.isArray(labels)) return []
  return labels.flatMap((l: unknown) =>
    typeof l === 'string'
      ? [l]
      : l !== null && typeof l === 'object' && typeof (l as { name?: unknown }).name === 'string'
        ? [(l as { name: string }).name]
        : [],
  )
}

/** The item with `labels` as names, the one shape the views use (label colours come from the account's labels). */
function withLabelNames(data: ApiJson): ApiJson {
  return Array.isArray(data.labels) && data.labels.some((l) => typeof l !== 'string')
    ? { ...data, labels: labelNames(data.labels) }
    : data
}

/** The cache returns the server's JSON unchanged: these read it as the API documents it, labels as names. */
export const asIssue = (data: ApiJson): Issue => withLabelNames(data) as unknown as Issue
export const asMergeRequest = (data: ApiJson): MergeRequest => withLabelNames(data) as unknown as MergeRequest
export const asEpic = (data: ApiJson): Epic => withLabelNames(data) as unknown as Epic
export const asMilestone = (data: ApiJson): Milestone => data as unknown as Milestone
export const asNote = (data: ApiJson): Note => data as unknown as Note
export const asTodo = (data: ApiJson): Todo => data as unknown as Todo
export const asLabel = (data: ApiJson): Label => data as unknown as Label
export const asProject = (data: ApiJson): Project => data as unknown as Project

/** A cached row with its account, for lists that mix accounts. */
export interface AccountItem<T> {
  readonly accountId: string
  readonly item: T
  readonly pending: boolean
  /** Issues: an open issue blocks this one (by the links saved on this computer). */
  readonly blocked?: boolean
}

export function withAccount<T>(accountId: string, cached: CachedItem, read: (data: ApiJson) => T): AccountItem<T> {
  const row = { accountId, item: read(cached.data), pending: cached.pending }
  return cached.blocked === true ? { ...row, blocked: true } : row
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
    Partial<Pick<ApiCommit, 'message' | 'authored_date' | 'web_url'>>
>
