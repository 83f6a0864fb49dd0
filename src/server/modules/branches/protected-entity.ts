import type {
  BranchAccessLevel,
  BranchPushAccessLevel,
  ProtectedBranch as ProtectedBranchEntity,
} from '../../../shared/api/protected-branch'
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

/** The rules of one kind, as GitLab shows merge and unprotect rules. */
function accessLevels(branch: ProtectedBranch, kind: AccessKind, names: AccessNames): BranchAccessLevel[] {
  return branch.access
    .filter((a) => a.kind === kind)
    .map((a) => ({
      id: a.id,
      access_level: a.access_level ?? 40,
      access_level_description: description(a, names),
      user_id: a.user_id,
      group_id: a.group_id,
    }))
}

/** Push rules may also name a deploy key: none does yet. */
function pushAccessLevels(branch: ProtectedBranch, names: AccessNames): BranchPushAccessLevel[] {
  return accessLevels(branch, 'push', names).map((a) => ({ ...a, deploy_key_id: null }))
}

/** GitLab's ProtectedBranch entity. */
export function protectedBranchEntity(branch: ProtectedBranch, names: AccessNames): ProtectedBranchEntity {
  return {
    id: branch.id,
    name: branch.name,
    push_access_levels: pushAccessLevels(branch, names),
    merge_access_levels: accessLevels(branch, 'merge', names),
    unprotect_access_levels: accessLevels(branch, 'unprotect', names),
    allow_force_push: branch.allow_force_push === 1,
    code_owner_approval_required: branch.code_owner_approval_required === 1,
    inherited: false,
  }
}
