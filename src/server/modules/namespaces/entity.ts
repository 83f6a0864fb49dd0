import type { NamespaceRow } from '../../platform/db/rows'

/** GitLab's Namespace entity (`GET /namespaces`). */
export function namespaceEntity(
  n: NamespaceRow,
  x: { readonly baseUrl: string; readonly projectsCount?: number; readonly membersCount?: number },
): Record<string, unknown> {
  const entity: Record<string, unknown> = {
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
  }
  if (n.kind === 'group' && x.membersCount !== undefined) entity.members_count_with_descendants = x.membersCount
  return entity
}

/** Group settings kept in `namespaces.settings`, with GitLab's defaults for a new group. */
export const GROUP_SETTING_DEFAULTS: Readonly<Record<string, string | number | boolean | null>> = {
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
export function groupSettings(raw: string): Readonly<Record<string, unknown>> {
  return { ...GROUP_SETTING_DEFAULTS, ...(JSON.parse(raw) as Record<string, unknown>) }
}

/** Web URL of a group page. */
export function groupWebUrl(baseUrl: string, fullPath: string): string {
  return `${baseUrl}/groups/${fullPath}`
}
