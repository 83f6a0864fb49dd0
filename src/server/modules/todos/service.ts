import type { Epic } from '../../../shared/api/epic'
import type { Issue } from '../../../shared/api/issue'
import type { Todo } from '../../../shared/api/todo'
import type { Db } from '../../platform/db/connection'
import type { NamespaceRow, UserRow } from '../../platform/db/rows'
import { notModified } from '../../platform/http/errors'
import type { ProjectWithNamespaceRow } from '../projects'
import { todoEntity } from './entity'
import { findTodoById, insertTodoRow, markTodoRowDone, pendingTodoFor, type TodoAction, type TodoRow } from './queries'

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

/** What a user marks a to-do on through an issue's or epic's `POST …/todo`. */
export interface MarkedTarget {
  readonly type: 'Issue' | 'Epic'
  readonly id: number
  readonly title: string
  /** Where it lives: an issue's project, or an epic's group. */
  readonly project?: ProjectWithNamespaceRow
  readonly group?: NamespaceRow
  /** The target's entity for the user, built only once the to-do is made. */
  readonly present: () => Issue | Epic
}

/**
 * GitLab's `POST …/todo` on an issue or epic: the user's own pending `marked` to-do on it, as its
 * entity; 304 when one is already pending there.
 */
export function markTodo(db: Db, baseUrl: string, user: UserRow, target: MarkedTarget): Todo {
  if (pendingTodoFor(db, user.id, target.type, target.id)) throw notModified()
  const todo = createTodo(db, {
    userId: user.id,
    authorId: user.id,
    projectId: target.project?.id,
    groupId: target.group?.id,
    targetType: target.type,
    targetId: target.id,
    action: 'marked',
    body: target.title,
  })
  const entity = target.present()
  return todoEntity(todo, {
    baseUrl,
    author: user,
    project: target.project,
    group: target.group,
    target: entity,
    targetUrl: entity.web_url,
  })
}

/** Marks one to-do done; false when it was not pending. */
export function markTodoDone(db: Db, id: number): boolean {
  const todo = findTodoById(db, id)
  if (!todo || todo.state !== 'pending') return false
  markTodoRowDone(db, id)
  return true
}
