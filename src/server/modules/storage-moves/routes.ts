import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static, type TSchema } from 'typebox'
import * as Api from '../../../shared/api/index'
import { callerOf, type Caller } from '../../platform/caller'
import type { Db } from '../../platform/db/connection'
import { findSnippetById, type SnippetRow } from '../snippets'
import type { NamespaceRow, ProjectRow } from '../../platform/db/rows'
import {
  findStorageMoveOf,
  listStorageMoves,
  moveContainer,
  movedGroups,
  movedProjects,
  type MovedGroupRow,
  type MovedProjectRow,
  type StorageMoveKind,
  type StorageMoveRow,
} from './queries'
import { groupMoveEntity, projectMoveEntity, snippetMoveEntity, type MovedSnippet } from './entity'
import { invalidParam, notFound } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { loadGroup, loadProject, requireAdmin } from '../../platform/http/resolve'
import {
  resumeStorageMoves,
  scheduleBulkMoves,
  scheduleGroupMove,
  scheduleProjectMove,
  scheduleSnippetMove,
  snippetsOfMoves,
  stopStorageMoves,
} from './service'

const PageQuery = Type.Object({ page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) })
const MoveParams = Type.Object({ repository_storage_move_id: Type.Integer() })
const ContainerParams = Type.Object({ id: Type.String() })
const ContainerMoveParams = Type.Object({ id: Type.String(), repository_storage_move_id: Type.Integer() })
/** GitLab picks each container's destination when the bulk call names none (as a single move does). */
const BulkBody = Type.Object({
  source_storage_name: Type.String(),
  destination_storage_name: Type.Optional(Type.String()),
})
const ScheduleBody = Type.Object({ destination_storage_name: Type.Optional(Type.String()) })

/** The Fastify instance a TypeBox plugin receives. */
type TypeboxApp = Parameters<FastifyPluginAsyncTypebox>[0]

/**
 * One kind of repository storage move as the API serves it: `S` is the wire schema of its moves
 * (src/shared/api/storage-move.ts; its entity must answer `Static<S>`), `C` the container `:id`
 * names, `M` what a move shows of that container.
 */
interface MoveKind<S extends TSchema, C extends { readonly id: number }, M> {
  readonly kind: StorageMoveKind
  /** The container segment of `/<plural>/:id/repository_storage_moves`. */
  readonly plural: 'projects' | 'snippets' | 'groups'
  readonly schema: S
  /** The container `:id` names, or 404 (administrators see every project, snippet and group). */
  load(request: FastifyRequest, id: string): C
  /** Schedules a move of the container (`POST /<plural>/:id/repository_storage_moves`). */
  schedule(caller: Caller, container: C, destination: string | undefined): StorageMoveRow
  /** What a page of moves shows of their containers, by container id (deleted ones are missing). */
  moved(db: Db, ids: readonly number[]): ReadonlyMap<number, M>
  /** One move as the API shows it. */
  entity(row: StorageMoveRow, container: M | undefined, baseUrl: string): Static<S>
}

const PROJECT_MOVES: MoveKind<typeof Api.ProjectStorageMove, ProjectRow, MovedProjectRow> = {
  kind: 'project',
  plural: 'projects',
  schema: Api.ProjectStorageMove,
  load: loadProject,
  schedule: scheduleProjectMove,
  moved: movedProjects,
  entity: projectMoveEntity,
}

const SNIPPET_MOVES: MoveKind<typeof Api.SnippetStorageMove, SnippetRow, MovedSnippet> = {
  kind: 'snippet',
  plural: 'snippets',
  schema: Api.SnippetStorageMove,
  load(request, id) {
    const snippet = /^\d+$/.test(id) ? findSnippetById(callerOf(request).db, Number(id)) : undefined
    if (!snippet) throw notFound('Snippet')
    return snippet
  },
  schedule: scheduleSnippetMove,
  moved: snippetsOfMoves,
  entity: snippetMoveEntity,
}

const GROUP_MOVES: MoveKind<typeof Api.GroupStorageMove, NamespaceRow, MovedGroupRow> = {
  kind: 'group',
  plural: 'groups',
  schema: Api.GroupStorageMove,
  load: loadGroup,
  schedule: scheduleGroupMove,
  moved: movedGroups,
  entity: groupMoveEntity,
}

/**
 * The six endpoints of one kind of move: the list and one move, instance-wide and of one
 * container; bulk scheduling per source storage; scheduling for one container. Administrators only.
 */
function moveKindRoutes<S extends TSchema, C extends { readonly id: number }, M>(
  app: TypeboxApp,
  k: MoveKind<S, C, M>,
): void {
  const root = `/${k.kind}_repository_storage_moves`
  const nested = `/${k.plural}/:id/repository_storage_moves`
  // Fastify's type provider cannot resolve a reply type from a schema that is a type parameter, so
  // the routes see it as a plain TSchema: the handlers' answers are typed Static<S> instead, and
  // each kind's entity is checked against its own schema where the kind is declared.
  const schema: TSchema = k.schema
  const moveList = { 200: Type.Array(schema) }
  const oneMove = { 200: schema }

  const present = (request: FastifyRequest, rows: readonly StorageMoveRow[]): Static<S>[] => {
    const { db, baseUrl } = callerOf(request)
    const containers = k.moved(db, [...new Set(rows.map((r) => moveContainer(r).id))])
    return rows.map((r) => k.entity(r, containers.get(moveContainer(r).id), baseUrl))
  }

  const list = (
    request: FastifyRequest,
    reply: FastifyReply,
    query: Static<typeof PageQuery>,
    containerId?: number,
  ): Static<S>[] => {
    const { db, baseUrl } = callerOf(request)
    const page = pageOf(query)
    const { rows, total } = listStorageMoves(db, k.kind, containerId, { limit: page.perPage, offset: page.offset })
    setPageHeaders(request, reply, baseUrl, page, total)
    return present(request, rows)
  }

  const one = (request: FastifyRequest, moveId: number, containerId?: number): Static<S> => {
    const row = findStorageMoveOf(callerOf(request).db, k.kind, moveId, containerId)
    if (!row) throw notFound()
    return present(request, [row])[0]
  }

  app.get(
    root,
    { schema: { querystring: PageQuery, response: moveList } },
    async (request, reply): Promise<Static<S>[]> => {
      return list(request, reply, request.query)
    },
  )

  app.get(
    `${root}/:repository_storage_move_id`,
    { schema: { params: MoveParams, response: oneMove } },
    async (request): Promise<Static<S>> => {
      return one(request, request.params.repository_storage_move_id)
    },
  )

  app.post(root, { schema: { body: BulkBody, response: { 202: Api.AcceptedMessage } } }, async (request, reply) => {
    const caller = callerOf(request)
    const { source_storage_name: source, destination_storage_name: destination } = request.body
    // Grape's `values:` check on both names.
    if (!caller.ctx.storages.includes(source)) throw invalidParam('source_storage_name', 'does not have a valid value')
    if (destination !== undefined && !caller.ctx.storages.includes(destination))
      throw invalidParam('destination_storage_name', 'does not have a valid value')
    scheduleBulkMoves(caller, k.kind, source, destination)
    return reply.code(202).send({ message: '202 Accepted' })
  })

  app.get(
    nested,
    { schema: { params: ContainerParams, querystring: PageQuery, response: moveList } },
    async (request, reply): Promise<Static<S>[]> => {
      return list(request, reply, request.query, k.load(request, request.params.id).id)
    },
  )

  app.get(
    `${nested}/:repository_storage_move_id`,
    { schema: { params: ContainerMoveParams, response: oneMove } },
    async (request): Promise<Static<S>> => {
      return one(request, request.params.repository_storage_move_id, k.load(request, request.params.id).id)
    },
  )

  app.post(
    nested,
    { schema: { params: ContainerParams, body: ScheduleBody, response: { 201: schema } } },
    async (request, reply) => {
      const container = k.load(request, request.params.id)
      const move = k.schedule(callerOf(request), container, request.body.destination_storage_name)
      const created: Static<S> = present(request, [move])[0]
      return reply.code(201).send(created)
    },
  )
}

/**
 * Repository storage moves of projects, snippets and groups (administrators only, as every
 * endpoint of GitLab's three APIs). The moves run in the background (service.ts); moves a
 * previous run left unfinished are picked up when the server is ready.
 */
const storageMoves: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow
  // Grape runs GitLab's `before { authenticated_as_admin! }` ahead of its params checks, so a
  // non-administrator gets 401/403 whatever the body or path says: here, after app.ts has
  // authenticated (its preValidation runs first) and before the schemas validate.
  app.addHook('preValidation', async (request) => {
    requireAdmin(request)
  })
  app.addHook('onReady', async () => resumeStorageMoves(ctx))
  // preClose: before app.ts closes the database, let the running move finish.
  app.addHook('preClose', async () => stopStorageMoves(ctx))
  moveKindRoutes(app, PROJECT_MOVES)
  moveKindRoutes(app, SNIPPET_MOVES)
  moveKindRoutes(app, GROUP_MOVES)
}

export default storageMoves
