import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'

export type AwardableType = 'Issue' | 'MergeRequest' | 'Snippet' | 'Note' | 'Epic'

/** A row of `award_emoji`. */
export interface AwardEmojiRow {
  readonly id: number
  readonly name: string
  readonly user_id: number
  readonly awardable_type: AwardableType
  readonly awardable_id: number
  readonly created_at: string
  readonly updated_at: string
}

/** One page of an awardable's awards, oldest first, and their count. */
export function listAwards(
  db: Db,
  type: AwardableType,
  id: number,
  page: { readonly limit: number; readonly offset: number },
): { rows: AwardEmojiRow[]; total: number } {
  const total = (
    db.prepare('SELECT COUNT(*) AS n FROM award_emoji WHERE awardable_type = ? AND awardable_id = ?').get(type, id) as {
      n: number
    }
  ).n
  const rows = db
    .prepare('SELECT * FROM award_emoji WHERE awardable_type = ? AND awardable_id = ? ORDER BY id LIMIT ? OFFSET ?')
    .all(type, id, page.limit, page.offset) as AwardEmojiRow[]
  return { rows, total }
}

/** An award of this awardable by id. */
export function findAward(db: Db, type: AwardableType, awardableId: number, id: number): AwardEmojiRow | undefined {
  return db
    .prepare('SELECT * FROM award_emoji WHERE id = ? AND awardable_type = ? AND awardable_id = ?')
    .get(id, type, awardableId) as AwardEmojiRow | undefined
}

/** Inserts an award; undefined when the user already gave this emoji to the awardable. */
export function insertAward(
  db: Db,
  type: AwardableType,
  awardableId: number,
  userId: number,
  name: string,
): AwardEmojiRow | undefined {
  const now = nowIso()
  const info = db
    .prepare(
      'INSERT OR IGNORE INTO award_emoji (name, user_id, awardable_type, awardable_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    .run(name, userId, type, awardableId, now, now)
  if (info.changes === 0) return undefined
  return db.prepare('SELECT * FROM award_emoji WHERE id = ?').get(Number(info.lastInsertRowid)) as AwardEmojiRow
}

/** Gives `to` the award emoji of `from`, with their users and times (a moved, cloned or promoted issue). */
export function copyAwards(
  db: Db,
  from: { readonly type: AwardableType; readonly id: number },
  to: { readonly type: AwardableType; readonly id: number },
): void {
  db.prepare(
    `INSERT INTO award_emoji (name, user_id, awardable_type, awardable_id, created_at, updated_at)
     SELECT name, user_id, ?, ?, created_at, updated_at FROM award_emoji WHERE awardable_type = ? AND awardable_id = ?`,
  ).run(to.type, to.id, from.type, from.id)
}

export function deleteAward(db: Db, id: number): void {
  db.prepare('DELETE FROM award_emoji WHERE id = ?').run(id)
}

/** Takes back the user's award of this emoji on the awardable; false when there was none. */
export function deleteUserAward(
  db: Db,
  type: AwardableType,
  awardableId: number,
  userId: number,
  name: string,
): boolean {
  return (
    db
      .prepare('DELETE FROM award_emoji WHERE awardable_type = ? AND awardable_id = ? AND user_id = ? AND name = ?')
      .run(type, awardableId, userId, name).changes > 0
  )
}
