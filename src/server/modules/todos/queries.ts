import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'

export type TodoAction =
  | 'assigned'
  | 'mentioned'
  | 'build_failed'
  | 'marked'
  | 'approval_required'
  | 'unmergeable'
  | 'directly_addressed'
  | 'merge_train_removed'
  | 'review_requested'
  | 'member_access_requested'
  | 'review_submitted'

export interface TodoRow {
  readonly id: number
  readonly user_id: number
  readonly author_id: number
  readonly project_id: number | null
  readonly group_id: number | null
  readonly target_type: string
  readonly target_id: number
  readonly commit_id: string | null
  readonly action: TodoAction
  readonly state: 'pending' | 'done'
  readonly body: string
  readonly note_id: number | null
  readonly created_at: string
  readonly updated_at: string
}

export interface NewTodoRow {
  readonly userId: number
  readonly authorId: number
  readonly projectId: number | null
  readonly groupId?: number | null
  readonly targetType: string
  readonly targetId: number
  readonly action: TodoAction
  readonly body: string
  readonly noteId?: number | null
}

/** Inserts a pending to-do. */
export function insertTodoRow(db: Db, t: NewTodoRow): number {
  const now = nowIso()
  const info = db
    .prepare(
      `INSERT INTO todos (user_id, author_id, project_id, group_id, target_type, target_id, action, state, body, note_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?)`,
    )
    .run(
      t.userId,
      t.authorId,
      t.projectId,
      t.groupId ?? null,
      t.targetType,
      t.targetId,
      t.action,
      t.body,
      t.noteId ?? null,
      now,
      now,
    )
  return Number(info.lastInsertRowid)
}

/** One to-do by id. */
export function findTodoById(db: Db, id: number): TodoRow | undefined {
  return db.prepare('SELECT * FROM todos WHERE id = ?').get(id) as TodoRow | undefined
}

export interface TodoFilter {
  readonly userId: number
  readonly state: 'pending' | 'done'
  readonly action?: string
  readonly authorId?: number
  readonly projectId?: number
  /** Projects of the group and its descendants plus the groups themselves. */
  readonly groupIds?: readonly number[]
  readonly type?: string
  /** To-dos left out: those whose target or project the user may no longer read. */
  readonly hiddenIds?: readonly number[]
}

/** The WHERE clause of a to-do filter and its values. */
function todoWhere(f: TodoFilter): { sql: string; params: unknown[] } {
  const where = ['user_id = ?', 'state = ?']
  const params: unknown[] = [f.userId, f.state]
  if (f.action !== undefined) {
    where.push('action = ?')
    params.push(f.action)
  }
  if (f.authorId !== undefined) {
    where.push('author_id = ?')
    params.push(f.authorId)
  }
  if (f.projectId !== undefined) {
    where.push('project_id = ?')
    params.push(f.projectId)
  }
  if (f.type !== undefined) {
    where.push('target_type = ?')
    params.push(f.type)
  }
  if (f.groupIds !== undefined) {
    const marks = f.groupIds.map(() => '?').join(', ') || 'NULL'
    where.push(`(group_id IN (${marks}) OR project_id IN (SELECT id FROM projects WHERE namespace_id IN (${marks})))`)
    params.push(...f.groupIds, ...f.groupIds)
  }
  if (f.hiddenIds && f.hiddenIds.length > 0) {
    where.push('id NOT IN (SELECT value FROM json_each(?))')
    params.push(JSON.stringify(f.hiddenIds))
  }
  return { sql: where.join(' AND '), params }
}

/** What the read rule needs of every to-do matching `f` (the whole list, not a page). */
export function todoTargets(
  db: Db,
  f: TodoFilter,
): Pick<TodoRow, 'id' | 'project_id' | 'group_id' | 'target_type' | 'target_id' | 'note_id'>[] {
  const { sql, params } = todoWhere(f)
  return db
    .prepare(`SELECT id, project_id, group_id, target_type, target_id, note_id FROM todos WHERE ${sql}`)
    .all(...params) as TodoRow[]
}

/**
 * The user's pending to-do on a target, if any. Without `action` any pending to-do counts, as
 * GitLab's "mark as to-do" does when it answers 304.
 */
export function pendingTodoFor(
  db: Db,
  userId: number,
  targetType: string,
  targetId: number,
  action?: TodoAction,
): TodoRow | undefined {
  return db
    .prepare(
      `SELECT * FROM todos WHERE user_id = ? AND target_type = ? AND target_id = ? AND state = 'pending' ${action ? 'AND action = ?' : ''} ORDER BY id LIMIT 1`,
    )
    .get(userId, targetType, targetId, ...(action ? [action] : [])) as TodoRow | undefined
}

/** A page of a user's to-dos, newest first. */
export function listTodos(db: Db, f: TodoFilter, limit: number, offset: number): { rows: TodoRow[]; total: number } {
  const { sql, params } = todoWhere(f)
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM todos WHERE ${sql}`).get(...params) as { n: number }).n
  const rows = db
    .prepare(`SELECT * FROM todos WHERE ${sql} ORDER BY id DESC LIMIT ? OFFSET ?`)
    .all(...params, limit, offset) as TodoRow[]
  return { rows, total }
}

/** Marks one to-do done. */
export function markTodoRowDone(db: Db, id: number): TodoRow {
  db.prepare(`UPDATE todos SET state = 'done', updated_at = ? WHERE id = ?`).run(nowIso(), id)
  return findTodoById(db, id) as TodoRow
}

/**
 * Marks a user's pending to-dos on one target done (GitLab's resolve_todos_for_target): acting on
 * an issue, merge request or epic — commenting, editing, closing, merging, approving, reacting —
 * settles what was asked of that user there.
 */
export function resolveTodosForTarget(db: Db, userId: number, targetType: string, targetId: number): number {
  return db
    .prepare(
      `UPDATE todos SET state = 'done', updated_at = ? WHERE user_id = ? AND target_type = ? AND target_id = ? AND state = 'pending'`,
    )
    .run(nowIso(), userId, targetType, targetId).changes
}

/** Marks every pending to-do of a user done; returns how many. */
export function markAllTodoRowsDone(db: Db, userId: number): number {
  return db
    .prepare(`UPDATE todos SET state = 'done', updated_at = ? WHERE user_id = ? AND state = 'pending'`)
    .run(nowIso(), userId).changes
}

/** Ids of the user's pending to-dos whose issue is closed or whose merge request is merged or closed. */
export function pendingTodosOnFinishedTargets(db: Db, userId: number): number[] {
  return db
    .prepare(
      `SELECT t.id FROM todos t
       LEFT JOIN issues i ON t.target_type = 'Issue' AND i.id = t.target_id
       LEFT JOIN merge_requests m ON t.target_type = 'MergeRequest' AND m.id = t.target_id
       WHERE t.user_id = ? AND t.state = 'pending' AND (i.state = 'closed' OR m.state IN ('merged', 'closed'))
       ORDER BY t.id`,
    )
    .pluck()
    .all(userId) as number[]
}
