import type {
  CachedDetail,
  CachedDiscussion,
  CachedItem,
  CachedKind,
  CachedList,
  CachedWire,
  EpicListParams,
  IssueListParams,
  LabelListParams,
  MergeRequestListParams,
  MilestoneDetail,
  MilestoneListItem,
  MilestoneListParams,
  MilestoneProgress,
  ProjectListParams,
  SyncedProject,
  TodoListParams,
  UserListParams,
  Wildcard,
} from '../../../shared/ipc/cache'
import type { Cache } from './cache'
import type { NoteableKind } from './kinds'

/*
 * Offline answers to the list endpoints, with the API's parameter names and semantics (the
 * same ones Burrow Server implements in src/server/modules/issues/queries.ts and modules/merge-requests/queries.ts): labels
 * all required and matched without case, `None`/`Any` wildcards, substring search in title and
 * description, nullable sort keys last whatever the direction, ties broken by id.
 */

/** A list query failure the renderer can show; crosses IPC as `{code: 'invalid-arguments'}`. */
function invalid(message: string): Error {
  return Object.assign(new Error(message), { code: 'invalid-arguments' })
}

interface Where {
  readonly sql: string[]
  readonly args: unknown[]
  add(sql: string, ...args: unknown[]): void
}

function where(): Where {
  const sql: string[] = []
  const args: unknown[] = []
  return { sql, args, add: (s, ...a) => void (sql.push(s), args.push(...a)) }
}

function listOf(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return []
  const items = typeof value === 'string' ? value.split(',') : value.flatMap((v) => v.split(','))
  return items.map((s) => s.trim()).filter((s) => s !== '')
}

function isoOf(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const t = Date.parse(value)
  if (Number.isNaN(t)) throw invalid(`${name} is not a date`)
  return new Date(t).toISOString()
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

function wildcard(value: unknown): Wildcard | null {
  if (typeof value !== 'string') return null
  if (/^none$/i.test(value)) return 'None'
  if (/^any$/i.test(value)) return 'Any'
  return null
}

function paging(params: { readonly offset?: number; readonly limit?: number }): { offset: number; limit: number } {
  return { offset: Math.max(0, params.offset ?? 0), limit: Math.min(500, Math.max(1, params.limit ?? 100)) }
}

/** Closed issues out of all, and the rounded percentage (0 when there are none). */
function progressOf(total: number, closed: number): MilestoneProgress {
  return { total, closed, percent: total === 0 ? 0 : Math.round((closed / total) * 100) }
}

/**
 * A cached row's JSON as its kind's wire model: the one place the cache takes what it stored at
 * its word, unchecked. Rows hold the server's answers as the API client received them (sync and
 * refreshes store them unchanged; that JSON is trusted where it enters, in ApiClient's one cast
 * of an answer), and the outbox's optimistic patches of the same fields. Checking every row against the
 * wire schemas on each read would cost more than the read, and would refuse the extra fields a
 * GitLab instance sends that the model does not name.
 */
function wireOf<K extends CachedKind>(_kind: K, json: string): CachedWire[K] {
  return JSON.parse(json) as CachedWire[K]
}

/** Shared filters of issues, merge requests and epics. */
interface CommonFilter {
  readonly labels?: string | readonly string[]
  readonly search?: string
  readonly in?: string
  readonly created_after?: string
  readonly created_before?: string
  readonly updated_after?: string
  readonly updated_before?: string
  readonly author_id?: number
  readonly author_username?: string
  readonly iids?: readonly number[]
  readonly confidential?: boolean
  readonly not?: {
    readonly labels?: string | readonly string[]
    readonly author_id?: number
    readonly iids?: readonly number[]
  }
}

/**
 * Reads of the cache: lists with the API's filters, details with discussions, milestones with
 * their progress. Every result carries the optimistic state and a `pending` mark.
 */
export class CacheReader {
  constructor(private readonly cache: Cache) {}

  private get db() {
    return this.cache.db
  }

  listIssues(accountId: string, params: IssueListParams, viewerId: number | null): CachedList<'issue'> {
    const acct = this.cache.existingAcct(accountId)
    const page = paging(params)
    if (acct === null) return { items: [], total: 0, ...page }
    const w = where()
    w.add('t.acct = ?', acct)
    this.projectScope(w, acct, params)
    if (params.state !== undefined && params.state !== 'all') w.add('t.state = ?', params.state)
    this.common(w, acct, 'issue', params)
    this.people(w, acct, 'issue', params, viewerId)
    this.milestoneFilter(w, params.milestone, params.not?.milestone)
    if (params.issue_type !== undefined) w.add('t.issue_type = ?', params.issue_type)
    if (params.weight !== undefined) {
      const wc = wildcard(params.weight)
      if (wc === 'None') w.add('t.weight IS NULL')
      else if (wc === 'Any') w.add('t.weight IS NOT NULL')
      else w.add('t.weight = ?', params.weight)
    }
    if (params.epic_id !== undefined) {
      // `json` holds the optimistic state: an issue queued into another epic is listed under it at once.
      const wc = wildcard(params.epic_id)
      if (wc === 'None') w.add("json_extract(t.json, '$.epic.id') IS NULL")
      else if (wc === 'Any') w.add("json_extract(t.json, '$.epic.id') IS NOT NULL")
      else w.add("json_extract(t.json, '$.epic.id') = ?", params.epic_id)
    }
    if (params.not?.assignee_id !== undefined)
      w.add(`t.id NOT IN (${this.usersOf('issue', 'assignee')})`, acct, params.not.assignee_id)
    const dir = params.sort === 'asc' ? 'ASC' : 'DESC'
    const nullsLast = (e: string): string => `${e} IS NULL, ${e} ${dir}`
    const order = {
      created_at: `t.created_at ${dir}, t.id ${dir}`,
      updated_at: `t.updated_at ${dir}, t.id ${dir}`,
      title: `t.title COLLATE NOCASE ${dir}, t.id ${dir}`,
      due_date: `${nullsLast('t.due_date')}, t.id ${dir}`,
      milestone_due: `${nullsLast('t.milestone_due')}, t.id ${dir}`,
      weight: `${nullsLast('t.weight')}, t.id ${dir}`,
      popularity: `t.upvotes ${dir}, t.id ${dir}`,
    }[params.order_by ?? 'created_at']
    return this.page('issues', 'issue', w, order, page)
  }

  listMergeRequests(
    accountId: string,
    params: MergeRequestListParams,
    viewerId: number | null,
  ): CachedList<'merge_request'> {
    const acct = this.cache.existingAcct(accountId)
    const page = paging(params)
    if (acct === null) return { items: [], total: 0, ...page }
    const w = where()
    w.add('t.acct = ?', acct)
    this.projectScope(w, acct, params)
    if (params.state !== undefined && params.state !== 'all') w.add('t.state = ?', params.state)
    this.common(w, acct, 'merge_request', params)
    this.people(w, acct, 'merge_request', params, viewerId)
    this.milestoneFilter(w, params.milestone, params.not?.milestone)
    if (params.reviewer_id !== undefined || params.reviewer_username !== undefined) {
      const wc = wildcard(params.reviewer_id)
      if (wc === 'None') w.add(`t.id NOT IN (${this.anyUserOf('merge_request', 'reviewer')})`, acct)
      else if (wc === 'Any') w.add(`t.id IN (${this.anyUserOf('merge_request', 'reviewer')})`, acct)
      else
        w.add(
          `t.id IN (${this.usersOf('merge_request', 'reviewer')})`,
          acct,
          params.reviewer_id ?? this.userId(acct, params.reviewer_username as string),
        )
    }
    if (params.not?.assignee_id !== undefined)
      w.add(`t.id NOT IN (${this.usersOf('merge_request', 'assignee')})`, acct, params.not.assignee_id)
    if (params.not?.reviewer_id !== undefined)
      w.add(`t.id NOT IN (${this.usersOf('merge_request', 'reviewer')})`, acct, params.not.reviewer_id)
    if (params.source_branch !== undefined) w.add('t.source_branch = ?', params.source_branch)
    if (params.target_branch !== undefined) w.add('t.target_branch = ?', params.target_branch)
    if (params.wip !== undefined) w.add('t.draft = ?', params.wip === 'yes' ? 1 : 0)
    const dir = params.sort === 'asc' ? 'ASC' : 'DESC'
    const order = {
      created_at: `t.created_at ${dir}, t.id ${dir}`,
      updated_at: `t.updated_at ${dir}, t.id ${dir}`,
      title: `t.title COLLATE NOCASE ${dir}, t.id ${dir}`,
      merged_at: `t.merged_at IS NULL, t.merged_at ${dir}, t.id ${dir}`,
    }[params.order_by ?? 'created_at']
    return this.page('merge_requests', 'merge_request', w, order, page)
  }

  listEpics(accountId: string, params: EpicListParams): CachedList<'epic'> {
    const acct = this.cache.existingAcct(accountId)
    const page = paging(params)
    if (acct === null) return { items: [], total: 0, ...page }
    const w = where()
    w.add('t.acct = ?', acct)
    if (params.group_id !== undefined) {
      if (params.include_descendant_groups === false) w.add('t.group_id = ?', params.group_id)
      else w.add(`t.group_id IN (${this.groupAndDescendants()})`, params.group_id, acct)
    }
    if (params.state !== undefined && params.state !== 'all') w.add('t.state = ?', params.state)
    this.common(w, acct, 'epic', params)
    const dir = params.sort === 'asc' ? 'ASC' : 'DESC'
    const order = {
      created_at: `t.created_at ${dir}, t.id ${dir}`,
      updated_at: `t.updated_at ${dir}, t.id ${dir}`,
      title: `t.title COLLATE NOCASE ${dir}, t.id ${dir}`,
    }[params.order_by ?? 'created_at']
    return this.page('epics', 'epic', w, order, page)
  }

  /** One issue, merge request or epic with its discussions (pending comments last). */
  detail<K extends NoteableKind>(
    accountId: string,
    kind: K,
    ref: { readonly id: number } | { readonly parentId: number; readonly iid: number },
  ): Omit<CachedDetail<K>, 'stale'> | null {
    const acct = this.cache.existingAcct(accountId)
    if (acct === null) return null
    const table = { issue: 'issues', merge_request: 'merge_requests', epic: 'epics' }[kind]
    const parent = kind === 'epic' ? 'group_id' : 'project_id'
    const row = (
      'id' in ref
        ? this.db.prepare(`SELECT id, json FROM ${table} WHERE acct = ? AND id = ?`).get(acct, ref.id)
        : this.db
            .prepare(`SELECT id, json FROM ${table} WHERE acct = ? AND ${parent} = ? AND iid = ?`)
            .get(acct, ref.parentId, ref.iid)
    ) as { id: number; json: string } | undefined
    if (row === undefined) return null
    const pending = this.pendingIds(acct, kind, [row.id])
    return {
      item: { data: wireOf(kind, row.json), pending: pending.has(row.id) },
      discussions: this.discussions(acct, kind, row.id),
    }
  }

  /** The item's id in the cache, for a ref by iid. */
  idOf(
    accountId: string,
    kind: NoteableKind,
    ref: { readonly id: number } | { readonly parentId: number; readonly iid: number },
  ): number | null {
    if ('id' in ref) return ref.id
    const acct = this.cache.existingAcct(accountId)
    if (acct === null) return null
    const table = { issue: 'issues', merge_request: 'merge_requests', epic: 'epics' }[kind]
    const parent = kind === 'epic' ? 'group_id' : 'project_id'
    return (
      (this.db
        .prepare(`SELECT id FROM ${table} WHERE acct = ? AND ${parent} = ? AND iid = ?`)
        .pluck()
        .get(acct, ref.parentId, ref.iid) as number | undefined) ?? null
    )
  }

  /**
   * Milestones with their progress: the issue and merge request counts of the whole page come
   * from two grouped counts over the rows' `milestone_id` (the optimistic state included, as the
   * columns follow it), not from a read per milestone.
   */
  listMilestones(accountId: string, params: MilestoneListParams): MilestoneListItem[] {
    const acct = this.cache.existingAcct(accountId)
    if (acct === null) return []
    const w = where()
    w.add('t.acct = ?', acct)
    if (params.project_id !== undefined) w.add('t.project_id = ?', params.project_id)
    if (params.group_id !== undefined) w.add('t.group_id = ?', params.group_id)
    if (params.state !== undefined) w.add('t.state = ?', params.state)
    if (params.title !== undefined) w.add('t.title = ?', params.title)
    if (params.search !== undefined)
      w.add(
        "(t.title LIKE ? ESCAPE '\\' OR t.description LIKE ? ESCAPE '\\')",
        `%${escapeLike(params.search)}%`,
        `%${escapeLike(params.search)}%`,
      )
    const items = this.items('milestones', 'milestone', w, 't.due_date IS NULL, t.due_date ASC, t.id DESC')
    const ids = JSON.stringify(items.map((m) => m.data.id))
    const issueCounts = new Map(
      (
        this.db
          .prepare(
            "SELECT milestone_id AS id, COUNT(*) AS total, SUM(state = 'closed') AS closed FROM issues WHERE acct = ? AND milestone_id IN (SELECT value FROM json_each(?)) GROUP BY milestone_id",
          )
          .all(acct, ids) as { id: number; total: number; closed: number }[]
      ).map((r) => [r.id, r]),
    )
    const mergeRequestCounts = new Map(
      (
        this.db
          .prepare(
            'SELECT milestone_id AS id, COUNT(*) AS total FROM merge_requests WHERE acct = ? AND milestone_id IN (SELECT value FROM json_each(?)) GROUP BY milestone_id',
          )
          .all(acct, ids) as { id: number; total: number }[]
      ).map((r) => [r.id, r.total]),
    )
    return items.map((m) => {
      const counts = issueCounts.get(m.data.id)
      return {
        ...m,
        progress: progressOf(counts?.total ?? 0, counts?.closed ?? 0),
        merge_requests: mergeRequestCounts.get(m.data.id) ?? 0,
      }
    })
  }

  milestone(accountId: string, milestoneId: number): MilestoneDetail | null {
    const acct = this.cache.existingAcct(accountId)
    if (acct === null) return null
    const row = this.db
      .prepare('SELECT json FROM milestones WHERE acct = ? AND id = ?')
      .pluck()
      .get(acct, milestoneId) as string | undefined
    if (row === undefined) return null
    const w = where()
    w.add('t.acct = ? AND t.milestone_id = ?', acct, milestoneId)
    const issues = this.items('issues', 'issue', w, 't.created_at DESC, t.id DESC')
    const merge = this.items('merge_requests', 'merge_request', w, 't.created_at DESC, t.id DESC')
    const closed = issues.filter((i) => i.data.state === 'closed').length
    return {
      item: {
        data: wireOf('milestone', row),
        pending: this.pendingIds(acct, 'milestone', [milestoneId]).has(milestoneId),
      },
      issues,
      merge_requests: merge,
      progress: progressOf(issues.length, closed),
    }
  }

  listLabels(accountId: string, params: LabelListParams): CachedWire['label'][] {
    const acct = this.cache.existingAcct(accountId)
    if (acct === null) return []
    const w = where()
    w.add('acct = ?', acct)
    if (params.project_id !== undefined) w.add("scope_kind = 'project' AND scope_id = ?", params.project_id)
    else if (params.group_id !== undefined) w.add("scope_kind = 'group' AND scope_id = ?", params.group_id)
    if (params.search !== undefined) w.add("name LIKE ? ESCAPE '\\'", `%${escapeLike(params.search)}%`)
    // Without a scope, one row per label however many scopes list it.
    const sql = `SELECT json FROM labels WHERE ${w.sql.join(' AND ')} GROUP BY id ORDER BY name COLLATE NOCASE, id`
    return (
      this.db
        .prepare(sql)
        .pluck()
        .all(...w.args) as string[]
    ).map((j) => wireOf('label', j))
  }

  listProjects(accountId: string, params: ProjectListParams): SyncedProject[] {
    const acct = this.cache.existingAcct(accountId)
    if (acct === null) return []
    const w = where()
    w.add('acct = ?', acct)
    if (params.synced === true) w.add('synced = 1')
    if (params.search !== undefined)
      w.add(
        "(name LIKE ? ESCAPE '\\' OR path_with_namespace LIKE ? ESCAPE '\\')",
        `%${escapeLike(params.search)}%`,
        `%${escapeLike(params.search)}%`,
      )
    const rows = this.db
      .prepare(
        `SELECT json, synced FROM projects WHERE ${w.sql.join(' AND ')} ORDER BY path_with_namespace COLLATE NOCASE`,
      )
      .all(...w.args) as { json: string; synced: number }[]
    return rows.map((r) => ({ ...wireOf('project', r.json), burrow_synced: r.synced === 1 }))
  }

  listUsers(accountId: string, params: UserListParams): CachedWire['user'][] {
    const acct = this.cache.existingAcct(accountId)
    if (acct === null) return []
    const w = where()
    w.add('acct = ?', acct)
    if (params.search !== undefined)
      w.add(
        "(username LIKE ? ESCAPE '\\' OR name LIKE ? ESCAPE '\\')",
        `%${escapeLike(params.search)}%`,
        `%${escapeLike(params.search)}%`,
      )
    const sql = `SELECT json FROM users WHERE ${w.sql.join(' AND ')} ORDER BY username COLLATE NOCASE LIMIT ?`
    return (
      this.db
        .prepare(sql)
        .pluck()
        .all(...w.args, Math.min(500, params.limit ?? 100)) as string[]
    ).map((j) => wireOf('user', j))
  }

  listTodos(accountId: string, params: TodoListParams): CachedItem<'todo'>[] {
    const acct = this.cache.existingAcct(accountId)
    if (acct === null) return []
    const w = where()
    w.add('t.acct = ?', acct)
    w.add('t.state = ?', params.state ?? 'pending')
    if (params.action !== undefined) w.add('t.action_name = ?', params.action)
    if (params.type !== undefined) w.add('t.target_type = ?', params.type)
    if (params.project_id !== undefined) w.add('t.project_id = ?', params.project_id)
    return this.items('todos', 'todo', w, 't.created_at DESC, t.id DESC')
  }

  // --- pieces -------------------------------------------------------------------------------

  private projectScope(
    w: Where,
    acct: number,
    params: { readonly project_id?: number; readonly group_id?: number },
  ): void {
    if (params.project_id !== undefined) w.add('t.project_id = ?', params.project_id)
    if (params.group_id !== undefined) {
      // The group's projects and its subgroups' projects, by namespace path.
      const group = this.db
        .prepare('SELECT full_path FROM groups WHERE acct = ? AND id = ?')
        .pluck()
        .get(acct, params.group_id) as string | undefined
      if (group === undefined) w.add('0')
      else
        w.add(
          "t.project_id IN (SELECT id FROM projects WHERE acct = ? AND (namespace_full_path = ? OR namespace_full_path LIKE ? ESCAPE '\\'))",
          acct,
          group,
          `${escapeLike(group)}/%`,
        )
    }
  }

  /** Ids of a group and its descendants (by full path), for `?` = acct, group id. */
  private groupAndDescendants(): string {
    return `SELECT g.id FROM groups g JOIN groups root ON root.acct = g.acct AND root.id = ?
      WHERE g.acct = ? AND (g.id = root.id OR substr(g.full_path, 1, length(root.full_path) + 1) = root.full_path || '/')`
  }

  private labelMatch(kind: string): string {
    return `t.id IN (SELECT item_id FROM item_labels WHERE acct = ? AND kind = '${kind}' AND title = ?)`
  }

  private usersOf(kind: string, role: string): string {
    return `SELECT item_id FROM item_users WHERE acct = ? AND kind = '${kind}' AND role = '${role}' AND user_id = ?`
  }

  private anyUserOf(kind: string, role: string): string {
    return `SELECT item_id FROM item_users WHERE acct = ? AND kind = '${kind}' AND role = '${role}'`
  }

  /** A username's id from the cached users; -1 (matches nothing) when unknown. */
  private userId(acct: number, username: string): number {
    return (
      (this.db
        .prepare('SELECT id FROM users WHERE acct = ? AND username = ? COLLATE NOCASE')
        .pluck()
        .get(acct, username) as number | undefined) ?? -1
    )
  }

  private common(w: Where, acct: number, kind: NoteableKind, f: CommonFilter): void {
    const labels = listOf(f.labels)
    const lw = labels.length === 1 ? wildcard(labels[0]) : null
    if (lw === 'None' || (labels.length === 1 && /^no[ +]label$/i.test(labels[0])))
      w.add(`t.id NOT IN (SELECT item_id FROM item_labels WHERE acct = ? AND kind = '${kind}')`, acct)
    else if (lw === 'Any') w.add(`t.id IN (SELECT item_id FROM item_labels WHERE acct = ? AND kind = '${kind}')`, acct)
    else for (const title of labels) w.add(this.labelMatch(kind), acct, title)
    for (const title of listOf(f.not?.labels)) w.add(`NOT ${this.labelMatch(kind)}`, acct, title)

    if (f.author_id !== undefined) w.add('t.author_id = ?', f.author_id)
    if (f.author_username !== undefined) w.add('t.author_id = ?', this.userId(acct, f.author_username))
    if (f.not?.author_id !== undefined) w.add('(t.author_id IS NULL OR t.author_id <> ?)', f.not.author_id)
    if (f.iids !== undefined) w.add('t.iid IN (SELECT value FROM json_each(?))', JSON.stringify(f.iids))
    if (f.not?.iids !== undefined) w.add('t.iid NOT IN (SELECT value FROM json_each(?))', JSON.stringify(f.not.iids))
    if (f.confidential !== undefined) w.add('t.confidential = ?', f.confidential ? 1 : 0)
    const ca = isoOf('created_after', f.created_after)
    const cb = isoOf('created_before', f.created_before)
    const ua = isoOf('updated_after', f.updated_after)
    const ub = isoOf('updated_before', f.updated_before)
    if (ca !== undefined) w.add('t.created_at >= ?', ca)
    if (cb !== undefined) w.add('t.created_at <= ?', cb)
    if (ua !== undefined) w.add('t.updated_at >= ?', ua)
    if (ub !== undefined) w.add('t.updated_at <= ?', ub)
    if (f.search !== undefined && f.search !== '') {
      const fields = f.in === undefined ? ['title', 'description'] : f.in.split(',').map((s) => s.trim())
      const pattern = `%${escapeLike(f.search)}%`
      const parts = fields.map((c) => `t.${c === 'title' ? 'title' : 'description'} LIKE ? ESCAPE '\\'`)
      w.add(`(${parts.join(' OR ')})`, ...parts.map(() => pattern))
    }
  }

  private people(
    w: Where,
    acct: number,
    kind: 'issue' | 'merge_request',
    f: { readonly assignee_id?: number | Wildcard; readonly assignee_username?: string; readonly scope?: string },
    viewerId: number | null,
  ): void {
    if (f.assignee_id !== undefined && f.assignee_username !== undefined)
      throw invalid('assignee_id, assignee_username are mutually exclusive')
    const wc = wildcard(f.assignee_id)
    if (wc === 'None' || f.assignee_id === 0) w.add(`t.id NOT IN (${this.anyUserOf(kind, 'assignee')})`, acct)
    else if (wc === 'Any') w.add(`t.id IN (${this.anyUserOf(kind, 'assignee')})`, acct)
    else if (typeof f.assignee_id === 'number')
      w.add(`t.id IN (${this.usersOf(kind, 'assignee')})`, acct, f.assignee_id)
    if (f.assignee_username !== undefined)
      w.add(`t.id IN (${this.usersOf(kind, 'assignee')})`, acct, this.userId(acct, f.assignee_username))
    if (f.scope === 'created_by_me') w.add('t.author_id = ?', viewerId ?? -1)
    if (f.scope === 'assigned_to_me') w.add(`t.id IN (${this.usersOf(kind, 'assignee')})`, acct, viewerId ?? -1)
  }

  private milestoneFilter(w: Where, title: string | undefined, notTitle: string | undefined): void {
    if (title !== undefined) {
      const wc = wildcard(title)
      if (wc === 'None') w.add('t.milestone_id IS NULL')
      else if (wc === 'Any') w.add('t.milestone_id IS NOT NULL')
      else w.add('t.milestone_title = ?', title)
    }
    if (notTitle !== undefined) w.add('(t.milestone_title IS NULL OR t.milestone_title <> ?)', notTitle)
  }

  private page<K extends CachedKind>(
    table: string,
    kind: K,
    w: Where,
    order: string,
    page: { offset: number; limit: number },
  ): CachedList<K> {
    const sql = w.sql.join(' AND ')
    const total = this.db
      .prepare(`SELECT COUNT(*) FROM ${table} t WHERE ${sql}`)
      .pluck()
      .get(...w.args) as number
    const rows = this.db
      .prepare(`SELECT t.id, t.json FROM ${table} t WHERE ${sql} ORDER BY ${order} LIMIT ? OFFSET ?`)
      .all(...w.args, page.limit, page.offset) as { id: number; json: string }[]
    return { items: this.withPending(w.args[0] as number, kind, rows), total, ...page }
  }

  private items<K extends CachedKind>(table: string, kind: K, w: Where, order: string): CachedItem<K>[] {
    const rows = this.db
      .prepare(`SELECT t.id, t.json FROM ${table} t WHERE ${w.sql.join(' AND ')} ORDER BY ${order}`)
      .all(...w.args) as { id: number; json: string }[]
    return this.withPending(w.args[0] as number, kind, rows)
  }

  private withPending<K extends CachedKind>(
    acct: number,
    kind: K,
    rows: readonly { id: number; json: string }[],
  ): CachedItem<K>[] {
    const pending = this.pendingIds(
      acct,
      kind,
      rows.map((r) => r.id),
    )
    return rows.map((r) => ({ data: wireOf(kind, r.json), pending: pending.has(r.id) }))
  }

  private pendingIds(acct: number, kind: string, ids: readonly number[]): Set<number> {
    if (ids.length === 0) return new Set()
    const rows = this.db
      .prepare(
        'SELECT DISTINCT item_id FROM pending_changes WHERE acct = ? AND kind = ? AND item_id IN (SELECT value FROM json_each(?))',
      )
      .pluck()
      .all(acct, kind, JSON.stringify(ids)) as number[]
    return new Set(rows)
  }

  private discussions(acct: number, kind: NoteableKind, id: number): CachedDiscussion[] {
    const discussions = this.db
      .prepare(
        'SELECT id, individual_note FROM discussions WHERE acct = ? AND noteable_kind = ? AND noteable_id = ? ORDER BY position',
      )
      .all(acct, kind, id) as { id: string; individual_note: number }[]
    const notes = this.db
      .prepare(
        'SELECT id, discussion_id, json FROM notes WHERE acct = ? AND noteable_kind = ? AND noteable_id = ? ORDER BY position, id',
      )
      .all(acct, kind, id) as { id: number; discussion_id: string | null; json: string }[]
    const pending = this.pendingIds(
      acct,
      'note',
      notes.map((n) => n.id),
    )
    const known = new Set(discussions.map((d) => d.id))
    const byDiscussion = new Map<string, CachedItem<'note'>[]>()
    const loose: CachedDiscussion[] = []
    for (const n of notes) {
      const item = { data: wireOf('note', n.json), pending: pending.has(n.id) }
      if (n.discussion_id === null || !known.has(n.discussion_id)) {
        loose.push({
          id: n.discussion_id ?? `pending-${n.id}`,
          individual_note: n.discussion_id === null,
          notes: [item],
        })
        continue
      }
      const list = byDiscussion.get(n.discussion_id) ?? []
      list.push(item)
      byDiscussion.set(n.discussion_id, list)
    }
    return [
      ...discussions.map((d) => ({
        id: d.id,
        individual_note: d.individual_note === 1,
        notes: byDiscussion.get(d.id) ?? [],
      })),
      ...loose,
    ]
  }
}
