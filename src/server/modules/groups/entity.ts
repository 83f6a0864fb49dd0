import type { BranchProtectionDefaults, Group, GroupDetail } from '../../../shared/api/group'
import type { ProjectListItem } from '../../../shared/api/project'
import type { GroupShareRow } from './queries'
import type { NamespaceRow } from '../../platform/db/rows'
import { EMPTY_STORAGE_STATISTICS, groupSettings, groupWebUrl } from '../namespaces'

/** GitLab's protection defaults object derived from the legacy integer setting. */
function protectionDefaults(level: number): BranchProtectionDefaults {
  const pushNone = level === 0
  return {
    allowed_to_push: [{ access_level: pushNone ? 30 : level === 1 ? 30 : 40 }],
    allow_force_push: pushNone,
    allowed_to_merge: [{ access_level: pushNone ? 30 : 40 }],
  }
}

export interface GroupExtras {
  readonly baseUrl: string
  readonly statistics?: boolean
}

/** GitLab's Group entity, as the group lists return it. */
export function groupEntity(g: NamespaceRow, x: GroupExtras): Group {
  const s = groupSettings(g.settings)
  return {
    id: g.id,
    web_url: groupWebUrl(x.baseUrl, g.full_path),
    name: g.name,
    path: g.path,
    description: g.description,
    visibility: g.visibility,
    share_with_group_lock: s.share_with_group_lock,
    require_two_factor_authentication: s.require_two_factor_authentication,
    two_factor_grace_period: s.two_factor_grace_period,
    project_creation_level: s.project_creation_level,
    auto_devops_enabled: s.auto_devops_enabled,
    subgroup_creation_level: s.subgroup_creation_level,
    emails_disabled: !s.emails_enabled,
    emails_enabled: s.emails_enabled,
    mentions_disabled: s.mentions_disabled,
    lfs_enabled: s.lfs_enabled,
    math_rendering_limits_enabled: s.math_rendering_limits_enabled,
    lock_math_rendering_limits_enabled: s.lock_math_rendering_limits_enabled,
    default_branch: s.default_branch,
    default_branch_protection: s.default_branch_protection,
    default_branch_protection_defaults: protectionDefaults(s.default_branch_protection),
    avatar_url: g.avatar_url,
    request_access_enabled: g.request_access_enabled === 1,
    full_name: g.full_name,
    full_path: g.full_path,
    created_at: g.created_at,
    parent_id: g.parent_id,
    organization_id: 1,
    shared_runners_setting: s.shared_runners_setting,
    ldap_cn: null,
    ldap_access: null,
    wiki_access_level: s.wiki_access_level,
    marked_for_deletion_on: null,
    duo_features_enabled: s.duo_features_enabled,
    lock_duo_features_enabled: false,
    membership_lock: s.membership_lock,
    statistics: x.statistics ? EMPTY_STORAGE_STATISTICS : undefined,
  }
}

/** GitLab's GroupDetail entity: the group plus its shares and, unless omitted, its projects. */
export function groupDetailEntity(
  g: NamespaceRow,
  x: GroupExtras & {
    readonly shares: readonly GroupShareRow[]
    readonly projects?: ProjectListItem[]
    readonly sharedProjects?: ProjectListItem[]
  },
): GroupDetail {
  const s = groupSettings(g.settings)
  return {
    ...groupEntity(g, x),
    shared_with_groups: x.shares.map((l) => ({
      group_id: l.group_id,
      group_name: l.group_name,
      group_full_path: l.group_full_path,
      group_access_level: l.group_access,
      expires_at: l.expires_at,
    })),
    prevent_sharing_groups_outside_hierarchy: s.prevent_sharing_groups_outside_hierarchy,
    shared_runners_minutes_limit: s.shared_runners_minutes_limit,
    extra_shared_runners_minutes_limit: s.extra_shared_runners_minutes_limit,
    prevent_forking_outside_group: s.prevent_forking_outside_group,
    ip_restriction_ranges: s.ip_restriction_ranges,
    file_template_project_id: s.file_template_project_id,
    projects: x.projects,
    shared_projects: x.sharedProjects,
  }
}
