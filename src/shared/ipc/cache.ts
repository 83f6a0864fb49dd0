import type { Epic } from '../api/epic'
import type { Issue } from '../api/issue'
import type { Label } from '../api/label'
import type { MergeRequest, MergeRequestDetail } from '../api/merge-request'
import type { Milestone } from '../api/milestone'
import type { Note } from '../api/note'
import type { Project } from '../api/project'
import type { Todo } from '../api/todo'
import type { UserRef } from '../api/user'
import { ApiPath, ApiQuery, type ApiQueryValue } from './api'
import { Type, type Static, type TSchema } from 'typebox'
import { Entity } from '../api/common'
import { AccountId, argumentsCheck, DateText, schemaCheck, Text, type Check } from './schema-check'

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

/** An object of the named fields and no other: an unknown field is refused (`unknown field x`). */
const Params = Entity

/** `None`: has no such value; `Any`: has one. */
export const Wildcard = Type.Enum(['None', 'Any'])
export type Wildcard = Static<typeof Wildcard>

const Id = Type.Integer()
/** An id, `None` or `Any`. */
const IdOrWildcard = Type.Union([Type.Integer(), Wildcard])
/** Label titles, all required: a comma list or an array; or `None` / `Any`. */
const Labels = Type.Union([Text, Type.Immutable(Type.Array(Type.String({ maxLength: 255 }), { maxItems: 50 }))])
const Ids = Type.Immutable(Type.Array(Type.Integer(), { maxItems: 500 }))
const Sort = Type.Enum(['asc', 'desc'])
/** Where `search` looks: `title`, `description` or both (the default). */
const SearchIn = Type.Enum(['title', 'description', 'title,description', 'description,title'])
/** Relative to the account's user; default `all`. */
const Scope = Type.Enum(['created_by_me', 'assigned_to_me', 'all'])

const paging = {
  /** Rows to skip (virtual scrolling); default 0. */
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  /** Page size, 1–500; default 100. */
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
}

const dateFilters = {
  created_after: Type.Optional(DateText),
  created_before: Type.Optional(DateText),
  updated_after: Type.Optional(DateText),
  updated_before: Type.Optional(DateText),
}

/** The filters issues and merge requests share. */
const projectItemFilters = {
  project_id: Type.Optional(Id),
  /** Items of the group's projects and its subgroups' projects. */
  group_id: Type.Optional(Id),
  labels: Type.Optional(Labels),
  /** A title, `None` or `Any`. */
  milestone: Type.Optional(Text),
  assignee_id: Type.Optional(IdOrWildcard),
  assignee_username: Type.Optional(Text),
  author_id: Type.Optional(Id),
  author_username: Type.Optional(Text),
  scope: Type.Optional(Scope),
  iids: Type.Optional(Ids),
  /** Substring of the title or description (case-insensitive), as the API's `search`. */
  search: Type.Optional(Text),
  in: Type.Optional(SearchIn),
}

/** The `not` filters issues and merge requests share. */
const projectItemNegations = {
  labels: Type.Optional(Labels),
  milestone: Type.Optional(Text),
  assignee_id: Type.Optional(Id),
  author_id: Type.Optional(Id),
}

/** `GET /projects/:id/issues` (or `/groups/:id/issues`, or `/issues?scope=all`) parameters, answered from the cache. */
export const IssueListParams = Params({
  ...paging,
  ...dateFilters,
  ...projectItemFilters,
  state: Type.Optional(Type.Enum(['opened', 'closed', 'all'])),
  confidential: Type.Optional(Type.Boolean()),
  issue_type: Type.Optional(Type.Enum(['issue', 'incident', 'test_case'])),
  weight: Type.Optional(IdOrWildcard),
  /** The epic's id (not iid), `None` or `Any`, as GitLab's `epic_id`; read from the optimistic state, so a queued move shows at once. */
  epic_id: Type.Optional(IdOrWildcard),
  not: Type.Optional(Params({ ...projectItemNegations, iids: Type.Optional(Ids) })),
  order_by: Type.Optional(
    Type.Enum(['created_at', 'updated_at', 'due_date', 'title', 'milestone_due', 'popularity', 'weight']),
  ),
  sort: Type.Optional(Sort),
})
export type IssueListParams = Static<typeof IssueListParams>

/** `GET /projects/:id/merge_requests` parameters, answered from the cache. */
export const MergeRequestListParams = Params({
  ...paging,
  ...dateFilters,
  ...projectItemFilters,
  state: Type.Optional(Type.Enum(['opened', 'closed', 'locked', 'merged', 'all'])),
  reviewer_id: Type.Optional(IdOrWildcard),
  reviewer_username: Type.Optional(Text),
  source_branch: Type.Optional(Text),
  target_branch: Type.Optional(Text),
  /** `yes`: drafts only; `no`: no drafts. */
  wip: Type.Optional(Type.Enum(['yes', 'no'])),
  not: Type.Optional(Params({ ...projectItemNegations, reviewer_id: Type.Optional(Id) })),
  order_by: Type.Optional(Type.Enum(['created_at', 'updated_at', 'title', 'merged_at'])),
  sort: Type.Optional(Sort),
})
export type MergeRequestListParams = Static<typeof MergeRequestListParams>

/** `GET /groups/:id/epics` parameters, answered from the cache. */
export const EpicListParams = Params({
  ...paging,
  ...dateFilters,
  group_id: Type.Optional(Id),
  /** With `group_id`: epics of its subgroups too (the API's default is true). */
  include_descendant_groups: Type.Optional(Type.Boolean()),
  state: Type.Optional(Type.Enum(['opened', 'closed', 'all'])),
  labels: Type.Optional(Labels),
  author_id: Type.Optional(Id),
  author_username: Type.Optional(Text),
  confidential: Type.Optional(Type.Boolean()),
  search: Type.Optional(Text),
  not: Type.Optional(Params({ labels: Type.Optional(Labels), author_id: Type.Optional(Id) })),
  order_by: Type.Optional(Type.Enum(['created_at', 'updated_at', 'title'])),
  sort: Type.Optional(Sort),
})
export type EpicListParams = Static<typeof EpicListParams>

export const MilestoneListParams = Params({
  project_id: Type.Optional(Id),
  group_id: Type.Optional(Id),
  state: Type.Optional(Type.Enum(['active', 'closed'])),
  search: Type.Optional(Text),
  title: Type.Optional(Text),
})
export type MilestoneListParams = Static<typeof MilestoneListParams>

export const LabelListParams = Params({
  /** Labels usable in the project (its own and its ancestor groups'), or in the group. */
  project_id: Type.Optional(Id),
  group_id: Type.Optional(Id),
  search: Type.Optional(Text),
})
export type LabelListParams = Static<typeof LabelListParams>

export const ProjectListParams = Params({
  /** Only the projects being synced. */
  synced: Type.Optional(Type.Boolean()),
  search: Type.Optional(Text),
})
export type ProjectListParams = Static<typeof ProjectListParams>

/** A row of `projects:list`: the project, and whether its items are synced. */
export type SyncedProject = Project & { readonly burrow_synced: boolean }

export const UserListParams = Params({
  /** Username or name, prefix or substring. */
  search: Type.Optional(Text),
  limit: paging.limit,
})
export type UserListParams = Static<typeof UserListParams>

export const TodoListParams = Params({
  state: Type.Optional(Type.Enum(['pending', 'done'])),
  action: Type.Optional(Text),
  type: Type.Optional(Text),
  project_id: Type.Optional(Id),
})
export type TodoListParams = Static<typeof TodoListParams>

/** Which issue or merge request: its global id, or its iid in a project. */
export const ProjectItemRef = Type.Union([Params({ id: Id }), Params({ project_id: Id, iid: Id })])
export type ProjectItemRef = Static<typeof ProjectItemRef>
/** Which epic: its global id, or its iid in a group. */
export const GroupItemRef = Type.Union([Params({ id: Id }), Params({ group_id: Id, iid: Id })])
export type GroupItemRef = Static<typeof GroupItemRef>

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

export const GetOptions = Params({
  /** Fetch the item and its discussions from the server first when online (falls back to the cache). */
  refresh: Type.Optional(Type.Boolean()),
})
export type GetOptions = Static<typeof GetOptions>

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
export const SearchKind = Type.Enum(['issue', 'merge_request', 'epic', 'milestone'])
export type SearchKind = Static<typeof SearchKind>

export const SearchParams = Params({
  /**
   * Words, every one required, each matching as a prefix of a word; or a reference: `#12`,
   * `!4`, `&2`, `group/project#12`, `%milestone`. Not blank.
   */
  query: Type.String({ maxLength: 500, pattern: '\\S' }),
  /** Default: all. */
  kinds: Type.Optional(Type.Immutable(Type.Array(SearchKind))),
  project_id: Type.Optional(Id),
  group_id: Type.Optional(Id),
  state: Type.Optional(Text),
  ...paging,
})
export type SearchParams = Static<typeof SearchParams>

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
export const SyncScope = Type.Union([
  Params({ mode: Type.Literal('memberships') }),
  Params({ mode: Type.Literal('custom'), project_ids: Ids, group_ids: Ids }),
])
export type SyncScope = Static<typeof SyncScope>

export const SyncStartOptions = Params({
  /** Also reconcile: compare id sets with the server and drop what it deleted (also done periodically). */
  reconcile: Type.Optional(Type.Boolean()),
})
export type SyncStartOptions = Static<typeof SyncStartOptions>

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

const projectItemRef = schemaCheck(ProjectItemRef, 'expected {id} or {project_id, iid} (integers)')
const groupItemRef = schemaCheck(GroupItemRef, 'expected {id} or {group_id, iid} (integers)')
const syncScope = schemaCheck(
  SyncScope,
  "expected {mode: 'memberships'} or {mode: 'custom', project_ids, group_ids} (arrays of integers)",
)
const milestoneRef: Check = (v) => (Number.isInteger(v) ? null : 'expected a milestone id')

/** A list read: the account id, then the list's filters (optional). */
const listArgs = (params: TSchema) => argumentsCheck({ accountId: AccountId, 'params?': params })
/** An item read: the account id, the item's reference, then GetOptions (optional). */
const itemArgs = (ref: Check) => argumentsCheck({ accountId: AccountId, ref, 'options?': GetOptions })
const accountOnly = argumentsCheck({ accountId: AccountId })

/** The validators of the cache and sync channels, spread into request-validators.ts. */
export const cacheValidators = {
  'sync:start': argumentsCheck({ accountId: AccountId, 'options?': SyncStartOptions }),
  'sync:cancel': accountOnly,
  'sync:status': accountOnly,
  'sync:set-scope': argumentsCheck({ accountId: AccountId, scope: syncScope }),
  'sync:get-scope': accountOnly,
  'issues:list': listArgs(IssueListParams),
  'issues:get': itemArgs(projectItemRef),
  'merge-requests:list': listArgs(MergeRequestListParams),
  'merge-requests:get': itemArgs(projectItemRef),
  'epics:list': listArgs(EpicListParams),
  'epics:get': itemArgs(groupItemRef),
  'milestones:list': listArgs(MilestoneListParams),
  'milestones:get': argumentsCheck({ accountId: AccountId, milestoneId: milestoneRef }),
  'labels:list': listArgs(LabelListParams),
  'projects:list': listArgs(ProjectListParams),
  'users:list': listArgs(UserListParams),
  'todos:list': listArgs(TodoListParams),
  'search:query': argumentsCheck({ accountId: AccountId, params: SearchParams }),
  'api:get': argumentsCheck({ accountId: AccountId, path: ApiPath, 'query?': ApiQuery }),
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
