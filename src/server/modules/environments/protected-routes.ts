import * as Api from '../../../shared/api/index'
import { callerOf } from '../../platform/caller'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import {
  findProtectedEnvironment,
  listProtectedEnvironments,
  type DeployGrant,
  type ProtectedEnvironment,
} from './protected-queries'
import type { ProjectRow } from '../../platform/db/rows'
import { protectedEnvironmentEntity } from './protected-entity'
import { conflict, invalidParam, notFound, unprocessable } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadProject } from '../../platform/http/resolve'
import {
  DEPLOY_ACCESS_LEVELS,
  deployAccessNames,
  deployGrantErrors,
  protectEnvironment,
  unprotectEnvironment,
} from './protected-service'

const IdParams = Type.Object({ id: Type.String() })
const NameParams = Type.Object({ id: Type.String(), name: Type.String() })
const PageQuery = Type.Object({ page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) })
const Grant = Type.Object({
  access_level: Type.Optional(Type.Integer()),
  user_id: Type.Optional(Type.Integer()),
  group_id: Type.Optional(Type.Integer()),
})
const CreateBody = Type.Object({ name: Type.String(), deploy_access_levels: Type.Array(Grant) })

/** Protected environments of a project (PREMIUM in GitLab); Maintainers manage them. */
const protectedEnvironments: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.burrow.db

  const maintainedProject = (request: Parameters<typeof currentUser>[0], id: string): ProjectRow => {
    currentUser(request)
    return loadProject(request, id, AccessLevel.MAINTAINER)
  }
  const present = (rules: readonly ProtectedEnvironment[]): Api.ProtectedEnvironment[] => {
    const names = deployAccessNames(db, rules)
    return rules.map((r) => protectedEnvironmentEntity(r, names))
  }
  const ruleOf = (project: ProjectRow, name: string): ProtectedEnvironment => {
    const rule = findProtectedEnvironment(db, project.id, name)
    if (!rule) throw notFound()
    return rule
  }

  app.get(
    '/projects/:id/protected_environments',
    {
      schema: {
        params: IdParams,
        querystring: PageQuery,
        response: { 200: Type.Array(Api.ProtectedEnvironment) },
      },
    },
    async (request, reply) => {
      const project = maintainedProject(request, request.params.id)
      const page = pageOf(request.query)
      const { rows, total } = listProtectedEnvironments(db, project.id, { limit: page.perPage, offset: page.offset })
      setPageHeaders(request, reply, app.burrow.baseUrl(request), page, total)
      return present(rows)
    },
  )

  app.get(
    '/projects/:id/protected_environments/:name',
    { schema: { params: NameParams, response: { 200: Api.ProtectedEnvironment } } },
    async (request) => {
      const project = maintainedProject(request, request.params.id)
      return present([ruleOf(project, request.params.name)])[0]
    },
  )

  app.post(
    '/projects/:id/protected_environments',
    { schema: { params: IdParams, body: CreateBody, response: { 201: Api.ProtectedEnvironment } } },
    async (request, reply) => {
      const project = maintainedProject(request, request.params.id)
      const { name, deploy_access_levels: raw } = request.body
      for (const g of raw) {
        if (g.access_level !== undefined && !DEPLOY_ACCESS_LEVELS.includes(g.access_level))
          throw invalidParam('deploy_access_levels[access_level]', 'does not have a valid value')
      }
      if (findProtectedEnvironment(db, project.id, name))
        throw conflict(`Protected environment '${name}' already exists`)
      const grants: DeployGrant[] = raw.map((g) => ({
        access_level: g.access_level,
        user_id: g.user_id,
        group_id: g.group_id,
      }))
      const errors = name.trim() === '' ? ["Name can't be blank"] : deployGrantErrors(db, project, grants)
      if (errors.length > 0) throw unprocessable(errors)
      return reply.code(201).send(present([protectEnvironment(callerOf(request), project, name, grants)])[0])
    },
  )

  app.delete(
    '/projects/:id/protected_environments/:name',
    { schema: { params: NameParams } },
    async (request, reply) => {
      const project = maintainedProject(request, request.params.id)
      unprotectEnvironment(callerOf(request), project, ruleOf(project, request.params.name))
      return reply.code(204).send()
    },
  )
}

export default protectedEnvironments
