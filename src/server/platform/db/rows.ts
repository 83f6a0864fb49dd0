/** Row shapes of the core tables, as better-sqlite3 returns them. */

export type Visibility = 'private' | 'internal' | 'public'

export interface UserRow {
  readonly id: number
  readonly username: string
  readonly name: string
  readonly email: string
  readonly password_hash: string | null
  readonly password_reset_digest: string | null
  readonly state: string
  readonly is_admin: number
  readonly is_auditor: number
  readonly user_type: string
  readonly external: number
  readonly bio: string
  readonly location: string
  readonly public_email: string
  readonly skype: string
  readonly linkedin: string
  readonly twitter: string
  readonly discord: string
  readonly website_url: string
  readonly organization: string
  readonly job_title: string
  readonly pronouns: string | null
  readonly note: string | null
  readonly avatar_url: string | null
  readonly private_profile: number
  readonly projects_limit: number
  readonly can_create_group: number
  readonly theme_id: number
  readonly color_scheme_id: number
  readonly two_factor_enabled: number
  readonly commit_email: string | null
  readonly view_diffs_file_by_file: number
  readonly shared_runners_minutes_limit: number | null
  readonly extra_shared_runners_minutes_limit: number | null
  readonly provisioned_by_group_id: number | null
  readonly confirmed_at: string | null
  readonly last_sign_in_at: string | null
  readonly current_sign_in_at: string | null
  readonly last_sign_in_ip: string | null
  readonly current_sign_in_ip: string | null
  readonly sign_in_count: number
  readonly last_activity_on: string | null
  /** Wrong passwords since the last right one or unlock (Devise lockable). */
  readonly failed_attempts: number
  /** While in the future, password sign-in is refused. */
  readonly locked_until: string | null
  readonly created_at: string
  readonly updated_at: string
}

export interface NamespaceRow {
  readonly id: number
  readonly kind: 'user' | 'group'
  readonly name: string
  readonly path: string
  readonly full_path: string
  readonly full_name: string
  readonly parent_id: number | null
  readonly owner_id: number | null
  readonly visibility: Visibility
  readonly description: string
  readonly avatar_url: string | null
  readonly request_access_enabled: number
  readonly repository_storage: string
  /** JSON object of the remaining group settings. */
  readonly settings: string
  readonly created_at: string
  readonly updated_at: string
}

export interface ProjectRow {
  readonly id: number
  readonly namespace_id: number
  readonly name: string
  readonly path: string
  readonly description: string | null
  readonly visibility: Visibility
  readonly default_branch: string | null
  readonly creator_id: number | null
  readonly archived: number
  readonly repository_storage: string
  readonly repository_read_only: number
  /** JSON array of strings. */
  readonly topics: string
  readonly request_access_enabled: number
  readonly star_count: number
  readonly forks_count: number
  /** JSON object of the remaining project settings (feature access levels, merge options…). */
  readonly settings: string
  readonly created_at: string
  readonly updated_at: string
  readonly last_activity_at: string
}

export type MemberSourceType = 'Project' | 'Namespace'

export interface MemberRow {
  readonly id: number
  readonly source_type: MemberSourceType
  readonly source_id: number
  readonly user_id: number
  readonly access_level: number
  readonly expires_at: string | null
  readonly created_by_id: number | null
  readonly created_at: string
  readonly updated_at: string
}

export interface PersonalAccessTokenRow {
  readonly id: number
  readonly user_id: number
  readonly name: string
  readonly description: string | null
  readonly token_digest: string
  /** JSON array of scope names. */
  readonly scopes: string
  readonly impersonation: number
  readonly revoked: number
  readonly expires_at: string | null
  readonly last_used_at: string | null
  readonly created_at: string
}

export interface OAuthTokenRow {
  readonly id: number
  readonly user_id: number
  readonly token_digest: string
  readonly refresh_digest: string | null
  readonly scopes: string
  readonly expires_in: number
  readonly revoked_at: string | null
  readonly created_at: string
}
