import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import type { NamespaceRow } from '../../platform/db/rows'
import { groupSettings } from '../namespaces'

/** True when the caller may create a subgroup under `parent` (its `subgroup_creation_level`). */
export function canCreateSubgroup(perms: Permissions, parent: NamespaceRow): boolean {
  if (perms.isAdmin) return true
  const needed =
    groupSettings(parent.settings).subgroup_creation_level === 'owner' ? AccessLevel.OWNER : AccessLevel.MAINTAINER
  return perms.groupAccess(parent.id) >= needed
}
