/**
 * To-do items (spec "To-do item").
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable, Timestamp } from './common'
import { AlertTarget } from './alert'
import { Epic } from './epic'
import { Issue } from './issue'
import { MergeRequest } from './merge-request'
import { NamespaceRef } from './namespace'
import { ProjectIdentity, ProjectRef } from './project'
import { UserRef } from './user'

/** Why the to-do exists. */
export const TodoAction = Type.Enum([
  'assigned',
  'mentioned',
  'build_failed',
  'marked',
  'approval_required',
  'unmergeable',
  'directly_addressed',
  'merge_train_removed',
  'review_requested',
  'member_access_requested',
  'review_submitted',
])

/** What a to-do is about: the issue, merge request, epic or alert, or null once it is gone. */
export const TodoTarget = Nullable(Type.Union([Issue, MergeRequest, Epic, AlertTarget]))
export type TodoTarget = Static<typeof TodoTarget>

/** GitLab's Todo entity (`GET /todos`, mark as done, an issue's or epic's `todo`). */
export const Todo = Entity({
  id: Type.Integer(),
  project: Nullable(ProjectIdentity),
  /** The group of a group-level to-do (epics). */
  group: Nullable(NamespaceRef),
  author: UserRef,
  action_name: TodoAction,
  /** `Issue`, `MergeRequest`, `Epic`, `AlertManagement::Alert`, `Commit`… */
  target_type: Type.String(),
  target: TodoTarget,
  target_url: Nullable(Type.String()),
  body: Type.String(),
  state: Type.Enum(['pending', 'done']),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type Todo = Static<typeof Todo>

/**
 * `POST …/merge_requests/:merge_request_iid/todo`: a to-do whose `project` is a `project_ref`
 * and which has no `group`, unlike the other to-do answers.
 */
export const MergeRequestTodo = Entity({
  id: Type.Integer(),
  project: Nullable(ProjectRef),
  author: UserRef,
  action_name: TodoAction,
  target_type: Type.Literal('MergeRequest'),
  target: MergeRequest,
  target_url: Type.String(),
  body: Type.String(),
  state: Type.Enum(['pending', 'done']),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type MergeRequestTodo = Static<typeof MergeRequestTodo>
