import type { Caller } from '../../platform/caller'
import type { NamespaceRow } from '../../platform/db/rows'

/** Personal namespaces are visible to their owner; groups to whoever belongs to them or may read them. */
export function canSeeNamespace(caller: Caller, ns: NamespaceRow): boolean {
  const { perms, user } = caller
  if (perms.isAdmin) return true
  if (ns.kind === 'user') return ns.owner_id === user?.id
  return perms.groupAccess(ns.id) > 0 || perms.visibleGroups().has(ns.id)
}
