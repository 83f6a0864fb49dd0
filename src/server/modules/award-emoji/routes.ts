import { Type } from 'typebox'
import * as Api from '../../../shared/api/index'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { callerOf } from '../../platform/caller'
import { missingParam, notFound, unauthorized } from '../../platform/http/errors'
import { paramsOf, PathParams, pathId } from '../../platform/http/loose-params'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { textParam } from '../../platform/http/text-param'
import { deleteAward, findAward, listAwards, type AwardEmojiRow } from './queries'
import { addAward, presentAwards, type Awardable } from './service'

/** Loads the awardable a URL names from its path params, throwing 404 when the caller cannot read it. */
export type AwardableResolver = (request: FastifyRequest, params: PathParams) => Awardable

/**
 * The four award emoji endpoints under `base` (e.g. `/projects/:id/issues/:issue_iid`), for any
 * awardable `resolve` loads.
 */
export function awardEmojiRoutes(base: string, resolve: AwardableResolver): FastifyPluginAsyncTypebox {
  return async (app) => {
    const schema = { params: PathParams }
    const find = (request: FastifyRequest, params: PathParams): AwardEmojiRow => {
      const a = resolve(request, params)
      const row = findAward(request.server.burrow.db, a.type, a.id, pathId(params.award_id, 'Award Emoji'))
      if (!row) throw notFound('Award Emoji')
      return row
    }

    app.get(
      `${base}/award_emoji`,
      { schema: { ...schema, response: { 200: Type.Array(Api.AwardEmoji) } } },
      async (request, reply) => {
        const a = resolve(request, request.params)
        const page = pageOf(request.query)
        const { rows, total } = listAwards(request.server.burrow.db, a.type, a.id, {
          limit: page.perPage,
          offset: page.offset,
        })
        setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
        return presentAwards(callerOf(request), rows)
      },
    )

    app.get(
      `${base}/award_emoji/:award_id`,
      { schema: { ...schema, response: { 200: Api.AwardEmoji } } },
      async (request) => presentAwards(callerOf(request), [find(request, request.params)])[0],
    )

    app.post(
      `${base}/award_emoji`,
      { schema: { ...schema, response: { 201: Api.AwardEmoji } } },
      async (request, reply) => {
        const user = request.actor.user
        if (!user) throw unauthorized()
        const a = resolve(request, request.params)
        const name = paramsOf(request.body).name
        if (name === undefined || name === null || name === '') throw missingParam('name')
        const row = addAward(request.server.burrow.db, a, user.id, textParam('name', name))
        return reply.code(201).send(presentAwards(callerOf(request), [row])[0])
      },
    )

    // Only the awarder (or an administrator) may take an award back; GitLab answers anyone else's
    // attempt with 401 (its `unauthorized!`), not 403.
    app.delete(`${base}/award_emoji/:award_id`, { schema }, async (request, reply) => {
      const user = request.actor.user
      if (!user) throw unauthorized()
      const row = find(request, request.params)
      if (row.user_id !== user.id && !request.perms.isAdmin) throw unauthorized()
      deleteAward(request.server.burrow.db, row.id)
      return reply.code(204).send()
    })
  }
}
