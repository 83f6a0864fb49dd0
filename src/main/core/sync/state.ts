import type { SyncScope } from '../../../shared/ipc/cache'
import type { Cache } from '../cache/cache'

/** Where an incremental list stopped: the newest `updated_at` applied, and the ids applied at exactly that instant. */
export interface Cursor {
  readonly updatedAfter: string | null
  readonly seenIds: readonly number[]
  /** The server refused this list (403/404, e.g. epics on an instance without them). */
  readonly unsupported: boolean
}

export interface SyncTimes {
  readonly lastStartedAt: string | null
  readonly lastCompletedAt: string | null
  readonly lastReconciledAt: string | null
  readonly lastError: string | null
}

/** The sync tables of the cache database (sync_scopes, sync_cursors, sync_state). */
export class SyncState {
  constructor(private readonly cache: Cache) {}

  scope(accountId: string): SyncScope {
    const row = this.cache
      .stmt('SELECT mode, project_ids, group_ids FROM sync_scopes WHERE acct = ?')
      .get(this.cache.acct(accountId)) as
      { mode: 'memberships' | 'custom'; project_ids: string; group_ids: string } | undefined
    if (row === undefined || row.mode === 'memberships') return { mode: 'memberships' }
    return {
      mode: 'custom',
      project_ids: JSON.parse(row.project_ids) as number[],
      group_ids: JSON.parse(row.group_ids) as number[],
    }
  }

  setScope(accountId: string, scope: SyncScope): void {
    const projectIds = scope.mode === 'custom' ? [...new Set(scope.project_ids)] : []
    const groupIds = scope.mode === 'custom' ? [...new Set(scope.group_ids)] : []
    this.cache
      .stmt(
        `INSERT INTO sync_scopes (acct, mode, project_ids, group_ids, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (acct) DO UPDATE SET mode = excluded.mode, project_ids = excluded.project_ids, group_ids = excluded.group_ids, updated_at = excluded.updated_at`,
      )
      .run(
        this.cache.acct(accountId),
        scope.mode,
        JSON.stringify(projectIds),
        JSON.stringify(groupIds),
        new Date().toISOString(),
      )
  }

  cursor(accountId: string, resource: string, scopeKind: 'project' | 'group' | 'account', scopeId: number): Cursor {
    const row = this.cache
      .stmt(
        'SELECT updated_after, seen_ids, unsupported FROM sync_cursors WHERE acct = ? AND resource = ? AND scope_kind = ? AND scope_id = ?',
      )
      .get(this.cache.acct(accountId), resource, scopeKind, scopeId) as
      { updated_after: string | null; seen_ids: string; unsupported: number } | undefined
    if (row === undefined) return { updatedAfter: null, seenIds: [], unsupported: false }
    return {
      updatedAfter: row.updated_after,
      seenIds: JSON.parse(row.seen_ids) as number[],
      unsupported: row.unsupported === 1,
    }
  }

  /** Whether this list was ever synced (a row exists, whatever its position). */
  hasCursor(accountId: string, resource: string, scopeKind: 'project' | 'group' | 'account', scopeId: number): boolean {
    return (
      this.cache
        .stmt('SELECT 1 FROM sync_cursors WHERE acct = ? AND resource = ? AND scope_kind = ? AND scope_id = ?')
        .get(this.cache.acct(accountId), resource, scopeKind, scopeId) !== undefined
    )
  }

  /** Saves a list's position; call inside the transaction that wrote the page's rows. */
  setCursor(
    accountId: string,
    resource: string,
    scopeKind: 'project' | 'group' | 'account',
    scopeId: number,
    cursor: Cursor,
  ): void {
    this.cache
      .stmt(
        `INSERT INTO sync_cursors (acct, resource, scope_kind, scope_id, updated_after, seen_ids, unsupported, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (acct, resource, scope_kind, scope_id) DO UPDATE SET updated_after = excluded.updated_after, seen_ids = excluded.seen_ids,
           unsupported = excluded.unsupported, updated_at = excluded.updated_at`,
      )
      .run(
        this.cache.acct(accountId),
        resource,
        scopeKind,
        scopeId,
        cursor.updatedAfter,
        JSON.stringify(cursor.seenIds),
        cursor.unsupported ? 1 : 0,
        new Date().toISOString(),
      )
  }

  clearCursor(accountId: string, resource: string, scopeKind: 'project' | 'group' | 'account', scopeId: number): void {
    this.cache
      .stmt('DELETE FROM sync_cursors WHERE acct = ? AND resource = ? AND scope_kind = ? AND scope_id = ?')
      .run(this.cache.acct(accountId), resource, scopeKind, scopeId)
  }

  times(accountId: string): SyncTimes {
    const row = this.cache
      .stmt('SELECT last_started_at, last_completed_at, last_reconciled_at, last_error FROM sync_state WHERE acct = ?')
      .get(this.cache.acct(accountId)) as
      | {
          last_started_at: string | null
          last_completed_at: string | null
          last_reconciled_at: string | null
          last_error: string | null
        }
      | undefined
    return {
      lastStartedAt: row?.last_started_at ?? null,
      lastCompletedAt: row?.last_completed_at ?? null,
      lastReconciledAt: row?.last_reconciled_at ?? null,
      lastError: row?.last_error ?? null,
    }
  }

  markTimes(accountId: string, times: Partial<SyncTimes>): void {
    const current = this.times(accountId)
    const next = { ...current, ...times }
    this.cache
      .stmt(
        `INSERT INTO sync_state (acct, last_started_at, last_completed_at, last_reconciled_at, last_error) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (acct) DO UPDATE SET last_started_at = excluded.last_started_at, last_completed_at = excluded.last_completed_at,
           last_reconciled_at = excluded.last_reconciled_at, last_error = excluded.last_error`,
      )
      .run(this.cache.acct(accountId), next.lastStartedAt, next.lastCompletedAt, next.lastReconciledAt, next.lastError)
  }
}
