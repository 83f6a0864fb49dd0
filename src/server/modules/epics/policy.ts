import type { Caller } from '../../platform/caller'
import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import type { NamespaceRow, UserRow } from '../../platform/db/rows'
import { forbidden, unauthorized } from '../../platform/http/errors'
import type { EpicRow } from './queries'

/**
 * Every epics endpoint: 401 without a signed-in caller (epics require authentication), 403 when
 * the instance has the feature off (application setting `epics_enabled`).
 */
export function requireEpicsFeature(caller: Caller): UserRow {
  const user = caller.user
  if (!user) throw unauthorized()
  if (!epicsEnabled(caller)) throw forbidden()
  return user
}

/** Whether the instance has epics on (application setting `epics_enabled`). */
export function epicsEnabled(caller: Caller): boolean {
  return caller.ctx.settings.get('epics_enabled') === true
}

/** Confidential epics are for Reporters and above of their group; others for whoever reads the group. */
export function canReadEpicWith(
  perms: Permissions,
  group: Pick<NamespaceRow, 'id' | 'visibility'>,
  epic: Pick<EpicRow, 'confidential'>,
): boolean {
  if (!perms.canReadGroup(group)) return false
  return epic.confidential === 0 || perms.canInGroup(group.id, AccessLevel.REPORTER)
}

/** Creating and editing epics (and their issue and child links) is a Reporter right. */
export function canAdminEpics(perms: Permissions, groupId: number): boolean {
  return perms.canInGroup(groupId, AccessLevel.REPORTER)
}

/** Deleting an epic is for group owners (and administrators). */
export function canDestroyEpics(perms: Permissions, groupId: number): boolean {
  return perms.canInGroup(groupId, AccessLevel.OWNER)
}

/** 403 unless the caller may edit the group's epics. */
export function requireAdminEpics(caller: Caller, group: NamespaceRow): void {
  if (!canAdminEpics(caller.perms, group.id)) throw forbidden()
}
