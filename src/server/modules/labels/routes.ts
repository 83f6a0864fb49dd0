import * as Api from '../../../shared/api/index'
import type { FastifyRequest } from 'fastify'
import { callerOf } from '../../platform/caller'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { listLabels, subscribe, unsubscribe, type LabelRow, type LabelScope } from './queries'
import { findNamespaceById } from '../namespaces'
import { canUseProjectLabels } from './policy'
import type { NamespaceRow, ProjectRow } from '../../platform/db/rows'
import { checkUnmodifiedSince } from '../../platform/http/conditional'
import { apiMessage, forbidden, missingParam, notModified } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadGroup, loadProject } from '../../platform/http/resolve'
import {
  createLabel,
  destroyLabel,
  groupLabelScope,
  presentLabels,
  projectLabelScope,
  promoteLabel,
  requireLabel,
  updateLabel,
  type GroupLabelFlags,
} from './service'

// Managing labels is a Reporter right in GitLab (the Planner role, where it exists, sits at the same level).
const ADMIN_LABEL = AccessLevel.REPORTER

const IdParams = Type.Object({ id: Type.String() })
const LabelParams = Type.Object({ id: Type.String(), label_id: Type.String() })

const IncludeFlags = {
  include_ancestor_groups: Type.Optional(Type.Boolean()),
  include_descendant_groups: Type.Optional(Type.Boolean()),
  only_group_labels: Type.Optional(Type.Boolean()),
}
const ListQuery = Type.Object({
  ...IncludeFlags,
  with_counts: Type.Optional(Type.Boolean()),
  search: Type.Optional(Type.String()),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})
const ShowQuery = Type.Object(IncludeFlags)
const Description = Type.Optional(Type.Union([Type.String(), Type.Null()]))
// Validated by the service: null or '' clears the priority, and schema coercion would turn null into 0.
const Priority = Type.Optional(Type.Unknown())
const CreateBody = Type.Object({
  name: Type.Optional(Type.String()),
  color: Type.Optional(Type.String()),
  description: Description,
  priority: Priority,
})
const UpdateBody = Type.Object({
  new_name: Type.Optional(Type.String()),
  color: Type.Optional(Type.String()),
  description: Description,
  priority: Priority,
})
const DeprecatedUpdateBody = Type.Object({
  ...UpdateBody.properties,
  name: Type.Optional(Type.String()),
  label_id: Type.Optional(Type.String()),
})
const DeprecatedDeleteQuery = Type.Object({
  name: Type.Optional(Type.String()),
  label_id: Type.Optional(Type.String()),
})

interface FlagQuery {
  readonly include_ancestor_groups?: boolean
  readonly include_descendant_groups?: boolean
  readonly only_group_labels?: boolean
}

function groupFlags(q: FlagQuery): GroupLabelFlags {
  return {
    includeAncestorGroups: q.include_ancestor_groups ?? true,
    includeDescendantGroups: q.include_descendant_groups ?? false,
    onlyGroupLabels: q.only_group_labels ?? true,
  }
}

/** The label a deprecated collection-level PUT/DELETE names with `name` (or `label_id`). */
function deprecatedName(params: { readonly name?: string; readonly label_id?: string }): string {
  const name = params.name ?? params.label_id
  if (name === undefined || name === '') throw missingParam('name')
  return name
}

function one(request: FastifyRequest, label: LabelRow, forProject: boolean): Api.Label {
  return presentLabels(callerOf(request), [label], { withCounts: true, forProject })[0]
}

/** The place labels live in, as the label routes need it: a group or a project. */
interface LabelContainer<C> {
  /** The path segment: `groups` or `projects`. */
  readonly segment: 'groups' | 'projects'
  /** Project labels take a priority and are presented as project labels; group labels neither. */
  readonly forProject: boolean
  readonly load: (request: FastifyRequest, id: string, minLevel?: number) => C
  /** Labels the caller sees here (lists, reads, subscriptions, and names taken on create), with the query's flags. */
  readonly visible: (
    request: FastifyRequest,
    container: C,
    flags: FlagQuery,
  ) => LabelScope & { readonly order: readonly number[] }
  /** The container's own labels: updates and deletes never reach an ancestor group's. */
  readonly own: (container: C) => LabelScope
  /** The owner of a label created here. */
  readonly owner: (container: C) => { readonly groupId?: number; readonly projectId?: number }
}

const GROUP: LabelContainer<NamespaceRow> = {
  segment: 'groups',
  forProject: false,
  load: loadGroup,
  visible: (request, group, flags) => groupLabelScope(callerOf(request), group, groupFlags(flags)),
  own: (group) => ({ groupIds: [group.id], projectIds: [] }),
  owner: (group) => ({ groupId: group.id }),
}

/** The project `:id` names, 403 when the caller may use neither its issues nor its merge requests. */
function loadLabelsProject(request: FastifyRequest, id: string, minLevel?: number): ProjectRow {
  const project = loadProject(request, id, minLevel)
  if (!canUseProjectLabels(request.perms, project)) throw forbidden()
  return project
}

const PROJECT: LabelContainer<ProjectRow> = {
  segment: 'projects',
  forProject: true,
  load: loadLabelsProject,
  visible: (request, project, flags) =>
    projectLabelScope(callerOf(request), project, flags.include_ancestor_groups ?? true),
  // A group label cannot be changed through one of its projects.
  own: (project) => ({ groupIds: [], projectIds: [project.id] }),
  owner: (project) => ({ projectId: project.id }),
}

/** The label routes of a group or a project, alike but for where their labels live. */
function labelRoutes<C>(place: LabelContainer<C>): FastifyPluginAsyncTypebox {
  // Group labels have no priority (GitLab prioritises labels per project): a given one is ignored.
  const params = <T extends object>(body: T): T => (place.forProject ? body : { ...body, priority: undefined })
  const managed = (request: FastifyRequest, id: string): C => {
    currentUser(request)
    return place.load(request, id, ADMIN_LABEL)
  }
  const update = (
    request: FastifyRequest,
    container: C,
    idOrTitle: string,
    body: Readonly<Record<string, unknown>>,
  ): Api.Label => {
    const label = requireLabel(callerOf(request), place.own(container), idOrTitle)
    checkUnmodifiedSince(request, label.updated_at)
    return one(request, updateLabel(callerOf(request), label, params(body), place.forProject), place.forProject)
  }
  const destroy = (request: FastifyRequest, container: C, idOrTitle: string): void => {
    const label = requireLabel(callerOf(request), place.own(container), idOrTitle)
    checkUnmodifiedSince(request, label.updated_at)
    destroyLabel(callerOf(request), label)
  }
  const base = `/${place.segment}/:id/labels`

  return async (app) => {
    app.get(
      base,
      {
        schema: {
          params: IdParams,
          querystring: ListQuery,
          response: { 200: Type.Array(Api.Label) },
        },
      },
      async (request, reply) => {
        const container = place.load(request, request.params.id)
        const page = pageOf(request.query)
        const scope = place.visible(request, container, request.query)
        const { rows, total } = listLabels(request.server.burrow.db, scope, request.query.search || undefined, {
          limit: page.perPage,
          offset: page.offset,
        })
        setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
        return presentLabels(callerOf(request), rows, {
          withCounts: request.query.with_counts === true,
          forProject: place.forProject,
        })
      },
    )

    app.get(
      `${base}/:label_id`,
      { schema: { params: LabelParams, querystring: ShowQuery, response: { 200: Api.Label } } },
      async (request) => {
        const container = place.load(request, request.params.id)
        return one(
          request,
          requireLabel(callerOf(request), place.visible(request, container, request.query), request.params.label_id),
          place.forProject,
        )
      },
    )

    app.post(
      base,
      { schema: { params: IdParams, body: CreateBody, response: { 201: Api.Label } } },
      async (request, reply) => {
        const container = managed(request, request.params.id)
        const label = createLabel(
          callerOf(request),
          place.owner(container),
          place.visible(request, container, {}),
          params(request.body),
        )
        return reply.code(201).send(one(request, label, place.forProject))
      },
    )

    app.put(
      `${base}/:label_id`,
      { schema: { params: LabelParams, body: UpdateBody, response: { 200: Api.Label } } },
      async (request) => {
        const container = managed(request, request.params.id)
        return update(request, container, request.params.label_id, request.body)
      },
    )

    app.put(
      base,
      { schema: { params: IdParams, body: DeprecatedUpdateBody, response: { 200: Api.Label } } },
      async (request) => {
        const container = managed(request, request.params.id)
        return update(request, container, deprecatedName(request.body), request.body)
      },
    )

    app.delete(`${base}/:label_id`, { schema: { params: LabelParams } }, async (request, reply) => {
      destroy(request, managed(request, request.params.id), request.params.label_id)
      return reply.code(204).send()
    })

    app.delete(base, { schema: { params: IdParams, querystring: DeprecatedDeleteQuery } }, async (request, reply) => {
      const container = managed(request, request.params.id)
      destroy(request, container, deprecatedName(request.query))
      return reply.code(204).send()
    })

    for (const verb of ['subscribe', 'unsubscribe'] as const) {
      app.post(
        `${base}/:label_id/${verb}`,
        { schema: { params: LabelParams, response: { 201: Api.Label } } },
        async (request, reply) => {
          const user = currentUser(request)
          const container = place.load(request, request.params.id)
          const label = requireLabel(callerOf(request), place.visible(request, container, {}), request.params.label_id)
          const changed =
            verb === 'subscribe'
              ? subscribe(request.server.burrow.db, label.id, user.id)
              : unsubscribe(request.server.burrow.db, label.id, user.id)
          if (!changed) throw notModified()
          return reply.code(201).send(one(request, label, place.forProject))
        },
      )
    }
  }
}

/** Promotion of a project label to its group's, a project route only. */
const labelPromotion: FastifyPluginAsyncTypebox = async (app) => {
  app.put(
    '/projects/:id/labels/:label_id/promote',
    { schema: { params: LabelParams, response: { 200: Api.Label } } },
    async (request) => {
      currentUser(request)
      const project = loadLabelsProject(request, request.params.id, ADMIN_LABEL)
      const label = requireLabel(callerOf(request), PROJECT.own(project), request.params.label_id)
      const ns = findNamespaceById(request.server.burrow.db, project.namespace_id)
      if (!ns || ns.kind !== 'group') throw apiMessage(400, 'Failed to promote project label to group label')
      // The label becomes the group's: promoting needs the right to manage the group's labels too.
      if (!request.perms.canInGroup(ns.id, ADMIN_LABEL)) throw forbidden()
      return one(request, promoteLabel(callerOf(request), ns, label), false)
    },
  )
}

/** Group and project label routes. */
const labels: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(labelRoutes(GROUP))
  await app.register(labelRoutes(PROJECT))
  await app.register(labelPromotion)
}

export default labels
