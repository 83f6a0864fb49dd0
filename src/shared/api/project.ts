/**
 * Projects (spec `project_ref`, the project of clusters): the reference embedded in other
 * resources, the basic list form (`simple=true`, anonymous callers), the full entity, and the
 * small shapes around them (shares, group links).
 */
import { Type, type Static } from 'typebox'
import { AccessLevelValue, Entity, IsoDate, Nullable, StorageStatistics, Timestamp, Visibility } from './common'
import { ProjectNamespace } from './namespace'
import { UserRef } from './user'

const identityFields = {
  id: Type.Integer(),
  name: Type.String(),
  name_with_namespace: Type.String(),
  path: Type.String(),
  path_with_namespace: Type.String(),
}

/** A project named by its paths only (to-dos, runner details). */
export const ProjectIdentity = Entity(identityFields)
export type ProjectIdentity = Static<typeof ProjectIdentity>

/** The fields of `project_ref`. */
const projectRefFields = {
  ...identityFields,
  description: Nullable(Type.String()),
  created_at: Timestamp,
}

/** `project_ref`: the smallest project shape embedded in other resources. */
export const ProjectRef = Entity(projectRefFields)
export type ProjectRef = Static<typeof ProjectRef>

/** GitLab's BasicProjectDetails fields, shared by the basic and the full entity. */
const basicFields = {
  ...projectRefFields,
  default_branch: Nullable(Type.String()),
  /** Deprecated: the same as `topics`. */
  tag_list: Type.Array(Type.String()),
  topics: Type.Array(Type.String()),
  ssh_url_to_repo: Type.String(),
  http_url_to_repo: Type.String(),
  web_url: Type.String(),
  readme_url: Nullable(Type.String()),
  forks_count: Type.Integer(),
  avatar_url: Nullable(Type.String()),
  star_count: Type.Integer(),
  last_activity_at: Timestamp,
  namespace: ProjectNamespace,
}

/** GitLab's BasicProjectDetails: `simple=true` lists, anonymous lists, a cluster's project. */
export const ProjectSimple = Entity(basicFields)
export type ProjectSimple = Static<typeof ProjectSimple>

/** A group a project or group is shared with. */
export const SharedWithGroup = Entity({
  group_id: Type.Integer(),
  group_name: Type.String(),
  group_full_path: Type.String(),
  group_access_level: AccessLevelValue,
  expires_at: Nullable(Type.String()),
})
export type SharedWithGroup = Static<typeof SharedWithGroup>

/** The caller's access through the project or its group. */
const MemberAccess = Nullable(Entity({ access_level: AccessLevelValue, notification_level: Type.Integer() }))

/** `disabled`, `private`, `enabled` (and `public` for Pages). */
export const FeatureAccessLevel = Type.Enum(['disabled', 'private', 'enabled', 'public'])

/** Storage counters (`statistics=true`, Reporters and above). */
export const ProjectStatistics = Entity({
  commit_count: Type.Integer(),
  ...StorageStatistics.properties,
  container_registry_size: Type.Integer(),
})

/**
 * GitLab's Project entity (ProjectWithAccess for signed-in callers). `owner` only on personal
 * projects, `repository_storage` for administrators, `statistics` when asked by Reporters and above,
 * `permissions` for signed-in callers, `runners_token` on the single view for Maintainers,
 * `forked_from_project` on forks whose upstream the caller may read.
 */
export const Project = Entity({
  ...basicFields,
  description_html: Type.String(),
  updated_at: Timestamp,
  container_registry_image_prefix: Type.String(),
  _links: Entity({
    self: Type.String(),
    issues: Type.String(),
    merge_requests: Type.String(),
    repo_branches: Type.String(),
    labels: Type.String(),
    events: Type.String(),
    members: Type.String(),
    cluster_agents: Type.String(),
  }),
  packages_enabled: Type.Boolean(),
  empty_repo: Type.Boolean(),
  archived: Type.Boolean(),
  visibility: Visibility,
  owner: Type.Optional(Nullable(UserRef)),
  resolve_outdated_diff_discussions: Type.Boolean(),
  container_expiration_policy: Entity({
    cadence: Type.String(),
    enabled: Type.Boolean(),
    keep_n: Nullable(Type.Integer()),
    older_than: Nullable(Type.String()),
    name_regex: Nullable(Type.String()),
    name_regex_keep: Nullable(Type.String()),
    next_run_at: Nullable(Timestamp),
  }),
  repository_object_format: Type.String(),
  issues_enabled: Type.Boolean(),
  merge_requests_enabled: Type.Boolean(),
  wiki_enabled: Type.Boolean(),
  jobs_enabled: Type.Boolean(),
  snippets_enabled: Type.Boolean(),
  container_registry_enabled: Type.Boolean(),
  service_desk_enabled: Type.Boolean(),
  service_desk_address: Nullable(Type.String()),
  can_create_merge_request_in: Type.Boolean(),
  issues_access_level: FeatureAccessLevel,
  repository_access_level: FeatureAccessLevel,
  merge_requests_access_level: FeatureAccessLevel,
  forking_access_level: FeatureAccessLevel,
  wiki_access_level: FeatureAccessLevel,
  builds_access_level: FeatureAccessLevel,
  snippets_access_level: FeatureAccessLevel,
  pages_access_level: FeatureAccessLevel,
  analytics_access_level: FeatureAccessLevel,
  container_registry_access_level: FeatureAccessLevel,
  security_and_compliance_access_level: FeatureAccessLevel,
  releases_access_level: FeatureAccessLevel,
  environments_access_level: FeatureAccessLevel,
  feature_flags_access_level: FeatureAccessLevel,
  infrastructure_access_level: FeatureAccessLevel,
  monitor_access_level: FeatureAccessLevel,
  requirements_access_level: FeatureAccessLevel,
  model_experiments_access_level: FeatureAccessLevel,
  model_registry_access_level: FeatureAccessLevel,
  emails_disabled: Type.Boolean(),
  emails_enabled: Type.Boolean(),
  shared_runners_enabled: Type.Boolean(),
  lfs_enabled: Type.Boolean(),
  creator_id: Nullable(Type.Integer()),
  /** A fork's upstream, when the caller may read it. */
  forked_from_project: Type.Optional(ProjectSimple),
  import_url: Nullable(Type.String()),
  import_type: Nullable(Type.String()),
  /** `none`, `scheduled`, `started`, `finished` or `failed`. */
  import_status: Type.String(),
  import_error: Nullable(Type.String()),
  open_issues_count: Type.Integer(),
  ci_default_git_depth: Type.Integer(),
  ci_forward_deployment_enabled: Type.Boolean(),
  ci_forward_deployment_rollback_allowed: Type.Boolean(),
  ci_job_token_scope_enabled: Type.Boolean(),
  ci_separated_caches: Type.Boolean(),
  ci_allow_fork_pipelines_to_run_in_parent_project: Type.Boolean(),
  ci_restrict_pipeline_cancellation_role: Type.String(),
  build_git_strategy: Type.Enum(['fetch', 'clone']),
  keep_latest_artifact: Type.Boolean(),
  restrict_user_defined_variables: Type.Boolean(),
  runner_token_expiration_interval: Nullable(Type.Integer()),
  group_runners_enabled: Type.Boolean(),
  auto_cancel_pending_pipelines: Type.Enum(['enabled', 'disabled']),
  build_timeout: Type.Integer(),
  auto_devops_enabled: Type.Boolean(),
  auto_devops_deploy_strategy: Type.Enum(['continuous', 'manual', 'timed_incremental']),
  ci_config_path: Nullable(Type.String()),
  public_jobs: Type.Boolean(),
  shared_with_groups: Type.Array(SharedWithGroup),
  only_allow_merge_if_pipeline_succeeds: Type.Boolean(),
  allow_merge_on_skipped_pipeline: Nullable(Type.Boolean()),
  request_access_enabled: Type.Boolean(),
  only_allow_merge_if_all_discussions_are_resolved: Type.Boolean(),
  remove_source_branch_after_merge: Type.Boolean(),
  printing_merge_request_link_enabled: Type.Boolean(),
  merge_method: Type.Enum(['merge', 'rebase_merge', 'ff']),
  squash_option: Type.Enum(['never', 'always', 'default_on', 'default_off']),
  enforce_auth_checks_on_uploads: Type.Boolean(),
  suggestion_commit_message: Nullable(Type.String()),
  merge_commit_template: Nullable(Type.String()),
  squash_commit_template: Nullable(Type.String()),
  issue_branch_template: Nullable(Type.String()),
  warn_about_potentially_unwanted_characters: Type.Boolean(),
  autoclose_referenced_issues: Type.Boolean(),
  mr_default_target_self: Type.Boolean(),
  approvals_before_merge: Type.Integer(),
  mirror: Type.Boolean(),
  external_authorization_classification_label: Type.String(),
  requirements_enabled: Type.Boolean(),
  security_and_compliance_enabled: Type.Boolean(),
  compliance_frameworks: Type.Array(Type.String()),
  marked_for_deletion_at: Nullable(IsoDate),
  marked_for_deletion_on: Nullable(IsoDate),
  repository_storage: Type.Optional(Type.String()),
  statistics: Type.Optional(ProjectStatistics),
  permissions: Type.Optional(Entity({ project_access: MemberAccess, group_access: MemberAccess })),
  runners_token: Type.Optional(Type.String()),
})
export type Project = Static<typeof Project>

/** A project in a list: the full entity for signed-in callers, the basic one for anonymous or `simple` lists. */
export const ProjectListItem = Type.Union([Project, ProjectSimple])
export type ProjectListItem = Static<typeof ProjectListItem>

/** `POST /projects/:id/share`: the new link between the project and the group. */
export const ProjectGroupLink = Entity({
  id: Type.Integer(),
  project_id: Type.Integer(),
  group_id: Type.Integer(),
  group_access: AccessLevelValue,
  expires_at: Nullable(Type.String()),
})
export type ProjectGroupLink = Static<typeof ProjectGroupLink>
