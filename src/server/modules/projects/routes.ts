import * as Api from '../../../shared/api/index'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static, type TSchema } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { callerOf, type Caller } from '../../platform/caller'
import {
  findGroup,
  findNamespaceByFullPath,
  findNamespaceById,
  groupAndDescendantIds,
  VisibilitySchema,
} from '../namespaces'
import {
  listProjects,
  listProjectsKeyset,
  listStarrers,
  type ProjectListFilter,
  type ProjectWithNamespaceRow,
} from './queries'
import type { NamespaceRow, ProjectRow, UserRow, Visibility } from '../../platform/db/rows'
import { userNamespaceId, usersByIds } from '../users'
import { FEATURE_ACCESS_DEFAULTS, PROJECT_SETTING_DEFAULTS, projectGroupLinkEntity, starrerEntity } from './entity'
import { answerFromMemo } from '../../platform/http/answer-memo'
import { checkUnmodifiedSince } from '../../platform/http/conditional'
import { apiMessage, forbidden, invalidParam, noneGiven, notFound, validationFailed } from '../../platform/http/errors'
import { keysetOf, pageOf, setKeysetHeaders, setPageHeaders, wantsKeyset } from '../../platform/http/pagination'
import { currentUser, loadGroup, loadProject, loadUser, requireAdmin } from '../../platform/http/resolve'
import {
  canCreateProjectIn,
  createProject,
  destroyProject,
  setProjectArchived,
  setProjectStarred,
  settingsEnumError,
  shareProjectWithGroup,
  transferProject,
  unshareProject,
  updateProject,
} from './service'
import { PROJECT_LIST_QUERY, presentProject, presentProjectsJson, projectFilter } from './listing'
import { assertCanAssign, projectSource } from '../members'
import { refreshRepositoryFlags } from '../repository'
import { projectDeleting } from './deleting'

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

/**
 * Answers a project list: keyset pagination when asked for (`pagination=keyset`, order by id),
 * offset pagination otherwise; one query for the page and one for the count. The body is sent
 * already serialized (see `projectEntityJson`), and a page asked again before any write is
 * answered from memory (`answerFromMemo`).
 */
function sendProjectList(
  request: FastifyRequest,
  reply: FastifyReply,
  q: Static<typeof PROJECT_LIST_QUERY>,
  filter: ProjectListFilter,
): FastifyReply {
  return answerFromMemo(request, reply, () => projectListPage(request, reply, q, filter))
}

/** A page of projects as JSON bytes, its pagination headers set on `reply`. */
function projectListPage(
  request: FastifyRequest,
  reply: FastifyReply,
  q: Static<typeof PROJECT_LIST_QUERY>,
  filter: ProjectListFilter,
): Buffer {
  const caller = callerOf(request)
  const { db, baseUrl } = caller
  let rows: ProjectWithNamespaceRow[]
  if (wantsKeyset(q)) {
    const keyset = keysetOf({ ...q, sort: q.sort ?? 'desc' })
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
    const page = pageOf(q)
    const result = listProjects(db, filter, page.perPage, page.offset)
    rows = result.rows
    setPageHeaders(request, reply, baseUrl, page, result.total)
  }
  return presentProjectsJson(caller, rows, { simple: q.simple, statistics: q.statistics })
}

/** The namespace `namespace_id` names (integer or full path), if the caller may create projects there. */
function targetNamespace(caller: Caller, raw: string | undefined, fallbackUserId: number): NamespaceRow {
  const { db } = caller
  if (raw === undefined || raw === '')
    return findNamespaceById(db, userNamespaceId(db, fallbackUserId) as number) as NamespaceRow
  const ns = /^\d+$/.test(raw) ? findNamespaceById(db, Number(raw)) : findNamespaceByFullPath(db, raw)
  if (!ns || !canCreateProjectIn(caller, ns)) throw validationFailed({ namespace: ['is not valid'] })
  return ns
}

type Body = Readonly<Record<string, unknown>>

function createFromBody(caller: Caller, body: Body, creator: UserRow): Promise<ProjectRow> {
  if (body.name === undefined && body.path === undefined) throw noneGiven(['name', 'path'])
  const enumError = settingsEnumError(body)
  if (enumError) throw invalidParam(enumError, 'does not have a valid value')
  const namespace = targetNamespace(caller, body.namespace_id as string | undefined, creator.id)
  return createProject(caller, {
    name: body.name as string | undefined,
    path: body.path as string | undefined,
    namespace,
    creator,
    description: body.description as string | undefined,
    visibility: body.visibility as Visibility | undefined,
    defaultBranch: body.default_branch as string | undefined,
    repositoryStorage: caller.perms.isAdmin ? (body.repository_storage as string | undefined) : undefined,
    params: body,
  })
}

/** Projects, their stars and shares (GitLab's Projects API), and the project lists of users and groups. */
const projects: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.burrow

  app.get(
    '/projects',
    {
      schema: { querystring: PROJECT_LIST_QUERY, response: { 200: Type.Array(Api.ProjectListItem) } },
    },
    async (request, reply) => {
      return sendProjectList(request, reply, request.query, projectFilter(callerOf(request), request.query))
    },
  )

  app.post('/projects', { schema: { body: CreateBody, response: { 201: Api.Project } } }, async (request, reply) => {
    const user = currentUser(request)
    const caller = callerOf(request)
    const project = await createFromBody(caller, request.body, user)
    return reply.code(201).send(presentProject(caller, project))
  })

  app.post(
    '/projects/user/:user_id',
    {
      schema: {
        params: Type.Object({ user_id: Type.String() }),
        body: CreateBody,
        response: { 201: Api.Project },
      },
    },
    async (request, reply) => {
      requireAdmin(request)
      const owner = loadUser(request, request.params.user_id)
      const caller = callerOf(request)
      const project = await createFromBody(caller, request.body, owner)
      return reply.code(201).send(presentProject(caller, project))
    },
  )

  app.get(
    '/projects/:id',
    {
      schema: {
        params: IdParams,
        querystring: Type.Object({ statistics: Type.Optional(Type.Boolean()) }),
        response: { 200: Api.Project },
      },
    },
    async (request) => {
      const project = loadProject(request, request.params.id)
      // A single project reads empty_repo and readme_url from its repository; lists use the stored flags.
      await refreshRepositoryFlags(app.burrow, project)
      return presentProject(callerOf(request), project, { statistics: request.query.statistics })
    },
  )

  app.put(
    '/projects/:id',
    { schema: { params: IdParams, body: UpdateBody, response: { 200: Api.Project } } },
    async (request) => {
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      const caller = callerOf(request)
      const body: Body = request.body
      const enumError = settingsEnumError(body)
      if (enumError) throw invalidParam(enumError, 'does not have a valid value')
      // GitLab's owner_access: renaming a project (rename_project) and changing its visibility
      // (change_visibility_level) are for its Owners; Maintainers edit the rest.
      const ownerOnly = (typeof body.name === 'string' && body.name.trim() !== '') || body.visibility !== undefined
      if (ownerOnly && !caller.perms.canInProject(project, AccessLevel.OWNER)) throw forbidden()
      checkUnmodifiedSince(request, project.updated_at)
      return presentProject(caller, updateProject(caller, project, body))
    },
  )

  app.delete(
    '/projects/:id',
    { schema: { params: IdParams, response: { 202: Api.AcceptedMessage } } },
    async (request, reply) => {
      const project = loadProject(request, request.params.id, AccessLevel.OWNER)
      checkUnmodifiedSince(request, project.updated_at)
      const caller = callerOf(request)
      await projectDeleting(caller, project)
      destroyProject(caller, project)
      return reply.code(202).send({ message: '202 Accepted' })
    },
  )

  const projectAnswer = { 201: Api.Project }
  for (const [verb, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    app.post(
      `/projects/:id/${verb}`,
      { schema: { params: IdParams, response: projectAnswer } },
      async (request, reply) => {
        // GitLab archives and unarchives for the project's owners and administrators only.
        const project = loadProject(request, request.params.id, AccessLevel.OWNER)
        const caller = callerOf(request)
        return reply.code(201).send(presentProject(caller, setProjectArchived(caller, project, archived)))
      },
    )
  }

  for (const [verb, starred] of [
    ['star', true],
    ['unstar', false],
  ] as const) {
    app.post(
      `/projects/:id/${verb}`,
      { schema: { params: IdParams, response: projectAnswer } },
      async (request, reply) => {
        currentUser(request)
        const project = loadProject(request, request.params.id)
        const caller = callerOf(request)
        setProjectStarred(caller, project, starred)
        return reply.code(201).send(presentProject(caller, project))
      },
    )
  }

  app.get(
    '/projects/:id/starrers',
    {
      schema: {
        params: IdParams,
        querystring: Type.Object({ search: Type.Optional(Type.String()) }),
        response: { 200: Type.Array(Api.Starrer) },
      },
    },
    async (request, reply) => {
      const project = loadProject(request, request.params.id)
      const { baseUrl } = callerOf(request)
      const page = pageOf(request.query)
      const { rows, total } = listStarrers(db, project.id, request.query.search || undefined, page.perPage, page.offset)
      setPageHeaders(request, reply, baseUrl, page, total)
      const users = usersByIds(
        db,
        rows.map((r) => r.user_id),
      )
      return rows.map((r) => starrerEntity(r, users.get(r.user_id) as UserRow, baseUrl))
    },
  )

  app.put(
    '/projects/:id/transfer',
    {
      schema: {
        params: IdParams,
        body: Type.Object({ namespace: Type.String() }),
        response: { 200: Api.Project },
      },
    },
    async (request) => {
      const project = loadProject(request, request.params.id, AccessLevel.OWNER)
      const caller = callerOf(request)
      const raw = request.body.namespace
      const target = /^\d+$/.test(raw) ? findNamespaceById(db, Number(raw)) : findNamespaceByFullPath(db, raw)
      if (!target || (target.kind === 'group' && !caller.perms.canReadGroup(target))) throw notFound('Namespace')
      if (!canCreateProjectIn(caller, target))
        throw apiMessage(
          400,
          'Failed to transfer project {:new_namespace=>["Transfer failed, please contact an admin."]}',
        )
      const result = transferProject(caller, project, target)
      if (!('id' in result)) throw result
      return presentProject(caller, result)
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
        response: { 201: Api.ProjectGroupLink },
      },
    },
    async (request, reply) => {
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      const caller = callerOf(request)
      const { group_id: groupId, group_access: access, expires_at: expiresAt } = request.body
      if (![10, 20, 30, 40, 50].includes(access)) throw invalidParam('group_access', 'does not have a valid value')
      if (expiresAt !== undefined && expiresAt !== '' && Number.isNaN(Date.parse(expiresAt)))
        throw invalidParam('expires_at')
      // A share grants its group's members a role: the rule for granting roles to members applies
      // (nobody grants more than they hold, only Owners grant Owner), else a Maintainer could make
      // a group of theirs Owner of the project.
      assertCanAssign(caller, projectSource(db, project), access)
      const group = findGroup(db, groupId)
      if (!group || !caller.perms.canReadGroup(group)) throw notFound('Group')
      const link = shareProjectWithGroup(caller, project, group, access, expiresAt || null)
      return reply.code(201).send(projectGroupLinkEntity(link))
    },
  )

  app.delete(
    '/projects/:id/share/:group_id',
    { schema: { params: Type.Object({ id: Type.String(), group_id: Type.Integer() }) } },
    async (request, reply) => {
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      unshareProject(callerOf(request), project, request.params.group_id)
      return reply.code(204).send()
    },
  )

  // The direct forks of a project the caller may read, as any project list (GitLab's ForkProjectsFinder).
  app.get(
    '/projects/:id/forks',
    {
      schema: {
        params: IdParams,
        querystring: PROJECT_LIST_QUERY,
        response: { 200: Type.Array(Api.ProjectListItem) },
      },
    },
    async (request, reply) => {
      const project = loadProject(request, request.params.id)
      const filter = { ...projectFilter(callerOf(request), request.query), forkedFromId: project.id }
      return sendProjectList(request, reply, request.query, filter)
    },
  )

  app.get(
    '/users/:id/projects',
    {
      schema: {
        params: IdParams,
        querystring: PROJECT_LIST_QUERY,
        response: { 200: Type.Array(Api.ProjectListItem) },
      },
    },
    async (request, reply) => {
      const user = loadUser(request, request.params.id)
      const nsId = userNamespaceId(db, user.id)
      const filter = projectFilter(callerOf(request), request.query, { namespaceIds: nsId ? [nsId] : [] })
      return sendProjectList(request, reply, request.query, filter)
    },
  )

  app.get(
    '/users/:id/starred_projects',
    {
      schema: {
        params: IdParams,
        querystring: PROJECT_LIST_QUERY,
        response: { 200: Type.Array(Api.ProjectListItem) },
      },
    },
    async (request, reply) => {
      const user = loadUser(request, request.params.id)
      const filter = { ...projectFilter(callerOf(request), request.query), starredBy: user.id }
      return sendProjectList(request, reply, request.query, filter)
    },
  )

  // A group's projects are a project list (GitLab serves it from its Groups API).
  app.get(
    '/groups/:id/projects',
    {
      schema: {
        params: IdParams,
        querystring: PROJECT_LIST_QUERY,
        response: { 200: Type.Array(Api.ProjectListItem) },
      },
    },
    async (request, reply) => {
      const group = loadGroup(request, request.params.id)
      const q = request.query
      const namespaceIds = q.include_subgroups ? groupAndDescendantIds(db, group.id) : [group.id]
      const filter = projectFilter(callerOf(request), q, { namespaceIds })
      return sendProjectList(request, reply, q, {
        ...filter,
        sharedWithGroupId: q.with_shared === false ? undefined : group.id,
      })
    },
  )
}

export default projects
