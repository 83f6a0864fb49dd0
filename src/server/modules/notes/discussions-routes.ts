import * as Api from '../../../shared/api/index'
import type { FastifyRequest } from 'fastify'
import { callerOf } from '../../platform/caller'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { discussionNotes, listDiscussions, type NoteRow, type NoteScope } from './queries'
import { commandsResultEntity, discussionEntities } from './entity'
import { checkUnmodifiedSince } from '../../platform/http/conditional'
import { badRequest, missingParam, notFound, paramError } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser } from '../../platform/http/resolve'
import { discussionKinds } from './families'
import {
  createNote,
  deleteNote,
  readableDiscussionScope,
  readableNoteScope,
  resolveNotes,
  settleQuickActions,
  updateNote,
  type Noteable,
} from './service'
import { loadNote, presentNotes, quickActionParamsOf, sendCreated } from './routes'
import { loadDiscussionNoteable, paramsSchema } from './noteable-routes'
import { assertCanEditNote } from './policy'
import { createDiffDiscussion } from './diff-notes'
import { positionInput } from './diff-position'
import { recordSuggestions } from './suggestions'

const DISCUSSION_ID = Type.String({ pattern: '^[0-9a-fA-F]{40}$' })
const PageQuery = Type.Object({ page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) })
const CreateBody = Type.Object({
  body: Type.String(),
  created_at: Type.Optional(Type.String({ format: 'date-time' })),
  internal: Type.Optional(Type.Boolean()),
  confidential: Type.Optional(Type.Boolean()),
  position: Type.Optional(Type.Unknown()),
  commit_id: Type.Optional(Type.String()),
  merge_request_diff_head_sha: Type.Optional(Type.String()),
})
const ReplyBody = Type.Object({
  body: Type.String(),
  created_at: Type.Optional(Type.String({ format: 'date-time' })),
  note_id: Type.Optional(Type.Integer()),
  merge_request_diff_head_sha: Type.Optional(Type.String()),
})
const UpdateBody = Type.Object({ body: Type.Optional(Type.String()), resolved: Type.Optional(Type.Boolean()) })

/**
 * The notes of the discussion named in the URL, or 404 `Discussion Not Found`; in `scope` when
 * given (reading may see related commit threads, writing only the noteable's own).
 */
function loadDiscussion(
  request: FastifyRequest,
  noteable: Noteable,
  discussionId: string,
  scope?: NoteScope,
): NoteRow[] {
  const id = discussionId.toLowerCase()
  const notes = discussionNotes(request.server.burrow.db, scope ?? readableNoteScope(callerOf(request), noteable), id)
  if (notes.length === 0) throw notFound('Discussion')
  return notes
}

/** A note of the discussion named in the URL, or 404 `Note Not Found`. */
function loadDiscussionNote(
  request: FastifyRequest,
  noteable: Noteable,
  params: { readonly discussion_id: string; readonly note_id: number },
): NoteRow {
  const discussion = loadDiscussion(request, noteable, params.discussion_id)
  const note = loadNote(request, noteable, params.note_id)
  if (note.discussion_id !== discussion[0].discussion_id) throw notFound('Note')
  return note
}

/** GitLab's Discussion entity of one thread's notes (oldest first). */
function presentDiscussion(request: FastifyRequest, noteable: Noteable, notes: readonly NoteRow[]): Api.Discussion {
  return discussionEntities([notes], presentNotes(request, noteable, notes))[0]
}

/** The six discussion endpoints for every noteable family and every family named by ref (commits). */
const discussions: FastifyPluginAsyncTypebox = async (app) => {
  for (const kind of discussionKinds()) {
    const base = `/${kind.parent}/:id/${kind.segment}/:${kind.param}/discussions`
    const discussionParams = paramsSchema(kind, { discussion_id: DISCUSSION_ID })
    const noteParams = paramsSchema(kind, { discussion_id: DISCUSSION_ID, note_id: Type.Integer() })

    app.get(
      base,
      { schema: { params: paramsSchema(kind), querystring: PageQuery, response: { 200: Type.Array(Api.Discussion) } } },
      async (request, reply) => {
        const noteable = await loadDiscussionNoteable(request, kind, request.params)
        const page = pageOf(request.query)
        // System notes about items the caller cannot see are left out, and with them their one-note discussions.
        const { discussions: threads, total } = listDiscussions(
          request.server.burrow.db,
          await readableDiscussionScope(callerOf(request), noteable),
          page.perPage,
          page.offset,
        )
        setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
        return discussionEntities(threads, presentNotes(request, noteable, threads.flat()))
      },
    )

    app.get(
      `${base}/:discussion_id`,
      { schema: { params: discussionParams, response: { 200: Api.Discussion } } },
      async (request) => {
        const noteable = await loadDiscussionNoteable(request, kind, request.params)
        const scope = await readableDiscussionScope(callerOf(request), noteable)
        return presentDiscussion(
          request,
          noteable,
          loadDiscussion(request, noteable, request.params.discussion_id, scope),
        )
      },
    )

    app.post(
      base,
      {
        schema: {
          params: paramsSchema(kind),
          body: CreateBody,
          response: { 201: Api.Discussion, 202: Api.NoteCommandsResult },
        },
      },
      async (request, reply) => {
        currentUser(request)
        const noteable = await loadDiscussionNoteable(request, kind, request.params)
        const body = request.body
        const options = {
          createdAt: body.created_at,
          internal: body.internal ?? body.confidential,
          quickActionParams: quickActionParamsOf(body),
        }
        // Positions are taken where notes have a diff, merge requests and commits (elsewhere GitLab has
        // no such parameter and ignores it); a position that is not a hash is refused by createDiffDiscussion.
        const position = noteable.checkDiffPosition ? (positionInput(body) ?? body.position) : undefined
        const created =
          position === undefined
            ? createNote(callerOf(request), noteable, body.body, { ...options, thread: true })
            : await createDiffDiscussion(callerOf(request), noteable, {
                ...options,
                body: body.body,
                position,
                commitId: body.commit_id,
              })
        const result = await settleQuickActions(created)
        if (result.kind === 'commands')
          return reply.code(202).send(commandsResultEntity(result.commandsChanges, result.summary))
        await recordSuggestions(callerOf(request), result.note)
        return reply.code(201).send(presentDiscussion(request, noteable, [result.note]))
      },
    )

    app.post(
      `${base}/:discussion_id/notes`,
      {
        schema: {
          params: discussionParams,
          body: ReplyBody,
          response: { 201: Api.Note, 202: Api.NoteCommandsResult },
        },
      },
      async (request, reply) => {
        currentUser(request)
        const noteable = await loadDiscussionNoteable(request, kind, request.params)
        const discussion = loadDiscussion(request, noteable, request.params.discussion_id)
        // System notes ("changed the description") cannot be replied to, as in GitLab.
        if (discussion[0].system === 1) throw badRequest('discussion is not replyable')
        const body = request.body
        const result = await settleQuickActions(
          createNote(callerOf(request), noteable, body.body, {
            createdAt: body.created_at,
            replyTo: discussion,
            quickActionParams: quickActionParamsOf(body),
          }),
        )
        if (result.kind === 'note') await recordSuggestions(callerOf(request), result.note)
        const out = sendCreated(request, noteable, result)
        return reply.code(out.code).send(out.body)
      },
    )

    // Resolving a whole thread exists for merge requests only (GitLab's resolvable noteables).
    if (kind.segment === 'merge_requests') {
      app.put(
        `${base}/:discussion_id`,
        {
          schema: {
            params: discussionParams,
            body: Type.Object({ resolved: Type.Optional(Type.Boolean()) }),
            response: { 200: Api.Discussion },
          },
        },
        async (request) => {
          currentUser(request)
          const noteable = await loadDiscussionNoteable(request, kind, request.params)
          const resolved = request.body.resolved
          if (resolved === undefined) throw missingParam('resolved')
          resolveNotes(
            callerOf(request),
            noteable,
            loadDiscussion(request, noteable, request.params.discussion_id),
            resolved,
            false,
          )
          return presentDiscussion(request, noteable, loadDiscussion(request, noteable, request.params.discussion_id))
        },
      )
    }

    app.put(
      `${base}/:discussion_id/notes/:note_id`,
      { schema: { params: noteParams, body: UpdateBody, response: { 200: Api.Note } } },
      async (request) => {
        currentUser(request)
        const noteable = await loadDiscussionNoteable(request, kind, request.params)
        const note = loadDiscussionNote(request, noteable, request.params)
        const body = request.body
        if (body.body !== undefined && body.resolved !== undefined)
          throw paramError('body, resolved are mutually exclusive')
        if (body.body === undefined && body.resolved === undefined)
          throw paramError('body, resolved are missing, exactly one parameter must be provided')
        checkUnmodifiedSince(request, note.updated_at)
        if (body.resolved !== undefined) {
          resolveNotes(callerOf(request), noteable, [note], body.resolved, true)
          return presentNotes(request, noteable, [loadDiscussionNote(request, noteable, request.params)])[0]
        }
        assertCanEditNote(callerOf(request), note)
        const row = updateNote(callerOf(request), noteable, note, body.body as string)
        await recordSuggestions(callerOf(request), row)
        return presentNotes(request, noteable, [row])[0]
      },
    )

    app.delete(`${base}/:discussion_id/notes/:note_id`, { schema: { params: noteParams } }, async (request, reply) => {
      currentUser(request)
      const noteable = await loadDiscussionNoteable(request, kind, request.params)
      const note = loadDiscussionNote(request, noteable, request.params)
      checkUnmodifiedSince(request, note.updated_at)
      deleteNote(callerOf(request), noteable, note)
      return reply.code(204).send()
    })
  }
}

export default discussions
