import { callerOf } from '../../platform/caller'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import {
  deleteVariable,
  findVariables,
  insertVariable,
  projectVariables,
  updateVariable,
  type CiVariableRow,
  type VariableFields,
} from './queries'
import type { ProjectRow } from '../../platform/db/rows'
import { conflict, notFound, validationFailed } from '../../platform/http/errors'
import { paginateArray } from '../../platform/http/pagination'
import { currentUser, loadProject } from '../../platform/http/resolve'
import { recordAudit } from '../audit-events'
import { projectFullPath } from '../pipelines/ci-context'
import { TEXT_LIMITS, tooLong } from '../../platform/text/limits'

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

/** GitLab's Ci::Variable entity. */
function variableEntity(v: CiVariableRow): Readonly<Record<string, unknown>> {
  return {
    variable_type: v.variable_type,
    key: v.key,
    value: v.value,
    hidden: false,
    protected: v.protected === 1,
    masked: v.masked === 1,
    raw: v.raw === 1,
    environment_scope: v.environment_scope,
    description: v.description,
  }
}

/** GitLab's rules: key of letters, digits and `_`; a masked value of at least 8 characters, no spaces. */
function check(v: VariableFields): void {
  const errors: Record<string, string[]> = {}
  if (!/^[a-zA-Z0-9_]+$/.test(v.key)) errors.key = ["can contain only letters, digits and '_'."]
  else if (v.key.length > TEXT_LIMITS.name.name) errors.key = [tooLong(TEXT_LIMITS.name.name)]
  if (v.masked && !/^[A-Za-z0-9+/=@:.~-]{8,}$/.test(v.value)) errors.value = ['is invalid']
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
}

/** The one variable with this key (and scope): 404 when none, 409 when several scopes share the key. */
function loadVariable(
  request: FastifyRequest,
  project: ProjectRow,
  key: string,
  scope: string | undefined,
): CiVariableRow {
  const rows = findVariables(request.server.burrow.db, request.server.burrow.secrets, project.id, key).filter(
    (v) => scope === undefined || v.environment_scope === scope,
  )
  if (rows.length === 0) throw notFound('Variable')
  if (rows.length > 1)
    throw conflict("There are multiple variables with provided parameters. Please use 'filter[environment_scope]'")
  return rows[0]
}

function audit(request: FastifyRequest, project: ProjectRow, v: CiVariableRow, message: string): void {
  const ctx = request.server.burrow
  recordAudit(callerOf(request), {
    entityType: 'Project',
    entityId: project.id,
    entityPath: projectFullPath(ctx, project),
    targetId: v.id,
    targetType: 'Ci::Variable',
    targetDetails: v.key,
    change: { custom_message: message },
  })
}

/** Project CI/CD variables (`/projects/:id/variables`), for Maintainers. */
const ciVariables: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow

  app.get('/projects/:id/variables', { schema: { params: ProjectParams } }, async (request, reply) => {
    currentUser(request)
    const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
    return paginateArray(
      request,
      reply,
      ctx.baseUrl(request),
      projectVariables(ctx.db, ctx.secrets, project.id).map(variableEntity),
    )
  })

  app.get(
    '/projects/:id/variables/:key',
    { schema: { params: KeyParams, querystring: Type.Object({ filter: Filter }) } },
    async (request) => {
      currentUser(request)
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      return variableEntity(loadVariable(request, project, request.params.key, request.query.filter?.environment_scope))
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
      check(fields)
      if (
        findVariables(ctx.db, ctx.secrets, project.id, fields.key).some(
          (v) => v.environment_scope === fields.environmentScope,
        )
      ) {
        throw validationFailed({ key: [`(${fields.key}) has already been taken`] })
      }
      const row = insertVariable(ctx.db, ctx.secrets, project.id, fields)
      audit(request, project, row, `Added ci variable ${row.key}`)
      return reply.code(201).send(variableEntity(row))
    },
  )

  app.put('/projects/:id/variables/:key', { schema: { params: KeyParams, body: UpdateBody } }, async (request) => {
    currentUser(request)
    const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
    const b = request.body
    const current = loadVariable(request, project, request.params.key, b.filter?.environment_scope)
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
    check(fields)
    if (
      fields.environmentScope !== current.environment_scope &&
      findVariables(ctx.db, ctx.secrets, project.id, fields.key).some(
        (v) => v.environment_scope === fields.environmentScope,
      )
    ) {
      throw validationFailed({ key: [`(${fields.key}) has already been taken`] })
    }
    const row = updateVariable(ctx.db, ctx.secrets, current.id, fields)
    audit(request, project, row, `Changed ci variable ${row.key}`)
    return variableEntity(row)
  })

  app.delete(
    '/projects/:id/variables/:key',
    { schema: { params: KeyParams, querystring: Type.Object({ filter: Filter }) } },
    async (request, reply) => {
      currentUser(request)
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      const row = loadVariable(request, project, request.params.key, request.query.filter?.environment_scope)
      deleteVariable(ctx.db, row.id)
      audit(request, project, row, `Removed ci variable ${row.key}`)
      return reply.code(204).send()
    },
  )
}

export default ciVariables
