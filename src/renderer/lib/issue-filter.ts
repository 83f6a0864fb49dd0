import type { IssueListParams as CacheIssueListParams } from '../../shared/ipc/cache'

/**
 * The issue list's filter, mirroring the parameters of `GET /issues` (and the project and
 * group lists): one model for the filter bar, the list request and saved filters. It
 * serialises to a query string with the API's own parameter names, so a saved filter reads
 * like the request it makes and survives Burrow versions.
 */

export const ISSUE_ORDER_BY = [
  'created_at',
  'updated_at',
  'due_date',
  'priority',
  'label_priority',
  'milestone_due',
  'popularity',
  'relative_position',
  'title',
  'weight',
] as const
export type IssueOrderBy = (typeof ISSUE_ORDER_BY)[number]

export const ISSUE_STATES = ['opened', 'closed', 'all'] as const
export type IssueState = (typeof ISSUE_STATES)[number]

export const ISSUE_SCOPES = ['all', 'created_by_me', 'assigned_to_me'] as const
export type IssueScope = (typeof ISSUE_SCOPES)[number]

/** Values the API accepts in place of a name for assignee, milestone and labels. */
export const NONE = 'None'
export const ANY = 'Any'
/** Milestone-only wildcards (sent as `milestone_id`). */
export const MILESTONE_WILDCARDS = ['None', 'Any', 'Upcoming', 'Started'] as const

export interface IssueFilter {
  readonly state: IssueState
  readonly scope: IssueScope
  /** Free text over title and description. */
  readonly search: string
  /** All must match; or exactly `[None]` / `[Any]`. */
  readonly labels: readonly string[]
  /** None of these may be set (`not[labels]`). */
  readonly notLabels: readonly string[]
  /** A milestone title, or None, Any, Upcoming, Started; null: no condition. */
  readonly milestone: string | null
  /** A username, or None / Any; null: no condition. */
  readonly assignee: string | null
  /** A username; null: no condition. */
  readonly author: string | null
  /** true: only confidential; false: only public; null: both. */
  readonly confidential: boolean | null
  readonly orderBy: IssueOrderBy
  readonly sort: 'asc' | 'desc'
}

export const DEFAULT_ISSUE_FILTER: IssueFilter = Object.freeze({
  state: 'opened',
  scope: 'all',
  search: '',
  labels: [],
  notLabels: [],
  milestone: null,
  assignee: null,
  author: null,
  confidential: null,
  orderBy: 'created_at',
  sort: 'desc',
})

/** Parameters for the issue list request, with the API's names and encodings. */
export type IssueListParams = Readonly<Record<string, string>>

/** The filter as the API's list parameters (what `GET /issues` and the cache's list take). */
export function toIssueListParams(filter: IssueFilter): IssueListParams {
  // `state=all` is what the API does without a state; sending it keeps saved filters explicit.
  const params: Record<string, string> = {
    state: filter.state,
    scope: filter.scope,
    order_by: filter.orderBy,
    sort: filter.sort,
  }
  if (filter.search.trim() !== '') params.search = filter.search.trim()
  if (filter.labels.length > 0) params.labels = filter.labels.join(',')
  if (filter.notLabels.length > 0) params['not[labels]'] = filter.notLabels.join(',')
  if (filter.milestone !== null) {
    if ((MILESTONE_WILDCARDS as readonly string[]).includes(filter.milestone)) params.milestone_id = filter.milestone
    else params.milestone = filter.milestone
  }
  if (filter.assignee !== null) {
    if (filter.assignee === NONE || filter.assignee === ANY) params.assignee_id = filter.assignee
    else params.assignee_username = filter.assignee
  }
  if (filter.author !== null) params.author_username = filter.author
  if (filter.confidential !== null) params.confidential = String(filter.confidential)
  return params
}

function oneOf<T extends string>(values: readonly T[], value: string | null, fallback: T): T {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : fallback
}

function list(value: string | null): string[] {
  return value === null
    ? []
    : value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
}

function text(value: string | null, max = 255): string | null {
  const v = value?.trim() ?? ''
  return v === '' ? null : v.slice(0, max)
}

/**
 * Reads a filter back from list parameters (a saved filter, the route's query). Unknown or
 * invalid values fall back to the defaults, so an old or hand-edited filter still opens.
 */
export function parseIssueFilter(
  input: string | URLSearchParams | Readonly<Record<string, string | readonly string[] | null | undefined>>,
): IssueFilter {
  const params =
    typeof input === 'string' || input instanceof URLSearchParams
      ? new URLSearchParams(input)
      : new URLSearchParams(
          Object.entries(input).flatMap(([k, v]) =>
            v === null || v === undefined ? [] : typeof v === 'string' ? [[k, v]] : v.map((x) => [k, x]),
          ),
        )
  const get = (key: string): string | null => params.get(key)
  const d = DEFAULT_ISSUE_FILTER
  const confidential = get('confidential')
  const milestoneId = get('milestone_id')
  return {
    state: oneOf(ISSUE_STATES, get('state'), d.state),
    scope: oneOf(ISSUE_SCOPES, get('scope'), d.scope),
    search: text(get('search'), 1_000) ?? '',
    labels: list(get('labels')),
    notLabels: list(get('not[labels]')),
    milestone:
      milestoneId !== null && (MILESTONE_WILDCARDS as readonly string[]).includes(milestoneId)
        ? milestoneId
        : text(get('milestone')),
    assignee:
      get('assignee_id') === NONE || get('assignee_id') === ANY ? get('assignee_id') : text(get('assignee_username')),
    author: text(get('author_username')),
    confidential: confidential === 'true' ? true : confidential === 'false' ? false : null,
    orderBy: oneOf(ISSUE_ORDER_BY, get('order_by'), d.orderBy),
    sort: oneOf(['asc', 'desc'] as const, get('sort'), d.sort),
  }
}

/** The filter as a query string (`state=opened&labels=bug,ui&order_by=updated_at…`), stable for equal filters. */
export function serializeIssueFilter(filter: IssueFilter): string {
  const params = toIssueListParams(filter)
  return Object.keys(params)
    .sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(params[k])}`)
    .join('&')
}

/** True when no condition narrows the list beyond the default state. */
export function isDefaultIssueFilter(filter: IssueFilter): boolean {
  return serializeIssueFilter(filter) === serializeIssueFilter(DEFAULT_ISSUE_FILTER)
}

/** The orderings the offline cache can answer (the API has a few more: priority, label_priority, relative_position). */
export const CACHE_ISSUE_ORDER_BY = [
  'created_at',
  'updated_at',
  'due_date',
  'title',
  'milestone_due',
  'popularity',
  'weight',
] as const

/** The issue field the cache orders by for the filter's `order_by` (a dotted path), to merge several accounts' lists in the same order. */
export function issueSortField(filter: IssueFilter): string {
  const order = toCacheIssueParams(filter).order_by ?? 'created_at'
  return order === 'popularity' ? 'upvotes' : order === 'milestone_due' ? 'milestone.due_date' : order
}

/**
 * The filter as `issues:list` parameters for the offline cache (the same names as the API, typed).
 * What the cache cannot answer is left out: the milestone wildcards Upcoming and Started, and
 * orderings outside CACHE_ISSUE_ORDER_BY (which fall back to created_at).
 */
export function toCacheIssueParams(filter: IssueFilter): CacheIssueListParams {
  const order = (CACHE_ISSUE_ORDER_BY as readonly string[]).includes(filter.orderBy)
    ? (filter.orderBy as CacheIssueListParams['order_by'])
    : 'created_at'
  const assignee = filter.assignee
  return {
    state: filter.state,
    scope: filter.scope,
    order_by: order,
    sort: filter.sort,
    ...(filter.search.trim() !== '' ? { search: filter.search.trim() } : {}),
    ...(filter.labels.length > 0 ? { labels: [...filter.labels] } : {}),
    ...(filter.notLabels.length > 0 ? { not: { labels: [...filter.notLabels] } } : {}),
    ...(filter.milestone !== null && filter.milestone !== 'Upcoming' && filter.milestone !== 'Started'
      ? { milestone: filter.milestone }
      : {}),
    ...(assignee === NONE || assignee === ANY
      ? { assignee_id: assignee }
      : assignee !== null
        ? { assignee_username: assignee }
        : {}),
    ...(filter.author !== null ? { author_username: filter.author } : {}),
    ...(filter.confidential !== null ? { confidential: filter.confidential } : {}),
  }
}

/** A short human summary for a saved filter's tooltip: `Open · ~bug ~ui · assigned to @alice`. */
export function describeIssueFilter(filter: IssueFilter): string {
  const parts: string[] = [filter.state === 'opened' ? 'Open' : filter.state === 'closed' ? 'Closed' : 'All states']
  if (filter.scope === 'created_by_me') parts.push('created by me')
  if (filter.scope === 'assigned_to_me') parts.push('assigned to me')
  if (filter.search.trim() !== '') parts.push(`“${filter.search.trim()}”`)
  if (filter.labels.length > 0)
    parts.push(filter.labels.map((l) => (l === NONE ? 'no label' : l === ANY ? 'any label' : `~${l}`)).join(' '))
  if (filter.notLabels.length > 0) parts.push(`not ${filter.notLabels.map((l) => `~${l}`).join(' ')}`)
  if (filter.milestone !== null)
    parts.push(
      filter.milestone === NONE ? 'no milestone' : filter.milestone === ANY ? 'any milestone' : `%${filter.milestone}`,
    )
  if (filter.assignee !== null)
    parts.push(
      filter.assignee === NONE
        ? 'unassigned'
        : filter.assignee === ANY
          ? 'assigned'
          : `assigned to @${filter.assignee}`,
    )
  if (filter.author !== null) parts.push(`by @${filter.author}`)
  if (filter.confidential !== null) parts.push(filter.confidential ? 'confidential' : 'not confidential')
  parts.push(`${filter.orderBy.replace(/_/g, ' ')} ${filter.sort === 'asc' ? '↑' : '↓'}`)
  return parts.join(' · ')
}
