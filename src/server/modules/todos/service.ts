import type { Db } from '../../platform/db/connection'
import { findTodoById, insertTodoRow, markTodoRowDone, type TodoAction, type TodoRow } from './queries'

export type { TodoRow } from './queries'

/** Fields of a new to-do. */
export interface NewTodo {
  readonly userId: number
  readonly authorId: number
  readonly projectId?: number | null
  readonly groupId?: number | null
  readonly targetType: string
  readonly targetId: number
  readonly action: TodoAction
  readonly body?: string
  readonly noteId?: number | null
}

/** Creates a pending to-do (the rows live in db/todos.ts, shared with the to-dos API). */
export function createTodo(db: Db, t: NewTodo): TodoRow {
  const id = insertTodoRow(db, { ...t, projectId: t.projectId ?? null, body: t.body ?? '' })
  return findTodoById(db, id) as TodoRow
}

/** Marks one to-do done; false when it was not pending. */
export function markTodoDone(db: Db, id: number): boolean {
  const todo = findTodoById(db, id)
  if (!todo || todo.state !== 'pending') return false
  markTodoRowDone(db, id)
  return true
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
