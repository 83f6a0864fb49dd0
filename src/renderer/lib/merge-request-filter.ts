import type { MergeRequestListParams } from '../../shared/ipc/cache'

/**
 * The merge request list's filter: the parameters of `GET /merge_requests` that the offline
 * cache answers, serialised with the API's names like the issue filter (lib/issue-filter.ts).
 */

export const MR_STATES = ['opened', 'merged', 'closed', 'all'] as const
export const MR_ORDER_BY = ['created_at', 'updated_at', 'title', 'merged_at'] as const

export interface MergeRequestFilter {
  readonly state: (typeof MR_STATES)[number]
  readonly scope: 'all' | 'created_by_me' | 'assigned_to_me'
  readonly search: string
  readonly labels: readonly string[]
  /** A username; null: anyone. */
  readonly author: string | null
  /** A username, or None / Any. */
  readonly reviewer: string | null
  /** `yes`: drafts only, `no`: ready only, null: both (the API's `wip`). */
  readonly draft: 'yes' | 'no' | null
  readonly orderBy: (typeof MR_ORDER_BY)[number]
  readonly sort: 'asc' | 'desc'
}

export const DEFAULT_MR_FILTER: MergeRequestFilter = Object.freeze({
  state: 'opened',
  scope: 'all',
  search: '',
  labels: [],
  author: null,
  reviewer: null,
  draft: null,
  orderBy: 'updated_at',
  sort: 'desc',
})

/** API parameter names and values, sorted: the saved and routed form. */
export function serializeMergeRequestFilter(f: MergeRequestFilter): string {
  const p: Record<string, string> = { state: f.state, scope: f.scope, order_by: f.orderBy, sort: f.sort }
  if (f.search.trim()) p.search = f.search.trim()
  if (f.labels.length) p.labels = f.labels.join(',')
  if (f.author) p.author_username = f.author
  if (f.reviewer === 'None' || f.reviewer === 'Any') p.reviewer_id = f.reviewer
  else if (f.reviewer) p.reviewer_username = f.reviewer
  if (f.draft) p.wip = f.draft
  return Object.keys(p)
    .sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(p[k])}`)
    .join('&')
}

function pick<T extends string>(values: readonly T[], value: string | null, fallback: T): T {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : fallback
}

/** Reads the serialised form (or a route query) back; invalid values fall back to the defaults. */
export function parseMergeRequestFilter(
  input: string | Readonly<Record<string, string | readonly string[]>>,
): MergeRequestFilter {
  const params =
    typeof input === 'string'
      ? new URLSearchParams(input)
      : new URLSearchParams(
          Object.entries(input).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : v.map((x) => [k, x]))),
        )
  const get = (k: string): string | null => params.get(k)
  const d = DEFAULT_MR_FILTER
  const reviewerId = get('reviewer_id')
  const wip = get('wip')
  return {
    state: pick(MR_STATES, get('state'), d.state),
    scope: pick(['all', 'created_by_me', 'assigned_to_me'] as const, get('scope'), d.scope),
    search: get('search')?.trim() ?? '',
    labels: (get('labels') ?? '')
      .split(',')
      .map((l) => l.trim())
      .filter(Boolean),
    author: get('author_username')?.trim() || null,
    reviewer: reviewerId === 'None' || reviewerId === 'Any' ? reviewerId : get('reviewer_username')?.trim() || null,
    draft: wip === 'yes' || wip === 'no' ? wip : null,
    orderBy: pick(MR_ORDER_BY, get('order_by'), d.orderBy),
    sort: pick(['asc', 'desc'] as const, get('sort'), d.sort),
  }
}

/** The filter as `merge-requests:list` parameters. */
export function toCacheMergeRequestParams(f: MergeRequestFilter): MergeRequestListParams {
  return {
    state: f.state,
    scope: f.scope,
    order_by: f.orderBy,
    sort: f.sort,
    ...(f.search.trim() ? { search: f.search.trim() } : {}),
    ...(f.labels.length ? { labels: [...f.labels] } : {}),
    ...(f.author ? { author_username: f.author } : {}),
    ...(f.reviewer === 'None' || f.reviewer === 'Any'
      ? { reviewer_id: f.reviewer }
      : f.reviewer
        ? { reviewer_username: f.reviewer }
        : {}),
    ...(f.draft ? { wip: f.draft } : {}),
  }
}
