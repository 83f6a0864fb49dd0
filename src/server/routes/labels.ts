import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../auth/access'
import { listLabels, subscribe, unsubscribe, type LabelRow } from '../db/labels'
import { findNamespaceById } from '../db/namespaces'
import type { NamespaceRow, ProjectRow } from '../db/rows'
import type { LabelEntity } from '../entities/label'
import { checkUnmodifiedSince } from '../http/conditional'
import { apiMessage, forbidden, missingParam, notModified } from '../http/errors'
import { pageOf, setPageHeaders } from '../http/pagination'
import { currentUser, loadGroup, loadProject } from '../http/resolve'
import {
  createLabel, destroyLabel, groupLabelScope, presentLabels, projectLabelScope, promoteLabel, requireLabel, updateLabel,
  type GroupLabelFlags,
} from '../services/labels'

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
const CreateBody = Type.Object({ name: Type.Optional(Type.String()), color: Type.Optional(Type.String()), description: Description, priority: Priority })
const UpdateBody = Type.Object({
  new_name: Type.Optional(Type.String()),
  color: Type.Optional(Type.String()),
  description: Description,
  priority: Priority,
})
const DeprecatedUpdateBody = Type.Object({ ...UpdateBody.properties, name: Type.Optional(Type.String()), label_id: Type.Optional(Type.String()) })
const DeprecatedDeleteQuery = Type.Object({ name: Type.Optional(Type.String()), label_id: Type.Optional(Type.String()) })

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

function one(request: FastifyRequest, label: LabelRow, forProject: boolean): LabelEntity {
  return presentLabels(request, [label], { withCounts: true, forProject })[0]
}

/** The group's own label (updates and deletes never reach an ancestor's labels), or 404. */
function ownGroupLabel(request: FastifyRequest, group: NamespaceRow, idOrTitle: string): LabelRow {
  return requireLabel(request, { groupIds: [group.id], projectIds: [] }, idOrTitle)
}

/** The project's own label: a group label cannot be changed through one of its projects. */
function ownProjectLabel(request: FastifyRequest, project: ProjectRow, idOrTitle: string): LabelRow {
  return requireLabel(request, { groupIds: [], projectIds: [project.id] }, idOrTitle)
}

const groupLabels: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/groups/:id/labels', { schema: { params: IdParams, querystring: ListQuery } }, async (request, reply) => {
    const group = loadGroup(request, request.params.id)
    const page = pageOf(request.query as Record<string, unknown>)
    const scope = groupLabelScope(request, group, groupFlags(request.query))
    const { rows, total } = listLabels(request.server.burrow.db, scope, request.query.search || undefined, { limit: page.perPage, offset: page.offset })
    setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
    return presentLabels(request, rows, { withCounts: request.query.with_counts === true, forProject: false })
  })

  app.get('/groups/:id/labels/:label_id', { schema: { params: LabelParams, querystring: ShowQuery } }, async (request) => {
    const group = loadGroup(request, request.params.id)
    const label = requireLabel(request, groupLabelScope(request, group, groupFlags(request.query)), request.params.label_id)
    return one(request, label, false)
  })

  app.post('/groups/:id/labels', { schema: { params: IdParams, body: CreateBody } }, async (request, reply) => {
    currentUser(request)
    const group = loadGroup(request, request.params.id, ADMIN_LABEL)
    const visible = groupLabelScope(request, group, { includeAncestorGroups: true, includeDescendantGroups: false, onlyGroupLabels: true })
    const label = createLabel(request, { groupId: group.id }, visible, { ...request.body, priority: undefined })
    return reply.code(201).send(one(request, label, false))
  })

  const update = (request: FastifyRequest, group: NamespaceRow, idOrTitle: string, body: Readonly<Record<string, unknown>>): LabelEntity => {
    const label = ownGroupLabel(request, group, idOrTitle)
    checkUnmodifiedSince(request, label.updated_at)
    return one(request, updateLabel(request, label, { ...body, priority: undefined }, false), false)
  }

  app.put('/groups/:id/labels/:label_id', { schema: { params: LabelParams, body: UpdateBody } }, async (request) => {
    currentUser(request)
    const group = loadGroup(request, request.params.id, ADMIN_LABEL)
    return update(request, group, request.params.label_id, request.body)
  })

  app.put('/groups/:id/labels', { schema: { params: IdParams, body: DeprecatedUpdateBody } }, async (request) => {
    currentUser(request)
    const group = loadGroup(request, request.params.id, ADMIN_LABEL)
    return update(request, group, deprecatedName(request.body), request.body)
  })

  app.delete('/groups/:id/labels/:label_id', { schema: { params: LabelParams } }, async (request, reply) => {
    currentUser(request)
    const group = loadGroup(request, request.params.id, ADMIN_LABEL)
    const label = ownGroupLabel(request, group, request.params.label_id)
    checkUnmodifiedSince(request, label.updated_at)
    destroyLabel(request, label)
    return reply.code(204).send()
  })

  app.delete('/groups/:id/labels', { schema: { params: IdParams, querystring: DeprecatedDeleteQuery } }, async (request, reply) => {
    currentUser(request)
    const group = loadGroup(request, request.params.id, ADMIN_LABEL)
    const label = ownGroupLabel(request, group, deprecatedName(request.query))
    checkUnmodifiedSince(request, label.updated_at)
    destroyLabel(request, label)
    return reply.code(204).send()
  })

  for (const verb of ['subscribe', 'unsubscribe'] as const) {
    app.post(`/groups/:id/labels/:label_id/${verb}`, { schema: { params: LabelParams } }, async (request, reply) => {
      const user = currentUser(request)
      const group = loadGroup(request, request.params.id)
      const label = requireLabel(request, groupLabelScope(request, group, groupFlags({})), request.params.label_id)
      const changed = verb === 'subscribe' ? subscribe(request.server.burrow.db, label.id, user.id) : unsubscribe(request.server.burrow.db, label.id, user.id)
      if (!changed) throw notModified()
      return reply.code(201).send(one(request, label, false))
    })
  }
}

const projectLabels: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/projects/:id/labels', { schema: { params: IdParams, querystring: ListQuery } }, async (request, reply) => {
    const project = loadProject(request, request.params.id)
    const page = pageOf(request.query as Record<string, unknown>)
    const scope = projectLabelScope(request, project, request.query.include_ancestor_groups ?? true)
    const { rows, total } = listLabels(request.server.burrow.db, scope, request.query.search || undefined, { limit: page.perPage, offset: page.offset })
    setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
    return presentLabels(request, rows, { withCounts: request.query.with_counts === true, forProject: true })
  })

  app.get('/projects/:id/labels/:label_id', { schema: { params: LabelParams, querystring: ShowQuery } }, async (request) => {
    const project = loadProject(request, request.params.id)
    const label = requireLabel(request, projectLabelScope(request, project, request.query.include_ancestor_groups ?? true), request.params.label_id)
    return one(request, label, true)
  })

  app.post('/projects/:id/labels', { schema: { params: IdParams, body: CreateBody } }, async (request, reply) => {
    currentUser(request)
    const project = loadProject(request, request.params.id, ADMIN_LABEL)
    const label = createLabel(request, { projectId: project.id }, projectLabelScope(request, project), request.body)
    return reply.code(201).send(one(request, label, true))
  })

  const update = (request: FastifyRequest, project: ProjectRow, idOrTitle: string, body: Readonly<Record<string, unknown>>): LabelEntity => {
    const label = ownProjectLabel(request, project, idOrTitle)
    checkUnmodifiedSince(request, label.updated_at)
    return one(request, updateLabel(request, label, body, true), true)
  }

  app.put('/projects/:id/labels/:label_id', { schema: { params: LabelParams, body: UpdateBody } }, async (request) => {
    currentUser(request)
    const project = loadProject(request, request.params.id, ADMIN_LABEL)
    return update(request, project, request.params.label_id, request.body)
  })

  app.put('/projects/:id/labels', { schema: { params: IdParams, body: DeprecatedUpdateBody } }, async (request) => {
    currentUser(request)
    const project = loadProject(request, request.params.id, ADMIN_LABEL)
    return update(request, project, deprecatedName(request.body), request.body)
  })

  app.delete('/projects/:id/labels/:label_id', { schema: { params: LabelParams } }, async (request, reply) => {
    currentUser(request)
    const project = loadProject(request, request.params.id, ADMIN_LABEL)
    const label = ownProjectLabel(request, project, request.params.label_id)
    checkUnmodifiedSince(request, label.updated_at)
    destroyLabel(request, label)
    return reply.code(204).send()
  })

  app.delete('/projects/:id/labels', { schema: { params: IdParams, querystring: DeprecatedDeleteQuery } }, async (request, reply) => {
    currentUser(request)
    const project = loadProject(request, request.params.id, ADMIN_LABEL)
    const label = ownProjectLabel(request, project, deprecatedName(request.query))
    checkUnmodifiedSince(request, label.updated_at)
    destroyLabel(request, label)
    return reply.code(204).send()
  })

  for (const verb of ['subscribe', 'unsubscribe'] as const) {
    app.post(`/projects/:id/labels/:label_id/${verb}`, { schema: { params: LabelParams } }, async (request, reply) => {
      const user = currentUser(request)
      const project = loadProject(request, request.params.id)
      const label = requireLabel(request, projectLabelScope(request, project), request.params.label_id)
      const changed = verb === 'subscribe' ? subscribe(request.server.burrow.db, label.id, user.id) : unsubscribe(request.server.burrow.db, label.id, user.id)
      if (!changed) throw notModified()
      return reply.code(201).send(one(request, label, true))
    })
  }

  app.put('/projects/:id/labels/:label_id/promote', { schema: { params: LabelParams } }, async (request) => {
    currentUser(request)
    const project = loadProject(request, request.params.id, ADMIN_LABEL)
    const label = ownProjectLabel(request, project, request.params.label_id)
    const ns = findNamespaceById(request.server.burrow.db, project.namespace_id)
    if (!ns || ns.kind !== 'group') throw apiMessage(400, 'Failed to promote project label to group label')
    // The label becomes the group's: promoting needs the right to manage the group's labels too.
    if (!request.perms.canInGroup(ns.id, ADMIN_LABEL)) throw forbidden()
    return one(request, promoteLabel(request, ns, label), false)
  })
}

/** Group and project label routes. */
const labels: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(groupLabels)
  await app.register(projectLabels)
}

export default labels
