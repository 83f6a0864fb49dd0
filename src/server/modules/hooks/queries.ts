import type { Db } from '../../platform/db/connection'
import { cachedStatement } from '../../platform/db/statements'

/** The events a hook subscribes to, as `web_hooks` columns (GitLab's names). */
export const HOOK_EVENT_FLAGS = [
  'push_events',
  'tag_push_events',
  'issues_events',
  'confidential_issues_events',
  'merge_requests_events',
  'note_events',
  'confidential_note_events',
  'pipeline_events',
  'job_events',
  'releases_events',
  'wiki_page_events',
  'repository_update_events',
] as const
export type HookEventFlag = (typeof HOOK_EVENT_FLAGS)[number]

export type HookType = 'ProjectHook' | 'GroupHook' | 'SystemHook'
export type BranchFilterStrategy = 'wildcard' | 'regex' | 'all_branches'

/** A row of `web_hooks`. Flags are 0/1; the sealed columns hold the instance key's ciphertext. */
export type HookRow = { readonly [F in HookEventFlag]: number } & {
  readonly id: number
  readonly type: HookType
  readonly project_id: number | null
  readonly group_id: number | null
  readonly url: string
  readonly name: string | null
  readonly description: string | null
  readonly token_sealed: string | null
  /** Sealed JSON object of variable name to value. */
  readonly url_variables_sealed: string | null
  /** Sealed JSON object of header name to value. */
  readonly custom_headers_sealed: string | null
  readonly push_events_branch_filter: string | null
  readonly branch_filter_strategy: BranchFilterStrategy
  readonly enable_ssl_verification: number
  readonly recent_failures: number
  readonly backoff_count: number
  readonly disabled_until: string | null
  readonly permanently_disabled: number
  readonly created_at: string
  readonly updated_at: string
}

/** What a hook write stores (everything but the auto-disable state). */
export type HookFields = { readonly [F in HookEventFlag]: boolean } & {
  readonly url: string
  readonly name: string | null
  readonly description: string | null
  readonly tokenSealed: string | null
  readonly urlVariablesSealed: string | null
  readonly customHeadersSealed: string | null
  readonly pushEventsBranchFilter: string | null
  readonly branchFilterStrategy: BranchFilterStrategy
  readonly enableSslVerification: boolean
}

/** Whose hooks: a project's, a group's, or the instance's system hooks. */
export type HookOwnerKey =
  | { readonly type: 'ProjectHook'; readonly id: number }
  | { readonly type: 'GroupHook'; readonly id: number }
  | { readonly type: 'SystemHook' }

function ownerColumns(owner: HookOwnerKey): { project: number | null; group: number | null } {
  if (owner.type === 'ProjectHook') return { project: owner.id, group: null }
  if (owner.type === 'GroupHook') return { project: null, group: owner.id }
  return { project: null, group: null }
}

const OWNER_CLAUSE = 'type = :type AND project_id IS :project AND group_id IS :group'

/** The owner's hooks, oldest first. */
export function hooksOf(db: Db, owner: HookOwnerKey): HookRow[] {
  return cachedStatement(db, `SELECT * FROM web_hooks WHERE ${OWNER_CLAUSE} ORDER BY id`).all({
    type: owner.type,
    ...ownerColumns(owner),
  }) as HookRow[]
}

/** One of the owner's hooks. */
export function findHook(db: Db, owner: HookOwnerKey, id: number): HookRow | undefined {
  return cachedStatement(db, `SELECT * FROM web_hooks WHERE ${OWNER_CLAUSE} AND id = :id`).get({
    type: owner.type,
    ...ownerColumns(owner),
    id,
  }) as HookRow | undefined
}

/** A hook by id, whoever owns it (background deliveries carry only the id). */
export function hookById(db: Db, id: number): HookRow | undefined {
  return cachedStatement(db, 'SELECT * FROM web_hooks WHERE id = ?').get(id) as HookRow | undefined
}

function fieldParams(fields: HookFields): Record<string, unknown> {
  const flags = Object.fromEntries(HOOK_EVENT_FLAGS.map((f) => [f, fields[f] ? 1 : 0]))
  return {
    ...flags,
    url: fields.url,
    name: fields.name,
    description: fields.description,
    token_sealed: fields.tokenSealed,
    url_variables_sealed: fields.urlVariablesSealed,
    custom_headers_sealed: fields.customHeadersSealed,
    push_events_branch_filter: fields.pushEventsBranchFilter,
    branch_filter_strategy: fields.branchFilterStrategy,
    enable_ssl_verification: fields.enableSslVerification ? 1 : 0,
  }
}

const FIELD_COLUMNS = [
  ...HOOK_EVENT_FLAGS,
  'url',
  'name',
  'description',
  'token_sealed',
  'url_variables_sealed',
  'custom_headers_sealed',
  'push_events_branch_filter',
  'branch_filter_strategy',
  'enable_ssl_verification',
]

/** Inserts a hook of the owner. */
export function insertHook(db: Db, owner: HookOwnerKey, fields: HookFields, now: string): HookRow {
  const columns = [...FIELD_COLUMNS, 'type', 'project_id', 'group_id', 'created_at', 'updated_at']
  const { project, group } = ownerColumns(owner)
  return db
    .prepare(
      `INSERT INTO web_hooks (${columns.join(', ')}) VALUES (${columns.map((c) => `:${c}`).join(', ')}) RETURNING *`,
    )
    .get({
      ...fieldParams(fields),
      type: owner.type,
      project_id: project,
      group_id: group,
      created_at: now,
      updated_at: now,
    }) as HookRow
}

/** Rewrites a hook's fields; `reenable` also clears its auto-disable state (a changed URL or token). */
export function updateHookRow(db: Db, id: number, fields: HookFields, now: string, reenable: boolean): HookRow {
  const sets = FIELD_COLUMNS.map((c) => `${c} = :${c}`).join(', ')
  const reset = reenable
    ? ', recent_failures = 0, backoff_count = 0, disabled_until = NULL, permanently_disabled = 0'
    : ''
  return db
    .prepare(`UPDATE web_hooks SET ${sets}, updated_at = :now${reset} WHERE id = :id RETURNING *`)
    .get({ ...fieldParams(fields), now, id }) as HookRow
}

export function deleteHookRow(db: Db, id: number): void {
  db.prepare('DELETE FROM web_hooks WHERE id = ?').run(id)
}

/**
 * The hooks a project event goes to that subscribe to `flag`: the project's own and those of
 * every group above it (GitLab's group hooks see their subgroups' projects).
 */
export function projectEventHooks(db: Db, projectId: number, flag: HookEventFlag): HookRow[] {
  return cachedStatement(
    db,
    `WITH RECURSIVE chain(id) AS (
       SELECT namespace_id FROM projects WHERE id = :project
       UNION SELECT n.parent_id FROM namespaces n JOIN chain c ON n.id = c.id WHERE n.parent_id IS NOT NULL
     )
     SELECT * FROM web_hooks
     WHERE ${flag} = 1 AND (project_id = :project OR group_id IN (SELECT id FROM chain))
     ORDER BY id`,
  ).all({ project: projectId }) as HookRow[]
}

/** The system hooks that subscribe to `flag`. */
export function systemEventHooks(db: Db, flag: HookEventFlag): HookRow[] {
  return cachedStatement(
    db,
    `SELECT * FROM web_hooks WHERE type = 'SystemHook' AND ${flag} = 1 ORDER BY id`,
  ).all() as HookRow[]
}

/** Clears a hook's failures after a successful delivery (GitLab's `enable!`). */
export function markHookSucceeded(db: Db, id: number): void {
  cachedStatement(
    db,
    `UPDATE web_hooks SET recent_failures = 0, backoff_count = 0, disabled_until = NULL, permanently_disabled = 0
     WHERE id = ? AND (recent_failures > 0 OR permanently_disabled = 1 OR disabled_until IS NOT NULL)`,
  ).run(id)
}

/** Stores a hook's auto-disable state after a failed delivery. */
export function storeHookFailure(
  db: Db,
  id: number,
  state: {
    readonly recentFailures: number
    readonly backoffCount: number
    readonly disabledUntil: string | null
    readonly permanentlyDisabled: boolean
  },
): void {
  cachedStatement(
    db,
    `UPDATE web_hooks SET recent_failures = ?, backoff_count = ?, disabled_until = ?, permanently_disabled = ? WHERE id = ?`,
  ).run(state.recentFailures, state.backoffCount, state.disabledUntil, state.permanentlyDisabled ? 1 : 0, id)
}

/** A row of `web_hook_logs`; headers and request data are JSON text. */
export interface HookLogRow {
  readonly id: number
  readonly web_hook_id: number
  readonly trigger: string
  readonly url: string
  readonly request_headers: string
  readonly request_data: string
  readonly response_headers: string
  readonly response_body: string
  readonly response_status: string
  readonly execution_duration: number
  readonly internal_error_message: string | null
  readonly created_at: string
}

export type NewHookLog = Omit<HookLogRow, 'id'>

/** Logs a delivery, unless its hook has been deleted meanwhile (then answers undefined). */
export function insertHookLog(db: Db, log: NewHookLog): HookLogRow | undefined {
  return cachedStatement(
    db,
    `INSERT INTO web_hook_logs (web_hook_id, trigger, url, request_headers, request_data, response_headers,
       response_body, response_status, execution_duration, internal_error_message, created_at)
     SELECT :web_hook_id, :trigger, :url, :request_headers, :request_data, :response_headers,
       :response_body, :response_status, :execution_duration, :internal_error_message, :created_at
     WHERE EXISTS (SELECT 1 FROM web_hooks WHERE id = :web_hook_id)
     RETURNING *`,
  ).get(log) as HookLogRow | undefined
}

/** Which deliveries a list shows: GitLab's `status` filter as SQL over the stored status text. */
export type HookLogStatusFilter =
  | { readonly kind: 'codes'; readonly codes: readonly string[] }
  | { readonly kind: 'successful' | 'client_failure' | 'server_failure' }

function statusClause(filter: HookLogStatusFilter | undefined): string {
  if (!filter) return '1'
  switch (filter.kind) {
    case 'successful':
      return "response_status GLOB '2[0-9][0-9]'"
    case 'client_failure':
      return "response_status GLOB '4[0-9][0-9]'"
    case 'server_failure':
      return "(response_status GLOB '5[0-9][0-9]' OR response_status = 'internal error')"
    case 'codes':
      return `response_status IN (${filter.codes.map((c) => `'${c.replace(/[^0-9]/g, '')}'`).join(', ') || "''"})`
  }
}

/** A hook's deliveries since `since`, newest first. */
export function hookLogsOf(db: Db, hookId: number, since: string, filter?: HookLogStatusFilter): HookLogRow[] {
  return db
    .prepare(
      `SELECT * FROM web_hook_logs WHERE web_hook_id = ? AND created_at >= ? AND ${statusClause(filter)}
       ORDER BY id DESC`,
    )
    .all(hookId, since) as HookLogRow[]
}

export function findHookLog(db: Db, hookId: number, id: number): HookLogRow | undefined {
  return cachedStatement(db, 'SELECT * FROM web_hook_logs WHERE web_hook_id = ? AND id = ?').get(hookId, id) as
    HookLogRow | undefined
}

/** Deletes deliveries older than `before` (GitLab keeps a month of them). */
export function pruneHookLogs(db: Db, before: string): void {
  cachedStatement(db, 'DELETE FROM web_hook_logs WHERE created_at < ?').run(before)
}

/** The first project (by id) of a group or its subgroups, for a group hook's test delivery. */
export function firstProjectInGroup(db: Db, groupId: number): number | undefined {
  const row = cachedStatement(
    db,
    `WITH RECURSIVE tree(id) AS (
       SELECT :group UNION SELECT n.id FROM namespaces n JOIN tree t ON n.parent_id = t.id
     )
     SELECT id FROM projects WHERE namespace_id IN (SELECT id FROM tree) ORDER BY id LIMIT 1`,
  ).get({ group: groupId }) as { id: number } | undefined
  return row?.id
}
