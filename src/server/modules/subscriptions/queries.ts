import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'

/** What can be subscribed to through the polymorphic `subscriptions` table. */
export type SubscribableType = 'Issue' | 'MergeRequest' | 'Epic' | 'Snippet'

/** Records an explicit subscribe (true) or unsubscribe (false) choice. */
export function setSubscription(
  db: Db,
  type: SubscribableType,
  id: number,
  userId: number,
  projectId: number | null,
  subscribed: boolean,
): void {
  db.prepare(
    `INSERT INTO subscriptions (subscribable_type, subscribable_id, user_id, project_id, subscribed, created_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (subscribable_type, subscribable_id, user_id) DO UPDATE SET subscribed = excluded.subscribed`,
  ).run(type, id, userId, projectId, subscribed ? 1 : 0, nowIso())
}

/** The user's explicit choice, or undefined when they never made one. */
export function subscriptionChoice(db: Db, type: SubscribableType, id: number, userId: number): boolean | undefined {
  const row = db
    .prepare('SELECT subscribed FROM subscriptions WHERE subscribable_type = ? AND subscribable_id = ? AND user_id = ?')
    .get(type, id, userId) as { subscribed: number } | undefined
  return row ? row.subscribed === 1 : undefined
}
