import type { Db } from '../db/connection'
import { nowIso } from '../db/connection'

/** A row of `todos`. */
export interface TodoRow {
  readonly id: number
  readonly user_id: number
  readonly author_id: number
  readonly project_id: number | null
  readonly group_id: number | null
  readonly target_type: string
  readonly target_id: number
  readonly commit_id: string | null
  readonly action: string
  readonly state: 'pending' | 'done'
  readonly body: string
  readonly note_id: number | null
  readonly created_at: string
  readonly updated_at: string
}

/** Fields of a new to-do. */
export interface NewTodo {
  readonly userId: number
  readonly authorId: number
  readonly projectId?: number | null
  readonly groupId?: number | null
  readonly targetType: string
  readonly targetId: number
  readonly action: 'assigned' | 'mentioned' | 'marked' | 'directly_addressed' | 'review_requested' | 'approval_required' | 'build_failed' | 'unmergeable'
  readonly body?: string
  readonly noteId?: number | null
}

/** Creates a pending to-do. */
export function createTodo(db: Db, t: NewTodo): TodoRow {
  const now = nowIso()
  const info = db
    .prepare(
      `INSERT INTO todos (user_id, author_id, project_id, group_id, target_type, target_id, action, state, body, note_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?)`,
    )
    .run(t.userId, t.authorId, t.projectId ?? null, t.groupId ?? null, t.targetType, t.targetId, t.action, t.body ?? '', t.noteId ?? null, now, now)
  return db.prepare('SELECT * FROM todos WHERE id = ?').get(Number(info.lastInsertRowid)) as TodoRow
}

/** Marks one to-do done; false when it was not pending. */
export function markTodoDone(db: Db, id: number): boolean {
  return db.prepare("UPDATE todos SET state = 'done', updated_at = ? WHERE id = ? AND state = 'pending'").run(nowIso(), id).changes > 0
}

/** The user's pending to-do on a target (of the given action when given), if any. */
export function pendingTodoFor(db: Db, userId: number, targetType: string, targetId: number, action?: string): TodoRow | undefined {
  return db
    .prepare(
      `SELECT * FROM todos WHERE user_id = ? AND target_type = ? AND target_id = ? AND state = 'pending' ${action ? 'AND action = ?' : ''} ORDER BY id LIMIT 1`,
    )
    .get(userId, targetType, targetId, ...(action ? [action] : [])) as TodoRow | undefined
}
