import * as Api from '../../../shared/api/index'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static, type TSchema } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { callerOf, type Caller } from '../../platform/caller'
import { groupSharesOf, listGroups, type GroupListFilter, type GroupOrder } from './queries'
import { findGroup, GROUP_SETTING_DEFAULTS, VisibilitySchema } from '../namespaces'
import { listProjects, presentProjects, projectFilter } from '../projects'
import type { NamespaceRow, Visibility } from '../../platform/db/rows'
import { groupDetailEntity, groupEntity } from './entity'
import { checkUnmodifiedSince } from '../../platform/http/conditional'
import { apiMessage, forbidden, invalidParam, notFound } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadGroup } from '../../platform/http/resolve'
import { runnersToken } from '../runners'
import { canCreateSubgroup } from './policy'
import {
  createGroup,
  destroyGroup,
  shareGroupWithGroup,
  unshareGroup,
  groupSettingsEnumError,
  transferGroup,
  updateGroup,
} from './service'

/** Group attributes with the types GitLab declares for them. */
function groupAttributeSchemas(): Record<string, TSchema> {
  const props: Record<string, TSchema> = {
    name: Type.String(),
    path: Type.String(),
    description: Type.String(),
    visibility: VisibilitySchema,
    request_access_enabled: Type.Boolean(),
    emails_disabled: Type.Boolean(),
    avatar: Type.String(),
  }
  const booleans = new Set(['auto_devops_enabled', 'mentions_disabled', 'prevent_forking_outside_group'])
  const integers = new Set([
    'file_template_project_id',
    'extra_shared_runners_minutes_limit',
    'shared_runners_minutes_limit',
  ])
  for (const [key, value] of Object.entries(GROUP_SETTING_DEFAULTS)) {
    if (typeof value === 'boolean' || booleans.has(key)) props[key] = Type.Boolean()
    else if (typeof value === 'number' || integers.has(key)) props[key] = Type.Integer()
    else props[key] = Type.String()
  }
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, Type.Optional(v)]))
}

const GroupAttributes = groupAttributeSchemas()
const CreateBody = Type.Object({
  ...GroupAttributes,
  name: Type.String(),
  path: Type.String(),
  parent_id: Type.Optional(Type.Integer()),
})
const UpdateBody = Type.Object(GroupAttributes)
const IdParams = Type.Object({ id: Type.String() })

const ListQuery = Type.Object({
  skip_groups: Type.Optional(Type.Array(Type.Integer())),
  all_available: Type.Optional(Type.Boolean()),
  search: Type.Optional(Type.String()),
  order_by: Type.Optional(
    Type.Union([Type.Literal('name'), Type.Literal('path'), Type.Literal('id'), Type.Literal('similarity')]),
  ),
  sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  statistics: Type.Optional(Type.Boolean()),
  with_custom_attributes: Type.Optional(Type.Boolean()),
  owned: Type.Optional(Type.Boolean()),
  min_access_level: Type.Optional(Type.Integer()),
  top_level_only: Type.Optional(Type.Boolean()),
  visibility: Type.Optional(VisibilitySchema),
})

interface GroupListQuery {
  readonly skip_groups?: readonly number[]
  readonly all_available?: boolean
  readonly search?: string
  readonly order_by?: GroupOrder
  readonly sort?: 'asc' | 'desc'
  readonly statistics?: boolean
  readonly owned?: boolean
  readonly min_access_level?: number
  readonly top_level_only?: boolean
  readonly visibility?: Visibility
}

type Body = Readonly<Record<string, unknown>>

function groupFilter(
  caller: Caller,
  q: GroupListQuery,
  scope: { membersOnly: boolean; parentId?: number; descendantsOf?: number },
): GroupListFilter {
  const { user, perms } = caller
  if (q.min_access_level !== undefined && ![5, 10, 20, 30, 40, 50].includes(q.min_access_level))
    throw invalidParam('min_access_level', 'does not have a valid value')
  return {
    userId: user?.id ?? null,
    isAdmin: perms.isAdmin,
    external: user?.external === 1,
    visibleIds: user && !perms.isAdmin ? [...perms.visibleGroups()] : [],
    membersOnly: scope.membersOnly,
    parentId: scope.parentId,
    descendantsOf: scope.descendantsOf,
    topLevelOnly: q.top_level_only,
    skipGroups: q.skip_groups,
    search: q.search || undefined,
    owned: q.owned,
    minAccessLevel: q.min_access_level,
    visibility: q.visibility,
    orderBy: q.order_by ?? 'name',
    sort: q.sort ?? 'asc',
  }
}

/** Groups, subgroups, their projects and shares (GitLab's Groups API). */
const groups: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.burrow

  function sendGroups(
    request: FastifyRequest,
    reply: FastifyReply,
    query: Static<typeof ListQuery>,
    filter: GroupListFilter,
  ): Api.Group[] {
    const { baseUrl, perms } = callerOf(request)
    const page = pageOf(query)
    const { rows, total } = listGroups(db, filter, page.perPage, page.offset)
    setPageHeaders(request, reply, baseUrl, page, total)
    return rows.map((g) => groupEntity(g, { baseUrl, statistics: query.statistics && perms.isAdmin }))
  }

  /** GroupDetail for the caller: shares, the group's projects and the projects shared with it. */
  function groupDetail(caller: Caller, group: NamespaceRow, withProjects = true): Api.GroupDetail {
    const { baseUrl } = caller
    const shares = groupSharesOf(db, [group.id]).get(group.id) ?? []
    // GitLab shows the runner registration token to the group's Owners.
    const token = caller.perms.canInGroup(group.id, AccessLevel.OWNER)
      ? { runners_token: runnersToken(app.burrow, { kind: 'group', id: group.id }) }
      : {}
    if (!withProjects) return { ...groupDetailEntity(group, { baseUrl, shares }), ...token }
    // GitLab caps the embedded project lists at 100; the full list is GET /groups/:id/projects.
    const own = listProjects(db, projectFilter(caller, {}, { namespaceIds: [group.id] }), 100, 0).rows
    // No namespaces plus the shared-with clause selects exactly the projects shared with the group.
    const shared = listProjects(
      db,
      { ...projectFilter(caller, {}, { namespaceIds: [] }), sharedWithGroupId: group.id },
      100,
      0,
    ).rows
    return {
      ...groupDetailEntity(group, {
        baseUrl,
        shares,
        projects: presentProjects(caller, own),
        sharedProjects: presentProjects(caller, shared),
      }),
      ...token,
    }
  }

  app.get(
    '/groups',
    { schema: { querystring: ListQuery, response: { 200: Type.Array(Api.Group) } } },
    async (request, reply) => {
      const q = request.query
      const caller = callerOf(request)
      const allAvailable = q.all_available ?? caller.perms.isAdmin
      const membersOnly = caller.user !== null && !allAvailable && !caller.perms.isAdmin
      return sendGroups(request, reply, q, groupFilter(caller, q, { membersOnly }))
    },
  )

  app.post('/groups', { schema: { body: CreateBody, response: { 201: Api.GroupDetail } } }, async (request, reply) => {
    const user = currentUser(request)
    const caller = callerOf(request)
    const body = request.body
    const params: Body = body
    const enumError = groupSettingsEnumError(params)
    if (enumError) throw invalidParam(enumError, 'does not have a valid value')
    let parent: NamespaceRow | null = null
    if (body.parent_id !== undefined) {
      parent = loadGroup(request, body.parent_id)
      if (!canCreateSubgroup(caller.perms, parent)) throw forbidden()
    } else if (!user.can_create_group && !caller.perms.isAdmin) throw forbidden()
    const group = createGroup(caller, {
      name: body.name,
      path: body.path,
      parent,
      visibility: params.visibility as Visibility | undefined,
      description: params.description as string | undefined,
      params,
    })
    return reply.code(201).send(groupDetail(caller, group))
  })

  app.get(
    '/groups/:id',
    {
      schema: {
        params: IdParams,
        querystring: Type.Object({ with_projects: Type.Optional(Type.Boolean()) }),
        response: { 200: Api.GroupDetail },
      },
    },
    async (request) => {
      const group = loadGroup(request, request.params.id)
      return groupDetail(callerOf(request), group, request.query.with_projects !== false)
    },
  )

  app.put(
    '/groups/:id',
    { schema: { params: IdParams, body: UpdateBody, response: { 200: Api.GroupDetail } } },
    async (request) => {
      const group = loadGroup(request, request.params.id, AccessLevel.OWNER)
      checkUnmodifiedSince(request, group.updated_at)
      const body: Body = request.body
      const enumError = groupSettingsEnumError(body)
      if (enumError) throw invalidParam(enumError, 'does not have a valid value')
      const caller = callerOf(request)
      return groupDetail(caller, updateGroup(caller, group, body))
    },
  )

  app.delete(
    '/groups/:id',
    { schema: { params: IdParams, response: { 202: Api.AcceptedMessage } } },
    async (request, reply) => {
      const group = loadGroup(request, request.params.id, AccessLevel.OWNER)
      checkUnmodifiedSince(request, group.updated_at)
      destroyGroup(callerOf(request), group)
      return reply.code(202).send({ message: '202 Accepted' })
    },
  )

  app.get(
    '/groups/:id/subgroups',
    {
      schema: { params: IdParams, querystring: ListQuery, response: { 200: Type.Array(Api.Group) } },
    },
    async (request, reply) => {
      const group = loadGroup(request, request.params.id)
      const filter = groupFilter(callerOf(request), request.query, { membersOnly: false, parentId: group.id })
      return sendGroups(request, reply, request.query, filter)
    },
  )

  app.get(
    '/groups/:id/descendant_groups',
    {
      schema: { params: IdParams, querystring: ListQuery, response: { 200: Type.Array(Api.Group) } },
    },
    async (request, reply) => {
      const group = loadGroup(request, request.params.id)
      const filter = groupFilter(callerOf(request), request.query, { membersOnly: false, descendantsOf: group.id })
      return sendGroups(request, reply, request.query, filter)
    },
  )

  app.post(
    '/groups/:id/transfer',
    {
      schema: {
        params: IdParams,
        body: Type.Object({ group_id: Type.Optional(Type.Integer()) }),
        response: { 201: Api.GroupDetail },
      },
    },
    async (request, reply) => {
      const group = loadGroup(request, request.params.id, AccessLevel.OWNER)
      const user = currentUser(request)
      const caller = callerOf(request)
      let target: NamespaceRow | null = null
      if (request.body.group_id !== undefined) {
        target = loadGroup(request, request.body.group_id)
        if (!canCreateSubgroup(caller.perms, target)) throw forbidden()
      } else if (!user.can_create_group && !caller.perms.isAdmin) throw forbidden()
      const result = transferGroup(caller, group, target)
      if (typeof result === 'string') throw apiMessage(400, `Transferring group failed: ${result}`)
      return reply.code(201).send(groupDetail(caller, result))
    },
  )

  app.post(
    '/groups/:id/share',
    {
      schema: {
        params: IdParams,
        body: Type.Object({
          group_id: Type.Integer(),
          group_access: Type.Integer(),
          expires_at: Type.Optional(Type.String()),
        }),
        response: { 201: Api.GroupDetail },
      },
    },
    async (request, reply) => {
      const group = loadGroup(request, request.params.id, AccessLevel.OWNER)
      const { group_id: withId, group_access: access, expires_at: expiresAt } = request.body
      if (![10, 20, 30, 40, 50].includes(access)) throw invalidParam('group_access', 'does not have a valid value')
      if (expiresAt !== undefined && expiresAt !== '' && Number.isNaN(Date.parse(expiresAt)))
        throw invalidParam('expires_at')
      const caller = callerOf(request)
      const withGroup = findGroup(db, withId)
      if (!withGroup || !caller.perms.canReadGroup(withGroup)) throw notFound('Group')
      shareGroupWithGroup(caller, group, withGroup, access, expiresAt || null)
      return reply.code(201).send(groupDetail(caller, group))
    },
  )

  app.delete(
    '/groups/:id/share/:group_id',
    { schema: { params: Type.Object({ id: Type.String(), group_id: Type.Integer() }) } },
    async (request, reply) => {
      const group = loadGroup(request, request.params.id, AccessLevel.OWNER)
      unshareGroup(callerOf(request), group, request.params.group_id)
      return reply.code(204).send()
    },
  )
}

export default groups
