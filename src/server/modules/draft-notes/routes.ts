import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { DraftNote } from '../../../shared/api/draft-note'
import { callerOf } from '../../platform/caller'
import { paramError } from '../../platform/http/errors'
import { currentUser, loadProject } from '../../platform/http/resolve'
import { parseTextPosition, PositionError, positionInput, type TextPosition } from '../notes'
import { draftNoteEntity } from './entity'
import {
  createDraftNote,
  discardDraftNote,
  draftNotesOf,
  editDraftNote,
  loadDraftNote,
  publishDraftNotes,
  reviewTarget,
  type ReviewTarget,
} from './service'

const MergeRequestParams = Type.Object({ id: Type.String(), merge_request_iid: Type.Integer() })
const DraftParams = Type.Object({
  id: Type.String(),
  merge_request_iid: Type.Integer(),
  draft_note_id: Type.Integer(),
})
// `position` comes as an object (JSON) or as flat `position[new_line]` keys (forms): both are read
// by positionInput, so the body keeps its other keys.
const CreateBody = Type.Object({
  note: Type.String(),
  in_reply_to_discussion_id: Type.Optional(Type.String()),
  commit_id: Type.Optional(Type.String()),
  resolve_discussion: Type.Optional(Type.Boolean()),
  position: Type.Optional(Type.Unknown()),
})
const UpdateBody = Type.Object({ note: Type.Optional(Type.String()), position: Type.Optional(Type.Unknown()) })
// GitLab 19.2: a summary comment and the reviewer's verdict (an approval is the approve endpoint's).
const BulkPublishBody = Type.Object({
  note: Type.Optional(Type.String()),
  internal: Type.Optional(Type.Boolean()),
  reviewer_state: Type.Optional(Type.Union([Type.Literal('reviewed'), Type.Literal('requested_changes')])),
})

/** The merge request named by the URL; every call signs in first (401 before any lookup, as GitLab's authenticate!). */
function targetOf(request: FastifyRequest<{ Params: { id: string; merge_request_iid: number } }>): ReviewTarget {
  currentUser(request)
  return reviewTarget(callerOf(request), loadProject(request, request.params.id), request.params.merge_request_iid)
}

/** The body's diff position, if any; a malformed one is a 400 naming the field, as GitLab's params do. */
function positionOf(body: Readonly<Record<string, unknown>>): TextPosition | undefined {
  const input = positionInput(body)
  if (input === undefined) return undefined
  try {
    return parseTextPosition(input)
  } catch (error) {
    if (error instanceof PositionError) throw paramError(`position[${error.message.replace(/^(\w+)/, '$1]')}`)
    throw error
  }
}

/** GitLab's Draft Notes API: a merge request review's pending comments, each visible to its author only. */
const draftNotes: FastifyPluginAsyncTypebox = async (app) => {
  const base = '/projects/:id/merge_requests/:merge_request_iid/draft_notes'

  app.get(base, { schema: { params: MergeRequestParams, response: { 200: Type.Array(DraftNote) } } }, async (request) =>
    draftNotesOf(callerOf(request), targetOf(request)).map(draftNoteEntity),
  )

  app.get(
    `${base}/:draft_note_id`,
    { schema: { params: DraftParams, response: { 200: DraftNote } } },
    async (request) =>
      draftNoteEntity(loadDraftNote(callerOf(request), targetOf(request), request.params.draft_note_id)),
  )

  app.post(
    base,
    { schema: { params: MergeRequestParams, body: CreateBody, response: { 201: DraftNote } } },
    async (request, reply) => {
      const target = targetOf(request)
      const body = request.body
      const draft = await createDraftNote(callerOf(request), target, {
        note: body.note,
        inReplyToDiscussionId: body.in_reply_to_discussion_id,
        resolveDiscussion: body.resolve_discussion,
        commitId: body.commit_id,
        position: positionOf(body),
      })
      return reply.code(201).send(draftNoteEntity(draft))
    },
  )

  app.put(
    `${base}/:draft_note_id`,
    { schema: { params: DraftParams, body: UpdateBody, response: { 200: DraftNote } } },
    async (request) => {
      const target = targetOf(request)
      const { note } = request.body
      if (note === undefined || note.trim() === '') throw paramError('Missing params to modify')
      const caller = callerOf(request)
      const draft = loadDraftNote(caller, target, request.params.draft_note_id)
      return draftNoteEntity(await editDraftNote(caller, target, draft, { note, position: positionOf(request.body) }))
    },
  )

  app.delete(`${base}/:draft_note_id`, { schema: { params: DraftParams } }, async (request, reply) => {
    const caller = callerOf(request)
    discardDraftNote(caller, loadDraftNote(caller, targetOf(request), request.params.draft_note_id))
    return reply.code(204).send()
  })

  app.put(`${base}/:draft_note_id/publish`, { schema: { params: DraftParams } }, async (request, reply) => {
    const caller = callerOf(request)
    const target = targetOf(request)
    await publishDraftNotes(caller, target, [loadDraftNote(caller, target, request.params.draft_note_id)])
    return reply.code(204).send()
  })

  app.post(
    `${base}/bulk_publish`,
    { schema: { params: MergeRequestParams, body: Type.Optional(BulkPublishBody) } },
    async (request, reply) => {
      const caller = callerOf(request)
      const target = targetOf(request)
      const { note, internal, reviewer_state: reviewerState } = request.body ?? {}
      // A blank summary is no summary.
      const summary = note === undefined || note.trim() === '' ? undefined : { note, internal: internal === true }
      await publishDraftNotes(caller, target, draftNotesOf(caller, target), { summary, reviewerState })
      return reply.code(204).send()
    },
  )
}

export default draftNotes
