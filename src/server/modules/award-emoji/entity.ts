import type { AwardEmoji } from '../../../shared/api/award-emoji'
import type { UserRow } from '../../platform/db/rows'
import { userRef } from '../users'
import type { AwardEmojiRow } from './queries'

/** GitLab's AwardEmoji entity. */
export function awardEmojiEntity(row: AwardEmojiRow, user: UserRow | undefined, baseUrl: string): AwardEmoji {
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
