import { accessLevelName } from '../../platform/auth/access'
import type { AccessKind, AccessLevelRow, AccessNames, ProtectedBranch } from './protected-queries'

const ROLE_DESCRIPTIONS: Readonly<Record<number, string>> = {
  0: 'No one',
  30: 'Developers + Maintainers',
  40: 'Maintainers',
  60: 'Admins',
}

function description(a: AccessLevelRow, names: AccessNames): string {
  if (a.user_id !== null) return names.users.get(a.user_id) ?? ''
  if (a.group_id !== null) return names.groups.get(a.group_id) ?? ''
  return ROLE_DESCRIPTIONS[a.access_level ?? 0] ?? accessLevelName(a.access_level ?? 0)
}

function accessLevels(
  branch: ProtectedBranch,
  kind: AccessKind,
  names: AccessNames,
): Readonly<Record<string, unknown>>[] {
  return branch.access
    .filter((a) => a.kind === kind)
    .map((a) => {
      const entity: Record<string, unknown> = {
        id: a.id,
        access_level: a.access_level ?? 40,
        access_level_description: description(a, names),
      }
      if (kind === 'push') entity.deploy_key_id = null
      entity.user_id = a.user_id
      entity.group_id = a.group_id
      return entity
    })
}

/** GitLab's ProtectedBranch entity. */
export function protectedBranchEntity(branch: ProtectedBranch, names: AccessNames): Readonly<Record<string, unknown>> {
  return {
    id: branch.id,
    name: branch.name,
    push_access_levels: accessLevels(branch, 'push', names),
    merge_access_levels: accessLevels(branch, 'merge', names),
    unprotect_access_levels: accessLevels(branch, 'unprotect', names),
    allow_force_push: branch.allow_force_push === 1,
    code_owner_approval_required: branch.code_owner_approval_required === 1,
    inherited: false,
  }
}
