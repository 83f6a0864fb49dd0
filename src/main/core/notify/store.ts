import type { NotifyAlert } from '../../../shared/ipc/notify'
import type { Cache } from '../cache/cache'
import type { JsonObject } from '../cache/json'

/** The watcher's row of one account (migration 100, `notify_accounts`). */
export interface NotifyAccountRow {
  /** Highest to-do id already seen; null until the first check recorded it. */
  readonly lastTodoId: number | null
  readonly todosCheckedAt: string | null
  readonly alertsCheckedAt: string | null
  readonly lastError: string | null
}

/** What the last check saw of one project's alerts. */
export interface NotifyProjectRow {
  readonly projectId: number
  readonly fullPath: string
  readonly lastAlertIid: number
  readonly openCount: number
  readonly triggeredCount: number
}

/** A project of the account's sync scope, as the cache has it. */
export interface ScopeProject {
  readonly id: number
  readonly fullPath: string
}

/** A cached to-do with the account it belongs to. */
export interface CachedTodo {
  readonly accountId: string
  readonly json: JsonObject
}

/**
 * The watcher's tables in the cache database (migration 100): marks of what was seen, the last
 * alert check per project, and its open alerts. Reads of to-dos and projects go to the tables
 * sync and the outbox fill, so counts include optimistic changes.
 */
export class NotifyStore {
  constructor(private readonly cache: Cache) {}

  account(accountId: string): NotifyAccountRow | null {
    const acct = this.cache.existingAcct(accountId)
    if (acct === null) return null
    const row = this.cache.db
      .prepare(
        'SELECT last_todo_id, todos_checked_at, alerts_checked_at, last_error FROM notify_accounts WHERE acct = ?',
      )
      .get(acct) as
      | {
          last_todo_id: number | null
          todos_checked_at: string | null
          alerts_checked_at: string | null
          last_error: string | null
        }
      | undefined
    return row === undefined
      ? null
      : {
          lastTodoId: row.last_todo_id,
          todosCheckedAt: row.todos_checked_at,
          alertsCheckedAt: row.alerts_checked_at,
          lastError: row.last_error,
        }
  }

  /** Sets some fields of the account's row, creating it. */
  updateAccount(accountId: string, fields: Partial<NotifyAccountRow>): void {
    const acct = this.cache.acct(accountId)
    const current = this.account(accountId) ?? {
      lastTodoId: null,
      todosCheckedAt: null,
      alertsCheckedAt: null,
      lastError: null,
    }
    const next = { ...current, ...fields }
    this.cache.db
      .prepare(
        `INSERT INTO notify_accounts (acct, last_todo_id, todos_checked_at, alerts_checked_at, last_error) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (acct) DO UPDATE SET last_todo_id = excluded.last_todo_id, todos_checked_at = excluded.todos_checked_at,
           alerts_checked_at = excluded.alerts_checked_at, last_error = excluded.last_error`,
      )
      .run(acct, next.lastTodoId, next.todosCheckedAt, next.alertsCheckedAt, next.lastError)
  }

  // --- to-dos (the cache's `todos` table) -------------------------------------------------------

  pendingTodoCount(accountId: string): number {
    const acct = this.cache.existingAcct(accountId)
    if (acct === null) return 0
    return this.cache.db
      .prepare("SELECT COUNT(*) FROM todos WHERE acct = ? AND state = 'pending'")
      .pluck()
      .get(acct) as number
  }

  /** Pending to-dos the server gave ids above `afterId`, oldest first (provisional ones, with negative ids, never). */
  pendingTodosAfter(accountId: string, afterId: number): JsonObject[] {
    const acct = this.cache.existingAcct(accountId)
    if (acct === null) return []
    const rows = this.cache.db
      .prepare("SELECT json FROM todos WHERE acct = ? AND state = 'pending' AND id > ? ORDER BY id")
      .pluck()
      .all(acct, Math.max(0, afterId)) as string[]
    return rows.map((j) => JSON.parse(j) as JsonObject)
  }

  maxTodoId(accountId: string): number {
    const acct = this.cache.existingAcct(accountId)
    if (acct === null) return 0
    return (this.cache.db.prepare('SELECT MAX(id) FROM todos WHERE acct = ?').pluck().get(acct) as number | null) ?? 0
  }

  /** The newest pending to-dos of the given accounts. */
  latestTodos(accountIds: readonly string[], limit: number): CachedTodo[] {
    const rows = this.cache.db
      .prepare(
        `SELECT c.account_id, t.json FROM todos t JOIN cache_accounts c ON c.acct = t.acct
         WHERE c.account_id IN (SELECT value FROM json_each(?)) AND t.state = 'pending' ORDER BY t.created_at DESC, t.id DESC LIMIT ?`,
      )
      .all(JSON.stringify(accountIds), limit) as { account_id: string; json: string }[]
    return rows.map((r) => ({ accountId: r.account_id, json: JSON.parse(r.json) as JsonObject }))
  }

  // --- alerts ------------------------------------------------------------------------------------

  /** The projects sync keeps for the account (its scope), by id. */
  scopeProjects(accountId: string): ScopeProject[] {
    const acct = this.cache.existingAcct(accountId)
    if (acct === null) return []
    return this.cache.db
      .prepare('SELECT id, path_with_namespace AS fullPath FROM projects WHERE acct = ? AND synced = 1 ORDER BY id')
      .all(acct) as ScopeProject[]
  }

  /** A cached project's full path (in scope or not), or null. */
  projectPath(accountId: string, projectId: number): string | null {
    const acct = this.cache.existingAcct(accountId)
    if (acct === null) return null
    return (
      (this.cache.db
        .prepare('SELECT path_with_namespace FROM projects WHERE acct = ? AND id = ?')
        .pluck()
        .get(acct, projectId) as string | undefined) ?? null
    )
  }

  projects(accountId: string): Map<number, NotifyProjectRow> {
    const acct = this.cache.existingAcct(accountId)
    if (acct === null) return new Map()
    const rows = this.cache.db
      .prepare(
        'SELECT project_id AS projectId, full_path AS fullPath, last_alert_iid AS lastAlertIid, open_count AS openCount, triggered_count AS triggeredCount FROM notify_projects WHERE acct = ?',
      )
      .all(acct) as NotifyProjectRow[]
    return new Map(rows.map((r) => [r.projectId, r]))
  }

  /** Records one project's check: its mark, its counts and its open alerts (replacing the previous ones), in one transaction. */
  recordProject(accountId: string, row: NotifyProjectRow, openAlerts: readonly NotifyAlert[], checkedAt: string): void {
    this.cache.transaction(() => {
      const acct = this.cache.acct(accountId)
      this.cache.db
        .prepare(
          `INSERT INTO notify_projects (acct, project_id, full_path, last_alert_iid, open_count, triggered_count, checked_at) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (acct, project_id) DO UPDATE SET full_path = excluded.full_path, last_alert_iid = excluded.last_alert_iid,
             open_count = excluded.open_count, triggered_count = excluded.triggered_count, checked_at = excluded.checked_at`,
        )
        .run(acct, row.projectId, row.fullPath, row.lastAlertIid, row.openCount, row.triggeredCount, checkedAt)
      this.cache.db.prepare('DELETE FROM notify_alerts WHERE acct = ? AND project_id = ?').run(acct, row.projectId)
      const insert = this.cache.db.prepare(
        'INSERT INTO notify_alerts (acct, project_id, iid, status, created_at, json) VALUES (?, ?, ?, ?, ?, ?)',
      )
      for (const a of openAlerts) insert.run(acct, row.projectId, a.iid, a.status, a.createdAt, JSON.stringify(a))
    })
  }

  /** Forgets the projects that left the sync scope. */
  keepProjects(accountId: string, projectIds: readonly number[]): void {
    const acct = this.cache.existingAcct(accountId)
    if (acct === null) return
    this.cache.transaction(() => {
      for (const table of ['notify_projects', 'notify_alerts']) {
        this.cache.db
          .prepare(`DELETE FROM ${table} WHERE acct = ? AND project_id NOT IN (SELECT value FROM json_each(?))`)
          .run(acct, JSON.stringify(projectIds))
      }
    })
  }

  /** Open and triggered alerts over the account's checked projects, or null before the first alert check. */
  alertCounts(accountId: string): { open: number; triggered: number } | null {
    const row = this.account(accountId)
    if (row?.alertsCheckedAt == null) return null
    const acct = this.cache.acct(accountId)
    const sums = this.cache.db
      .prepare(
        'SELECT COALESCE(SUM(open_count), 0) AS open, COALESCE(SUM(triggered_count), 0) AS triggered FROM notify_projects WHERE acct = ?',
      )
      .get(acct) as {
      open: number
      triggered: number
    }
    return sums
  }

  /** Open alerts the last checks saw, newest first; `statuses` narrows them. */
  openAlerts(accountIds: readonly string[], statuses: readonly string[], limit: number): NotifyAlert[] {
    const rows = this.cache.db
      .prepare(
        `SELECT a.json FROM notify_alerts a JOIN cache_accounts c ON c.acct = a.acct
         WHERE c.account_id IN (SELECT value FROM json_each(?)) AND a.status IN (SELECT value FROM json_each(?))
         ORDER BY a.created_at DESC, a.iid DESC LIMIT ?`,
      )
      .pluck()
      .all(JSON.stringify(accountIds), JSON.stringify(statuses), limit) as string[]
    return rows.map((j) => JSON.parse(j) as NotifyAlert)
  }
}
