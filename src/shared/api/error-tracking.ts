/**
 * Error tracking: a project's settings and its client keys.
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable } from './common'

/**
 * GitLab's ErrorTracking::ProjectSetting. The external URL appears under GitLab's
 * `sentry_external_url` and the spec's `tracker_external_url`; both null for the integrated tracker.
 */
export const ErrorTrackingSettings = Entity({
  active: Type.Boolean(),
  project_name: Nullable(Type.String()),
  sentry_external_url: Nullable(Type.String()),
  tracker_external_url: Nullable(Type.String()),
  api_url: Nullable(Type.String()),
  integrated: Type.Boolean(),
})
export type ErrorTrackingSettings = Static<typeof ErrorTrackingSettings>

/** GitLab's ErrorTracking::ClientKey, with the DSN under GitLab's and the spec's names. */
export const ErrorTrackingClientKey = Entity({
  id: Type.Integer(),
  active: Type.Boolean(),
  public_key: Type.String(),
  sentry_dsn: Type.String(),
  tracker_dsn: Type.String(),
})
export type ErrorTrackingClientKey = Static<typeof ErrorTrackingClientKey>
