import type { ApiJson, CachedItem } from '../../shared/ipc/cache'

/**
 * The API objects the triage views read, with the fields they use. The cache hands back the
 * server's JSON as it came (GitLab's shape, snake_case); these types say which fields a view
 * relies on, and `as…` functions are the one place that JSON is taken at its word.
 */

export interface UserRef {
  readonly id: number
  readonly username: string
  readonly name: string
  readonly avatar_url: string | null
}

export interface MilestoneRef {
  readonly id: number
  readonly iid: number
  readonly title: string
  readonly state: string
  readonly due_date: string | null
  readonly start_date: string | null
  readonly project_id?: number
  readonly group_id?: number
}

export interface TimeStats {
  readonly time_estimate: number
  readonly total_time_spent: number
  readonly human_time_estimate: string | null
  readonly human_total_time_spent: string | null
}

interface Issuable {
  readonly id: number
  readonly iid: number
  readonly project_id: number
  readonly title: string
  readonly description: string | null
  readonly state: string
  readonly created_at: string
  readonly updated_at: string
  readonly closed_at: string | null
  readonly author: UserRef
  readonly assignees: readonly UserRef[]
  readonly labels: readonly string[]
  readonly milestone: MilestoneRef | null
  readonly user_notes_count: number
  readonly web_url: string
  readonly references?: { readonly short: string; readonly relative: string; readonly full: string }
  readonly time_stats?: TimeStats
  readonly subscribed?: boolean
  readonly discussion_locked?: boolean | null
  /** 👍 and 👎 awards (GitLab counts only these two here). */
  readonly upvotes?: number
  readonly downvotes?: number
  /** Markdown task-list items of the description. */
  readonly task_completion_status?: { readonly count: number; readonly completed_count: number }
}

export interface Issue extends Issuable {
  readonly confidential: boolean
  readonly due_date: string | null
  readonly issue_type?: string
  readonly weight?: number | null
  readonly epic?: {
    readonly id: number
    readonly iid: number
    readonly title: string
    readonly group_id: number
  } | null
  /** Set once the issue was moved: the new issue's id (this one is closed). */
  readonly moved_to_id?: number | null
  readonly merge_requests_count?: number
}

export interface MergeRequest extends Issuable {
  readonly source_branch: string
  readonly target_branch: string
  readonly draft: boolean
  readonly merge_status: string
  readonly detailed_merge_status?: string
  readonly has_conflicts: boolean
  readonly sha: string
  readonly merged_at: string | null
  readonly reviewers?: readonly UserRef[]
  readonly pipeline?: {
    readonly id: number
    readonly status: string
    readonly web_url: string
    readonly ref: string
    readonly sha: string
  } | null
  readonly head_pipeline?: { readonly id: number; readonly status: string; readonly web_url: string } | null
  readonly merge_error?: string | null
  readonly changes_count?: string | null
  readonly rebase_in_progress?: boolean
  readonly diverged_commits_count?: number
}

export interface Epic {
  readonly id: number
  readonly iid: number
  readonly group_id: number
  readonly parent_id: number | null
  readonly title: string
  readonly description: string | null
  readonly state: string
  readonly confidential: boolean
  readonly web_url: string
  readonly references?: { readonly short: string; readonly full: string }
  readonly author: UserRef | null
  readonly start_date: string | null
  readonly due_date: string | null
  readonly created_at: string
  readonly updated_at: string
  readonly labels: readonly string[]
}

export interface Milestone extends MilestoneRef {
  readonly description: string | null
  readonly web_url: string
  readonly expired?: boolean
  readonly created_at: string
  readonly updated_at: string
}

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

export interface Note {
  readonly id: number
  readonly body: string
  readonly author: UserRef
  readonly created_at: string
  readonly updated_at: string
  readonly system: boolean
  readonly resolvable?: boolean
  readonly resolved?: boolean
}

export interface Todo {
  readonly id: number
  readonly action_name: string
  readonly target_type: string
  readonly target: {
    readonly id: number
    readonly iid: number
    readonly title: string
    readonly state: string
    readonly project_id?: number
  } | null
  readonly target_url: string
  readonly body: string
  readonly state: string
  readonly created_at: string
  readonly author: UserRef
  readonly project: {
    readonly id: number
    readonly name_with_namespace: string
    readonly path_with_namespace: string
  } | null
}

export interface Label {
  readonly id: number
  readonly name: string
  readonly color: string
  readonly text_color?: string | null
  readonly description: string | null
}

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
}

export function withAccount<T>(accountId: string, cached: CachedItem, read: (data: ApiJson) => T): AccountItem<T> {
  return { accountId, item: read(cached.data), pending: cached.pending }
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
export interface AwardEmoji {
  readonly id: number
  readonly name: string
  readonly user: UserRef
}

/** A commit as merge request commit lists give it. */
export interface Commit {
  readonly id: string
  readonly short_id: string
  readonly title: string
  readonly message?: string
  readonly author_name: string
  readonly authored_date?: string
  readonly created_at: string
  readonly web_url?: string
}
