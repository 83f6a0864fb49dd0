import type { ErrorTrackingClientKey, ErrorTrackingSettings } from '../../../shared/api/error-tracking'
import type { ClientKeyRow, ErrorTrackingSettingRow } from './queries'

/**
 * GitLab's ErrorTracking::ProjectSetting entity. The spec calls the external URL
 * `tracker_external_url`; GitLab and its clients say `sentry_external_url`: both are shown.
 * The integrated tracker has no external Sentry, so both are null here.
 */
export function errorTrackingSettingEntity(s: ErrorTrackingSettingRow): ErrorTrackingSettings {
  const external = s.api_url ? s.api_url.replace(/\/api\/0\/projects\/.*$/, '') : null
  return {
    active: s.enabled === 1,
    project_name: s.project_name,
    sentry_external_url: external,
    tracker_external_url: external,
    api_url: s.api_url,
    integrated: s.integrated === 1,
  }
}

/**
 * The DSN an error tracker client (a Sentry SDK) is configured with:
 * `http(s)://<public_key>@<host>/api/v4/error_tracking/collector/<project_id>`.
 */
export function trackerDsn(baseUrl: string, key: ClientKeyRow): string {
  const url = new URL(baseUrl)
  const path = url.pathname.replace(/\/+$/, '')
  return `${url.protocol}//${key.public_key}@${url.host}${path}/api/v4/error_tracking/collector/${key.project_id}`
}

/** GitLab's ErrorTracking::ClientKey entity, with the DSN under GitLab's and the spec's names. */
export function clientKeyEntity(baseUrl: string, key: ClientKeyRow): ErrorTrackingClientKey {
  const dsn = trackerDsn(baseUrl, key)
  return { id: key.id, active: key.active === 1, public_key: key.public_key, sentry_dsn: dsn, tracker_dsn: dsn }
}
