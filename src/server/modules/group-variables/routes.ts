import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { CiVariable } from '../../../shared/api/ci-variable'
import { callerOf } from '../../platform/caller'
import { paginateArray } from '../../platform/http/pagination'
import { currentUser, loadGroup } from '../../platform/http/resolve'
import {
  changedVariableFields,
  newVariableFields,
  variableEntity,
  VariableCreateBody,
  VariableFilter,
  VariableUpdateBody,
} from '../ci-variables'
import {
  changeGroupVariable,
  createGroupVariable,
  listGroupVariables,
  loadGroupVariable,
  removeGroupVariable,
} from './service'

const GroupParams = Type.Object({ id: Type.String() })
const KeyParams = Type.Object({ id: Type.String(), key: Type.String() })
const FilterQuery = Type.Object({ filter: VariableFilter })

/**
 * GitLab's Group-level CI/CD variables API (`/groups/:id/variables`), for the group's Owners; every
 * call signs in first. The bodies and the entity are project variables'.
 */
const groupVariables: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/groups/:id/variables',
    { schema: { params: GroupParams, response: { 200: Type.Array(CiVariable) } } },
    async (request, reply) => {
      currentUser(request)
      const rows = listGroupVariables(callerOf(request), loadGroup(request, request.params.id))
      return paginateArray(request, reply, callerOf(request).baseUrl, rows.map(variableEntity))
    },
  )

  app.get(
    '/groups/:id/variables/:key',
    { schema: { params: KeyParams, querystring: FilterQuery, response: { 200: CiVariable } } },
    async (request) => {
      currentUser(request)
      const group = loadGroup(request, request.params.id)
      const scope = request.query.filter?.environment_scope
      return variableEntity(loadGroupVariable(callerOf(request), group, request.params.key, scope))
    },
  )

  app.post(
    '/groups/:id/variables',
    { schema: { params: GroupParams, body: VariableCreateBody, response: { 201: CiVariable } } },
    async (request, reply) => {
      currentUser(request)
      const group = loadGroup(request, request.params.id)
      const row = createGroupVariable(callerOf(request), group, newVariableFields(request.body))
      return reply.code(201).send(variableEntity(row))
    },
  )

  app.put(
    '/groups/:id/variables/:key',
    { schema: { params: KeyParams, body: VariableUpdateBody, response: { 200: CiVariable } } },
    async (request) => {
      currentUser(request)
      const group = loadGroup(request, request.params.id)
      const b = request.body
      const current = loadGroupVariable(callerOf(request), group, request.params.key, b.filter?.environment_scope)
      return variableEntity(changeGroupVariable(callerOf(request), group, current, changedVariableFields(current, b)))
    },
  )

  app.delete(
    '/groups/:id/variables/:key',
    { schema: { params: KeyParams, querystring: FilterQuery } },
    async (request, reply) => {
      currentUser(request)
      const group = loadGroup(request, request.params.id)
      const row = loadGroupVariable(
        callerOf(request),
        group,
        request.params.key,
        request.query.filter?.environment_scope,
      )
      removeGroupVariable(callerOf(request), group, row)
      return reply.code(204).send()
    },
  )
}

export default groupVariables
