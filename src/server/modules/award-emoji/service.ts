import type { AwardEmoji } from '../../../shared/api/award-emoji'
import type { Caller } from '../../platform/caller'
import type { Db } from '../../platform/db/connection'
import { ApiError } from '../../platform/http/errors'
import { usersByIds } from '../users'
import { resolveTodosForTarget } from '../todos'
import { awardEmojiEntity } from './entity'
import { deleteUserAward, insertAward, type AwardableType, type AwardEmojiRow } from './queries'

/** The awardable a route resolved, after its own read-permission checks. */
export interface Awardable {
  readonly type: AwardableType
  readonly id: number
}

// GitLab checks names against its emoji list; without that list here, any emoji-shaped name is accepted.
const EMOJI_NAME = /^[a-z0-9_+-]{1,64}$/

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

/** Serialises awards with their users loaded in one query. */
export function presentAwards(caller: Caller, rows: readonly AwardEmojiRow[]): AwardEmoji[] {
  const users = usersByIds(
    caller.db,
    rows.map((r) => r.user_id),
  )
  return rows.map((r) => awardEmojiEntity(r, users.get(r.user_id), caller.baseUrl))
}
