import type { ReadableFamily } from '../../platform/auth/readable'
import { findNamespaceById } from '../../platform/db/platform-queries'
import { findEpicById } from './queries'
import { canReadEpicWith } from './policy'

/** Epics' read rules for other lists (registered at startup). */
export const epicsReadable: ReadableFamily = {
  items: {
    Epic: (items, id) => {
      const epic = findEpicById(items.db, id)
      const group = epic ? findNamespaceById(items.db, epic.group_id) : undefined
      return epic !== undefined && group !== undefined && canReadEpicWith(items.perms, group, epic)
    },
  },
  eventTargets: { Epic: (items, e) => items.item('Epic', e.target_id as number) },
  todoTargets: { Epic: (items, t) => items.item('Epic', t.target_id) },
}
