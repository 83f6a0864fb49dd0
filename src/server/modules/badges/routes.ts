import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Badge, BadgePreview } from '../../../shared/api/badge'
import { callerOf } from '../../platform/caller'
import { findProjectWithNamespace } from '../../platform/db/platform-queries'
import { notFound } from '../../platform/http/errors'
import { paginateArray } from '../../platform/http/pagination'
import { currentUser, loadGroup, loadProject } from '../../platform/http/resolve'
import { findGroupBadge, findProjectBadge, groupBadges, projectBadges, type BadgeRow } from './queries'
import { createBadge, deleteBadge, presentBadges, previewBadge, updateBadge, type BadgeSource } from './service'

const SourceParams = Type.Object({ id: Type.String() })
const BadgeParams = Type.Object({ id: Type.String(), badge_id: Type.Integer() })
const ListQuery = Type.Object({
  name: Type.Optional(Type.String()),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})
const Urls = { link_url: Type.String(), image_url: Type.String() }
const RenderQuery = Type.Object(Urls)
const CreateBody = Type.Object({ ...Urls, name: Type.Optional(Type.String()) })
const UpdateBody = Type.Object({
  link_url: Type.Optional(Type.String()),
  image_url: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
})

type SourceKind = BadgeSource['kind']

/**
 * The project or group of a badges endpoint, which the caller must see (404 otherwise). Writes
 * authenticate first (GitLab's authenticate_non_get!).
 */
function sourceOf(request: FastifyRequest, kind: SourceKind, id: string): BadgeSource {
  if (request.method !== 'GET') currentUser(request)
  if (kind === 'group') return { kind, group: loadGroup(request, id) }
  const project = findProjectWithNamespace(callerOf(request).db, loadProject(request, id).id)
  if (!project) throw notFound('Project')
  return { kind, project }
}

/** All badges a source shows: a project's own and its groups', a group's own. */
function badgesOf(request: FastifyRequest, source: BadgeSource, name: string | undefined): BadgeRow[] {
  const db = callerOf(request).db
  return source.kind === 'project' ? projectBadges(db, source.project.id, name) : groupBadges(db, source.group.id, name)
}

/** One of the source's own badges (a project's inherited group badges are not its to read or change here). */
function badgeOf(request: FastifyRequest, source: BadgeSource, id: number): BadgeRow {
  const db = callerOf(request).db
  const badge =
    source.kind === 'project' ? findProjectBadge(db, source.project.id, id) : findGroupBadge(db, source.group.id, id)
  if (!badge) throw notFound('Badge')
  return badge
}

/** GitLab's Project badges and Group badges APIs: the same endpoints below /projects/:id and /groups/:id. */
const badges: FastifyPluginAsyncTypebox = async (app) => {
  for (const kind of ['project', 'group'] as const) {
    const base = `/${kind}s/:id/badges`

    app.get(
      base,
      { schema: { params: SourceParams, querystring: ListQuery, response: { 200: Type.Array(Badge) } } },
      async (request, reply) => {
        const source = sourceOf(request, kind, request.params.id)
        const rows = paginateArray(
          request,
          reply,
          app.burrow.baseUrl(request),
          badgesOf(request, source, request.query.name),
        )
        return presentBadges(callerOf(request), source, rows)
      },
    )

    app.get(
      `${base}/render`,
      { schema: { params: SourceParams, querystring: RenderQuery, response: { 200: BadgePreview } } },
      async (request) => {
        currentUser(request)
        const source = sourceOf(request, kind, request.params.id)
        return previewBadge(callerOf(request), source, {
          linkUrl: request.query.link_url,
          imageUrl: request.query.image_url,
        })
      },
    )

    app.get(`${base}/:badge_id`, { schema: { params: BadgeParams, response: { 200: Badge } } }, async (request) => {
      const source = sourceOf(request, kind, request.params.id)
      return (await presentBadges(callerOf(request), source, [badgeOf(request, source, request.params.badge_id)]))[0]
    })

    app.post(
      base,
      { schema: { params: SourceParams, body: CreateBody, response: { 201: Badge } } },
      async (request, reply) => {
        const source = sourceOf(request, kind, request.params.id)
        const badge = createBadge(callerOf(request), source, {
          name: request.body.name,
          linkUrl: request.body.link_url,
          imageUrl: request.body.image_url,
        })
        return reply.code(201).send((await presentBadges(callerOf(request), source, [badge]))[0])
      },
    )

    app.put(
      `${base}/:badge_id`,
      { schema: { params: BadgeParams, body: UpdateBody, response: { 200: Badge } } },
      async (request) => {
        const source = sourceOf(request, kind, request.params.id)
        const badge = updateBadge(callerOf(request), source, badgeOf(request, source, request.params.badge_id), {
          name: request.body.name,
          linkUrl: request.body.link_url,
          imageUrl: request.body.image_url,
        })
        return (await presentBadges(callerOf(request), source, [badge]))[0]
      },
    )

    app.delete(`${base}/:badge_id`, { schema: { params: BadgeParams } }, async (request, reply) => {
      const source = sourceOf(request, kind, request.params.id)
      deleteBadge(callerOf(request), source, badgeOf(request, source, request.params.badge_id))
      return reply.code(204).send()
    })
  }
}

export default badges
