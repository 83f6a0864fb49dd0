import { isAccessLocked } from '../../platform/auth/password'
import type { ProjectGroupLinkRow, ProjectWithNamespaceRow, ProjectShareRow, StarrerRow } from './queries'
import type { UserRow } from '../../platform/db/rows'
import { userRef, type UserRef, type UserRefRow } from '../users'
import { EMPTY_STORAGE_STATISTICS } from '../namespaces'
import { projectSettings, textSetting } from '../../platform/db/project-settings'
import type { ProjectNamespace } from '../../../shared/api/namespace'
import type { Project, ProjectGroupLink, ProjectRef, ProjectSimple } from '../../../shared/api/project'
import type { Starrer } from '../../../shared/api/user'

export { FEATURE_ACCESS_DEFAULTS, PROJECT_SETTING_DEFAULTS, projectSettings } from '../../platform/db/project-settings'

/** The `namespace` object embedded in projects. */
export function projectNamespace(p: ProjectWithNamespaceRow, baseUrl: string): ProjectNamespace {
  return {
    id: p.namespace_id,
    name: p.ns_name,
    path: p.ns_path,
    kind: p.ns_kind,
    full_path: p.ns_full_path,
    parent_id: p.ns_parent_id,
    avatar_url: p.ns_avatar_url,
    web_url: p.ns_kind === 'user' ? `${baseUrl}/${p.ns_full_path}` : `${baseUrl}/groups/${p.ns_full_path}`,
  }
}

/** What `project_ref` shows of a project and its namespace. */
export type ProjectRefRow = Pick<
  ProjectWithNamespaceRow,
  'id' | 'name' | 'path' | 'description' | 'created_at' | 'ns_full_path' | 'ns_full_name'
>

/** `project_ref`: the smallest project shape embedded in other resources. */
export function projectRef(p: ProjectRefRow): ProjectRef {
  return {
    id: p.id,
    name: p.name,
    name_with_namespace: `${p.ns_full_name} / ${p.name}`,
    path: p.path,
    path_with_namespace: `${p.ns_full_path}/${p.path}`,
    description: p.description,
    created_at: p.created_at,
  }
}

/** What a project list or detail needs beyond the row, precomputed for a whole page. */
export interface ProjectExtras {
  readonly baseUrl: string
  /** Owner of the personal namespace, for personal projects. */
  readonly owner?: UserRefRow
  readonly shares?: readonly ProjectShareRow[]
  /** Caller's direct project level and group level, when signed in. */
  readonly permissions?: { readonly project: number | null; readonly group: number | null }
  readonly statistics?: boolean
  /** Administrators see the storage name. */
  readonly showStorage?: boolean
  readonly sshHost?: string
  /** The upstream of a fork (BasicProjectDetails), when the caller may read it. */
  readonly forkedFrom?: ProjectSimple
}

const topicsCache = new Map<string, readonly string[]>()

/** Parsed topics, shared between rows with the same text (most lists repeat `[]`). */
function topicsOf(p: ProjectWithNamespaceRow): readonly string[] {
  let topics = topicsCache.get(p.topics)
  if (!topics) {
    topics = Object.freeze(JSON.parse(p.topics) as string[])
    if (topicsCache.size >= 2048) topicsCache.clear()
    topicsCache.set(p.topics, topics)
  }
  return topics
}

const hostCache = new Map<string, { readonly hostname: string; readonly host: string }>()

/** Host parts of the base URL, parsed once per base URL rather than twice per row. */
function hostOf(baseUrl: string): { readonly hostname: string; readonly host: string } {
  let parts = hostCache.get(baseUrl)
  if (!parts) {
    const url = new URL(baseUrl)
    parts = { hostname: url.hostname, host: url.host }
    if (hostCache.size >= 64) hostCache.clear()
    hostCache.set(baseUrl, parts)
  }
  return parts
}

function readmeUrl(p: ProjectWithNamespaceRow, webUrl: string): string | null {
  const path = textSetting(projectSettings(p.settings), 'readme_path')
  if (path === null || !p.default_branch) return null
  return `${webUrl}/-/blob/${p.default_branch}/${path}`
}

/** GitLab's BasicProjectDetails: what `simple=true` lists return. */
export function projectSimple(p: ProjectWithNamespaceRow, baseUrl: string): ProjectSimple {
  const fullPath = `${p.ns_full_path}/${p.path}`
  // A copy: the cached topics are shared between rows and frozen.
  const topics = [...topicsOf(p)]
  const webUrl = `${baseUrl}/${fullPath}`
  return {
    id: p.id,
    name: p.name,
    name_with_namespace: `${p.ns_full_name} / ${p.name}`,
    path: p.path,
    path_with_namespace: fullPath,
    description: p.description,
    created_at: p.created_at,
    default_branch: p.default_branch,
    tag_list: topics,
    topics,
    ssh_url_to_repo: `git@${hostOf(baseUrl).hostname}:${fullPath}.git`,
    http_url_to_repo: `${webUrl}.git`,
    web_url: webUrl,
    // Flags kept in the settings by services/repository.ts, so lists never open repositories.
    readme_url: readmeUrl(p, webUrl),
    forks_count: p.forks_count,
    avatar_url: projectSettings(p.settings).avatar_url,
    star_count: p.star_count,
    last_activity_at: p.last_activity_at,
    namespace: projectNamespace(p, baseUrl),
  }
}

function accessObject(level: number | null | undefined): { access_level: number; notification_level: number } | null {
  return level ? { access_level: level, notification_level: 3 } : null
}

function featureEnabled(level: unknown): boolean {
  return level !== 'disabled'
}

const CONTAINER_EXPIRATION_POLICY = Object.freeze({
  cadence: '1d',
  enabled: false,
  keep_n: 10,
  older_than: '90d',
  name_regex: '.*',
  name_regex_keep: null,
  next_run_at: null,
})

/** A project's storage counters: a namespace's, with its commits and registry (none measured yet). */
const EMPTY_STATISTICS = Object.freeze({ ...EMPTY_STORAGE_STATISTICS, commit_count: 0, container_registry_size: 0 })

/**
 * GitLab's Project entity (ProjectWithAccess when permissions are given).
 *
 * Built as one object literal: adding ~130 keys one by one to a spread object pushed V8 into
 * dictionary-mode objects, which made both building and JSON serialisation of list pages slow.
 * Keys that only some projects carry (owner, forked_from_project, repository_storage, statistics, permissions) are
 * `undefined` for the others, which JSON leaves out exactly as if they were absent.
 */
export function projectEntity(p: ProjectWithNamespaceRow, x: ProjectExtras): Project {
  const base = x.baseUrl
  const s = projectSettings(p.settings)
  const fullPath = `${p.ns_full_path}/${p.path}`
  const webUrl = `${base}/${fullPath}`
  const self = `${base}/api/v4/projects/${p.id}`
  const topics = [...topicsOf(p)]
  const host = hostOf(base)
  return {
    id: p.id,
    name: p.name,
    name_with_namespace: `${p.ns_full_name} / ${p.name}`,
    path: p.path,
    path_with_namespace: fullPath,
    description: p.description,
    created_at: p.created_at,
    default_branch: p.default_branch,
    tag_list: topics,
    topics,
    ssh_url_to_repo: `git@${host.hostname}:${fullPath}.git`,
    http_url_to_repo: `${webUrl}.git`,
    web_url: webUrl,
    readme_url: readmeUrl(p, webUrl),
    forks_count: p.forks_count,
    avatar_url: s.avatar_url,
    star_count: p.star_count,
    last_activity_at: p.last_activity_at,
    namespace: projectNamespace(p, base),
    description_html: p.description
      ? `<p data-sourcepos="1:1-1:${p.description.length}" dir="auto">${escapeHtml(p.description)}</p>`
      : '',
    updated_at: p.updated_at,
    container_registry_image_prefix: `${host.host}/${fullPath}`.toLowerCase(),
    _links: {
      self,
      issues: `${self}/issues`,
      merge_requests: `${self}/merge_requests`,
      repo_branches: `${self}/repository/branches`,
      labels: `${self}/labels`,
      events: `${self}/events`,
      members: `${self}/members`,
      cluster_agents: `${self}/cluster_agents`,
    },
    packages_enabled: s.packages_enabled,
    empty_repo: s.empty_repo !== false,
    archived: p.archived === 1,
    visibility: p.visibility,
    owner: p.ns_kind === 'user' ? (x.owner ? (userRef(x.owner, base) satisfies UserRef) : null) : undefined,
    resolve_outdated_diff_discussions: s.resolve_outdated_diff_discussions,
    container_expiration_policy: CONTAINER_EXPIRATION_POLICY,
    repository_object_format: 'sha1',
    issues_enabled: featureEnabled(s.issues_access_level),
    merge_requests_enabled: featureEnabled(s.merge_requests_access_level),
    wiki_enabled: featureEnabled(s.wiki_access_level),
    jobs_enabled: featureEnabled(s.builds_access_level),
    snippets_enabled: featureEnabled(s.snippets_access_level),
    container_registry_enabled: featureEnabled(s.container_registry_access_level),
    service_desk_enabled: s.service_desk_enabled,
    service_desk_address: null,
    can_create_merge_request_in: (x.permissions?.project ?? 0) >= 30 || (x.permissions?.group ?? 0) >= 30,
    // The keys of FEATURE_ACCESS_DEFAULTS, in its order (project-entity.test.ts checks both agree).
    issues_access_level: s.issues_access_level,
    repository_access_level: s.repository_access_level,
    merge_requests_access_level: s.merge_requests_access_level,
    forking_access_level: s.forking_access_level,
    wiki_access_level: s.wiki_access_level,
    builds_access_level: s.builds_access_level,
    snippets_access_level: s.snippets_access_level,
    pages_access_level: s.pages_access_level,
    analytics_access_level: s.analytics_access_level,
    container_registry_access_level: s.container_registry_access_level,
    security_and_compliance_access_level: s.security_and_compliance_access_level,
    releases_access_level: s.releases_access_level,
    environments_access_level: s.environments_access_level,
    feature_flags_access_level: s.feature_flags_access_level,
    infrastructure_access_level: s.infrastructure_access_level,
    monitor_access_level: s.monitor_access_level,
    requirements_access_level: s.requirements_access_level,
    model_experiments_access_level: s.model_experiments_access_level,
    model_registry_access_level: s.model_registry_access_level,
    emails_disabled: !s.emails_enabled,
    emails_enabled: s.emails_enabled,
    shared_runners_enabled: s.shared_runners_enabled,
    lfs_enabled: s.lfs_enabled,
    creator_id: p.creator_id,
    forked_from_project: x.forkedFrom,
    import_url: s.import_url,
    // Set by an import (services/imports.ts keeps them in the settings JSON).
    import_type: textSetting(s, 'import_type'),
    import_status: textSetting(s, 'import_status') ?? 'none',
    import_error: textSetting(s, 'import_error'),
    open_issues_count: 0,
    ci_default_git_depth: s.ci_default_git_depth,
    ci_forward_deployment_enabled: s.ci_forward_deployment_enabled,
    ci_forward_deployment_rollback_allowed: true,
    ci_job_token_scope_enabled: s.ci_job_token_scope_enabled,
    ci_separated_caches: s.ci_separated_caches,
    ci_allow_fork_pipelines_to_run_in_parent_project: true,
    ci_restrict_pipeline_cancellation_role: 'developer',
    build_git_strategy: s.build_git_strategy,
    keep_latest_artifact: s.keep_latest_artifact,
    restrict_user_defined_variables: s.restrict_user_defined_variables,
    runner_token_expiration_interval: null,
    group_runners_enabled: s.group_runners_enabled,
    auto_cancel_pending_pipelines: s.auto_cancel_pending_pipelines,
    build_timeout: s.build_timeout,
    auto_devops_enabled: s.auto_devops_enabled,
    auto_devops_deploy_strategy: s.auto_devops_deploy_strategy,
    ci_config_path: s.ci_config_path,
    public_jobs: s.public_jobs,
    shared_with_groups: (x.shares ?? []).map((l) => ({
      group_id: l.group_id,
      group_name: l.group_name,
      group_full_path: l.group_full_path,
      group_access_level: l.group_access,
      expires_at: l.expires_at,
    })),
    only_allow_merge_if_pipeline_succeeds: s.only_allow_merge_if_pipeline_succeeds,
    allow_merge_on_skipped_pipeline: s.allow_merge_on_skipped_pipeline,
    request_access_enabled: p.request_access_enabled === 1,
    only_allow_merge_if_all_discussions_are_resolved: s.only_allow_merge_if_all_discussions_are_resolved,
    remove_source_branch_after_merge: s.remove_source_branch_after_merge,
    printing_merge_request_link_enabled: s.printing_merge_request_link_enabled,
    merge_method: s.merge_method,
    squash_option: s.squash_option,
    enforce_auth_checks_on_uploads: s.enforce_auth_checks_on_uploads,
    suggestion_commit_message: s.suggestion_commit_message,
    merge_commit_template: s.merge_commit_template,
    squash_commit_template: s.squash_commit_template,
    issue_branch_template: s.issue_branch_template,
    warn_about_potentially_unwanted_characters: s.warn_about_potentially_unwanted_characters,
    autoclose_referenced_issues: s.autoclose_referenced_issues,
    mr_default_target_self: s.mr_default_target_self,
    approvals_before_merge: s.approvals_before_merge,
    mirror: s.mirror,
    external_authorization_classification_label: s.external_authorization_classification_label,
    requirements_enabled: featureEnabled(s.requirements_access_level),
    security_and_compliance_enabled: featureEnabled(s.security_and_compliance_access_level),
    compliance_frameworks: [],
    marked_for_deletion_at: null,
    marked_for_deletion_on: null,
    repository_storage: x.showStorage ? p.repository_storage : undefined,
    statistics: x.statistics ? EMPTY_STATISTICS : undefined,
    permissions: x.permissions
      ? { project_access: accessObject(x.permissions.project), group_access: accessObject(x.permissions.group) }
      : undefined,
  }
}

interface CachedEntity {
  readonly key: string
  readonly json: Buffer
}

const entityJsonCache = new Map<number, CachedEntity>()
// About 6 KB per entry (key and bytes): a bounded ~12 MB for twenty full pages of projects.
const ENTITY_JSON_CACHE_LIMIT = 2000

/**
 * `JSON.stringify(projectEntity(p, x))` as UTF-8 bytes, memoised per project on everything the
 * entity is computed from (the row with its namespace columns, owner, shares, permissions, flags
 * and base URL). Serialising the ~4.5 KB entity was the largest cost of a project list page; a
 * page of unchanged projects now costs one key comparison per row. Any change to a row or its
 * extras gives a different key, so a stale entity is never served; the least recently used
 * projects are dropped past the limit.
 */
export function projectEntityJson(p: ProjectWithNamespaceRow, x: ProjectExtras): Buffer {
  const perms = x.permissions ? `${x.permissions.project ?? 'n'},${x.permissions.group ?? 'n'}` : 'u'
  // The owner's lock runs out with time, not with a change to the row: its state now is part of the key.
  const owner = x.owner ? `${JSON.stringify(x.owner)}${isAccessLocked(x.owner) ? 'L' : ''}` : ''
  const key = `${x.baseUrl}\u0000${JSON.stringify(p)}\u0000${owner}\u0000${x.shares ? JSON.stringify(x.shares) : ''}\u0000${perms}\u0000${x.statistics ? 1 : 0}${x.showStorage ? 1 : 0}\u0000${x.forkedFrom ? JSON.stringify(x.forkedFrom) : ''}`
  let entry = entityJsonCache.get(p.id)
  // Delete and set again so the map's order is least recently used first.
  entityJsonCache.delete(p.id)
  if (entry?.key !== key) {
    entry = { key, json: Buffer.from(JSON.stringify(projectEntity(p, x))) }
    if (entityJsonCache.size >= ENTITY_JSON_CACHE_LIMIT)
      entityJsonCache.delete(entityJsonCache.keys().next().value as number)
  }
  entityJsonCache.set(p.id, entry)
  return entry.json
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  )
}

/** GitLab's ProjectGroupLink entity (`POST /projects/:id/share`). */
export function projectGroupLinkEntity(link: ProjectGroupLinkRow): ProjectGroupLink {
  return {
    id: link.id,
    project_id: link.project_id,
    group_id: link.group_id,
    group_access: link.group_access,
    expires_at: link.expires_at,
  }
}

/** GitLab's ProjectStarrer entity: when the user starred the project, and who. */
export function starrerEntity(row: StarrerRow, user: UserRow, baseUrl: string): Starrer {
  return { starred_since: row.created_at, user: userRef(user, baseUrl) }
}
