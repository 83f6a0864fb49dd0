/**
 * Groups: the group lists' entity and the single group's detail (shares, projects).
 */
import { Type, type Static } from 'typebox'
import { AccessLevelValue, Entity, IsoDate, Nullable, StorageStatistics, Timestamp, Visibility } from './common'
import { ProjectListItem, SharedWithGroup } from './project'

/** Default protection of new projects' default branches. */
export const BranchProtectionDefaults = Entity({
  allowed_to_push: Type.Array(Entity({ access_level: AccessLevelValue })),
  allow_force_push: Type.Boolean(),
  allowed_to_merge: Type.Array(Entity({ access_level: AccessLevelValue })),
})
export type BranchProtectionDefaults = Static<typeof BranchProtectionDefaults>

const groupFields = {
  id: Type.Integer(),
  web_url: Type.String(),
  name: Type.String(),
  path: Type.String(),
  description: Type.String(),
  visibility: Visibility,
  share_with_group_lock: Type.Boolean(),
  require_two_factor_authentication: Type.Boolean(),
  two_factor_grace_period: Type.Integer(),
  /** `noone`, `owner`, `maintainer` or `developer`. */
  project_creation_level: Type.String(),
  auto_devops_enabled: Nullable(Type.Boolean()),
  /** `owner` or `maintainer`. */
  subgroup_creation_level: Type.String(),
  emails_disabled: Type.Boolean(),
  emails_enabled: Type.Boolean(),
  mentions_disabled: Nullable(Type.Boolean()),
  lfs_enabled: Type.Boolean(),
  math_rendering_limits_enabled: Type.Boolean(),
  lock_math_rendering_limits_enabled: Type.Boolean(),
  default_branch: Nullable(Type.String()),
  default_branch_protection: Type.Integer(),
  default_branch_protection_defaults: BranchProtectionDefaults,
  avatar_url: Nullable(Type.String()),
  request_access_enabled: Type.Boolean(),
  full_name: Type.String(),
  full_path: Type.String(),
  created_at: Timestamp,
  parent_id: Nullable(Type.Integer()),
  organization_id: Type.Integer(),
  shared_runners_setting: Type.String(),
  ldap_cn: Nullable(Type.String()),
  ldap_access: Nullable(AccessLevelValue),
  wiki_access_level: Type.String(),
  marked_for_deletion_on: Nullable(IsoDate),
  duo_features_enabled: Type.Boolean(),
  lock_duo_features_enabled: Type.Boolean(),
  membership_lock: Type.Boolean(),
  /** With `statistics=true`, for administrators. */
  statistics: Type.Optional(StorageStatistics),
}

/** GitLab's Group entity, as the group, subgroup and descendant lists return it. */
export const Group = Entity(groupFields)
export type Group = Static<typeof Group>

/**
 * GitLab's GroupDetail (`GET /groups/:id`, create, update, transfer, share): the group, its shares
 * and, unless `with_projects=false`, its projects and the projects shared with it (100 at most);
 * `runners_token` for its Owners.
 */
export const GroupDetail = Entity({
  ...groupFields,
  shared_with_groups: Type.Array(SharedWithGroup),
  prevent_sharing_groups_outside_hierarchy: Type.Boolean(),
  shared_runners_minutes_limit: Nullable(Type.Integer()),
  extra_shared_runners_minutes_limit: Nullable(Type.Integer()),
  prevent_forking_outside_group: Nullable(Type.Boolean()),
  ip_restriction_ranges: Nullable(Type.String()),
  file_template_project_id: Nullable(Type.Integer()),
  projects: Type.Optional(Type.Array(ProjectListItem)),
  shared_projects: Type.Optional(Type.Array(ProjectListItem)),
  runners_token: Type.Optional(Type.String()),
})
export type GroupDetail = Static<typeof GroupDetail>
