import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static, type TSchema } from 'typebox'
import * as Api from '../../../shared/api/index'
import { callerOf } from '../../platform/caller'
import { findSnippetById, type SnippetRow } from '../snippets'
import {
  findStorageMoveOf,
  listStorageMoves,
  movedContainers,
  type StorageMoveKind,
  type StorageMoveRow,
} from './queries'
import { storageMoveEntity } from './entity'
import { invalidParam, notFound } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { loadGroup, loadProject, requireAdmin } from '../../platform/http/resolve'
import {
  resumeStorageMoves,
  scheduleBulkMoves,
  scheduleGroupMove,
  scheduleProjectMove,
  scheduleSnippetMove,
  stopStorageMoves,
} from './service'

const PageQuery = Type.Object({ page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) })
const MoveParams = Type.Object({ repository_storage_move_id: Type.Integer() })
const ContainerParams = Type.Object({ id: Type.String() })
const ContainerMoveParams = Type.Object({ id: Type.String(), repository_storage_move_id: Type.Integer() })
const BulkBody = Type.Object({ source_storage_name: Type.String(), destination_storage_name: Type.String() })
const ScheduleBody = Type.Object({ destination_storage_name: Type.Optional(Type.String()) })

/**
 * URL segments of each kind (`/project_repository_storage_moves`, `/projects/:id/repository_storage_moves`)
 * and the schema of its moves.
 */
const KINDS: readonly { kind: StorageMoveKind; plural: string; schema: TSchema }[] = [
  { kind: 'project', plural: 'projects', schema: Api.ProjectStorageMove },
  { kind: 'snippet', plural: 'snippets', schema: Api.SnippetStorageMove },
  { kind: 'group', plural: 'groups', schema: Api.GroupStorageMove },
]

/**
 * Repository storage moves (administrators only, as every endpoint of GitLab's three APIs):
 * bulk scheduling per source storage, scheduling for one project, snippet or group, and the
 * query endpoints. The moves run in the background (services/storage-moves.ts); moves a
 * previous run left unfinished are picked up when the server is ready.
 */
const storageMoves: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow
  app.addHook('onReady', async () => resumeStorageMoves(ctx))
  // preClose: before app.ts closes the database, let the running move finish.
  app.addHook('preClose', async () => stopStorageMoves(ctx))

  const present = (request: FastifyRequest, rows: readonly StorageMoveRow[]): Readonly<Record<string, unknown>>[] => {
    const containers = movedContainers(ctx.db, rows)
    const base = ctx.baseUrl(request)
    return rows.map((r) => storageMoveEntity(r, containers, base))
  }

  const list = (
    request: FastifyRequest,
    reply: FastifyReply,
    query: Static<typeof PageQuery>,
    kind: StorageMoveKind,
    containerId?: number,
  ): Readonly<Record<string, unknown>>[] => {
    const page = pageOf(query)
    const { rows, total } = listStorageMoves(ctx.db, kind, containerId, { limit: page.perPage, offset: page.offset })
    setPageHeaders(request, reply, ctx.baseUrl(request), page, total)
    return present(request, rows)
  }

  const one = (
    request: FastifyRequest,
    kind: StorageMoveKind,
    moveId: number,
    containerId?: number,
  ): Readonly<Record<string, unknown>> => {
    const row = findStorageMoveOf(ctx.db, kind, moveId, containerId)
    if (!row) throw notFound()
    return present(request, [row])[0]
  }

  const snippetOf = (id: string): SnippetRow => {
    const snippet = /^\d+$/.test(id) ? findSnippetById(ctx.db, Number(id)) : undefined
    if (!snippet) throw notFound('Snippet')
    return snippet
  }

  /** The container `:id` names (administrators see every project, snippet and group). */
  const containerId = (request: FastifyRequest, kind: StorageMoveKind, id: string): number => {
    if (kind === 'project') return loadProject(request, id).id
    if (kind === 'snippet') return snippetOf(id).id
    return loadGroup(request, id).id
  }

  for (const { kind, plural, schema } of KINDS) {
    const root = `/${kind}_repository_storage_moves`
    const nested = `/${plural}/:id/repository_storage_moves`
    const moveList = { 200: Type.Array(schema) }
    const oneMove = { 200: schema }

    app.get(root, { schema: { querystring: PageQuery, response: moveList } }, async (request, reply) => {
      requireAdmin(request)
      return list(request, reply, request.query, kind)
    })

    app.get(
      `${root}/:repository_storage_move_id`,
      { schema: { params: MoveParams, response: oneMove } },
      async (request) => {
        requireAdmin(request)
        return one(request, kind, request.params.repository_storage_move_id)
      },
    )

    app.post(root, { schema: { body: BulkBody, response: { 202: Api.AcceptedMessage } } }, async (request, reply) => {
      requireAdmin(request)
      const { source_storage_name: source, destination_storage_name: destination } = request.body
      // Grape's `values:` check on both names.
      if (!ctx.storages.includes(source)) throw invalidParam('source_storage_name', 'does not have a valid value')
      if (!ctx.storages.includes(destination))
        throw invalidParam('destination_storage_name', 'does not have a valid value')
      scheduleBulkMoves(callerOf(request), kind, source, destination)
      return reply.code(202).send({ message: '202 Accepted' })
    })

    app.get(
      nested,
      { schema: { params: ContainerParams, querystring: PageQuery, response: moveList } },
      async (request, reply) => {
        requireAdmin(request)
        return list(request, reply, request.query, kind, containerId(request, kind, request.params.id))
      },
    )

    app.get(
      `${nested}/:repository_storage_move_id`,
      { schema: { params: ContainerMoveParams, response: oneMove } },
      async (request) => {
        requireAdmin(request)
        return one(
          request,
          kind,
          request.params.repository_storage_move_id,
          containerId(request, kind, request.params.id),
        )
      },
    )

    app.post(
      nested,
      { schema: { params: ContainerParams, body: ScheduleBody, response: { 201: schema } } },
      async (request, reply) => {
        requireAdmin(request)
        const destination = request.body.destination_storage_name
        const caller = callerOf(request)
        let move: StorageMoveRow
        if (kind === 'project') move = scheduleProjectMove(caller, loadProject(request, request.params.id), destination)
        else if (kind === 'snippet') move = scheduleSnippetMove(caller, snippetOf(request.params.id), destination)
        else move = scheduleGroupMove(caller, loadGroup(request, request.params.id), destination)
        return reply.code(201).send(present(request, [move])[0])
      },
    )
  }
}

export default storageMoves
