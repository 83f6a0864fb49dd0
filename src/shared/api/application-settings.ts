/**
 * Instance application settings (`GET`/`PUT /application/settings`, administrators): the settings
 * Burrow Server honours, under GitLab's names.
 */
import { Type, type Static } from 'typebox'
import { Entity, Visibility } from './common'

export const ApplicationSettings = Entity({
  id: Type.Integer(),
  impersonation_enabled: Type.Boolean(),
  signup_enabled: Type.Boolean(),
  epics_enabled: Type.Boolean(),
  pages_enabled: Type.Boolean(),
  default_project_visibility: Visibility,
  default_group_visibility: Visibility,
  default_projects_limit: Type.Integer(),
  default_branch_name: Type.String(),
  throttle_authenticated_api_requests_per_period: Type.Integer(),
  throttle_authenticated_api_period_in_seconds: Type.Integer(),
  throttle_unauthenticated_api_requests_per_period: Type.Integer(),
  throttle_unauthenticated_api_period_in_seconds: Type.Integer(),
  max_login_attempts: Type.Integer(),
  failed_login_attempts_unlock_period_in_minutes: Type.Integer(),
  project_download_export_limit: Type.Integer(),
  repository_archive_requests_per_minute: Type.Integer(),
  max_attachment_size: Type.Integer(),
  diff_max_patch_bytes: Type.Integer(),
  diff_max_files: Type.Integer(),
  diff_max_lines: Type.Integer(),
  allow_local_requests_from_web_hooks_and_services: Type.Boolean(),
  allow_local_requests_from_system_hooks: Type.Boolean(),
  outbound_local_requests_whitelist: Type.Array(Type.String()),
  geo_node_name: Type.String(),
  max_alert_payload_bytes: Type.Integer(),
  runners_registration_token: Type.String(),
})
export type ApplicationSettings = Static<typeof ApplicationSettings>
