import type { Namespace } from '../../../shared/api/namespace'
import type { NamespaceRow } from '../../platform/db/rows'

/** GitLab's Namespace entity (`GET /namespaces`). */
export function namespaceEntity(
  n: NamespaceRow,
  x: { readonly baseUrl: string; readonly projectsCount?: number; readonly membersCount?: number },
): Namespace {
  return {
    id: n.id,
    name: n.name,
    path: n.path,
    kind: n.kind,
    full_path: n.full_path,
    parent_id: n.parent_id,
    avatar_url: n.avatar_url,
    web_url: n.kind === 'group' ? groupWebUrl(x.baseUrl, n.full_path) : `${x.baseUrl}/${n.full_path}`,
    billable_members_count: x.membersCount ?? 1,
    plan: 'default',
    end_date: null,
    trial_ends_on: null,
    trial: false,
    root_repository_size: 0,
    projects_count: x.projectsCount ?? 0,
    ...(n.kind === 'group' && x.membersCount !== undefined ? { members_count_with_descendants: x.membersCount } : {}),
  }
}

/** The group settings kept in `namespaces.settings` (the group routes' body schemas check what is stored). */
export interface GroupSettings {
  readonly project_creation_level: string
  readonly subgroup_creation_level: string
  readonly share_with_group_lock: boolean
  readonly require_two_factor_authentication: boolean
  readonly two_factor_grace_period: number
  readonly auto_devops_enabled: boolean | null
  readonly emails_enabled: boolean
  readonly mentions_disabled: boolean | null
  readonly lfs_enabled: boolean
  readonly default_branch: string | null
  readonly default_branch_protection: number
  readonly membership_lock: boolean
  readonly prevent_forking_outside_group: boolean | null
  readonly prevent_sharing_groups_outside_hierarchy: boolean
  readonly shared_runners_setting: string
  readonly wiki_access_level: string
  readonly math_rendering_limits_enabled: boolean
  readonly lock_math_rendering_limits_enabled: boolean
  readonly file_template_project_id: number | null
  readonly extra_shared_runners_minutes_limit: number | null
  readonly shared_runners_minutes_limit: number | null
  readonly ip_restriction_ranges: string | null
  readonly duo_features_enabled: boolean
}

/** Group settings kept in `namespaces.settings`, with GitLab's defaults for a new group. */
export const GROUP_SETTING_DEFAULTS: GroupSettings = {
  // GitLab's default project creation protection: Developers and Maintainers create projects.
  project_creation_level: 'developer',
  subgroup_creation_level: 'maintainer',
  share_with_group_lock: false,
  require_two_factor_authentication: false,
  two_factor_grace_period: 48,
  auto_devops_enabled: null,
  emails_enabled: true,
  mentions_disabled: null,
  lfs_enabled: true,
  default_branch: null,
  default_branch_protection: 2,
  membership_lock: false,
  prevent_forking_outside_group: null,
  prevent_sharing_groups_outside_hierarchy: false,
  shared_runners_setting: 'enabled',
  wiki_access_level: 'enabled',
  math_rendering_limits_enabled: true,
  lock_math_rendering_limits_enabled: false,
  file_template_project_id: null,
  extra_shared_runners_minutes_limit: null,
  shared_runners_minutes_limit: null,
  ip_restriction_ranges: null,
  duo_features_enabled: false,
}

/** Parsed `namespaces.settings` with group defaults applied. */
export function groupSettings(raw: string): GroupSettings {
  return { ...GROUP_SETTING_DEFAULTS, ...(JSON.parse(raw) as Partial<GroupSettings>) }
}

/** The storage counters of a group's or project's content: Burrow Server measures none yet. */
export const EMPTY_STORAGE_STATISTICS = Object.freeze({
  storage_size: 0,
  repository_size: 0,
  wiki_size: 0,
  lfs_objects_size: 0,
  job_artifacts_size: 0,
  pipeline_artifacts_size: 0,
  packages_size: 0,
  snippets_size: 0,
  uploads_size: 0,
})

/** Web URL of a group page. */
export function groupWebUrl(baseUrl: string, fullPath: string): string {
  return `${baseUrl}/groups/${fullPath}`
}
