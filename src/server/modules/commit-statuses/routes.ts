import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { COMMIT_STATUS_STATES, CommitStatus } from '../../../shared/api/commit-status'
import { AccessLevel } from '../../platform/auth/access'
import { callerOf } from '../../platform/caller'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { loadCodeProject } from '../../platform/http/repository'
import { currentUser } from '../../platform/http/resolve'
import { commitStatuses, postCommitStatus } from './service'

const ShaParams = Type.Object({ id: Type.String(), sha: Type.String({ minLength: 1 }) })
const ListQuery = Type.Object({
  ref: Type.Optional(Type.String()),
  stage: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  pipeline_id: Type.Optional(Type.Integer()),
  all: Type.Optional(Type.Boolean()),
  order_by: Type.Optional(Type.Enum(['id', 'pipeline_id'])),
  sort: Type.Optional(Type.Enum(['asc', 'desc'])),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})
const PostBody = Type.Object({
  state: Type.Enum([...COMMIT_STATUS_STATES]),
  ref: Type.Optional(Type.String()),
  target_url: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  context: Type.Optional(Type.String()),
  coverage: Type.Optional(Type.Number()),
  pipeline_id: Type.Optional(Type.Integer()),
})

/** Blank filters filter nothing (GitLab's `.present?`). */
const present = (value: string | undefined): string | undefined => (value === '' ? undefined : value)

/** GitLab's Commit status API: a commit's statuses, and the statuses external CI posts. */
const commitStatusRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects/:id/repository/commits/:sha/statuses',
    { schema: { params: ShaParams, querystring: ListQuery, response: { 200: Type.Array(CommitStatus) } } },
    async (request, reply) => {
      const caller = callerOf(request)
      const repo = loadCodeProject(request, request.params.id)
      const q = request.query
      const page = pageOf(q)
      const { statuses, total } = await commitStatuses(
        caller,
        repo,
        request.params.sha,
        {
          ref: present(q.ref),
          stage: present(q.stage),
          name: present(q.name),
          pipelineId: q.pipeline_id,
          all: q.all === true,
          orderBy: q.order_by ?? 'id',
          sort: q.sort ?? 'asc',
        },
        { limit: page.perPage, offset: page.offset },
      )
      setPageHeaders(request, reply, caller.baseUrl, page, total)
      return statuses
    },
  )

  app.post(
    '/projects/:id/statuses/:sha',
    { schema: { params: ShaParams, body: PostBody, response: { 201: CommitStatus } } },
    async (request, reply) => {
      currentUser(request)
      const repo = loadCodeProject(request, request.params.id, AccessLevel.DEVELOPER)
      const b = request.body
      const status = await postCommitStatus(callerOf(request), repo, request.params.sha, {
        state: b.state,
        ref: present(b.ref),
        name: present(b.name) ?? present(b.context) ?? 'default',
        targetUrl: b.target_url,
        description: b.description,
        coverage: b.coverage,
        pipelineId: b.pipeline_id,
      })
      return reply.code(201).send(status)
    },
  )
}

export default commitStatusRoutes
