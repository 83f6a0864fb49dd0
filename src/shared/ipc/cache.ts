import type { Epic } from '../api/epic'
import type { Issue } from '../api/issue'
import type { Label } from '../api/label'
import type { MergeRequest, MergeRequestDetail } from '../api/merge-request'
import type { Milestone } from '../api/milestone'
import type { Note } from '../api/note'
import type { Project } from '../api/project'
import type { Todo } from '../api/todo'
import type { UserRef } from '../api/user'
import { checkApiQuery, type ApiQueryValue } from './api'
import { checkApiPath } from './api-path'
import { isRecord } from '../json'
import { isAccountId } from './account-id'

/**
 * Types of the cache and sync channels (`issues:list`, `sync:start`, `search:query`…) of the IPC
 * contract (contract.ts), with their argument validators. Filters use the REST API's own
 * parameter names, so a view can hand the same object to the API and to the offline cache.
 */

/**
 * What each kind of cached object is on the wire (src/shared/api): the server's JSON as sync or a
 * refresh stored it (snake_case fields, GitLab's shape), with the outbox's optimistic changes
 * applied. An item written offline (a provisional issue, merge request, comment or to-do, its id
 * negative) carries the fields the views read until the server's answer replaces it.
 */
export interface CachedWire {
  readonly issue: Issue
  /** Lists give the basic form; a merge request read on its own adds the single form's fields. */
  readonly merge_request: MergeRequest & Partial<MergeRequestDetail>
  readonly epic: Epic
  readonly milestone: Milestone
  readonly note: Note
  readonly todo: Todo
  readonly label: Label
  readonly project: Project
  readonly user: UserRef
}

/** The kinds of cached objects the cache channels answer with. */
export type CachedKind = keyof CachedWire

/** `None`: has no such value; `Any`: has one. */
export type Wildcard = 'None' | 'Any'

/** A cached row: the API JSON (with the outbox's optimistic changes applied) and whether any is pending. */
export interface CachedItem<K extends CachedKind> {
  readonly data: CachedWire[K]
  /** An optimistic change not yet confirmed by the server is applied to `data`. */
  readonly pending: boolean
  /** Issues lists only: an open issue blocks this one (from the links saved on this computer). */
  readonly blocked?: boolean
}

/** A page of cached items of one kind. */
export interface CachedList<K extends CachedKind> {
  readonly items: readonly CachedItem<K>[]
  /** How many rows match the filter in all (for a virtual scroller's height). */
  readonly total: number
  readonly offset: number
  readonly limit: number
}

interface ListPaging {
  /** Rows to skip (virtual scrolling); default 0. */
  readonly offset?: number
  /** Page size, 1–500; default 100. */
  readonly limit?: number
}

interface DateFilters {
  readonly created_after?: string
  readonly created_before?: string
  readonly updated_after?: string
  readonly updated_before?: string
}

/** `GET /projects/:id/issues` (or `/groups/:id/issues`, or `/issues?scope=all`) parameters, answered from the cache. */
export interface IssueListParams extends ListPaging, DateFilters {
  readonly project_id?: number
  /** Issues of the group's projects and its subgroups' projects. */
  readonly group_id?: number
  readonly state?: 'opened' | 'closed' | 'all'
  /** Titles, all required (comma list or array), or `None` / `Any`. */
  readonly labels?: string | readonly string[]
  /** A title, `None` or `Any`. */
  readonly milestone?: string
  readonly assignee_id?: number | Wildcard
  readonly assignee_username?: string
  readonly author_id?: number
  readonly author_username?: string
  /** Relative to the account's user; default `all`. */
  readonly scope?: 'created_by_me' | 'assigned_to_me' | 'all'
  readonly confidential?: boolean
  readonly iids?: readonly number[]
  /** Substring of the title or description (case-insensitive), as the API's `search`. */
  readonly search?: string
  /** `title`, `description` or `title,description` (default). */
  readonly in?: string
  readonly issue_type?: 'issue' | 'incident' | 'test_case'
  readonly weight?: number | Wildcard
  /** The epic's id (not iid), `None` or `Any`, as GitLab's `epic_id`; read from the optimistic state, so a queued move shows at once. */
  readonly epic_id?: number | Wildcard
  readonly not?: {
    readonly labels?: string | readonly string[]
    readonly milestone?: string
    readonly assignee_id?: number
    readonly author_id?: number
    readonly iids?: readonly number[]
  }
  readonly order_by?: 'created_at' | 'updated_at' | 'due_date' | 'title' | 'milestone_due' | 'popularity' | 'weight'
  readonly sort?: 'asc' | 'desc'
}

/** `GET /projects/:id/merge_requests` parameters, answered from the cache. */
export interface MergeRequestListParams extends ListPaging, DateFilters {
  readonly project_id?: number
  readonly group_id?: number
  readonly state?: 'opened' | 'closed' | 'locked' | 'merged' | 'all'
  readonly labels?: string | readonly string[]
  readonly milestone?: string
  readonly assignee_id?: number | Wildcard
  readonly assignee_username?: string
  readonly author_id?: number
  readonly author_username?: string
  readonly reviewer_id?: number | Wildcard
  readonly reviewer_username?: string
  readonly scope?: 'created_by_me' | 'assigned_to_me' | 'all'
  readonly iids?: readonly number[]
  readonly search?: string
  readonly in?: string
  readonly source_branch?: string
  readonly target_branch?: string
  /** `yes`: drafts only; `no`: no drafts. */
  readonly wip?: 'yes' | 'no'
  readonly not?: {
    readonly labels?: string | readonly string[]
    readonly milestone?: string
    readonly assignee_id?: number
    readonly author_id?: number
    readonly reviewer_id?: number
  }
  readonly order_by?: 'created_at' | 'updated_at' | 'title' | 'merged_at'
  readonly sort?: 'asc' | 'desc'
}

/** `GET /groups/:id/epics` parameters, answered from the cache. */
export interface EpicListParams extends ListPaging, DateFilters {
  readonly group_id?: number
  /** With `group_id`: epics of its subgroups too (the API's default is true). */
  readonly include_descendant_groups?: boolean
  readonly state?: 'opened' | 'closed' | 'all'
  readonly labels?: string | readonly string[]
  readonly author_id?: number
  readonly author_username?: string
  readonly confidential?: boolean
  readonly search?: string
  readonly not?: { readonly labels?: string | readonly string[]; readonly author_id?: number }
  readonly order_by?: 'created_at' | 'updated_at' | 'title'
  readonly sort?: 'asc' | 'desc'
}

export interface MilestoneListParams {
  readonly project_id?: number
  readonly group_id?: number
  readonly state?: 'active' | 'closed'
  readonly search?: string
  readonly title?: string
}

export interface LabelListParams {
  /** Labels usable in the project (its own and its ancestor groups'), or in the group. */
  readonly project_id?: number
  readonly group_id?: number
  readonly search?: string
}

export interface ProjectListParams {
  /** Only the projects being synced. */
  readonly synced?: boolean
  readonly search?: string
}

/** A row of `projects:list`: the project, and whether its items are synced. */
export type SyncedProject = Project & { readonly burrow_synced: boolean }

export interface UserListParams {
  /** Username or name, prefix or substring. */
  readonly search?: string
  readonly limit?: number
}

export interface TodoListParams {
  readonly state?: 'pending' | 'done'
  readonly action?: string
  readonly type?: string
  readonly project_id?: number
}

/** Which issue or merge request: its global id, or its iid in a project. */
export type ProjectItemRef = { readonly id: number } | { readonly project_id: number; readonly iid: number }
/** Which epic: its global id, or its iid in a group. */
export type GroupItemRef = { readonly id: number } | { readonly group_id: number; readonly iid: number }

export interface CachedDiscussion {
  readonly id: string
  readonly individual_note: boolean
  readonly notes: readonly CachedItem<'note'>[]
}

/** An issue, merge request or epic with its discussions. */
export interface CachedDetail<K extends CachedKind> {
  readonly item: CachedItem<K>
  /** Oldest first; comments the outbox holds come last, pending. */
  readonly discussions: readonly CachedDiscussion[]
  /** True when the item could not be refreshed from the server just now (offline, or not asked to). */
  readonly stale: boolean
}

export interface GetOptions {
  /** Fetch the item and its discussions from the server first when online (falls back to the cache). */
  readonly refresh?: boolean
}

/** From the cached issues of a milestone: closed out of all, and the percentage (0 when none). */
export interface MilestoneProgress {
  readonly total: number
  readonly closed: number
  readonly percent: number
}

/** A row of `milestones:list`: the milestone and its progress, counted in the same read (no call per milestone). */
export interface MilestoneListItem extends CachedItem<'milestone'> {
  readonly progress: MilestoneProgress
  /** Cached merge requests in the milestone. */
  readonly merge_requests: number
}

export interface MilestoneDetail {
  readonly item: CachedItem<'milestone'>
  readonly issues: readonly CachedItem<'issue'>[]
  readonly merge_requests: readonly CachedItem<'merge_request'>[]
  readonly progress: MilestoneProgress
}

/** What `search:query` finds. */
export type SearchKind = 'issue' | 'merge_request' | 'epic' | 'milestone'

export interface SearchParams {
  /**
   * Words, every one required, each matching as a prefix of a word; or a reference: `#12`,
   * `!4`, `&2`, `group/project#12`, `%milestone`.
   */
  readonly query: string
  /** Default: all. */
  readonly kinds?: readonly SearchKind[]
  readonly project_id?: number
  readonly group_id?: number
  readonly state?: string
  readonly offset?: number
  readonly limit?: number
}

/** A piece of a search snippet; `match` pieces are what the query matched. */
export interface SnippetPart {
  readonly text: string
  readonly match: boolean
}

export interface SearchHit {
  readonly kind: SearchKind
  readonly id: number
  /** The issue's, merge request's or project milestone's project. */
  readonly project_id: number | null
  /** The epic's or group milestone's group. */
  readonly group_id: number | null
  readonly iid: number
  readonly title: string
  readonly state: string
  readonly web_url: string | null
  /** The project's `path_with_namespace` or the group's `full_path`; null when not cached. */
  readonly path: string | null
  /** GitLab's full reference: `group/project#12`, `group/project!4`, `group&2`, `group/project%"Sprint 3"`. */
  readonly reference: string
  /** Where the best match is; `reference` when the query named the item. */
  readonly matched_in: 'reference' | 'title' | 'description' | 'note'
  readonly snippet: readonly SnippetPart[]
  /** Lower is better, comparable across accounts: references asked for, then all words in the title, then the rest. */
  readonly score: number
}

export interface SearchResult {
  readonly hits: readonly SearchHit[]
  /** Matching items in all (notes rolled up into their item); an estimate when `exact` is false. */
  readonly total: number
  /** False when the query matched so much (over 2,000 documents) that only the newest 2,000 were ranked. */
  readonly exact: boolean
}

/** `api:get`: a GET of the REST API v4 (path relative to /api/v4), served from the URL cache when offline. */
export interface CachedGetResult {
  readonly body: unknown
  readonly status: number
  /** True when served from the cache because the server could not be reached. */
  readonly stale: boolean
  /** When the body was fetched from the server (ISO 8601). */
  readonly fetchedAt: string
  /** Pagination headers, when the server sent them. */
  readonly page: {
    readonly total: number | null
    readonly totalPages: number | null
    readonly nextPage: number | null
    readonly page: number | null
    readonly perPage: number | null
  } | null
}

/** What an account syncs: its memberships (default), or projects and groups chosen by the user. */
export type SyncScope =
  | { readonly mode: 'memberships' }
  | { readonly mode: 'custom'; readonly project_ids: readonly number[]; readonly group_ids: readonly number[] }

export interface SyncStartOptions {
  /** Also reconcile: compare id sets with the server and drop what it deleted (also done periodically). */
  readonly reconcile?: boolean
}

export type SyncPhase =
  | 'scope'
  | 'issues'
  | 'merge_requests'
  | 'epics'
  | 'milestones'
  | 'labels'
  | 'todos'
  | 'notes'
  /** Saving open merge requests' changes for offline reading. */
  | 'changes'
  /** Saving the links of issues that changed, for offline reading. */
  | 'links'
  | 'reconcile'

export interface SyncProgress {
  readonly accountId: string
  readonly phase: SyncPhase
  /** The project or group being synced, when the phase has one. */
  readonly scope: { readonly kind: 'project' | 'group'; readonly id: number; readonly name: string } | null
  /** Scopes done out of all in this run (projects then groups). */
  readonly scopesDone: number
  readonly scopesTotal: number
  /** Items written in this run so far. */
  readonly itemsSynced: number
  readonly requests: number
}

export type SyncOutcome = 'completed' | 'cancelled' | 'offline' | 'failed'

export interface SyncFinished {
  readonly accountId: string
  readonly outcome: SyncOutcome
  readonly reconciled: boolean
  readonly itemsSynced: number
  readonly itemsRemoved: number
  readonly requests: number
  readonly durationMs: number
  readonly error: { readonly code: string; readonly message: string } | null
}

export interface SyncStatus {
  readonly accountId: string
  readonly state: 'idle' | 'running' | 'offline'
  readonly scope: SyncScope
  readonly progress: SyncProgress | null
  readonly lastStartedAt: string | null
  readonly lastCompletedAt: string | null
  readonly lastReconciledAt: string | null
  readonly lastError: string | null
}

export interface CacheChangeEvent {
  readonly accountId: string
  /** What changed: `issue`, `merge_request`, `epic`, `milestone`, `label`, `todo`, `note`, `discussion`, `project`, `group`, `user`. */
  readonly kinds: readonly string[]
  readonly projectIds: readonly number[]
  readonly groupIds: readonly number[]
  /** The change is an optimistic outbox change (or its undoing), not server data. */
  readonly optimistic: boolean
}

// ---- argument validation ---------------------------------------------------------------------

/** A message describing the first problem, or null. */
type Check = (value: unknown) => string | null

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v)
const isStr = (v: unknown, max = 1000): v is string => typeof v === 'string' && v.length <= max
const isDate = (v: unknown): boolean => isStr(v, 64) && !Number.isNaN(Date.parse(v))

type FieldCheck = (v: unknown) => boolean
const oneOf =
  (...values: readonly string[]): FieldCheck =>
  (v) =>
    typeof v === 'string' && values.includes(v)
const intOr =
  (...values: readonly string[]): FieldCheck =>
  (v) =>
    isInt(v) || oneOf(...values)(v)
const labelList: FieldCheck = (v) => isStr(v) || (Array.isArray(v) && v.length <= 50 && v.every((x) => isStr(x, 255)))
const intList: FieldCheck = (v) => Array.isArray(v) && v.length <= 500 && v.every(isInt)
const bool: FieldCheck = (v) => typeof v === 'boolean'
const text: FieldCheck = (v) => isStr(v)
const offset: FieldCheck = (v) => isInt(v) && v >= 0
const limit: FieldCheck = (v) => isInt(v) && v >= 1 && v <= 500

function fields(
  shape: Readonly<Record<string, FieldCheck>>,
  nested: Readonly<Record<string, Readonly<Record<string, FieldCheck>>>> = {},
): Check {
  return (value) => {
    if (!isRecord(value)) return 'expected an object'
    for (const [key, v] of Object.entries(value)) {
      if (v === undefined) continue
      if (nested[key] !== undefined) {
        const problem = fields(nested[key])(v)
        if (problem !== null) return `${key}: ${problem}`
        continue
      }
      const check = shape[key]
      if (check === undefined) return `unknown field ${key}`
      if (!check(v)) return `invalid ${key}`
    }
    return null
  }
}

const dates = { created_after: isDate, created_before: isDate, updated_after: isDate, updated_before: isDate }
const paging = { offset, limit }

const issueParams = fields(
  {
    ...dates,
    ...paging,
    project_id: isInt,
    group_id: isInt,
    state: oneOf('opened', 'closed', 'all'),
    labels: labelList,
    milestone: text,
    assignee_id: intOr('None', 'Any'),
    assignee_username: text,
    author_id: isInt,
    author_username: text,
    scope: oneOf('created_by_me', 'assigned_to_me', 'all'),
    confidential: bool,
    iids: intList,
    search: text,
    in: oneOf('title', 'description', 'title,description', 'description,title'),
    issue_type: oneOf('issue', 'incident', 'test_case'),
    weight: intOr('None', 'Any'),
    epic_id: intOr('None', 'Any'),
    order_by: oneOf('created_at', 'updated_at', 'due_date', 'title', 'milestone_due', 'popularity', 'weight'),
    sort: oneOf('asc', 'desc'),
  },
  { not: { labels: labelList, milestone: text, assignee_id: isInt, author_id: isInt, iids: intList } },
)

const mergeRequestParams = fields(
  {
    ...dates,
    ...paging,
    project_id: isInt,
    group_id: isInt,
    state: oneOf('opened', 'closed', 'locked', 'merged', 'all'),
    labels: labelList,
    milestone: text,
    assignee_id: intOr('None', 'Any'),
    assignee_username: text,
    author_id: isInt,
    author_username: text,
    reviewer_id: intOr('None', 'Any'),
    reviewer_username: text,
    scope: oneOf('created_by_me', 'assigned_to_me', 'all'),
    iids: intList,
    search: text,
    in: oneOf('title', 'description', 'title,description', 'description,title'),
    source_branch: text,
    target_branch: text,
    wip: oneOf('yes', 'no'),
    order_by: oneOf('created_at', 'updated_at', 'title', 'merged_at'),
    sort: oneOf('asc', 'desc'),
  },
  { not: { labels: labelList, milestone: text, assignee_id: isInt, author_id: isInt, reviewer_id: isInt } },
)

const epicParams = fields(
  {
    ...dates,
    ...paging,
    group_id: isInt,
    include_descendant_groups: bool,
    state: oneOf('opened', 'closed', 'all'),
    labels: labelList,
    author_id: isInt,
    author_username: text,
    confidential: bool,
    search: text,
    order_by: oneOf('created_at', 'updated_at', 'title'),
    sort: oneOf('asc', 'desc'),
  },
  { not: { labels: labelList, author_id: isInt } },
)

const milestoneParams = fields({
  project_id: isInt,
  group_id: isInt,
  state: oneOf('active', 'closed'),
  search: text,
  title: text,
})
const labelParams = fields({ project_id: isInt, group_id: isInt, search: text })
const projectParams = fields({ synced: bool, search: text })
const userParams = fields({ search: text, limit })
const todoParams = fields({ state: oneOf('pending', 'done'), action: text, type: text, project_id: isInt })
const searchParams = fields({
  query: (v) => isStr(v, 500) && (v as string).trim() !== '',
  kinds: (v) => Array.isArray(v) && v.every(oneOf('issue', 'merge_request', 'epic', 'milestone')),
  project_id: isInt,
  group_id: isInt,
  state: text,
  offset,
  limit,
})
const getOptions = fields({ refresh: bool })
const syncStartOptions = fields({ reconcile: bool })

const projectItemRef: Check = (v) => {
  if (!isRecord(v)) return 'expected {id} or {project_id, iid}'
  const keys = Object.keys(v).sort().join(',')
  if (keys === 'id' && isInt(v.id)) return null
  if (keys === 'iid,project_id' && isInt(v.iid) && isInt(v.project_id)) return null
  return 'expected {id} or {project_id, iid} (integers)'
}

const groupItemRef: Check = (v) => {
  if (!isRecord(v)) return 'expected {id} or {group_id, iid}'
  const keys = Object.keys(v).sort().join(',')
  if (keys === 'id' && isInt(v.id)) return null
  if (keys === 'group_id,iid' && isInt(v.iid) && isInt(v.group_id)) return null
  return 'expected {id} or {group_id, iid} (integers)'
}

const milestoneRef: Check = (v) => (isInt(v) ? null : 'expected a milestone id')

const syncScope: Check = (v) => {
  if (!isRecord(v)) return 'expected {mode}'
  if (v.mode === 'memberships') return Object.keys(v).length === 1 ? null : 'memberships takes no other field'
  if (v.mode !== 'custom') return "mode must be 'memberships' or 'custom'"
  const extra = Object.keys(v).filter((k) => !['mode', 'project_ids', 'group_ids'].includes(k))
  if (extra.length > 0) return `unknown field ${extra[0]}`
  if (!intList(v.project_ids) || !intList(v.group_ids)) return 'project_ids and group_ids must be arrays of integers'
  return null
}

const accountId: Check = (v) => (isAccountId(v) ? null : 'expected an account id (a non-empty string)')

/**
 * An argument-list validator: the account id first, then each check; `optional` trailing
 * checks may be left out.
 */
export function accountArgs(checks: readonly Check[], optional = 0): (args: readonly unknown[]) => string | null {
  return (args) => {
    const min = 1 + checks.length - optional
    const max = 1 + checks.length
    if (args.length < min || args.length > max)
      return `expected ${min === max ? min : `${min} to ${max}`} arguments, got ${args.length}`
    const first = accountId(args[0])
    if (first !== null) return first
    for (let i = 0; i < checks.length && i + 1 < args.length; i++) {
      const problem = checks[i](args[i + 1])
      if (problem !== null) return `argument ${i + 2}: ${problem}`
    }
    return null
  }
}

/** The validators of the cache and sync channels, spread into contract.ts `requestValidators`. */
export const cacheValidators = {
  'sync:start': accountArgs([syncStartOptions], 1),
  'sync:cancel': accountArgs([]),
  'sync:status': accountArgs([]),
  'sync:set-scope': accountArgs([syncScope]),
  'sync:get-scope': accountArgs([]),
  'issues:list': accountArgs([issueParams], 1),
  'issues:get': accountArgs([projectItemRef, getOptions], 1),
  'merge-requests:list': accountArgs([mergeRequestParams], 1),
  'merge-requests:get': accountArgs([projectItemRef, getOptions], 1),
  'epics:list': accountArgs([epicParams], 1),
  'epics:get': accountArgs([groupItemRef, getOptions], 1),
  'milestones:list': accountArgs([milestoneParams], 1),
  'milestones:get': accountArgs([milestoneRef]),
  'labels:list': accountArgs([labelParams], 1),
  'projects:list': accountArgs([projectParams], 1),
  'users:list': accountArgs([userParams], 1),
  'todos:list': accountArgs([todoParams], 1),
  'search:query': accountArgs([searchParams]),
  'api:get': accountArgs([(v) => checkApiPath(v), checkApiQuery], 1),
} as const

/** The cache and sync request channels. */
export interface CacheRequests {
  /** Starts a sync run now (resolves when it has started; `sync:did-finish` tells the end). */
  'sync:start': { readonly args: readonly [accountId: string, options?: SyncStartOptions]; readonly result: SyncStatus }
  'sync:cancel': { readonly args: readonly [accountId: string]; readonly result: SyncStatus }
  'sync:status': { readonly args: readonly [accountId: string]; readonly result: SyncStatus }
  /** Persists what to sync; projects and groups that left the scope are dropped from the cache at the next run. */
  'sync:set-scope': { readonly args: readonly [accountId: string, scope: SyncScope]; readonly result: SyncScope }
  'sync:get-scope': { readonly args: readonly [accountId: string]; readonly result: SyncScope }
  'issues:list': {
    readonly args: readonly [accountId: string, params?: IssueListParams]
    readonly result: CachedList<'issue'>
  }
  'issues:get': {
    readonly args: readonly [accountId: string, ref: ProjectItemRef, options?: GetOptions]
    readonly result: CachedDetail<'issue'>
  }
  'merge-requests:list': {
    readonly args: readonly [accountId: string, params?: MergeRequestListParams]
    readonly result: CachedList<'merge_request'>
  }
  'merge-requests:get': {
    readonly args: readonly [accountId: string, ref: ProjectItemRef, options?: GetOptions]
    readonly result: CachedDetail<'merge_request'>
  }
  'epics:list': {
    readonly args: readonly [accountId: string, params?: EpicListParams]
    readonly result: CachedList<'epic'>
  }
  'epics:get': {
    readonly args: readonly [accountId: string, ref: GroupItemRef, options?: GetOptions]
    readonly result: CachedDetail<'epic'>
  }
  /** Each milestone with its progress (issues closed out of all) and merge request count, from one read. */
  'milestones:list': {
    readonly args: readonly [accountId: string, params?: MilestoneListParams]
    readonly result: readonly MilestoneListItem[]
  }
  'milestones:get': {
    readonly args: readonly [accountId: string, milestoneId: number]
    readonly result: MilestoneDetail
  }
  'labels:list': {
    readonly args: readonly [accountId: string, params?: LabelListParams]
    readonly result: readonly Label[]
  }
  'projects:list': {
    readonly args: readonly [accountId: string, params?: ProjectListParams]
    readonly result: readonly SyncedProject[]
  }
  'users:list': {
    readonly args: readonly [accountId: string, params?: UserListParams]
    readonly result: readonly UserRef[]
  }
  'todos:list': {
    readonly args: readonly [accountId: string, params?: TodoListParams]
    readonly result: readonly CachedItem<'todo'>[]
  }
  'search:query': { readonly args: readonly [accountId: string, params: SearchParams]; readonly result: SearchResult }
  'api:get': {
    readonly args: readonly [accountId: string, path: string, query?: Readonly<Record<string, ApiQueryValue>>]
    readonly result: CachedGetResult
  }
}

/** The cache and sync events. */
export interface CacheEvents {
  'sync:did-progress': SyncProgress
  'sync:did-finish': SyncFinished
  /** An account's status changed between runs (its instance became unreachable). */
  'sync:did-change-status': SyncStatus
  'cache:did-change': CacheChangeEvent
}

export const cacheEventNames: { readonly [E in keyof CacheEvents]: true } = {
  'sync:did-progress': true,
  'sync:did-finish': true,
  'sync:did-change-status': true,
  'cache:did-change': true,
}
