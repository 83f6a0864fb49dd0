import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { usersByIds } from '../members/queries'
import { findProjectWithNamespace } from '../projects/queries'
import type { ProjectRow, UserRow, Visibility } from '../../platform/db/rows'
import { findSnippetById, listProjectSnippets, type SnippetChanges, type SnippetRow } from './queries'
import { snippetEntity } from './entity'
import { checkUnmodifiedSince } from '../../platform/http/conditional'
import { apiMessage, forbidden, missingParam, notFound, paramError } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { sendRawContent } from '../../platform/http/raw-content'
import { currentUser, loadProject } from '../../platform/http/resolve'
import { awardEmojiRoutes } from '../award-emoji/routes'
import {
  canAdminSnippet,
  canCreateSnippet,
  canReadProjectSnippets,
  canReadSnippet,
  createProjectSnippet,
  destroySnippet,
  readableSnippetVisibilities,
  updateSnippet,
} from './service'

const IdParams = Type.Object({ id: Type.String() })
const SnippetParams = Type.Object({ id: Type.String(), snippet_id: Type.Integer() })
const VisibilitySchema = Type.Union([Type.Literal('private'), Type.Literal('internal'), Type.Literal('public')])
const FileSchema = Type.Object({
  file_path: Type.Optional(Type.String()),
  content: Type.Optional(Type.String()),
  action: Type.Optional(Type.String()),
  previous_path: Type.Optional(Type.String()),
})
const WriteBody = Type.Object({
  title: Type.Optional(Type.String()),
  description: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  file_name: Type.Optional(Type.String()),
  content: Type.Optional(Type.String()),
  code: Type.Optional(Type.String()),
  visibility: Type.Optional(VisibilitySchema),
  files: Type.Optional(Type.Array(FileSchema)),
})
const PageQuery = Type.Object({ page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) })

interface WriteParams {
  readonly title?: string
  readonly description?: string | null
  readonly file_name?: string
  readonly content?: string
  readonly code?: string
  readonly visibility?: Visibility
  readonly files?: readonly { readonly file_path?: string; readonly content?: string }[]
}

/** The project's web URL (`${base}/${full_path}`). */
function projectWebUrl(request: FastifyRequest, project: ProjectRow): string {
  const p = findProjectWithNamespace(request.server.burrow.db, project.id)
  return `${request.server.burrow.baseUrl(request)}/${p?.ns_full_path}/${project.path}`
}

/** Serialises snippets of one project with their authors loaded in one query. */
export function presentSnippets(
  request: FastifyRequest,
  project: ProjectRow,
  rows: readonly SnippetRow[],
): Readonly<Record<string, unknown>>[] {
  const authors = usersByIds(
    request.server.burrow.db,
    rows.map((r) => r.author_id),
  )
  const base = request.server.burrow.baseUrl(request)
  const web = projectWebUrl(request, project)
  return rows.map((r) => snippetEntity(r, authors.get(r.author_id) as UserRow, web, base))
}

/** A project whose snippets the caller may read (404 `Project Not Found` when the feature is closed to them). */
export function loadSnippetProject(request: FastifyRequest, id: string): ProjectRow {
  const project = loadProject(request, id)
  if (!canReadProjectSnippets(request.perms, project)) throw notFound('Project')
  return project
}

/** The project's snippet with this id that the caller may read, or 404 `Snippet Not Found`. */
export function loadProjectSnippet(request: FastifyRequest, project: ProjectRow, snippetId: number): SnippetRow {
  const snippet = findSnippetById(request.server.burrow.db, snippetId)
  if (!snippet || snippet.project_id !== project.id || !canReadSnippet(request.perms, project, snippet))
    throw notFound('Snippet')
  return snippet
}

/** The single file given either as `files[]` (one entry) or as the legacy file_name + content (or code). */
function fileOf(body: WriteParams, creating: boolean): { fileName?: string; content?: string } {
  const legacyContent = body.content ?? body.code
  if (body.files !== undefined && legacyContent !== undefined) throw paramError('content, files are mutually exclusive')
  if (body.files !== undefined) {
    if (body.files.length === 0) throw paramError('files is empty')
    // Row-backed snippets hold one file; several arrive with repository-backed snippets.
    if (body.files.length > 1) throw apiMessage(400, { files: ['supports only one file in this version'] })
    const file = body.files[0]
    if (creating && (file.content === undefined || file.content === '')) throw missingParam('files[0][content]')
    return { fileName: file.file_path ?? body.file_name, content: file.content }
  }
  if (creating && legacyContent === undefined)
    throw paramError('content, files are missing, exactly one parameter must be provided')
  if (creating && !body.file_name) throw missingParam('file_name')
  return { fileName: body.file_name, content: legacyContent }
}

/** Project snippets: list, get, raw content, create, update, delete. */
const snippets: FastifyPluginAsyncTypebox = async (app) => {
  const base = '/projects/:id/snippets'

  app.get(base, { schema: { params: IdParams, querystring: PageQuery } }, async (request, reply) => {
    const project = loadSnippetProject(request, request.params.id)
    const page = pageOf(request.query as Record<string, unknown>)
    const { rows, total } = listProjectSnippets(
      request.server.burrow.db,
      project.id,
      readableSnippetVisibilities(request.perms, project),
      request.actor.user?.id ?? null,
      page.perPage,
      page.offset,
    )
    setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
    return presentSnippets(request, project, rows)
  })

  app.get(`${base}/:snippet_id`, { schema: { params: SnippetParams } }, async (request) => {
    const project = loadSnippetProject(request, request.params.id)
    return presentSnippets(request, project, [loadProjectSnippet(request, project, request.params.snippet_id)])[0]
  })

  app.get(`${base}/:snippet_id/raw`, { schema: { params: SnippetParams } }, async (request, reply) => {
    const project = loadSnippetProject(request, request.params.id)
    const snippet = loadProjectSnippet(request, project, request.params.snippet_id)
    return sendRawContent(reply, snippet.content, snippet.file_name)
  })

  app.post(base, { schema: { params: IdParams, body: WriteBody } }, async (request, reply) => {
    const user = currentUser(request)
    const project = loadSnippetProject(request, request.params.id)
    const body = request.body as WriteParams
    if (!body.title) throw missingParam('title')
    if (!canCreateSnippet(request.perms, project)) throw forbidden()
    const file = fileOf(body, true)
    const row = createProjectSnippet(request, project, user.id, {
      title: body.title,
      description: body.description ?? null,
      fileName: file.fileName ?? '',
      content: file.content ?? '',
      visibility: body.visibility ?? 'private',
    })
    return reply.code(201).send(presentSnippets(request, project, [row])[0])
  })

  app.put(`${base}/:snippet_id`, { schema: { params: SnippetParams, body: WriteBody } }, async (request) => {
    currentUser(request)
    const project = loadSnippetProject(request, request.params.id)
    const snippet = loadProjectSnippet(request, project, request.params.snippet_id)
    if (!canAdminSnippet(request.perms, project, snippet)) throw forbidden()
    const body = request.body as WriteParams
    if (
      [body.title, body.description, body.file_name, body.content, body.code, body.visibility, body.files].every(
        (v) => v === undefined,
      )
    ) {
      throw paramError(
        'title, file_name, content, visibility, description, files are missing, at least one parameter must be provided',
      )
    }
    if (body.title === '') throw apiMessage(400, { title: ["can't be blank"] })
    checkUnmodifiedSince(request, snippet.updated_at)
    const file = fileOf(body, false)
    const changes: SnippetChanges = {
      title: body.title,
      description: body.description,
      file_name: file.fileName,
      content: file.content,
      visibility: body.visibility,
    }
    return presentSnippets(request, project, [updateSnippet(request, snippet, changes)])[0]
  })

  app.delete(`${base}/:snippet_id`, { schema: { params: SnippetParams } }, async (request, reply) => {
    currentUser(request)
    const project = loadSnippetProject(request, request.params.id)
    const snippet = loadProjectSnippet(request, project, request.params.snippet_id)
    if (!canAdminSnippet(request.perms, project, snippet)) throw forbidden()
    checkUnmodifiedSince(request, snippet.updated_at)
    destroySnippet(request, snippet)
    return reply.code(204).send()
  })

  await app.register(
    awardEmojiRoutes(`${base}/:snippet_id`, (request) => {
      const params = request.params as { id: string; snippet_id: string }
      const id = Number(params.snippet_id)
      if (!Number.isInteger(id)) throw notFound('Snippet')
      return { type: 'Snippet', id: loadProjectSnippet(request, loadSnippetProject(request, params.id), id).id }
    }),
  )
}

export default snippets
