import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from 'typebox'
import { Release, ReleaseLink, ReleaseLinkType } from '../../../shared/api/release'
import { callerOf } from '../../platform/caller'
import { forbidden, notFound, paramError } from '../../platform/http/errors'
import { datetimeOf } from '../../platform/http/loose-params'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { canReadCode, loadRepositoryProject, type CodeProject } from '../../platform/http/repository'
import { currentUser } from '../../platform/http/resolve'
import {
  findLatestRelease,
  findLink,
  findLinkByFilepath,
  linksOfReleases,
  listReleases,
  type ReleaseLinkRow,
} from './queries'
import {
  createLink,
  createRelease,
  deleteLink,
  deleteRelease,
  listenForTagDeletions,
  mayReadReleases,
  presentLink,
  presentRelease,
  presentReleases,
  releaseOfTag,
  updateLink,
  updateRelease,
  type LinkParams,
  type MilestoneChoice,
} from './service'

const ProjectParams = Type.Object({ id: Type.String() })
const ReleaseParams = Type.Object({ id: Type.String(), tag_name: Type.String() })
const LinkParamsSchema = Type.Object({ id: Type.String(), tag_name: Type.String(), link_id: Type.Integer() })
const DownloadParams = Type.Object({ id: Type.String(), tag_name: Type.String(), '*': Type.String() })
const LatestParams = Type.Object({ id: Type.String(), '*': Type.Optional(Type.String()) })

const Html = { include_html_description: Type.Optional(Type.Boolean()) }
const ListQuery = Type.Object({
  order_by: Type.Optional(Type.Enum(['released_at', 'created_at'])),
  sort: Type.Optional(Type.Enum(['asc', 'desc'])),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
  ...Html,
})
const GetQuery = Type.Object(Html)

// Titles may also come as one comma-separated string (GitLab's CommaSeparatedToArray).
const Milestones = {
  milestones: Type.Optional(Type.Array(Type.String())),
  milestone_ids: Type.Optional(Type.Array(Type.Integer())),
}
const LinkFields = {
  direct_asset_path: Type.Optional(Type.String()),
  /** GitLab's deprecated name of `direct_asset_path`. */
  filepath: Type.Optional(Type.String()),
  link_type: Type.Optional(ReleaseLinkType),
}
const NewLink = Type.Object({ name: Type.String(), url: Type.String(), ...LinkFields })
const CreateBody = Type.Object({
  tag_name: Type.String(),
  tag_message: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  ref: Type.Optional(Type.String()),
  assets: Type.Optional(Type.Object({ links: Type.Optional(Type.Array(NewLink)) })),
  released_at: Type.Optional(Type.String()),
  ...Milestones,
})
const UpdateBody = Type.Object({
  name: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  released_at: Type.Optional(Type.String()),
  ...Milestones,
})
const LinkUpdateBody = Type.Object({
  name: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
  ...LinkFields,
})

/** The milestones a write names, titles split at commas: 400 when both titles and ids are given. */
function milestoneChoice(body: Static<typeof UpdateBody>): MilestoneChoice | undefined {
  if (body.milestones !== undefined && body.milestone_ids !== undefined)
    throw paramError('Cannot specify milestones and milestone_ids at the same time')
  if (body.milestone_ids !== undefined) return { ids: body.milestone_ids }
  if (body.milestones === undefined) return undefined
  return {
    titles: body.milestones
      .flatMap((t) => t.split(','))
      .map((t) => t.trim())
      .filter((t) => t !== ''),
  }
}

function linkParams(body: Static<typeof LinkUpdateBody>): LinkParams {
  return {
    name: body.name,
    url: body.url,
    directAssetPath: body.direct_asset_path ?? body.filepath,
    linkType: body.link_type,
  }
}

/**
 * The project of a releases endpoint: 404 when hidden, 403 when its releases are not the
 * caller's to read (the feature disabled, or limited to members). Writes authenticate first.
 */
function releasesProject(request: FastifyRequest, id: string): CodeProject {
  if (request.method !== 'GET') currentUser(request)
  const repo = loadRepositoryProject(request, id)
  if (!mayReadReleases(callerOf(request), repo)) throw forbidden()
  return repo
}

/** The link of a release named by the path, or 404. */
function linkOf(request: FastifyRequest, releaseId: number, linkId: number): ReleaseLinkRow {
  const link = findLink(callerOf(request).db, releaseId, linkId)
  if (!link) throw notFound()
  return link
}

/** GitLab's Releases and Release links APIs (no evidence), and the permalinks to the latest release and to assets. */
const releases: FastifyPluginAsyncTypebox = async (app) => {
  listenForTagDeletions(app.burrow)

  app.get(
    '/projects/:id/releases',
    { schema: { params: ProjectParams, querystring: ListQuery, response: { 200: Type.Array(Release) } } },
    async (request, reply) => {
      const repo = releasesProject(request, request.params.id)
      const page = pageOf(request.query)
      const order = { orderBy: request.query.order_by ?? 'released_at', sort: request.query.sort ?? 'desc' } as const
      const { rows, total } = listReleases(app.burrow.db, repo.project.id, order, {
        limit: page.perPage,
        offset: page.offset,
      })
      setPageHeaders(request, reply, app.burrow.baseUrl(request), page, total)
      return presentReleases(callerOf(request), repo, rows, { includeHtml: request.query.include_html_description })
    },
  )

  app.get(
    '/projects/:id/releases/:tag_name',
    { schema: { params: ReleaseParams, querystring: GetQuery, response: { 200: Release } } },
    async (request) => {
      const repo = releasesProject(request, request.params.id)
      // GitLab's single release asks for the code (a Guest of a private project lists releases only).
      if (!canReadCode(request, repo.project)) throw forbidden()
      const release = releaseOfTag(callerOf(request), repo, request.params.tag_name)
      return presentRelease(callerOf(request), repo, release, { includeHtml: request.query.include_html_description })
    },
  )

  // The latest release by released_at, and anything below it (`…/permalink/latest/assets/links`).
  for (const path of ['/projects/:id/releases/permalink/latest', '/projects/:id/releases/permalink/latest/*']) {
    app.get(path, { schema: { params: LatestParams } }, async (request, reply) => {
      const repo = releasesProject(request, request.params.id)
      if (!canReadCode(request, repo.project)) throw forbidden()
      const release = findLatestRelease(app.burrow.db, repo.project.id)
      if (!release) throw notFound()
      const suffix = request.params['*'] ? `/${request.params['*']}` : ''
      const query = new URL(request.url, 'http://burrow.invalid').searchParams
      query.delete('order_by')
      const search = query.size > 0 ? `?${query.toString()}` : ''
      return reply.redirect(
        `/api/v4/projects/${repo.project.id}/releases/${encodeURIComponent(release.tag)}${suffix}${search}`,
        302,
      )
    })
  }

  app.get(
    '/projects/:id/releases/:tag_name/downloads/*',
    { schema: { params: DownloadParams } },
    async (request, reply) => {
      const repo = releasesProject(request, request.params.id)
      if (!canReadCode(request, repo.project)) throw forbidden()
      const release = releaseOfTag(callerOf(request), repo, request.params.tag_name)
      const link = findLinkByFilepath(app.burrow.db, release.id, `/${request.params['*']}`)
      if (!link) throw notFound()
      return reply.redirect(link.url, 302)
    },
  )

  app.post(
    '/projects/:id/releases',
    { schema: { params: ProjectParams, body: CreateBody, response: { 201: Release } } },
    async (request, reply) => {
      const repo = releasesProject(request, request.params.id)
      const body = request.body
      const caller = callerOf(request)
      const release = await createRelease(caller, repo, {
        tagName: body.tag_name,
        tagMessage: body.tag_message,
        name: body.name,
        description: body.description,
        ref: body.ref,
        milestones: milestoneChoice(body),
        links: (body.assets?.links ?? []).map(linkParams),
        releasedAt: datetimeOf('released_at', body.released_at),
      })
      return reply.code(201).send(await presentRelease(caller, repo, release))
    },
  )

  app.put(
    '/projects/:id/releases/:tag_name',
    { schema: { params: ReleaseParams, body: UpdateBody, response: { 200: Release } } },
    async (request) => {
      const repo = releasesProject(request, request.params.id)
      const caller = callerOf(request)
      const release = releaseOfTag(caller, repo, request.params.tag_name)
      const body = request.body
      const updated = updateRelease(caller, repo, release, {
        name: body.name,
        description: body.description,
        releasedAt: datetimeOf('released_at', body.released_at),
        milestones: milestoneChoice(body),
      })
      return presentRelease(caller, repo, updated)
    },
  )

  app.delete(
    '/projects/:id/releases/:tag_name',
    { schema: { params: ReleaseParams, response: { 200: Release } } },
    async (request) => {
      const repo = releasesProject(request, request.params.id)
      const caller = callerOf(request)
      const release = releaseOfTag(caller, repo, request.params.tag_name)
      // GitLab answers with the release as it was.
      const entity = await presentRelease(caller, repo, release)
      deleteRelease(caller, repo, release)
      return entity
    },
  )

  app.get(
    '/projects/:id/releases/:tag_name/assets/links',
    { schema: { params: ReleaseParams, querystring: ListQuery, response: { 200: Type.Array(ReleaseLink) } } },
    async (request, reply) => {
      const repo = releasesProject(request, request.params.id)
      const caller = callerOf(request)
      const release = releaseOfTag(caller, repo, request.params.tag_name)
      const links = linksOfReleases(caller.db, [release.id]).get(release.id) ?? []
      const page = pageOf(request.query)
      setPageHeaders(request, reply, app.burrow.baseUrl(request), page, links.length)
      return links.slice(page.offset, page.offset + page.perPage).map((l) => presentLink(caller, repo, release, l))
    },
  )

  app.get(
    '/projects/:id/releases/:tag_name/assets/links/:link_id',
    { schema: { params: LinkParamsSchema, response: { 200: ReleaseLink } } },
    async (request) => {
      const repo = releasesProject(request, request.params.id)
      const caller = callerOf(request)
      const release = releaseOfTag(caller, repo, request.params.tag_name)
      return presentLink(caller, repo, release, linkOf(request, release.id, request.params.link_id))
    },
  )

  app.post(
    '/projects/:id/releases/:tag_name/assets/links',
    { schema: { params: ReleaseParams, body: NewLink, response: { 201: ReleaseLink } } },
    async (request, reply) => {
      const repo = releasesProject(request, request.params.id)
      const caller = callerOf(request)
      const release = releaseOfTag(caller, repo, request.params.tag_name)
      const link = createLink(caller, repo, release, linkParams(request.body))
      return reply.code(201).send(presentLink(caller, repo, release, link))
    },
  )

  app.put(
    '/projects/:id/releases/:tag_name/assets/links/:link_id',
    { schema: { params: LinkParamsSchema, body: LinkUpdateBody, response: { 200: ReleaseLink } } },
    async (request) => {
      const repo = releasesProject(request, request.params.id)
      const caller = callerOf(request)
      const release = releaseOfTag(caller, repo, request.params.tag_name)
      const link = linkOf(request, release.id, request.params.link_id)
      const updated = updateLink(caller, repo, release, link, linkParams(request.body))
      return presentLink(caller, repo, release, updated)
    },
  )

  app.delete(
    '/projects/:id/releases/:tag_name/assets/links/:link_id',
    { schema: { params: LinkParamsSchema, response: { 200: ReleaseLink } } },
    async (request) => {
      const repo = releasesProject(request, request.params.id)
      const caller = callerOf(request)
      const release = releaseOfTag(caller, repo, request.params.tag_name)
      const link = linkOf(request, release.id, request.params.link_id)
      deleteLink(caller, repo, release, link)
      return presentLink(caller, repo, release, link)
    },
  )
}

export default releases
