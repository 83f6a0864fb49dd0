import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Board, BoardList } from '../../../shared/api/board'
import { callerOf } from '../../platform/caller'
import { forbidden, notFound } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadProject } from '../../platform/http/resolve'
import { findProjectWithNamespace, type ProjectWithNamespaceRow } from '../projects'
import { canReadBoards } from './policy'
import { findBoard, findList, listBoards, listsOfBoards, type BoardListRow, type BoardRow } from './queries'
import {
  createBoard,
  createList,
  deleteBoard,
  deleteList,
  moveList,
  presentBoards,
  presentList,
  updateBoard,
} from './service'

const ProjectParams = Type.Object({ id: Type.String() })
const BoardParams = Type.Object({ id: Type.String(), board_id: Type.Integer() })
const ListParams = Type.Object({ id: Type.String(), board_id: Type.Integer(), list_id: Type.Integer() })
const PageQuery = Type.Object({ page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) })
const CreateBody = Type.Object({ name: Type.String() })
const UpdateBody = Type.Object({
  name: Type.Optional(Type.String()),
  hide_backlog_list: Type.Optional(Type.Boolean()),
  hide_closed_list: Type.Optional(Type.Boolean()),
  assignee_id: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  milestone_id: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  /** Comma-separated label titles, or a list of them. */
  labels: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  weight: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
})
const CreateListBody = Type.Object({ label_id: Type.Integer() })
const MoveListBody = Type.Object({ position: Type.Integer() })

/** Label titles from a comma-separated string or a list. */
function labelTitles(labels: string | readonly string[]): string[] {
  return [labels]
    .flat()
    .flatMap((l) => l.split(','))
    .map((l) => l.trim())
    .filter((l) => l !== '')
}

/**
 * The project of a boards endpoint: every call signs in first (GitLab's boards API authenticates
 * everything), 404 when the project is hidden, 403 when its issues are not the caller's to read.
 */
function boardsProject(request: FastifyRequest, id: string): ProjectWithNamespaceRow {
  currentUser(request)
  const row = loadProject(request, id)
  if (!canReadBoards(request.perms, row)) throw forbidden()
  const project = findProjectWithNamespace(callerOf(request).db, row.id)
  if (!project) throw notFound('Project')
  return project
}

function boardOf(request: FastifyRequest, project: ProjectWithNamespaceRow, id: number): BoardRow {
  const board = findBoard(callerOf(request).db, project.id, id)
  if (!board) throw notFound('Board')
  return board
}

function listOf(request: FastifyRequest, board: BoardRow, id: number): BoardListRow {
  const list = findList(callerOf(request).db, board.id, id)
  if (!list) throw notFound('List')
  return list
}

/** GitLab's Project issue boards API: boards with their scope, and their label lists in order. */
const boards: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects/:id/boards',
    { schema: { params: ProjectParams, querystring: PageQuery, response: { 200: Type.Array(Board) } } },
    async (request, reply) => {
      const project = boardsProject(request, request.params.id)
      const page = pageOf(request.query)
      const { rows, total } = listBoards(app.burrow.db, project.id, { limit: page.perPage, offset: page.offset })
      setPageHeaders(request, reply, app.burrow.baseUrl(request), page, total)
      return presentBoards(callerOf(request), project, rows)
    },
  )

  app.get(
    '/projects/:id/boards/:board_id',
    { schema: { params: BoardParams, response: { 200: Board } } },
    async (request) => {
      const project = boardsProject(request, request.params.id)
      return presentBoards(callerOf(request), project, [boardOf(request, project, request.params.board_id)])[0]
    },
  )

  app.post(
    '/projects/:id/boards',
    { schema: { params: ProjectParams, body: CreateBody, response: { 201: Board } } },
    async (request, reply) => {
      const project = boardsProject(request, request.params.id)
      const board = createBoard(callerOf(request), project, request.body.name)
      return reply.code(201).send(presentBoards(callerOf(request), project, [board])[0])
    },
  )

  app.put(
    '/projects/:id/boards/:board_id',
    { schema: { params: BoardParams, body: UpdateBody, response: { 200: Board } } },
    async (request) => {
      const project = boardsProject(request, request.params.id)
      const board = boardOf(request, project, request.params.board_id)
      const body = request.body
      const updated = updateBoard(callerOf(request), project, board, {
        name: body.name,
        hideBacklogList: body.hide_backlog_list,
        hideClosedList: body.hide_closed_list,
        assigneeId: body.assignee_id,
        milestoneId: body.milestone_id,
        labels: body.labels === undefined ? undefined : labelTitles(body.labels),
        weight: body.weight,
      })
      return presentBoards(callerOf(request), project, [updated])[0]
    },
  )

  app.delete('/projects/:id/boards/:board_id', { schema: { params: BoardParams } }, async (request, reply) => {
    const project = boardsProject(request, request.params.id)
    deleteBoard(callerOf(request), project, boardOf(request, project, request.params.board_id))
    return reply.code(204).send()
  })

  app.get(
    '/projects/:id/boards/:board_id/lists',
    { schema: { params: BoardParams, querystring: PageQuery, response: { 200: Type.Array(BoardList) } } },
    async (request, reply) => {
      const project = boardsProject(request, request.params.id)
      const board = boardOf(request, project, request.params.board_id)
      const lists = listsOfBoards(app.burrow.db, [board.id]).get(board.id) ?? []
      const page = pageOf(request.query)
      setPageHeaders(request, reply, app.burrow.baseUrl(request), page, lists.length)
      return lists
        .slice(page.offset, page.offset + page.perPage)
        .map(({ list }) => presentList(callerOf(request), list))
    },
  )

  app.get(
    '/projects/:id/boards/:board_id/lists/:list_id',
    { schema: { params: ListParams, response: { 200: BoardList } } },
    async (request) => {
      const project = boardsProject(request, request.params.id)
      const board = boardOf(request, project, request.params.board_id)
      return presentList(callerOf(request), listOf(request, board, request.params.list_id))
    },
  )

  app.post(
    '/projects/:id/boards/:board_id/lists',
    { schema: { params: BoardParams, body: CreateListBody, response: { 201: BoardList } } },
    async (request, reply) => {
      const project = boardsProject(request, request.params.id)
      const board = boardOf(request, project, request.params.board_id)
      const list = createList(callerOf(request), project, board, request.body.label_id)
      return reply.code(201).send(presentList(callerOf(request), list))
    },
  )

  app.put(
    '/projects/:id/boards/:board_id/lists/:list_id',
    { schema: { params: ListParams, body: MoveListBody, response: { 200: BoardList } } },
    async (request) => {
      const project = boardsProject(request, request.params.id)
      const board = boardOf(request, project, request.params.board_id)
      const list = listOf(request, board, request.params.list_id)
      return presentList(callerOf(request), moveList(callerOf(request), project, board, list, request.body.position))
    },
  )

  app.delete(
    '/projects/:id/boards/:board_id/lists/:list_id',
    { schema: { params: ListParams } },
    async (request, reply) => {
      const project = boardsProject(request, request.params.id)
      const board = boardOf(request, project, request.params.board_id)
      deleteList(callerOf(request), project, board, listOf(request, board, request.params.list_id))
      return reply.code(204).send()
    },
  )
}

export default boards
