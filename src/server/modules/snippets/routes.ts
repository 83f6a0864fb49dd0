import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from 'typebox'
import { Snippet } from '../../../shared/api/snippet'
import { callerOf } from '../../platform/caller'
import type { ProjectRow } from '../../platform/db/rows'
import type { SnippetChanges } from './queries'
import { checkUnmodifiedSince } from '../../platform/http/conditional'
import { apiMessage, missingParam, noneGiven, notFound, paramError } from '../../platform/http/errors'
import { pathId } from '../../platform/http/loose-params'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { sendRawContent } from '../../platform/http/raw-content'
import { currentUser, loadProject } from '../../platform/http/resolve'
import { awardEmojiRoutes } from '../award-emoji'
import { canReadProjectSnippets } from './policy'
import {
  createProjectSnippet,
  destroySnippet,
  projectSnippetOf,
  requireSnippetAdmin,
  requireSnippetCreator,
  snippetsPage,
  updateSnippet,
} from './service'
import { presentSnippets } from './present'

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

type WriteParams = Static<typeof WriteBody>

/** A project whose snippets the caller may read (404 `Project Not Found` when the feature is closed to them). */
function loadSnippetProject(request: FastifyRequest, id: string): ProjectRow {
  const project = loadProject(request, id)
  if (!canReadProjectSnippets(request.perms, project)) throw notFound('Project')
  return project
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

  app.get(
    base,
    { schema: { params: IdParams, querystring: PageQuery, response: { 200: Type.Array(Snippet) } } },
    async (request, reply) => {
      const caller = callerOf(request)
      const project = loadSnippetProject(request, request.params.id)
      const page = pageOf(request.query)
      const { rows, total } = snippetsPage(caller, project, page)
      setPageHeaders(request, reply, caller.baseUrl, page, total)
      return presentSnippets(caller, rows)
    },
  )

  app.get(`${base}/:snippet_id`, { schema: { params: SnippetParams, response: { 200: Snippet } } }, async (request) => {
    const caller = callerOf(request)
    const project = loadSnippetProject(request, request.params.id)
    return presentSnippets(caller, [projectSnippetOf(caller, project, request.params.snippet_id)])[0]
  })

  app.get(`${base}/:snippet_id/raw`, { schema: { params: SnippetParams } }, async (request, reply) => {
    const project = loadSnippetProject(request, request.params.id)
    const snippet = projectSnippetOf(callerOf(request), project, request.params.snippet_id)
    return sendRawContent(reply, snippet.content, snippet.file_name)
  })

  app.post(
    base,
    { schema: { params: IdParams, body: WriteBody, response: { 201: Snippet } } },
    async (request, reply) => {
      currentUser(request)
      const caller = callerOf(request)
      const project = loadSnippetProject(request, request.params.id)
      const body = request.body
      if (!body.title) throw missingParam('title')
      requireSnippetCreator(caller, project)
      const file = fileOf(body, true)
      const row = createProjectSnippet(caller, project, {
        title: body.title,
        description: body.description ?? null,
        fileName: file.fileName ?? '',
        content: file.content ?? '',
        visibility: body.visibility ?? 'private',
      })
      return reply.code(201).send(presentSnippets(caller, [row])[0])
    },
  )

  app.put(
    `${base}/:snippet_id`,
    { schema: { params: SnippetParams, body: WriteBody, response: { 200: Snippet } } },
    async (request) => {
      currentUser(request)
      const caller = callerOf(request)
      const project = loadSnippetProject(request, request.params.id)
      const snippet = projectSnippetOf(caller, project, request.params.snippet_id)
      requireSnippetAdmin(caller, project, snippet)
      const body = request.body
      if (
        [body.title, body.description, body.file_name, body.content, body.code, body.visibility, body.files].every(
          (v) => v === undefined,
        )
      ) {
        throw noneGiven(['title', 'file_name', 'content', 'visibility', 'description', 'files'])
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
      return presentSnippets(caller, [updateSnippet(caller, snippet, changes)])[0]
    },
  )

  app.delete(`${base}/:snippet_id`, { schema: { params: SnippetParams } }, async (request, reply) => {
    currentUser(request)
    const caller = callerOf(request)
    const project = loadSnippetProject(request, request.params.id)
    const snippet = projectSnippetOf(caller, project, request.params.snippet_id)
    requireSnippetAdmin(caller, project, snippet)
    checkUnmodifiedSince(request, snippet.updated_at)
    destroySnippet(caller, snippet)
    return reply.code(204).send()
  })

  await app.register(
    awardEmojiRoutes(`${base}/:snippet_id`, (request, params) => {
      const id = pathId(params.snippet_id, 'Snippet')
      const project = loadSnippetProject(request, params.id)
      return { type: 'Snippet', id: projectSnippetOf(callerOf(request), project, id).id }
    }),
  )
}

export default snippets
