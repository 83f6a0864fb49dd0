import { ReadableItems } from '../../platform/auth/readable'
import type { Caller } from '../../platform/caller'
import { listEvents, restrictedEvents, type EventFilter, type EventRow, type EventViewer } from './queries'

// Reading events needs the item rule of every family an event can name (platform/auth/readable),
// so it lives apart from service.ts, which the families import to record their events.

/** Who reads events, as the listing's visibility rule sees them. */
export function eventViewerOf(caller: Caller): EventViewer {
  const user = caller.user
  if (!user) return { kind: 'anonymous' }
  if (caller.perms.isAdmin) return { kind: 'admin' }
  return { kind: 'user', userId: user.id, external: user.external === 1 }
}

/**
 * One page of the events of `filter` the caller may read, with their total. What an event names
 * that the caller may not read (a confidential issue, an internal note, a feature limited to
 * members or off for everyone…) is decided by the shared item rule and hidden before paging, so
 * neither the page nor its total count reveals it.
 */
export function listReadableEvents(
  caller: Caller,
  filter: EventFilter,
  limit: number,
  offset: number,
): { rows: EventRow[]; total: number } {
  const readable = new ReadableItems(caller.db, caller.perms)
  const hiddenIds = restrictedEvents(caller.db, filter, caller.perms.isAdmin)
    .filter((e) => !readable.event(e))
    .map((e) => e.id)
  return listEvents(caller.db, { ...filter, hiddenIds }, limit, offset)
}
