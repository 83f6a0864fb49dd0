import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { callerOf } from '../../platform/caller'
import { paginateArray } from '../../platform/http/pagination'
import { currentUser, loadProject } from '../../platform/http/resolve'
import { variableEntity } from './entity'
import { projectVariables, type VariableFields } from './queries'
import { changeVariable, createVariable, loadVariable, removeVariable } from './service'

const ProjectParams = Type.Object({ id: Type.String() })
const KeyParams = Type.Object({ id: Type.String(), key: Type.String() })
const Filter = Type.Optional(Type.Object({ environment_scope: Type.Optional(Type.String()) }))
const VariableType = Type.Optional(Type.Union([Type.Literal('env_var'), Type.Literal('file')]))

const CreateBody = Type.Object({
  key: Type.String(),
  value: Type.String(),
  variable_type: VariableType,
  protected: Type.Optional(Type.Boolean()),
  masked: Type.Optional(Type.Boolean()),
  raw: Type.Optional(Type.Boolean()),
  environment_scope: Type.Optional(Type.String()),
  description: Type.Optional(Type.Union([Type.String(), Type.Null()])),
})
const UpdateBody = Type.Object({
  value: Type.Optional(Type.String()),
  variable_type: VariableType,
  protected: Type.Optional(Type.Boolean()),
  masked: Type.Optional(Type.Boolean()),
  raw: Type.Optional(Type.Boolean()),
  environment_scope: Type.Optional(Type.String()),
  description: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  filter: Filter,
})

/** Project CI/CD variables (`/projects/:id/variables`), for Maintainers. */
const ciVariables: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow

  app.get('/projects/:id/variables', { schema: { params: ProjectParams } }, async (request, reply) => {
    currentUser(request)
    const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
    return paginateArray(
      request,
      reply,
      callerOf(request).baseUrl,
      projectVariables(ctx.db, ctx.secrets, project.id).map(variableEntity),
    )
  })

  app.get(
    '/projects/:id/variables/:key',
    { schema: { params: KeyParams, querystring: Type.Object({ filter: Filter }) } },
    async (request) => {
      currentUser(request)
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      return variableEntity(
        loadVariable(callerOf(request), project, request.params.key, request.query.filter?.environment_scope),
      )
    },
  )

  app.post(
    '/projects/:id/variables',
    { schema: { params: ProjectParams, body: CreateBody } },
    async (request, reply) => {
      currentUser(request)
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      const b = request.body
      const fields: VariableFields = {
        key: b.key,
        value: b.value,
        variableType: b.variable_type ?? 'env_var',
        protected: b.protected ?? false,
        masked: b.masked ?? false,
        raw: b.raw ?? false,
        environmentScope: b.environment_scope || '*',
        description: b.description ?? null,
      }
      return reply.code(201).send(variableEntity(createVariable(callerOf(request), project, fields)))
    },
  )

  app.put('/projects/:id/variables/:key', { schema: { params: KeyParams, body: UpdateBody } }, async (request) => {
    currentUser(request)
    const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
    const b = request.body
    const current = loadVariable(callerOf(request), project, request.params.key, b.filter?.environment_scope)
    const fields: VariableFields = {
      key: current.key,
      value: b.value ?? current.value,
      variableType: b.variable_type ?? current.variable_type,
      protected: b.protected ?? current.protected === 1,
      masked: b.masked ?? current.masked === 1,
      raw: b.raw ?? current.raw === 1,
      environmentScope: b.environment_scope || current.environment_scope,
      description: b.description === undefined ? current.description : b.description,
    }
    return variableEntity(changeVariable(callerOf(request), project, current, fields))
  })

  app.delete(
    '/projects/:id/variables/:key',
    { schema: { params: KeyParams, querystring: Type.Object({ filter: Filter }) } },
    async (request, reply) => {
      currentUser(request)
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      const row = loadVariable(callerOf(request), project, request.params.key, request.query.filter?.environment_scope)
      removeVariable(callerOf(request), project, row)
      return reply.code(204).send()
    },
  )
}

export default ciVariables
