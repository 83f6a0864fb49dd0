import type { Caller } from '../../platform/caller'
import { AccessLevel } from '../../platform/auth/access'
import { Permissions } from '../../platform/auth/permissions'
import type { Db } from '../../platform/db/connection'
import {
  deleteProtectedEnvironment,
  insertProtectedEnvironment,
  type DeployGrant,
  type ProtectedEnvironment,
  isProjectSharedWithGroup,
} from './protected-queries'
import { grantHolderNames } from '../branches'
import type { ProjectRow } from '../../platform/db/rows'
import { findUserById } from '../users'
import type { DeployAccessNames } from './protected-entity'
import { recordProjectChange } from '../projects'

/** Roles a deploy rule may name: Developers (+ Maintainers), Maintainers, administrators. */
export const DEPLOY_ACCESS_LEVELS: readonly number[] = [
  AccessLevel.DEVELOPER,
  AccessLevel.MAINTAINER,
  AccessLevel.ADMIN,
]

/**
 * Why these rules cannot protect an environment of this project, as GitLab's full messages
 * (empty when they can): each rule names exactly one role, user or group; a user must hold at
 * least Developer in the project; a group must have the project shared with it.
 */
export function deployGrantErrors(db: Db, project: Pick<ProjectRow, 'id'>, grants: readonly DeployGrant[]): string[] {
  if (grants.length === 0) return ['Deploy access levels is too short (minimum is 1 character)']
  const errors = new Set<string>()
  for (const g of grants) {
    const given = [g.access_level, g.user_id, g.group_id].filter((v) => v !== undefined)
    if (given.length !== 1) {
      errors.add('Deploy access levels One of the Group ID, User ID or Access Level must be specified.')
      continue
    }
    if (g.user_id !== undefined) {
      const user = findUserById(db, g.user_id)
      const level = user ? new Permissions(db, user).projectAccess(project) : AccessLevel.NO_ACCESS
      if (level < AccessLevel.DEVELOPER)
        errors.add('Deploy access levels user must be a project member with at least the Developer role')
    } else if (g.group_id !== undefined) {
      if (!isProjectSharedWithGroup(db, project.id, g.group_id))
        errors.add('Deploy access levels group must have this project shared with it')
    }
  }
  return [...errors]
}

/** Names of the users and groups the rules mention, in two queries. */
export function deployAccessNames(db: Db, rules: readonly ProtectedEnvironment[]): DeployAccessNames {
  return grantHolderNames(
    db,
    rules.flatMap((r) => r.levels),
  )
}

/** Protects an environment name (the environment itself need not exist yet). */
export function protectEnvironment(
  caller: Caller,
  project: ProjectRow,
  name: string,
  grants: readonly DeployGrant[],
): ProtectedEnvironment {
  const db = caller.db
  return db.transaction(() => {
    const pe = insertProtectedEnvironment(db, project.id, name, grants)
    recordProjectChange(caller, project, {
      targetType: 'ProtectedEnvironment',
      targetId: pe.id,
      targetTitle: name,
      audit: { add: 'protected_environment', custom_message: `Protected environment ${name}` },
    })
    return pe
  })()
}

/** Removes a protection. */
export function unprotectEnvironment(caller: Caller, project: ProjectRow, pe: ProtectedEnvironment): void {
  const db = caller.db
  db.transaction(() => {
    deleteProtectedEnvironment(db, pe.id)
    recordProjectChange(caller, project, {
      targetType: 'ProtectedEnvironment',
      targetId: pe.id,
      targetTitle: pe.name,
      audit: { remove: 'protected_environment', custom_message: `Unprotected environment ${pe.name}` },
    })
  })()
}
