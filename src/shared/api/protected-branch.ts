/**
 * Protected branches: who may push, merge and unprotect.
 */
import { Type, type Static } from 'typebox'
import { AccessLevelValue, Entity, Nullable } from './common'

const accessFields = {
  id: Type.Integer(),
  access_level: AccessLevelValue,
  /** The role's name, or the user's or group's name. */
  access_level_description: Type.String(),
  user_id: Nullable(Type.Integer()),
  group_id: Nullable(Type.Integer()),
}

/** A merge or unprotect rule. */
export const BranchAccessLevel = Entity(accessFields)
export type BranchAccessLevel = Static<typeof BranchAccessLevel>
/** A push rule, which may also name a deploy key. */
export const BranchPushAccessLevel = Entity({ ...accessFields, deploy_key_id: Nullable(Type.Integer()) })
export type BranchPushAccessLevel = Static<typeof BranchPushAccessLevel>

/** GitLab's ProtectedBranch entity. */
export const ProtectedBranch = Entity({
  id: Type.Integer(),
  /** A branch name or a wildcard (`release/*`). */
  name: Type.String(),
  push_access_levels: Type.Array(BranchPushAccessLevel),
  merge_access_levels: Type.Array(BranchAccessLevel),
  unprotect_access_levels: Type.Array(BranchAccessLevel),
  allow_force_push: Type.Boolean(),
  code_owner_approval_required: Type.Boolean(),
  inherited: Type.Boolean(),
})
export type ProtectedBranch = Static<typeof ProtectedBranch>
