import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { ProtectedTag } from '../../../shared/api/protected-tag'
import { callerOf } from '../../platform/caller'
import { paginateArray } from '../../platform/http/pagination'
import { currentUser, loadProject } from '../../platform/http/resolve'
import { protectedTagEntity } from './entity'
import {
  CREATE_ACCESS_LEVELS,
  loadProtectedTag,
  protectedTagsOf,
  protectTag,
  unprotectTag,
  type CreateAccessLevel,
} from './service'

const ProjectParams = Type.Object({ id: Type.String() })
const TagParams = Type.Object({ id: Type.String(), name: Type.String() })
const PageQuery = Type.Object({ page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) })
// A role GitLab does not offer is refused by its params: 400 `create_access_level does not have a valid value`.
const CreateLevel = Type.Union(CREATE_ACCESS_LEVELS.map((level) => Type.Literal(level)))
const CreateBody = Type.Object({
  name: Type.String(),
  create_access_level: Type.Optional(CreateLevel),
  allowed_to_create: Type.Optional(Type.Array(Type.Object({ access_level: Type.Optional(CreateLevel) }))),
})

/** GitLab's Protected tags API, for the project's Maintainers; every call signs in first. */
const protectedTags: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects/:id/protected_tags',
    { schema: { params: ProjectParams, querystring: PageQuery, response: { 200: Type.Array(ProtectedTag) } } },
    async (request, reply) => {
      currentUser(request)
      const rows = protectedTagsOf(callerOf(request), loadProject(request, request.params.id))
      return paginateArray(request, reply, callerOf(request).baseUrl, rows.map(protectedTagEntity))
    },
  )

  app.get(
    '/projects/:id/protected_tags/:name',
    { schema: { params: TagParams, response: { 200: ProtectedTag } } },
    async (request) => {
      currentUser(request)
      const project = loadProject(request, request.params.id)
      return protectedTagEntity(loadProtectedTag(callerOf(request), project, request.params.name))
    },
  )

  app.post(
    '/projects/:id/protected_tags',
    { schema: { params: ProjectParams, body: CreateBody, response: { 201: ProtectedTag } } },
    async (request, reply) => {
      currentUser(request)
      const project = loadProject(request, request.params.id)
      const b = request.body
      const levels: CreateAccessLevel[] = [
        ...(b.create_access_level === undefined ? [] : [b.create_access_level]),
        ...(b.allowed_to_create ?? []).flatMap((a) => (a.access_level === undefined ? [] : [a.access_level])),
      ]
      const tag = protectTag(callerOf(request), project, b.name, levels)
      return reply.code(201).send(protectedTagEntity(tag))
    },
  )

  app.delete('/projects/:id/protected_tags/:name', { schema: { params: TagParams } }, async (request, reply) => {
    currentUser(request)
    const project = loadProject(request, request.params.id)
    unprotectTag(callerOf(request), project, loadProtectedTag(callerOf(request), project, request.params.name))
    return reply.code(204).send()
  })
}

export default protectedTags
