import * as Api from '../../../shared/api/index'
import type { FastifyRequest } from 'fastify'
import { callerOf } from '../../platform/caller'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { usersByIds } from '../users'
import { findNoteById, type NoteRow } from './queries'
import type { UserRow } from '../../platform/db/rows'
import { commandsResultEntity, noteEntity, type CommandsChanges } from './entity'
import { checkUnmodifiedSince } from '../../platform/http/conditional'
import { notFound } from '../../platform/http/errors'
import { pathId } from '../../platform/http/loose-params'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser } from '../../platform/http/resolve'
import { awardEmojiRoutes } from '../award-emoji'
import { loadNoteable, paramsSchema } from './noteable-routes'
import { noteableKinds } from './families'
import {
  createNote,
  deleteNote,
  readableNotesPage,
  settleQuickActions,
  updateNote,
  type CreateNoteResult,
  type Noteable,
} from './service'
import { readableNotes } from './system-notes'
import { recordSuggestions, suggestionsOf } from './suggestions'
import type { QuickActionParams } from '../quick-actions'
import { assertCanEditNote, canSeeInternalNotes } from './policy'

/** Serialises notes of one noteable with their authors loaded in one query. */
export function presentNotes(
  request: FastifyRequest,
  noteable: Noteable,
  rows: readonly NoteRow[],
  commandsChanges?: CommandsChanges,
): Api.Note[] {
  const users = usersByIds(
    request.server.burrow.db,
    rows.flatMap((r) => (r.resolved_by_id === null ? [r.author_id] : [r.author_id, r.resolved_by_id])),
  )
  const base = request.server.burrow.baseUrl(request)
  const suggestions = suggestionsOf(callerOf(request), rows)
  return rows.map((r) =>
    noteEntity(
      r,
      users.get(r.author_id) as UserRow,
      // A related commit's note (in a merge request's discussions) has no iid.
      r.noteable_type === noteable.type ? noteable : { iid: null },
      base,
      commandsChanges,
      r.resolved_by_id === null ? undefined : users.get(r.resolved_by_id),
      suggestions.get(r.id),
    ),
  )
}

/** A note of this noteable the caller may see, or 404 `Note Not Found`. */
export function loadNote(request: FastifyRequest, noteable: Noteable, noteId: number): NoteRow {
  const note = findNoteById(request.server.burrow.db, noteId)
  const visible =
    note &&
    note.noteable_type === noteable.type &&
    note.noteable_id === noteable.id &&
    (note.internal === 0 || canSeeInternalNotes(request.perms, noteable.container))
  if (!note || !visible || readableNotes(callerOf(request), [note]).length === 0) throw notFound('Note')
  return note
}

/** What `sendCreated` answers: the note made, or (202) what a note made only of quick actions changed. */
const CREATED_NOTE_RESPONSES = { 201: Api.Note, 202: Api.NoteCommandsResult }

/** A create answer: 201 with the note, or 202 with what a commands-only note did. */
export type CreatedAnswer =
  { readonly code: 201; readonly body: Api.Note } | { readonly code: 202; readonly body: Api.NoteCommandsResult }

/** The answer to a note's creation: 201 with the note, or 202 with what a commands-only note did. */
export function sendCreated(request: FastifyRequest, noteable: Noteable, result: CreateNoteResult): CreatedAnswer {
  if (result.kind === 'commands')
    return { code: 202, body: commandsResultEntity(result.commandsChanges, result.summary) }
  return { code: 201, body: presentNotes(request, noteable, [result.note], result.commandsChanges)[0] }
}

// GitLab's UserPreference::NOTES_FILTERS: every note, comments only, or system notes only.
const ACTIVITY_FILTERS = { all_notes: undefined, only_comments: false, only_activity: true } as const

const ListQuery = Type.Object({
  sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  order_by: Type.Optional(Type.Union([Type.Literal('created_at'), Type.Literal('updated_at')])),
  activity_filter: Type.Optional(
    Type.Union([Type.Literal('all_notes'), Type.Literal('only_comments'), Type.Literal('only_activity')]),
  ),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})
const CreateBody = Type.Object({
  body: Type.String(),
  created_at: Type.Optional(Type.String({ format: 'date-time' })),
  internal: Type.Optional(Type.Boolean()),
  confidential: Type.Optional(Type.Boolean()),
  merge_request_diff_head_sha: Type.Optional(Type.String()),
})
const UpdateBody = Type.Object({ body: Type.Optional(Type.String()), confidential: Type.Optional(Type.Boolean()) })

/** What a note request carries for its quick actions: `merge_request_diff_head_sha`, the head a `/merge` may merge. */
export function quickActionParamsOf(body: { readonly merge_request_diff_head_sha?: string }): QuickActionParams {
  const sha = body.merge_request_diff_head_sha
  return { diffHeadSha: sha !== undefined && sha !== '' ? sha : undefined }
}

/** Notes of issues, merge requests, snippets and epics: list, get, create, update, delete. */
const notes: FastifyPluginAsyncTypebox = async (app) => {
  for (const kind of noteableKinds()) {
    const base = `/${kind.parent}/:id/${kind.segment}/:${kind.param}/notes`
    const noteParams = paramsSchema(kind, { note_id: Type.Integer() })

    app.get(
      base,
      {
        schema: {
          params: paramsSchema(kind),
          querystring: ListQuery,
          response: { 200: Type.Array(Api.Note) },
        },
      },
      async (request, reply) => {
        const noteable = loadNoteable(request, kind, request.params)
        const q = request.query
        const page = pageOf(request.query)
        const { rows, total } = readableNotesPage(
          callerOf(request),
          noteable,
          {
            system: ACTIVITY_FILTERS[q.activity_filter ?? 'all_notes'],
            order: { by: q.order_by ?? 'created_at', sort: q.sort ?? 'desc' },
          },
          { limit: page.perPage, offset: page.offset },
        )
        setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
        return presentNotes(request, noteable, rows)
      },
    )

    app.get(`${base}/:note_id`, { schema: { params: noteParams, response: { 200: Api.Note } } }, async (request) => {
      const noteable = loadNoteable(request, kind, request.params)
      const note = loadNote(request, noteable, request.params.note_id)
      return presentNotes(request, noteable, [note])[0]
    })

    app.post(
      base,
      { schema: { params: paramsSchema(kind), body: CreateBody, response: CREATED_NOTE_RESPONSES } },
      async (request, reply) => {
        currentUser(request)
        const noteable = loadNoteable(request, kind, request.params)
        const body = request.body
        const result = await settleQuickActions(
          createNote(callerOf(request), noteable, body.body, {
            createdAt: body.created_at,
            internal: body.internal ?? body.confidential,
            quickActionParams: quickActionParamsOf(body),
          }),
        )
        const out = sendCreated(request, noteable, result)
        return reply.code(out.code).send(out.body)
      },
    )

    app.put(
      `${base}/:note_id`,
      { schema: { params: noteParams, body: UpdateBody, response: { 200: Api.Note } } },
      async (request) => {
        currentUser(request)
        const noteable = loadNoteable(request, kind, request.params)
        const note = loadNote(request, noteable, request.params.note_id)
        const body = request.body
        checkUnmodifiedSince(request, note.updated_at)
        assertCanEditNote(callerOf(request), note)
        const row = body.body === undefined ? note : updateNote(callerOf(request), noteable, note, body.body)
        if (body.body !== undefined) await recordSuggestions(callerOf(request), row)
        return presentNotes(request, noteable, [row])[0]
      },
    )

    app.delete(`${base}/:note_id`, { schema: { params: noteParams } }, async (request, reply) => {
      currentUser(request)
      const noteable = loadNoteable(request, kind, request.params)
      const note = loadNote(request, noteable, request.params.note_id)
      checkUnmodifiedSince(request, note.updated_at)
      deleteNote(callerOf(request), noteable, note)
      return reply.code(204).send()
    })

    // Award emoji on comments. Awardable routes name an epic by its iid, its notes routes by its id.
    const awardKind = kind.awardKind ?? kind
    await app.register(
      awardEmojiRoutes(
        `/${awardKind.parent}/:id/${awardKind.segment}/:${awardKind.param}/notes/:note_id`,
        (request, params) => {
          const noteable = loadNoteable(request, awardKind, params)
          const noteId = pathId(params.note_id, 'Note')
          return { type: 'Note', id: loadNote(request, noteable, noteId).id }
        },
      ),
    )
  }
}

export default notes
