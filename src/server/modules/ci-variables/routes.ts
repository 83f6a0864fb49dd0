import * as Api from '../../../shared/api/index'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { callerOf } from '../../platform/caller'
import { paginateArray } from '../../platform/http/pagination'
import { currentUser, loadProject } from '../../platform/http/resolve'
import { variableEntity } from './entity'
import {
  VariableCreateBody,
  VariableFilter,
  VariableUpdateBody,
  changedVariableFields,
  newVariableFields,
} from './params'
import { projectVariables } from './queries'
import { changeVariable, createVariable, loadVariable, removeVariable } from './service'

const ProjectParams = Type.Object({ id: Type.String() })
const KeyParams = Type.Object({ id: Type.String(), key: Type.String() })

/** Project CI/CD variables (`/projects/:id/variables`), for Maintainers. */
const ciVariables: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow

  app.get(
    '/projects/:id/variables',
    { schema: { params: ProjectParams, response: { 200: Type.Array(Api.CiVariable) } } },
    async (request, reply) => {
      currentUser(request)
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      return paginateArray(
        request,
        reply,
        callerOf(request).baseUrl,
        projectVariables(ctx.db, ctx.secrets, project.id).map(variableEntity),
      )
    },
  )

  app.get(
    '/projects/:id/variables/:key',
    {
      schema: {
        params: KeyParams,
        querystring: Type.Object({ filter: VariableFilter }),
        response: { 200: Api.CiVariable },
      },
    },
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
    {
      schema: { params: ProjectParams, body: VariableCreateBody, response: { 201: Api.CiVariable } },
    },
    async (request, reply) => {
      currentUser(request)
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      return reply
        .code(201)
        .send(variableEntity(createVariable(callerOf(request), project, newVariableFields(request.body))))
    },
  )

  app.put(
    '/projects/:id/variables/:key',
    { schema: { params: KeyParams, body: VariableUpdateBody, response: { 200: Api.CiVariable } } },
    async (request) => {
      currentUser(request)
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      const b = request.body
      const current = loadVariable(callerOf(request), project, request.params.key, b.filter?.environment_scope)
      return variableEntity(changeVariable(callerOf(request), project, current, changedVariableFields(current, b)))
    },
  )

  app.delete(
    '/projects/:id/variables/:key',
    { schema: { params: KeyParams, querystring: Type.Object({ filter: VariableFilter }) } },
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
