import type { MergeRequest } from '../../../shared/api/merge-request'
import type { ProjectRef } from '../../../shared/api/project'
import type { MergeRequestTodo, Todo, TodoTarget } from '../../../shared/api/todo'
import type { UserRef } from '../../../shared/api/user'
import type { TodoRow } from './queries'
import type { ProjectWithNamespaceRow } from '../projects'
import type { NamespaceRow, UserRow } from '../../platform/db/rows'
import { userRef } from '../users'

/** What a to-do's JSON needs besides its row, loaded for a whole page by the caller. */
export interface TodoExtras {
  readonly baseUrl: string
  readonly author: UserRow
  readonly project: ProjectWithNamespaceRow | undefined
  /** The group of a group-level target (epics). */
  readonly group?: NamespaceRow
  /** The target's entity (the issue for Issue to-dos), or null when it is gone. */
  readonly target: TodoTarget
  readonly targetUrl: string | null
}

/** GitLab's Todo entity. */
export function todoEntity(todo: TodoRow, x: TodoExtras): Todo {
  const p = x.project
  return {
    id: todo.id,
    project: p
      ? {
          id: p.id,
          name: p.name,
          name_with_namespace: `${p.ns_full_name} / ${p.name}`,
          path: p.path,
          path_with_namespace: `${p.ns_full_path}/${p.path}`,
        }
      : null,
    group: x.group
      ? {
          id: x.group.id,
          name: x.group.name,
          path: x.group.path,
          kind: x.group.kind,
          full_path: x.group.full_path,
          parent_id: x.group.parent_id,
        }
      : null,
    author: userRef(x.author, x.baseUrl),
    action_name: todo.action,
    target_type: todo.target_type,
    target: x.target,
    target_url: x.targetUrl,
    body: todo.body,
    state: todo.state,
    created_at: todo.created_at,
    updated_at: todo.updated_at,
  }
}

/**
 * The answer to marking a merge request as a to-do (GitLab's Todo entity there): the project as a
 * `project_ref`, no `group`, and the merge request's title as the body.
 */
export function mergeRequestTodoEntity(
  todo: TodoRow,
  x: { readonly project: ProjectRef | null; readonly author: UserRef; readonly target: MergeRequest },
): MergeRequestTodo {
  return {
    id: todo.id,
    project: x.project,
    author: x.author,
    action_name: todo.action,
    target_type: 'MergeRequest',
    target: x.target,
    target_url: x.target.web_url,
    body: x.target.title,
    state: todo.state,
    created_at: todo.created_at,
    updated_at: todo.updated_at,
  }
}
