import * as Api from '../../../shared/api/index'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { callerOf } from '../../platform/caller'
import { notFound } from '../../platform/http/errors'
import { paginateArray } from '../../platform/http/pagination'
import { loadCodeProject } from '../../platform/http/repository'
import { currentUser } from '../../platform/http/resolve'
import { createProjectTag, deleteProjectTag, findTagNamed, findTags, presentTags } from './service'

const ProjectParams = Type.Object({ id: Type.String() })
const TagParams = Type.Object({ id: Type.String(), tag_name: Type.String() })

const ListQuery = Type.Object({
  order_by: Type.Optional(Type.Enum(['name', 'updated', 'version'], { default: 'updated' })),
  sort: Type.Optional(Type.Enum(['asc', 'desc'], { default: 'desc' })),
  search: Type.Optional(Type.String()),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})

const CreateBody = Type.Object({
  tag_name: Type.String(),
  ref: Type.String(),
  message: Type.Optional(Type.String()),
})

/** Tags of a project's repository: list, show, create (annotated with a message) and delete. */
const tags: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects/:id/repository/tags',
    {
      schema: {
        params: ProjectParams,
        querystring: ListQuery,
        response: { 200: Type.Array(Api.Tag) },
      },
    },
    async (request, reply) => {
      const q = request.query
      const repo = loadCodeProject(request, request.params.id)
      const all = await findTags(repo, {
        orderBy: q.order_by ?? 'updated',
        sort: q.sort === 'asc' ? 'asc' : 'desc',
        search: q.search,
      })
      return presentTags(callerOf(request), repo, paginateArray(request, reply, callerOf(request).baseUrl, all))
    },
  )

  app.get(
    '/projects/:id/repository/tags/:tag_name',
    { schema: { params: TagParams, response: { 200: Api.Tag } } },
    async (request) => {
      const repo = loadCodeProject(request, request.params.id)
      const tag = await findTagNamed(repo, request.params.tag_name)
      if (!tag) throw notFound('Tag')
      const [entity] = await presentTags(callerOf(request), repo, [tag])
      return entity
    },
  )

  // Creating and deleting tags is GitLab's `admin_tag`: Developers and up.
  app.post(
    '/projects/:id/repository/tags',
    { schema: { params: ProjectParams, body: CreateBody, response: { 201: Api.Tag } } },
    async (request, reply) => {
      currentUser(request)
      const repo = loadCodeProject(request, request.params.id, AccessLevel.DEVELOPER)
      const { tag_name: name, ref, message } = request.body
      const tag = await createProjectTag(callerOf(request), repo, { name, ref, message })
      const [entity] = await presentTags(callerOf(request), repo, [tag])
      return reply.code(201).send(entity)
    },
  )

  app.delete('/projects/:id/repository/tags/:tag_name', { schema: { params: TagParams } }, async (request, reply) => {
    currentUser(request)
    const repo = loadCodeProject(request, request.params.id, AccessLevel.DEVELOPER)
    await deleteProjectTag(callerOf(request), repo, request.params.tag_name)
    return reply.code(204).send()
  })
}

export default tags
