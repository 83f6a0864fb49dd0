import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { WikiAttachment, WikiFormat, WikiPage, WikiPageBasic } from '../../../shared/api/wiki'
import { callerOf } from '../../platform/caller'
import type { ProjectRow } from '../../platform/db/rows'
import { forbidden, missingParam, noneGiven } from '../../platform/http/errors'
import { currentUser, loadProject } from '../../platform/http/resolve'
import { canReadWikiWith } from './policy'
import {
  createWikiAttachment,
  createWikiPage,
  deleteWikiPage,
  getWikiPage,
  listWikiPages,
  updateWikiPage,
} from './service'

const ProjectParams = Type.Object({ id: Type.String() })
const PageParams = Type.Object({ id: Type.String(), slug: Type.String() })
const ListQuery = Type.Object({ with_content: Type.Optional(Type.Boolean()) })
const GetQuery = Type.Object({ render_html: Type.Optional(Type.Boolean()), version: Type.Optional(Type.String()) })
const CreateBody = Type.Object({
  title: Type.String(),
  content: Type.String(),
  format: Type.Optional(WikiFormat),
})
const UpdateBody = Type.Object({
  title: Type.Optional(Type.String()),
  content: Type.Optional(Type.String()),
  format: Type.Optional(WikiFormat),
})
const AttachmentBody = Type.Object({ branch: Type.Optional(Type.String()) })

/**
 * The project of a wiki endpoint: 404 when hidden (401 to an anonymous write), 403 when its wiki
 * is not the caller's to read (the feature off, or limited to members). Writes authenticate first.
 */
function wikiProject(request: FastifyRequest, id: string): ProjectRow {
  if (request.method !== 'GET') currentUser(request)
  const project = loadProject(request, id)
  if (!canReadWikiWith(request.perms, project)) throw forbidden()
  return project
}

/** GitLab's Wikis API on the project's `<project>.wiki.git` repository. */
const wikis: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects/:id/wikis',
    {
      schema: {
        params: ProjectParams,
        querystring: ListQuery,
        response: { 200: Type.Union([Type.Array(WikiPage), Type.Array(WikiPageBasic)]) },
      },
    },
    async (request) =>
      listWikiPages(callerOf(request), wikiProject(request, request.params.id), request.query.with_content === true),
  )

  app.get(
    '/projects/:id/wikis/:slug',
    { schema: { params: PageParams, querystring: GetQuery, response: { 200: WikiPage } } },
    async (request) =>
      getWikiPage(callerOf(request), wikiProject(request, request.params.id), request.params.slug, {
        version: request.query.version,
        renderHtml: request.query.render_html,
      }),
  )

  app.post(
    '/projects/:id/wikis',
    { schema: { params: ProjectParams, body: CreateBody, response: { 201: WikiPage } } },
    async (request, reply) => {
      const project = wikiProject(request, request.params.id)
      const { title, content, format } = request.body
      const page = await createWikiPage(callerOf(request), project, { title, content, format: format ?? 'markdown' })
      return reply.code(201).send(page)
    },
  )

  app.put(
    '/projects/:id/wikis/:slug',
    { schema: { params: PageParams, body: UpdateBody, response: { 200: WikiPage } } },
    async (request) => {
      const project = wikiProject(request, request.params.id)
      const { title, content, format } = request.body
      if (title === undefined && content === undefined && format === undefined)
        throw noneGiven(['content', 'title', 'format'])
      return updateWikiPage(callerOf(request), project, request.params.slug, { title, content, format })
    },
  )

  app.delete('/projects/:id/wikis/:slug', { schema: { params: PageParams } }, async (request, reply) => {
    await deleteWikiPage(callerOf(request), wikiProject(request, request.params.id), request.params.slug)
    return reply.code(204).send()
  })

  app.post(
    '/projects/:id/wikis/attachments',
    { schema: { params: ProjectParams, body: AttachmentBody, response: { 201: WikiAttachment } } },
    async (request, reply) => {
      const project = wikiProject(request, request.params.id)
      const file = request.uploads?.find((p) => p.name === 'file')
      if (!file || file.filename === null) throw missingParam('file')
      const attachment = await createWikiAttachment(callerOf(request), project, {
        fileName: file.filename,
        content: file.content,
        branch: request.body.branch,
      })
      return reply.code(201).send(attachment)
    },
  )
}

export default wikis
