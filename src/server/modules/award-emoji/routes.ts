import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import type { Db } from '../../platform/db/connection'
import {
  deleteAward,
  deleteUserAward,
  findAward,
  insertAward,
  listAwards,
  type AwardableType,
  type AwardEmojiRow,
} from './queries'
import { usersById } from '../issues/queries'
import { resolveTodosForTarget } from '../todos/queries'
import type { UserRow } from '../../platform/db/rows'
import { userRef } from '../users'
import { ApiError, forbidden, missingParam, notFound, unauthorized } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { textParam } from '../../platform/http/text-param'

export type { AwardableType, AwardEmojiRow } from './queries'

/** The awardable a route resolved, after its own read-permission checks. */
export interface Awardable {
  readonly type: AwardableType
  readonly id: number
}

// GitLab checks names against its emoji list; without that list here, any emoji-shaped name is accepted.
const EMOJI_NAME = /^[a-z0-9_+-]{1,64}$/

/** GitLab's AwardEmoji entity. */
export function awardEmojiEntity(
  row: AwardEmojiRow,
  user: UserRow | undefined,
  baseUrl: string,
): Readonly<Record<string, unknown>> {
  return {
    id: row.id,
    name: row.name,
    user: user ? userRef(user, baseUrl) : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    awardable_id: row.awardable_id,
    awardable_type: row.awardable_type,
    url: null,
  }
}

function present(request: FastifyRequest, rows: readonly AwardEmojiRow[]): Readonly<Record<string, unknown>>[] {
  const users = usersById(
    request.server.burrow.db,
    rows.map((r) => r.user_id),
  )
  const baseUrl = request.server.burrow.baseUrl(request)
  return rows.map((r) => awardEmojiEntity(r, users.get(r.user_id), baseUrl))
}

/** Adds an award, with GitLab's 404 bodies for an invalid name and for a repeat. */
export function addAward(db: Db, a: Awardable, userId: number, name: string): AwardEmojiRow {
  if (!EMOJI_NAME.test(name))
    throw new ApiError(404, { message: '404 Award Emoji Name is not a valid emoji name Not Found' })
  const row = insertAward(db, a.type, a.id, userId, name)
  if (!row) throw new ApiError(404, { message: '404 Award Emoji Name has already been taken Not Found' })
  resolveTodosForTarget(db, userId, a.type, a.id)
  return row
}

/**
 * GitLab's `/award` (`/react`) toggle: takes the user's award of `name` back when given, gives it
 * otherwise. Undefined for a name that is no emoji name; true when the award was given.
 */
export function toggleAward(db: Db, a: Awardable, userId: number, name: string): boolean | undefined {
  if (!EMOJI_NAME.test(name)) return undefined
  if (deleteUserAward(db, a.type, a.id, userId, name)) return false
  insertAward(db, a.type, a.id, userId, name)
  resolveTodosForTarget(db, userId, a.type, a.id)
  return true
}

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
      const page = pageOf(request.query as Record<string, unknown>)
      const { rows, total } = listAwards(request.server.burrow.db, a.type, a.id, {
        limit: page.perPage,
        offset: page.offset,
      })
      setPageHeaders(request, reply, request.server.burrow.baseUrl(request), page, total)
      return present(request, rows)
    })

    app.get(`${base}/award_emoji/:award_id`, async (request) => present(request, [find(request, resolve(request))])[0])

    app.post(`${base}/award_emoji`, async (request, reply) => {
      const user = request.actor.user
      if (!user) throw unauthorized()
      const a = resolve(request)
      const name = (request.body as Record<string, unknown> | undefined)?.name
      if (name === undefined || name === null || name === '') throw missingParam('name')
      const row = addAward(request.server.burrow.db, a, user.id, textParam('name', name))
      return reply.code(201).send(present(request, [row])[0])
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
