import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { CommitNote } from '../../../shared/api/note'
import { callerOf } from '../../platform/caller'
import { missingParam } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { loadCodeProject } from '../../platform/http/repository'
import { currentUser } from '../../platform/http/resolve'
import { commitComments, createCommitComment, findCommit, presentCommitNotes } from './service'

const ShaParams = Type.Object({ id: Type.String(), sha: Type.String({ minLength: 1 }) })
const PageQuery = Type.Object({ page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) })
const CommentBody = Type.Object({
  note: Type.String(),
  path: Type.Optional(Type.String()),
  line: Type.Optional(Type.Integer()),
  line_type: Type.Optional(Type.Enum(['new', 'old'])),
})

/** GitLab's Commits API comments: a commit's comments, and commenting on it or on a line of its diff. */
const commitNoteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects/:id/repository/commits/:sha/comments',
    { schema: { params: ShaParams, querystring: PageQuery, response: { 200: Type.Array(CommitNote) } } },
    async (request, reply) => {
      const caller = callerOf(request)
      const repo = loadCodeProject(request, request.params.id)
      const commit = await findCommit(caller, repo.project, request.params.sha)
      const page = pageOf(request.query)
      const { comments, total } = commitComments(caller, repo.project, commit, {
        limit: page.perPage,
        offset: page.offset,
      })
      setPageHeaders(request, reply, caller.baseUrl, page, total)
      return comments
    },
  )

  app.post(
    '/projects/:id/repository/commits/:sha/comments',
    { schema: { params: ShaParams, body: CommentBody, response: { 201: CommitNote } } },
    async (request, reply) => {
      currentUser(request)
      const caller = callerOf(request)
      const repo = loadCodeProject(request, request.params.id)
      const b = request.body
      // A line comment names its line (GitLab's `given :path { requires :line }`).
      if (b.path !== undefined && b.line === undefined) throw missingParam('line')
      const commit = await findCommit(caller, repo.project, request.params.sha)
      const note = await createCommitComment(caller, repo.project, commit, {
        note: b.note,
        path: b.path,
        line: b.line,
        lineType: b.line_type ?? 'new',
      })
      return reply.code(201).send(presentCommitNotes(caller, [note])[0])
    },
  )
}

export default commitNoteRoutes
