import type { Db } from '../../platform/db/connection'
import { findTodoById, insertTodoRow, markTodoRowDone, type TodoAction, type TodoRow } from './queries'

export { pendingTodoFor, type TodoRow } from './queries'

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
