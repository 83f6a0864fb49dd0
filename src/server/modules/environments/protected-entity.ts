import type { ProtectedEnvironment as ProtectedEnvironmentEntity } from '../../../shared/api/environment'
import type { ProtectedEnvironment } from './protected-queries'

const ROLE_DESCRIPTIONS: Readonly<Record<number, string>> = {
  30: 'Developers + Maintainers',
  40: 'Maintainers',
  60: 'Administrators',
}

/** Names of the users and groups a page of rules mentions, loaded in bulk by the caller. */
export interface DeployAccessNames {
  readonly users: ReadonlyMap<number, string>
  readonly groups: ReadonlyMap<number, string>
}

/**
 * GitLab's ProtectedEnvironment entity. A rule's description is its role, or the user's or the
 * group's name; user and group rules keep access_level 40, GitLab's column default.
 */
export function protectedEnvironmentEntity(
  pe: ProtectedEnvironment,
  names: DeployAccessNames,
): ProtectedEnvironmentEntity {
  return {
    name: pe.name,
    deploy_access_levels: pe.levels.map((l) => ({
      id: l.id,
      access_level: l.access_level,
      access_level_description:
        l.user_id !== null
          ? (names.users.get(l.user_id) ?? null)
          : l.group_id !== null
            ? (names.groups.get(l.group_id) ?? null)
            : (ROLE_DESCRIPTIONS[l.access_level] ?? null),
      user_id: l.user_id,
      group_id: l.group_id,
    })),
  }
}
