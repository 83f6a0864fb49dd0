import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import { callerOf } from '../../platform/caller'
import { forbidden, missingParam, notFound, unauthorized } from '../../platform/http/errors'
import { paramsOf } from '../../platform/http/loose-params'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { textParam } from '../../platform/http/text-param'
import { deleteAward, findAward, listAwards, type AwardEmojiRow } from './queries'
import { addAward, presentAwards, type Awardable } from './service'

/**
 * The four award emoji endpoints under `base` (e.g. `/projects/:id/issues/:issue_iid`), for any
 * awardable: `resolve` loads it from the request (throwing 404 when the caller cannot read it).
 */
export function awardEmojiRoutes(base: string, resolve: (request: FastifyRequest) => Awardable): FastifyPluginAsync {
  return async (app) => {
    const find = (request: FastifyRequest, a: Awardable): AwardEmojiRow => {
      const id = Number((request.params as Record<string, string>).award_id)
      const row = Number.isInteger(id) ? findAward(request.server.burrow.db, a.type, a.id, id) : undefined
      if (!row) throw notFound('Award Emoji')
      return row
    }

    app.get(`${base}/award_emoji`, async (request, reply) => {
      const a = resolve(request)
      const page = pageOf(request.query)
      const { rows, total } = listAwards(request.server.burrow.db, a.type, a.id, {
        limit: page.perPage,
        offset: page.offset,
      })
      setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
      return presentAwards(callerOf(request), rows)
    })

    app.get(
      `${base}/award_emoji/:award_id`,
      async (request) => presentAwards(callerOf(request), [find(request, resolve(request))])[0],
    )

    app.post(`${base}/award_emoji`, async (request, reply) => {
      const user = request.actor.user
      if (!user) throw unauthorized()
      const a = resolve(request)
      const name = paramsOf(request.body).name
      if (name === undefined || name === null || name === '') throw missingParam('name')
      const row = addAward(request.server.burrow.db, a, user.id, textParam('name', name))
      return reply.code(201).send(presentAwards(callerOf(request), [row])[0])
    })

    // Only the awarder (or an administrator) may take an award back.
    app.delete(`${base}/award_emoji/:award_id`, async (request, reply) => {
      const user = request.actor.user
      if (!user) throw unauthorized()
      const row = find(request, resolve(request))
      if (row.user_id !== user.id && !request.perms.isAdmin) throw forbidden()
      deleteAward(request.server.burrow.db, row.id)
      return reply.code(204).send()
    })
  }
}
