import type { Db } from '../../platform/db/connection'
import { setSubscription, subscriptionChoice, type SubscribableType } from './queries'

export type { SubscribableType } from './queries'

/** Records an explicit subscription. */
export function subscribe(db: Db, type: SubscribableType, id: number, userId: number, projectId: number | null): void {
  setSubscription(db, type, id, userId, projectId, true)
}

/** Records an explicit unsubscription (which overrides being a participant). */
export function unsubscribe(
  db: Db,
  type: SubscribableType,
  id: number,
  userId: number,
  projectId: number | null,
): void {
  setSubscription(db, type, id, userId, projectId, false)
}

/**
 * Whether the user gets notifications: an explicit choice wins; otherwise participants
 * (author, assignees…) are subscribed, as in GitLab.
 */
export function isSubscribed(
  db: Db,
  type: SubscribableType,
  id: number,
  userId: number | null,
  participantIds: readonly number[],
): boolean {
  if (userId === null) return false
  return subscriptionChoice(db, type, id, userId) ?? participantIds.includes(userId)
}
