import * as Api from '../../../shared/api/index'
import type { FastifyRequest } from 'fastify'
import { callerOf } from '../../platform/caller'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { findIssueById, presentIssues, type IssueRow } from '../issues'
import { usersByIds } from '../users'
import { findGroup, findNamespaceById, groupAndDescendantIds } from '../namespaces'
import { findProjectWithNamespace, type ProjectWithNamespaceRow } from '../projects'
import type { NamespaceRow, UserRow } from '../../platform/db/rows'
import {
  findTodoById,
  listTodos,
  markAllTodoRowsDone,
  markTodoRowDone,
  todoTargets,
  type TodoFilter,
  type TodoRow,
} from './queries'
import { todoEntity } from './entity'
import { notFound } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser } from '../../platform/http/resolve'
import { presentEpicsById } from '../epics'
import { findMergeRequestById, presentMergeRequests, type MergeRequestRow } from '../merge-requests'
import { ALERT_TARGET_TYPE, alertTodoTargets } from '../alerts'
import { ReadableItems } from '../../platform/auth/readable'

const TARGET_TYPES = [
  'Issue',
  'MergeRequest',
  'Commit',
  'Epic',
  'DesignManagement::Design',
  'AlertManagement::Alert',
  'Namespace',
  'Project',
  'Key',
  'WikiPage::Meta',
] as const
const ACTIONS = [
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
] as const

const ListQuery = Type.Object({
  action: Type.Optional(Type.Union(ACTIONS.map((a) => Type.Literal(a)))),
  author_id: Type.Optional(Type.Integer()),
  project_id: Type.Optional(Type.Integer()),
  group_id: Type.Optional(Type.Integer()),
  state: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('done')])),
  type: Type.Optional(Type.Union(TARGET_TYPES.map((t) => Type.Literal(t)))),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})
const TodoParams = Type.Object({ id: Type.Integer() })

/** Serialises a page of to-dos: authors, projects, groups and issue/merge request/epic targets loaded per page, not per row. */
function presentTodos(request: FastifyRequest, rows: readonly TodoRow[]): Api.Todo[] {
  const db = request.server.burrow.db
  const baseUrl = request.server.burrow.baseUrl(request)
  const authors = usersByIds(
    db,
    rows.map((r) => r.author_id),
  )
  const projects = new Map<number, ProjectWithNamespaceRow | undefined>()
  for (const id of new Set(rows.map((r) => r.project_id).filter((id): id is number => id !== null)))
    projects.set(id, findProjectWithNamespace(db, id))
  const issues = [...new Set(rows.filter((r) => r.target_type === 'Issue').map((r) => r.target_id))]
    .map((id) => findIssueById(db, id))
    .filter((i): i is IssueRow => i !== undefined)
  const presented = presentIssues(callerOf(request), issues, { origin: { kind: 'none' } })
  const issueJson = new Map(issues.map((issue, i) => [issue.id, presented[i]]))
  const mergeRequests = [...new Set(rows.filter((r) => r.target_type === 'MergeRequest').map((r) => r.target_id))]
    .map((id) => findMergeRequestById(db, id))
    .filter((m): m is MergeRequestRow => m !== undefined)
  const presentedMrs = presentMergeRequests(callerOf(request), mergeRequests)
  const mergeRequestJson = new Map(mergeRequests.map((mr, i) => [mr.id, presentedMrs[i]]))
  const epicJson = presentEpicsById(
    callerOf(request),
    rows.filter((r) => r.target_type === 'Epic').map((r) => r.target_id),
  )
  const alertJson = alertTodoTargets(
    db,
    baseUrl,
    rows.filter((r) => r.target_type === ALERT_TARGET_TYPE).map((r) => r.target_id),
  )
  const groups = new Map<number, NamespaceRow | undefined>()
  for (const id of new Set(rows.map((r) => r.group_id).filter((id): id is number => id !== null)))
    groups.set(id, findNamespaceById(db, id))
  return rows.map((r) => {
    const project = r.project_id !== null ? projects.get(r.project_id) : undefined
    const group = r.group_id !== null ? groups.get(r.group_id) : undefined
    const alert = r.target_type === ALERT_TARGET_TYPE ? alertJson.get(r.target_id) : undefined
    const target = alert
      ? alert.target
      : r.target_type === 'Issue'
        ? (issueJson.get(r.target_id) ?? null)
        : r.target_type === 'MergeRequest'
          ? (mergeRequestJson.get(r.target_id) ?? null)
          : r.target_type === 'Epic'
            ? (epicJson.get(r.target_id) ?? null)
            : null
    const projectUrl = project ? `${baseUrl}/${project.ns_full_path}/${project.path}` : baseUrl
    const anchor = r.note_id !== null ? `#note_${r.note_id}` : ''
    const targetUrl = alert
      ? alert.url
      : (r.target_type === 'Issue' || r.target_type === 'Epic' || r.target_type === 'MergeRequest') && target
        ? `${String(target.web_url)}${anchor}`
        : r.target_type === 'MergeRequest'
          ? null
          : `${projectUrl}`
    return todoEntity(r, { baseUrl, author: authors.get(r.author_id) as UserRow, project, group, target, targetUrl })
  })
}

/** The caller's to-dos: list with filters, mark one done, mark all done. */
const todos: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/todos',
    { schema: { querystring: ListQuery, response: { 200: Type.Array(Api.Todo) } } },
    async (request, reply) => {
      const user = currentUser(request)
      const q = request.query
      const db = request.server.burrow.db
      let groupIds: number[] | undefined
      if (q.group_id !== undefined) {
        const group = findGroup(db, q.group_id)
        groupIds = group ? groupAndDescendantIds(db, group.id) : []
      }
      const page = pageOf(request.query)
      const filter: TodoFilter = {
        userId: user.id,
        state: q.state ?? 'pending',
        action: q.action,
        authorId: q.author_id,
        projectId: q.project_id,
        groupIds,
        type: q.type,
      }
      // Left out before paging, so neither the page nor its total shows what the user can no longer read.
      const readable = new ReadableItems(db, request.perms)
      const hiddenIds = todoTargets(db, filter)
        .filter((t) => !readable.todo(t))
        .map((t) => t.id)
      const { rows, total } = listTodos(db, { ...filter, hiddenIds }, page.perPage, page.offset)
      setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
      return presentTodos(request, rows)
    },
  )

  app.post(
    '/todos/:id/mark_as_done',
    { schema: { params: TodoParams, response: { 201: Api.Todo } } },
    async (request, reply) => {
      const user = currentUser(request)
      const todo = findTodoById(request.server.burrow.db, request.params.id)
      // A to-do whose target the user may no longer read is as unknown here as in the list.
      if (!todo || todo.user_id !== user.id || !new ReadableItems(request.server.burrow.db, request.perms).todo(todo))
        throw notFound('Todo')
      const done = markTodoRowDone(request.server.burrow.db, todo.id)
      return reply.code(201).send(presentTodos(request, [done])[0])
    },
  )

  app.post('/todos/mark_as_done', async (request, reply) => {
    const user = currentUser(request)
    markAllTodoRowsDone(request.server.burrow.db, user.id)
    return reply.code(204).send()
  })
}

export default todos
