import { callerOf } from '../../platform/caller'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type, type TSchema } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { findGroup, findNamespaceByFullPath, findNamespaceById, namespaceAncestors } from '../namespaces/queries'
import {
  deleteProjectShare,
  directProjectLevels,
  findProjectWithNamespace,
  groupLevels,
  insertProjectShare,
  isStarred,
  listProjects,
  listProjectsKeyset,
  listStarrers,
  projectShareExists,
  projectSharesOf,
  setStar,
  updateProjectRow,
  type ProjectListFilter,
  type ProjectOrder,
  type ProjectWithNamespaceRow,
} from './queries'
import type { NamespaceRow, ProjectRow, UserRow, Visibility } from '../../platform/db/rows'
import { findUserById, userNamespaceId, USER_REF_COLUMNS, userRef, type UserRefRow } from '../users'
import {
  FEATURE_ACCESS_DEFAULTS,
  PROJECT_SETTING_DEFAULTS,
  projectEntity,
  projectEntityJson,
  projectSimple,
  type ProjectExtras,
} from './entity'
import { cachedStatement } from '../../platform/db/statements'
import { checkUnmodifiedSince } from '../../platform/http/conditional'
import {
  apiMessage,
  conflict,
  forbidden,
  invalidParam,
  notFound,
  notModified,
  paramError,
  validationFailed,
} from '../../platform/http/errors'
import { keysetOf, pageOf, setKeysetHeaders, setPageHeaders, wantsKeyset } from '../../platform/http/pagination'
import { currentUser, loadProject, loadUser, requireAdmin } from '../../platform/http/resolve'
import {
  canCreateProjectIn,
  createProject,
  destroyProject,
  settingsEnumError,
  transferProject,
  updateProject,
} from './service'
import { recordAudit } from '../audit-events'
import { assertCanAssign, loadSource } from '../members/service'
import { refreshRepositoryFlags } from '../repository'
import { runnersToken } from '../runners'

const VisibilitySchema = Type.Union([Type.Literal('private'), Type.Literal('internal'), Type.Literal('public')])
const OrderSchema = Type.Union(
  [
    'id',
    'name',
    'path',
    'created_at',
    'updated_at',
    'last_activity_at',
    'similarity',
    'star_count',
    'storage_size',
    'repository_size',
    'wiki_size',
    'packages_size',
  ].map((v) => Type.Literal(v)),
)
const SortSchema = Type.Union([Type.Literal('asc'), Type.Literal('desc')])

/** Body properties shared by create and update: every setting with the type GitLab declares for it. */
function projectAttributeSchemas(): Record<string, TSchema> {
  const props: Record<string, TSchema> = {
    name: Type.String(),
    path: Type.String(),
    description: Type.String(),
    visibility: VisibilitySchema,
    default_branch: Type.String(),
    topics: Type.Array(Type.String()),
    tag_list: Type.Array(Type.String()),
    request_access_enabled: Type.Boolean(),
    repository_storage: Type.String(),
    emails_disabled: Type.Boolean(),
    public_builds: Type.Boolean(),
    issues_enabled: Type.Boolean(),
    merge_requests_enabled: Type.Boolean(),
    wiki_enabled: Type.Boolean(),
    jobs_enabled: Type.Boolean(),
    snippets_enabled: Type.Boolean(),
    container_registry_enabled: Type.Boolean(),
  }
  for (const key of Object.keys(FEATURE_ACCESS_DEFAULTS)) props[key] = Type.String()
  for (const [key, value] of Object.entries(PROJECT_SETTING_DEFAULTS)) {
    if (typeof value === 'boolean' || key === 'allow_merge_on_skipped_pipeline') props[key] = Type.Boolean()
    else if (typeof value === 'number') props[key] = Type.Integer()
    else props[key] = Type.String()
  }
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, Type.Optional(v)]))
}

const ProjectAttributes = projectAttributeSchemas()
const CreateBody = Type.Object({ ...ProjectAttributes, namespace_id: Type.Optional(Type.String()) })
const UpdateBody = Type.Object(ProjectAttributes)
const IdParams = Type.Object({ id: Type.String() })

const ListQuery = Type.Object({
  archived: Type.Optional(Type.Boolean()),
  visibility: Type.Optional(VisibilitySchema),
  search: Type.Optional(Type.String()),
  search_namespaces: Type.Optional(Type.Boolean()),
  simple: Type.Optional(Type.Boolean()),
  owned: Type.Optional(Type.Boolean()),
  membership: Type.Optional(Type.Boolean()),
  starred: Type.Optional(Type.Boolean()),
  statistics: Type.Optional(Type.Boolean()),
  min_access_level: Type.Optional(Type.Integer()),
  id_after: Type.Optional(Type.Integer()),
  id_before: Type.Optional(Type.Integer()),
  last_activity_after: Type.Optional(Type.String()),
  last_activity_before: Type.Optional(Type.String()),
  repository_storage: Type.Optional(Type.String()),
  topic: Type.Optional(Type.Array(Type.String())),
  with_issues_enabled: Type.Optional(Type.Boolean()),
  with_merge_requests_enabled: Type.Optional(Type.Boolean()),
  with_custom_attributes: Type.Optional(Type.Boolean()),
  include_subgroups: Type.Optional(Type.Boolean()),
  with_shared: Type.Optional(Type.Boolean()),
  order_by: Type.Optional(OrderSchema),
  sort: Type.Optional(SortSchema),
  pagination: Type.Optional(Type.String()),
})

/** Parsed list query, as the schema above guarantees it. */
export interface ProjectListQuery {
  readonly archived?: boolean
  readonly visibility?: Visibility
  readonly search?: string
  readonly search_namespaces?: boolean
  readonly simple?: boolean
  readonly owned?: boolean
  readonly membership?: boolean
  readonly starred?: boolean
  readonly statistics?: boolean
  readonly min_access_level?: number
  readonly id_after?: number
  readonly id_before?: number
  readonly last_activity_after?: string
  readonly last_activity_before?: string
  readonly repository_storage?: string
  readonly topic?: readonly string[]
  readonly with_issues_enabled?: boolean
  readonly with_merge_requests_enabled?: boolean
  readonly order_by?: string
  readonly sort?: 'asc' | 'desc'
  readonly pagination?: string
}

export const PROJECT_LIST_QUERY = ListQuery

function isoParam(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined
  const t = Date.parse(value)
  if (Number.isNaN(t)) throw invalidParam(name)
  return new Date(t).toISOString()
}

/** Turns a validated list query into the SQL filter, enforcing GitLab's parameter rules. */
export function projectFilter(
  request: FastifyRequest,
  q: ProjectListQuery,
  scope: { readonly namespaceIds?: readonly number[] } = {},
): ProjectListFilter {
  const user = request.actor.user
  if (q.min_access_level !== undefined && ![5, 10, 20, 30, 40, 50].includes(q.min_access_level))
    throw invalidParam('min_access_level', 'does not have a valid value')
  let orderBy = (q.order_by ?? 'created_at') as string
  // Storage sizes are admin-only orderings in GitLab; without statistics here they sort like id.
  if (['storage_size', 'repository_size', 'wiki_size', 'packages_size'].includes(orderBy)) orderBy = 'id'
  return {
    userId: user?.id ?? null,
    isAdmin: request.perms.isAdmin,
    external: user?.external === 1,
    namespaceIds: scope.namespaceIds,
    archived: q.archived,
    visibility: q.visibility,
    search: q.search || undefined,
    searchNamespaces: q.search_namespaces,
    owned: q.owned,
    membership: q.membership,
    starredBy: q.starred ? (user?.id ?? -1) : undefined,
    minAccessLevel: q.min_access_level,
    idAfter: q.id_after,
    idBefore: q.id_before,
    lastActivityAfter: isoParam('last_activity_after', q.last_activity_after),
    lastActivityBefore: isoParam('last_activity_before', q.last_activity_before),
    // The storage filter is for administrators confirming storage moves; others cannot see storages.
    repositoryStorage: request.perms.isAdmin ? q.repository_storage : undefined,
    topic: q.topic
      ?.flatMap((t) => t.split(','))
      .map((t) => t.trim())
      .filter(Boolean),
    withIssuesEnabled: q.with_issues_enabled,
    withMergeRequestsEnabled: q.with_merge_requests_enabled,
    orderBy: orderBy as ProjectOrder,
    sort: q.sort ?? 'desc',
  }
}

/**
 * What each row of a page needs beyond itself, fetched in a few batch queries (owners, group
 * shares, the caller's levels): never one query per row. Null for callers who get the basic entity.
 */
function pageExtras(
  request: FastifyRequest,
  rows: readonly ProjectWithNamespaceRow[],
  options: { readonly simple?: boolean; readonly statistics?: boolean },
): ((p: ProjectWithNamespaceRow) => ProjectExtras) | null {
  const { db } = request.server.burrow
  const baseUrl = request.server.burrow.baseUrl(request)
  const user = request.actor.user
  if (options.simple || !user) return null
  const ids = rows.map((p) => p.id)
  const ownerIds = [
    ...new Set(rows.filter((p) => p.ns_kind === 'user' && p.ns_owner_id !== null).map((p) => p.ns_owner_id as number)),
  ]
  const owners = new Map<number, UserRefRow>()
  if (ownerIds.length > 0) {
    // Only the user_ref columns: materialising every users column was most of this query's time.
    const ownerRows = cachedStatement(
      db,
      `SELECT ${USER_REF_COLUMNS} FROM users WHERE id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(ownerIds)) as UserRefRow[]
    for (const u of ownerRows) owners.set(u.id, u)
  }
  const shares = projectSharesOf(db, ids)
  const direct = directProjectLevels(db, user.id, ids)
  const groups = groupLevels(db, user.id, [
    ...new Set(rows.filter((p) => p.ns_kind === 'group').map((p) => p.namespace_id)),
  ])
  return (p) => {
    const projectLevel =
      direct.get(p.id) ?? (p.ns_kind === 'user' && p.ns_owner_id === user.id ? AccessLevel.OWNER : null)
    const groupLevel = p.ns_kind === 'group' ? (groups.get(p.namespace_id) ?? null) : null
    const canSeeStats = request.perms.isAdmin || Math.max(projectLevel ?? 0, groupLevel ?? 0) >= AccessLevel.REPORTER
    return {
      baseUrl,
      owner: p.ns_owner_id !== null ? owners.get(p.ns_owner_id) : undefined,
      shares: shares.get(p.id),
      permissions: { project: projectLevel, group: groupLevel },
      statistics: options.statistics && canSeeStats,
      showStorage: request.perms.isAdmin,
    }
  }
}

/** Serializes a page of projects as the caller may see them (basic entities when anonymous or `simple`). */
export function presentProjects(
  request: FastifyRequest,
  rows: readonly ProjectWithNamespaceRow[],
  options: { readonly simple?: boolean; readonly statistics?: boolean } = {},
): Readonly<Record<string, unknown>>[] {
  const extras = pageExtras(request, rows, options)
  if (!extras) {
    const baseUrl = request.server.burrow.baseUrl(request)
    return rows.map((p) => projectSimple(p, baseUrl))
  }
  return rows.map((p) => projectEntity(p, extras(p)))
}

/** The same page as `presentProjects`, already serialized: unchanged rows reuse their memoised JSON. */
function presentProjectsJson(
  request: FastifyRequest,
  rows: readonly ProjectWithNamespaceRow[],
  options: { readonly simple?: boolean; readonly statistics?: boolean },
): Buffer {
  const extras = pageExtras(request, rows, options)
  if (!extras) return Buffer.from(JSON.stringify(presentProjects(request, rows, options)))
  const parts: Buffer[] = [OPEN_BRACKET]
  rows.forEach((p, i) => {
    if (i > 0) parts.push(COMMA)
    parts.push(projectEntityJson(p, extras(p)))
  })
  parts.push(CLOSE_BRACKET)
  return Buffer.concat(parts)
}

const OPEN_BRACKET = Buffer.from('[')
const COMMA = Buffer.from(',')
const CLOSE_BRACKET = Buffer.from(']')

/** One project as `GET /projects/:id` shows it to the caller. */
export function presentProject(
  request: FastifyRequest,
  project: ProjectRow,
  options: { readonly statistics?: boolean } = {},
): Readonly<Record<string, unknown>> {
  const { db } = request.server.burrow
  const row = findProjectWithNamespace(db, project.id) as ProjectWithNamespaceRow
  if (!request.actor.user) {
    // Anonymous callers get the full entity without permissions, not the list's basic one.
    return projectEntity(row, {
      baseUrl: request.server.burrow.baseUrl(request),
      shares: projectSharesOf(db, [row.id]).get(row.id),
      owner: row.ns_owner_id !== null ? findUserById(db, row.ns_owner_id) : undefined,
    })
  }
  const entity = presentProjects(request, [row], { statistics: options.statistics })[0]
  // GitLab shows the runner registration token to those who administer the project.
  if (!request.perms.canInProject(row, AccessLevel.MAINTAINER)) return entity
  return { ...entity, runners_token: runnersToken(request.server.burrow, { kind: 'project', id: row.id }) }
}

/**
 * Answers a project list: keyset pagination when asked for (`pagination=keyset`, order by id),
 * offset pagination otherwise; one query for the page and one for the count. The body is sent
 * already serialized (see `projectEntityJson`).
 */
export function sendProjectList(
  request: FastifyRequest,
  reply: FastifyReply,
  q: ProjectListQuery,
  filter: ProjectListFilter,
): FastifyReply {
  const { db } = request.server.burrow
  const baseUrl = request.server.burrow.baseUrl(request)
  let rows: ProjectWithNamespaceRow[]
  if (wantsKeyset(q as Record<string, unknown>)) {
    const keyset = keysetOf({ ...(request.query as Record<string, unknown>), sort: q.sort ?? 'desc' })
    const cursor = keyset.cursor
    rows = listProjectsKeyset(
      db,
      {
        ...filter,
        sort: keyset.sort,
        idAfter: keyset.sort === 'asc' && cursor !== undefined ? cursor : filter.idAfter,
        idBefore: keyset.sort === 'desc' && cursor !== undefined ? cursor : filter.idBefore,
      },
      keyset.perPage,
    )
    setKeysetHeaders(request, reply, baseUrl, keyset, rows)
  } else {
    const page = pageOf(request.query as Record<string, unknown>)
    const result = listProjects(db, filter, page.perPage, page.offset)
    rows = result.rows
    setPageHeaders(request, reply, baseUrl, page, result.total)
  }
  return reply
    .type('application/json')
    .send(presentProjectsJson(request, rows, { simple: q.simple, statistics: q.statistics }))
}

/** The namespace `namespace_id` names (integer or full path), if the caller may create projects there. */
function targetNamespace(request: FastifyRequest, raw: string | undefined, fallbackUserId: number): NamespaceRow {
  const { db } = request.server.burrow
  if (raw === undefined || raw === '')
    return findNamespaceById(db, userNamespaceId(db, fallbackUserId) as number) as NamespaceRow
  const ns = /^\d+$/.test(raw) ? findNamespaceById(db, Number(raw)) : findNamespaceByFullPath(db, raw)
  if (!ns || !canCreateProjectIn(request, ns)) throw validationFailed({ namespace: ['is not valid'] })
  return ns
}

type Body = Readonly<Record<string, unknown>>

function createFromBody(request: FastifyRequest, body: Body, creator: UserRow): Promise<ProjectRow> {
  if (body.name === undefined && body.path === undefined)
    throw paramError('name, path are missing, at least one parameter must be provided')
  const enumError = settingsEnumError(body)
  if (enumError) throw invalidParam(enumError, 'does not have a valid value')
  const namespace = targetNamespace(request, body.namespace_id as string | undefined, creator.id)
  return createProject(request, {
    name: body.name as string | undefined,
    path: body.path as string | undefined,
    namespace,
    creator,
    description: body.description as string | undefined,
    visibility: body.visibility as Visibility | undefined,
    defaultBranch: body.default_branch as string | undefined,
    repositoryStorage: request.perms.isAdmin ? (body.repository_storage as string | undefined) : undefined,
    params: body,
  })
}

/** Projects, their stars and shares (GitLab's Projects API). */
const projects: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>()
  const { db } = app.burrow

  app.get('/projects', { schema: { querystring: ListQuery } }, async (request, reply) => {
    const q = request.query as ProjectListQuery
    return sendProjectList(request, reply, q, projectFilter(request, q))
  })

  app.post('/projects', { schema: { body: CreateBody } }, async (request, reply) => {
    const user = currentUser(request)
    const project = await createFromBody(request, request.body as Body, user)
    return reply.code(201).send(presentProject(request, project))
  })

  app.post(
    '/projects/user/:user_id',
    { schema: { params: Type.Object({ user_id: Type.String() }), body: CreateBody } },
    async (request, reply) => {
      requireAdmin(request)
      const owner = loadUser(request, request.params.user_id)
      const body = request.body as Body
      const project = await createFromBody(request, body, owner)
      return reply.code(201).send(presentProject(request, project))
    },
  )

  app.get(
    '/projects/:id',
    { schema: { params: IdParams, querystring: Type.Object({ statistics: Type.Optional(Type.Boolean()) }) } },
    async (request) => {
      const project = loadProject(request, request.params.id)
      // A single project reads empty_repo and readme_url from its repository; lists use the stored flags.
      await refreshRepositoryFlags(app.burrow, project)
      return presentProject(request, project, { statistics: request.query.statistics })
    },
  )

  app.put('/projects/:id', { schema: { params: IdParams, body: UpdateBody } }, async (request) => {
    const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
    const body = request.body as Body
    const enumError = settingsEnumError(body)
    if (enumError) throw invalidParam(enumError, 'does not have a valid value')
    // GitLab's owner_access: renaming a project (rename_project) and changing its visibility
    // (change_visibility_level) are for its Owners; Maintainers edit the rest.
    const ownerOnly = (typeof body.name === 'string' && body.name.trim() !== '') || body.visibility !== undefined
    if (ownerOnly && !request.perms.canInProject(project, AccessLevel.OWNER)) throw forbidden()
    checkUnmodifiedSince(request, project.updated_at)
    const updated = updateProject(request, project, body)
    return presentProject(request, updated)
  })

  app.delete('/projects/:id', { schema: { params: IdParams } }, async (request, reply) => {
    const project = loadProject(request, request.params.id, AccessLevel.OWNER)
    checkUnmodifiedSince(request, project.updated_at)
    destroyProject(request, project)
    return reply.code(202).send({ message: '202 Accepted' })
  })

  for (const [verb, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    app.post(`/projects/:id/${verb}`, { schema: { params: IdParams } }, async (request, reply) => {
      // GitLab archives and unarchives for the project's owners and administrators only.
      const project = loadProject(request, request.params.id, AccessLevel.OWNER)
      let updated = project
      if ((project.archived === 1) !== archived) {
        updated = updateProjectRow(db, project.id, { archived })
        const ns = findNamespaceById(db, project.namespace_id) as NamespaceRow
        recordAudit(callerOf(request), {
          entityType: 'Project',
          entityId: project.id,
          entityPath: `${ns.full_path}/${project.path}`,
          change: { custom_message: archived ? 'Project archived' : 'Project unarchived' },
        })
      }
      return reply.code(201).send(presentProject(request, updated))
    })
  }

  app.post('/projects/:id/star', { schema: { params: IdParams } }, async (request, reply) => {
    const user = currentUser(request)
    const project = loadProject(request, request.params.id)
    if (isStarred(db, user.id, project.id)) throw notModified()
    setStar(db, user.id, project.id, true)
    return reply.code(201).send(presentProject(request, project))
  })

  app.post('/projects/:id/unstar', { schema: { params: IdParams } }, async (request, reply) => {
    const user = currentUser(request)
    const project = loadProject(request, request.params.id)
    if (!isStarred(db, user.id, project.id)) throw notModified()
    setStar(db, user.id, project.id, false)
    return reply.code(201).send(presentProject(request, project))
  })

  app.get(
    '/projects/:id/starrers',
    { schema: { params: IdParams, querystring: Type.Object({ search: Type.Optional(Type.String()) }) } },
    async (request, reply) => {
      const project = loadProject(request, request.params.id)
      const page = pageOf(request.query as Record<string, unknown>)
      const { rows, total } = listStarrers(db, project.id, request.query.search || undefined, page.perPage, page.offset)
      setPageHeaders(request, reply, app.burrow.baseUrl(request), page, total)
      const baseUrl = app.burrow.baseUrl(request)
      const users = new Map(
        (
          db
            .prepare('SELECT * FROM users WHERE id IN (SELECT value FROM json_each(?))')
            .all(JSON.stringify(rows.map((r) => r.user_id))) as UserRow[]
        ).map((u) => [u.id, u]),
      )
      return rows.map((r) => ({ starred_since: r.created_at, user: userRef(users.get(r.user_id) as UserRow, baseUrl) }))
    },
  )

  app.put(
    '/projects/:id/transfer',
    { schema: { params: IdParams, body: Type.Object({ namespace: Type.String() }) } },
    async (request) => {
      const project = loadProject(request, request.params.id, AccessLevel.OWNER)
      const raw = request.body.namespace
      const target = /^\d+$/.test(raw) ? findNamespaceById(db, Number(raw)) : findNamespaceByFullPath(db, raw)
      if (!target || (target.kind === 'group' && !request.perms.canReadGroup(target))) throw notFound('Namespace')
      if (!canCreateProjectIn(request, target))
        throw apiMessage(
          400,
          'Failed to transfer project {:new_namespace=>["Transfer failed, please contact an admin."]}',
        )
      const result = transferProject(request, project, target)
      if (!('id' in result)) throw result
      return presentProject(request, result)
    },
  )

  app.post(
    '/projects/:id/share',
    {
      schema: {
        params: IdParams,
        body: Type.Object({
          group_id: Type.Integer(),
          group_access: Type.Integer(),
          expires_at: Type.Optional(Type.String()),
        }),
      },
    },
    async (request, reply) => {
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      const { group_id: groupId, group_access: access, expires_at: expiresAt } = request.body
      if (![10, 20, 30, 40, 50].includes(access)) throw invalidParam('group_access', 'does not have a valid value')
      if (expiresAt !== undefined && expiresAt !== '' && Number.isNaN(Date.parse(expiresAt)))
        throw invalidParam('expires_at')
      // A share grants its group's members a role: the rule for granting roles to members applies
      // (nobody grants more than they hold, only Owners grant Owner), else a Maintainer could make
      // a group of theirs Owner of the project.
      assertCanAssign(request, loadSource(request, 'projects', request.params.id), access)
      const group = findGroup(db, groupId)
      if (!group || !request.perms.canReadGroup(group)) throw notFound('Group')
      const ns = findNamespaceById(db, project.namespace_id) as NamespaceRow
      const hierarchy = [ns.id, ...namespaceAncestors(db, ns.id).map((a) => a.id)]
      if (ns.kind === 'group' && hierarchy.includes(group.id))
        throw validationFailed({ group_id: ["can't be the project's group or one of its ancestors"] })
      if (projectShareExists(db, project.id, group.id)) throw conflict('Group already shared with this group')
      insertProjectShare(db, project.id, group.id, access, expiresAt || null)
      recordAudit(callerOf(request), {
        entityType: 'Project',
        entityId: project.id,
        entityPath: `${ns.full_path}/${project.path}`,
        targetId: group.id,
        targetType: 'Group',
        targetDetails: group.full_path,
        change: { add: 'project_access', as: String(access) },
      })
      const link = db
        .prepare('SELECT rowid AS id, * FROM project_group_links WHERE project_id = ? AND group_id = ?')
        .get(project.id, group.id) as Record<string, unknown>
      return reply.code(201).send({
        id: link.id,
        project_id: project.id,
        group_id: group.id,
        group_access: access,
        expires_at: link.expires_at,
      })
    },
  )

  app.delete(
    '/projects/:id/share/:group_id',
    { schema: { params: Type.Object({ id: Type.String(), group_id: Type.Integer() }) } },
    async (request, reply) => {
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      if (!deleteProjectShare(db, project.id, request.params.group_id)) throw notFound()
      const ns = findNamespaceById(db, project.namespace_id) as NamespaceRow
      recordAudit(callerOf(request), {
        entityType: 'Project',
        entityId: project.id,
        entityPath: `${ns.full_path}/${project.path}`,
        targetId: request.params.group_id,
        targetType: 'Group',
        change: { remove: 'project_access' },
      })
      return reply.code(204).send()
    },
  )

  app.get('/users/:id/projects', { schema: { params: IdParams, querystring: ListQuery } }, async (request, reply) => {
    const user = loadUser(request, request.params.id)
    const q = request.query as ProjectListQuery
    const nsId = userNamespaceId(db, user.id)
    return sendProjectList(request, reply, q, projectFilter(request, q, { namespaceIds: nsId ? [nsId] : [] }))
  })

  app.get(
    '/users/:id/starred_projects',
    { schema: { params: IdParams, querystring: ListQuery } },
    async (request, reply) => {
      const user = loadUser(request, request.params.id)
      const q = request.query as ProjectListQuery
      return sendProjectList(request, reply, q, { ...projectFilter(request, q), starredBy: user.id })
    },
  )
}

export default projects
