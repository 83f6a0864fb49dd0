import * as Api from '../../../shared/api/index'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { callerOf, signedInUser } from '../../platform/caller'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { findMilestoneById, listMilestones, type MilestoneFilter, type MilestoneRow } from './queries'
import { findNamespaceById, groupAndDescendantIds, namespaceAncestors } from '../namespaces'
import { projectsInNamespaces } from '../projects'
import type { ProjectRow } from '../../platform/db/rows'
import { checkUnmodifiedSince } from '../../platform/http/conditional'
import { apiMessage, forbidden, notFound } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadGroup, loadProject } from '../../platform/http/resolve'
import {
  burndownEvents,
  createMilestone,
  destroyMilestone,
  milestoneItems,
  promoteMilestone,
  updateMilestone,
  type MilestoneOwner,
} from './service'
import { canUseProjectMilestones } from './policy'
import { presentMilestones } from './present'

// Creating and editing milestones is a Reporter right in GitLab; deleting needs Developer (the spec's rule).
const ADMIN_MILESTONE = AccessLevel.REPORTER
const DELETE_MILESTONE = AccessLevel.DEVELOPER

const IdParams = Type.Object({ id: Type.String() })
const MilestoneParams = Type.Object({ id: Type.String(), milestone_id: Type.Integer() })
const StateSchema = Type.Union([Type.Literal('active'), Type.Literal('closed')])

const ListQuery = Type.Object({
  iids: Type.Optional(Type.Array(Type.Integer())),
  state: Type.Optional(StateSchema),
  title: Type.Optional(Type.String()),
  search: Type.Optional(Type.String()),
  include_parent_milestones: Type.Optional(Type.Boolean()),
  include_ancestors: Type.Optional(Type.Boolean()),
  include_descendants: Type.Optional(Type.Boolean()),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})
const PageQuery = Type.Object({ page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) })
const DateParam = Type.Optional(Type.Union([Type.String(), Type.Null()]))
const CreateBody = Type.Object({
  title: Type.Optional(Type.String()),
  description: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  due_date: DateParam,
  start_date: DateParam,
})
const UpdateBody = Type.Object({
  ...CreateBody.properties,
  state_event: Type.Optional(Type.Union([Type.Literal('close'), Type.Literal('activate')])),
})

interface ListParams {
  readonly iids?: readonly number[]
  readonly state?: 'active' | 'closed'
  readonly title?: string
  readonly search?: string
  readonly include_parent_milestones?: boolean
  readonly include_ancestors?: boolean
  readonly include_descendants?: boolean
}

/** Filters shared by project and group lists; `iids` is ignored once parents are included, as GitLab does. */
function filterOf(
  q: ListParams,
  scope: { readonly projectIds: readonly number[]; readonly groupIds: readonly number[] },
  withParents: boolean,
): MilestoneFilter {
  return {
    ...scope,
    iids: withParents || q.iids === undefined || q.iids.length === 0 ? undefined : q.iids,
    state: q.state,
    title: q.title,
    search: q.search || undefined,
  }
}

function sendPage(
  request: FastifyRequest,
  reply: FastifyReply,
  filter: MilestoneFilter,
): ReturnType<typeof presentMilestones> {
  const page = pageOf(request.query)
  const { rows, total } = listMilestones(request.server.burrow.db, filter, { limit: page.perPage, offset: page.offset })
  setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
  return presentMilestones(callerOf(request), rows)
}

/** The owner's own milestone with this global id, or 404 `Milestone Not Found`. */
function ownMilestone(request: FastifyRequest, owner: MilestoneOwner, id: number): MilestoneRow {
  const row = findMilestoneById(request.server.burrow.db, id)
  const mine = row && (owner.kind === 'project' ? row.project_id === owner.project.id : row.group_id === owner.group.id)
  if (!row || !mine) throw notFound('Milestone')
  return row
}

/** Group ids of a project's group and that group's ancestors (none for a personal project). */
function projectGroupChain(request: FastifyRequest, project: ProjectRow): number[] {
  const db = request.server.burrow.db
  const ns = findNamespaceById(db, project.namespace_id)
  if (!ns || ns.kind !== 'group') return []
  return [ns.id, ...namespaceAncestors(db, ns.id).map((g) => g.id)]
}

type OwnerLoader = (request: FastifyRequest, id: string, minLevel?: number) => MilestoneOwner

/** The project `:id` names, 403 when the caller may use neither its issues nor its merge requests. */
function loadMilestonesProject(request: FastifyRequest, id: string, minLevel?: number): ProjectRow {
  const project = loadProject(request, id, minLevel)
  if (!canUseProjectMilestones(request.perms, project)) throw forbidden()
  return project
}

const loadProjectOwner: OwnerLoader = (request, id, minLevel) => ({
  kind: 'project',
  project: loadMilestonesProject(request, id, minLevel),
})
const loadGroupOwner: OwnerLoader = (request, id, minLevel) => ({
  kind: 'group',
  group: loadGroup(request, id, minLevel),
})

/** The single-milestone routes, identical for project and group milestones apart from the owner. */
function memberRoutes(base: string, load: OwnerLoader): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      `${base}/:milestone_id`,
      { schema: { params: MilestoneParams, response: { 200: Api.Milestone } } },
      async (request) => {
        const owner = load(request, request.params.id)
        return presentMilestones(callerOf(request), [ownMilestone(request, owner, request.params.milestone_id)])[0]
      },
    )

    app.post(
      base,
      { schema: { params: IdParams, body: CreateBody, response: { 201: Api.Milestone } } },
      async (request, reply) => {
        const user = currentUser(request)
        const owner = load(request, request.params.id, ADMIN_MILESTONE)
        const row = createMilestone(callerOf(request), owner, request.body, user.id)
        return reply.code(201).send(presentMilestones(callerOf(request), [row])[0])
      },
    )

    app.put(
      `${base}/:milestone_id`,
      { schema: { params: MilestoneParams, body: UpdateBody, response: { 200: Api.Milestone } } },
      async (request) => {
        const user = currentUser(request)
        const owner = load(request, request.params.id, ADMIN_MILESTONE)
        const milestone = ownMilestone(request, owner, request.params.milestone_id)
        checkUnmodifiedSince(request, milestone.updated_at)
        return presentMilestones(callerOf(request), [
          updateMilestone(callerOf(request), owner, milestone, request.body, user.id),
        ])[0]
      },
    )

    app.delete(`${base}/:milestone_id`, { schema: { params: MilestoneParams } }, async (request, reply) => {
      const user = currentUser(request)
      const owner = load(request, request.params.id, DELETE_MILESTONE)
      const milestone = ownMilestone(request, owner, request.params.milestone_id)
      checkUnmodifiedSince(request, milestone.updated_at)
      destroyMilestone(callerOf(request), owner, milestone, user.id)
      return reply.code(204).send()
    })

    const itemLists = { issues: Type.Array(Api.Issue), merge_requests: Type.Array(Api.MergeRequest) }
    for (const kind of ['issues', 'merge_requests'] as const) {
      app.get(
        `${base}/:milestone_id/${kind}`,
        {
          schema: {
            params: MilestoneParams,
            querystring: PageQuery,
            response: { 200: itemLists[kind] },
          },
        },
        async (request, reply) => {
          // Every merge request call needs a signed-in caller (spec, Authentication).
          if (kind === 'merge_requests') signedInUser(callerOf(request))
          const owner = load(request, request.params.id)
          const milestone = ownMilestone(request, owner, request.params.milestone_id)
          const page = pageOf(request.query)
          const { rows, total } = milestoneItems(callerOf(request), milestone, kind, {
            limit: page.perPage,
            offset: page.offset,
          })
          setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
          return rows
        },
      )
    }

    // The whole chart in one answer, unpaginated, as GitLab presents it.
    app.get(
      `${base}/:milestone_id/burndown_events`,
      { schema: { params: MilestoneParams, response: { 200: Type.Array(Api.BurndownEvent) } } },
      async (request) => {
        const owner = load(request, request.params.id)
        return burndownEvents(callerOf(request), ownMilestone(request, owner, request.params.milestone_id))
      },
    )
  }
}

const projectMilestones: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects/:id/milestones',
    {
      schema: {
        params: IdParams,
        querystring: ListQuery,
        response: { 200: Type.Array(Api.Milestone) },
      },
    },
    async (request, reply) => {
      const project = loadMilestonesProject(request, request.params.id)
      const withParents = request.query.include_parent_milestones === true || request.query.include_ancestors === true
      const groupIds = withParents ? projectGroupChain(request, project) : []
      return sendPage(request, reply, filterOf(request.query, { projectIds: [project.id], groupIds }, withParents))
    },
  )

  await app.register(memberRoutes('/projects/:id/milestones', loadProjectOwner))

  app.post(
    '/projects/:id/milestones/:milestone_id/promote',
    { schema: { params: MilestoneParams, response: { 200: Api.Milestone } } },
    async (request) => {
      currentUser(request)
      const project = loadMilestonesProject(request, request.params.id)
      const group = findNamespaceById(request.server.burrow.db, project.namespace_id)
      if (!group || group.kind !== 'group') throw apiMessage(400, 'Project does not belong to a group.')
      if (!request.perms.canInGroup(group.id, AccessLevel.DEVELOPER)) throw forbidden()
      const milestone = ownMilestone(request, { kind: 'project', project }, request.params.milestone_id)
      return presentMilestones(callerOf(request), [promoteMilestone(callerOf(request), group, milestone)])[0]
    },
  )
}

const groupMilestones: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/groups/:id/milestones',
    {
      schema: {
        params: IdParams,
        querystring: ListQuery,
        response: { 200: Type.Array(Api.Milestone) },
      },
    },
    async (request, reply) => {
      const group = loadGroup(request, request.params.id)
      const db = request.server.burrow.db
      const withParents = request.query.include_parent_milestones === true || request.query.include_ancestors === true
      const groupIds = [group.id, ...(withParents ? namespaceAncestors(db, group.id).map((g) => g.id) : [])]
      let projectIds: number[] = []
      if (request.query.include_descendants === true) {
        // Descendants bring their groups' milestones and their projects', limited to what the caller can read.
        const below = groupAndDescendantIds(db, group.id).filter((id) => {
          const g = findNamespaceById(db, id)
          return id !== group.id && g !== undefined && request.perms.canReadGroup(g)
        })
        groupIds.push(...below)
        projectIds = projectsInNamespaces(db, [group.id, ...below])
          .filter((p) => request.perms.canReadProject(p))
          .map((p) => p.id)
      }
      return sendPage(request, reply, filterOf(request.query, { projectIds, groupIds }, withParents))
    },
  )

  await app.register(memberRoutes('/groups/:id/milestones', loadGroupOwner))
}

/** Project and group milestone routes. */
const milestones: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(projectMilestones)
  await app.register(groupMilestones)
}

export default milestones
