import type { SecretBox } from './auth/encryption'
import type { Db } from './db/connection'
import { settingRows, storeSetting } from './db/platform-queries'

/** Instance-wide application settings with their defaults (GitLab's `application_settings`). */
export const DEFAULT_SETTINGS = {
  /** Impersonation tokens work only while this is on. */
  impersonation_enabled: true,
  signup_enabled: true,
  /** Epics endpoints answer 403 when off. */
  epics_enabled: true,
  pages_enabled: true,
  default_project_visibility: 'private',
  default_group_visibility: 'private',
  default_projects_limit: 100000,
  default_branch_name: 'main',
  /** Authenticated API requests per user per period; 0 turns rate limiting off. */
  throttle_authenticated_api_requests_per_period: 0,
  throttle_authenticated_api_period_in_seconds: 60,
  /** Unauthenticated API requests per IP per period; 0 turns it off. */
  throttle_unauthenticated_api_requests_per_period: 0,
  throttle_unauthenticated_api_period_in_seconds: 60,
  /** Wrong passwords that lock an account (GitLab's Devise lockable maximum_attempts). */
  max_login_attempts: 10,
  /** How long a locked account stays locked unless an administrator unlocks it. */
  failed_login_attempts_unlock_period_in_minutes: 10,
  /** Repository archive downloads per user per minute; GitLab.com uses 5; 0 is unlimited. */
  project_download_export_limit: 0,
  repository_archive_requests_per_minute: 0,
  max_attachment_size: 100,
  diff_max_patch_bytes: 204800,
  diff_max_files: 1000,
  diff_max_lines: 50000,
  /** Imports, integrations and webhooks may reach loopback and private networks (off, as in GitLab; see http/outbound.ts). */
  allow_local_requests_from_web_hooks_and_services: false,
  /** System hooks may (on, as in GitLab). */
  allow_local_requests_from_system_hooks: true,
  /** Hosts, addresses and ranges outbound requests may reach although local (GitLab's name). */
  outbound_local_requests_whitelist: [] as readonly string[],
  /** This instance's replication node name (GitLab's `geo_node_name`); empty: its external URL. */
  geo_node_name: '',
  /** Alert payload limit in bytes (GitLab's application JSON limit). */
  max_alert_payload_bytes: 1048576,
  /** Instance runner registration token (`POST /runners`); generated on first start. */
  runners_registration_token: '',
} as const

export type SettingKey = keyof typeof DEFAULT_SETTINGS
export type SettingValue = string | number | boolean | readonly string[]
type SettingType<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean
      ? boolean
      : readonly string[]
export type SettingsSnapshot = { -readonly [K in SettingKey]: SettingType<(typeof DEFAULT_SETTINGS)[K]> }

/** Settings that are secrets: stored sealed with the instance key, as GitLab's `*_encrypted` columns. */
const SECRET_SETTINGS: ReadonlySet<string> = new Set<SettingKey>(['runners_registration_token'])

/**
 * Application settings persisted in the `settings` table, cached in memory. Secret settings are
 * sealed with `secrets` in the table and plain in the cache.
 */
export class Settings {
  private cache: SettingsSnapshot

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
    overrides: Partial<Record<SettingKey, SettingValue>> = {},
  ) {
    this.cache = { ...DEFAULT_SETTINGS } as SettingsSnapshot
    for (const row of settingRows(db)) {
      if (row.key in DEFAULT_SETTINGS)
        (this.cache as Record<string, SettingValue>)[row.key] = this.fromStored(
          row.key,
          JSON.parse(row.value) as SettingValue,
        )
    }
    for (const [key, value] of Object.entries(overrides))
      (this.cache as Record<string, SettingValue>)[key] = value as SettingValue
  }

  get<K extends SettingKey>(key: K): SettingsSnapshot[K] {
    return this.cache[key]
  }

  all(): Readonly<SettingsSnapshot> {
    return this.cache
  }

  /** Persists the given settings (unknown keys are ignored) and returns the full set. */
  update(values: Partial<Record<string, SettingValue>>): Readonly<SettingsSnapshot> {
    this.db.transaction(() => {
      for (const [key, value] of Object.entries(values)) {
        if (!(key in DEFAULT_SETTINGS) || value === undefined) continue
        storeSetting(this.db, key, JSON.stringify(this.toStored(key, value)))
        ;(this.cache as Record<string, SettingValue>)[key] = value
      }
    })()
    return this.cache
  }

  /** A secret setting's non-empty string sealed; any other value as it is. */
  private toStored(key: string, value: SettingValue): SettingValue {
    return SECRET_SETTINGS.has(key) && typeof value === 'string' && value !== '' ? this.secrets.seal(value) : value
  }

  private fromStored(key: string, value: SettingValue): SettingValue {
    return SECRET_SETTINGS.has(key) && typeof value === 'string' && value !== '' ? this.secrets.open(value) : value
  }
}
