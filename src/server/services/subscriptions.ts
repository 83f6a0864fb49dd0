import type { Db } from '../db/connection'
import { nowIso } from '../db/connection'

/** What can be subscribed to through the polymorphic `subscriptions` table. */
export type SubscribableType = 'Issue' | 'MergeRequest' | 'Epic' | 'Snippet'

function choose(db: Db, type: SubscribableType, id: number, userId: number, projectId: number | null, subscribed: boolean): void {
  db.prepare(
    `INSERT INTO subscriptions (subscribable_type, subscribable_id, user_id, project_id, subscribed, created_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (subscribable_type, subscribable_id, user_id) DO UPDATE SET subscribed = excluded.subscribed`,
  ).run(type, id, userId, projectId, subscribed ? 1 : 0, nowIso())
}

/** Records an explicit subscription. */
export function subscribe(db: Db, type: SubscribableType, id: number, userId: number, projectId: number | null): void {
  choose(db, type, id, userId, projectId, true)
}

/** Records an explicit unsubscription (which overrides being a participant). */
export function unsubscribe(db: Db, type: SubscribableType, id: number, userId: number, projectId: number | null): void {
  choose(db, type, id, userId, projectId, false)
}

/**
 * Whether the user gets notifications: an explicit choice wins; otherwise participants
 * (author, assignees…) are subscribed, as in GitLab.
 */
export function isSubscribed(db: Db, type: SubscribableType, id: number, userId: number | null, participantIds: readonly number[]): boolean {
  if (userId === null) return false
  const row = db
    .prepare('SELECT subscribed FROM subscriptions WHERE subscribable_type = ? AND subscribable_id = ? AND user_id = ?')
    .get(type, id, userId) as { subscribed: number } | undefined
  if (row) return row.subscribed === 1
  return participantIds.includes(userId)
}
