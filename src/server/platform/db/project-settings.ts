// What `projects.settings` (a JSON object of the settings a project changed) means, with GitLab's
// defaults for the rest: the platform's code-access rule reads it, and the projects module shows
// and writes it (re-exported from modules/projects/entity.ts).

/** Who may use a project feature (`public` is for Pages only). */
export type FeatureAccessLevel = 'disabled' | 'private' | 'enabled' | 'public'

/** The feature access levels GitLab keeps per project. */
export interface FeatureAccessSettings {
  readonly issues_access_level: FeatureAccessLevel
  readonly repository_access_level: FeatureAccessLevel
  readonly merge_requests_access_level: FeatureAccessLevel
  readonly forking_access_level: FeatureAccessLevel
  readonly wiki_access_level: FeatureAccessLevel
  readonly builds_access_level: FeatureAccessLevel
  readonly snippets_access_level: FeatureAccessLevel
  readonly pages_access_level: FeatureAccessLevel
  readonly analytics_access_level: FeatureAccessLevel
  readonly container_registry_access_level: FeatureAccessLevel
  readonly security_and_compliance_access_level: FeatureAccessLevel
  readonly releases_access_level: FeatureAccessLevel
  readonly environments_access_level: FeatureAccessLevel
  readonly feature_flags_access_level: FeatureAccessLevel
  readonly infrastructure_access_level: FeatureAccessLevel
  readonly monitor_access_level: FeatureAccessLevel
  readonly requirements_access_level: FeatureAccessLevel
  readonly model_experiments_access_level: FeatureAccessLevel
  readonly model_registry_access_level: FeatureAccessLevel
}

/** Feature access levels GitLab keeps per project, with their defaults. */
export const FEATURE_ACCESS_DEFAULTS: FeatureAccessSettings = {
  issues_access_level: 'enabled',
  repository_access_level: 'enabled',
  merge_requests_access_level: 'enabled',
  forking_access_level: 'enabled',
  wiki_access_level: 'enabled',
  builds_access_level: 'enabled',
  snippets_access_level: 'enabled',
  pages_access_level: 'private',
  analytics_access_level: 'enabled',
  container_registry_access_level: 'enabled',
  security_and_compliance_access_level: 'private',
  releases_access_level: 'enabled',
  environments_access_level: 'enabled',
  feature_flags_access_level: 'enabled',
  infrastructure_access_level: 'enabled',
  monitor_access_level: 'enabled',
  requirements_access_level: 'enabled',
  model_experiments_access_level: 'enabled',
  model_registry_access_level: 'enabled',
}

/** The other project settings with a default (merge options, CI/CD, imports…). */
export interface ProjectSettingValues {
  readonly merge_method: 'merge' | 'rebase_merge' | 'ff'
  readonly squash_option: 'never' | 'always' | 'default_on' | 'default_off'
  readonly only_allow_merge_if_pipeline_succeeds: boolean
  readonly allow_merge_on_skipped_pipeline: boolean | null
  readonly only_allow_merge_if_all_discussions_are_resolved: boolean
  readonly remove_source_branch_after_merge: boolean
  readonly printing_merge_request_link_enabled: boolean
  readonly resolve_outdated_diff_discussions: boolean
  readonly lfs_enabled: boolean
  readonly shared_runners_enabled: boolean
  readonly group_runners_enabled: boolean
  readonly emails_enabled: boolean
  readonly packages_enabled: boolean
  readonly service_desk_enabled: boolean
  readonly public_jobs: boolean
  readonly ci_config_path: string | null
  readonly ci_default_git_depth: number
  readonly ci_forward_deployment_enabled: boolean
  readonly build_timeout: number
  readonly auto_devops_enabled: boolean
  readonly auto_devops_deploy_strategy: 'continuous' | 'manual' | 'timed_incremental'
  readonly auto_cancel_pending_pipelines: 'enabled' | 'disabled'
  readonly build_git_strategy: 'fetch' | 'clone'
  readonly keep_latest_artifact: boolean
  readonly suggestion_commit_message: string | null
  readonly merge_commit_template: string | null
  readonly squash_commit_template: string | null
  readonly issue_branch_template: string | null
  readonly autoclose_referenced_issues: boolean
  readonly mr_default_target_self: boolean
  readonly enforce_auth_checks_on_uploads: boolean
  readonly restrict_user_defined_variables: boolean
  readonly warn_about_potentially_unwanted_characters: boolean
  readonly approvals_before_merge: number
  readonly external_authorization_classification_label: string
  readonly initialize_with_readme: boolean
  readonly import_url: string | null
  readonly avatar_url: string | null
  readonly mirror: boolean
  readonly ci_separated_caches: boolean
  readonly ci_job_token_scope_enabled: boolean
}

/**
 * A project's settings: those with a default typed (the project routes' body schemas and
 * `settingsEnumError` check what is stored), the others (an import's state, the README path the
 * repository keeps) as they were stored.
 */
export type ProjectSettings = FeatureAccessSettings & ProjectSettingValues & Readonly<Record<string, unknown>>

/** The other project settings kept in `projects.settings`, with GitLab's defaults for a new project. */
export const PROJECT_SETTING_DEFAULTS: ProjectSettingValues = {
  merge_method: 'merge',
  squash_option: 'default_off',
  only_allow_merge_if_pipeline_succeeds: false,
  allow_merge_on_skipped_pipeline: null,
  only_allow_merge_if_all_discussions_are_resolved: false,
  remove_source_branch_after_merge: true,
  printing_merge_request_link_enabled: true,
  resolve_outdated_diff_discussions: false,
  lfs_enabled: true,
  shared_runners_enabled: true,
  group_runners_enabled: true,
  emails_enabled: true,
  packages_enabled: true,
  service_desk_enabled: false,
  public_jobs: true,
  ci_config_path: null,
  ci_default_git_depth: 20,
  ci_forward_deployment_enabled: true,
  build_timeout: 3600,
  auto_devops_enabled: false,
  auto_devops_deploy_strategy: 'continuous',
  auto_cancel_pending_pipelines: 'enabled',
  build_git_strategy: 'fetch',
  keep_latest_artifact: true,
  suggestion_commit_message: null,
  merge_commit_template: null,
  squash_commit_template: null,
  issue_branch_template: null,
  autoclose_referenced_issues: true,
  mr_default_target_self: false,
  enforce_auth_checks_on_uploads: true,
  restrict_user_defined_variables: false,
  warn_about_potentially_unwanted_characters: true,
  approvals_before_merge: 0,
  external_authorization_classification_label: '',
  initialize_with_readme: false,
  import_url: null,
  avatar_url: null,
  mirror: false,
  ci_separated_caches: true,
  ci_job_token_scope_enabled: false,
}

/** Parsed `projects.settings` with defaults applied. */
export function projectSettings(raw: string): ProjectSettings {
  // Most projects share a handful of settings strings ('{}' above all); merging ~60 defaults
  // per row dominated list serialisation, so merged results are memoised by their source text.
  let merged = settingsCache.get(raw)
  if (!merged) {
    const stored = JSON.parse(raw) as Partial<FeatureAccessSettings & ProjectSettingValues> & Record<string, unknown>
    merged = Object.freeze({ ...FEATURE_ACCESS_DEFAULTS, ...PROJECT_SETTING_DEFAULTS, ...stored })
    if (settingsCache.size >= 2048) settingsCache.clear()
    settingsCache.set(raw, merged)
  }
  return merged
}

/** A setting that holds text (or null), as its own type: null when it is unset or not text. */
export function textSetting(settings: Readonly<Record<string, unknown>>, key: string): string | null {
  const value = settings[key]
  return typeof value === 'string' ? value : null
}

const settingsCache = new Map<string, ProjectSettings>()
