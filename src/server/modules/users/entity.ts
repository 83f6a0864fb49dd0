import { isAccessLocked } from '../../platform/auth/password'
import type { UserStatus } from '../../../shared/api/user'
import type { UserRow } from '../../platform/db/rows'

/** `user_ref`: the basic user shape embedded everywhere (authors, assignees, members). */
export interface UserRef {
  readonly id: number
  readonly username: string
  readonly name: string
  readonly state: string
  readonly locked: boolean
  readonly avatar_url: string | null
  readonly web_url: string
}

export function userWebUrl(baseUrl: string, username: string): string {
  return `${baseUrl}/${username}`
}

/** An uploaded avatar is stored as a path under the server (`/uploads/…`); other values are URLs already. */
export function avatarUrl(stored: string | null, baseUrl: string): string | null {
  return stored !== null && stored.startsWith('/') ? `${baseUrl}${stored}` : stored
}

/** The columns `userRef` reads, so lists can load just these. */
export type UserRefRow = Pick<UserRow, 'id' | 'username' | 'name' | 'state' | 'avatar_url' | 'locked_until'>

/** Column list of `UserRefRow` for SELECTs. */
export const USER_REF_COLUMNS = 'id, username, name, state, avatar_url, locked_until'

/** GitLab's UserBasic entity. */
export function userRef(user: UserRefRow, baseUrl: string): UserRef {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    locked: isAccessLocked(user),
    avatar_url: avatarUrl(user.avatar_url, baseUrl),
    web_url: userWebUrl(baseUrl, user.username),
  }
}

/** A user_ref for rows that may have been deleted (null stays null). */
export function userRefOrNull(user: UserRow | undefined | null, baseUrl: string): UserRef | null {
  return user ? userRef(user, baseUrl) : null
}

/** What the single-get and self views need beyond the row, loaded by the caller in bulk or once. */
export interface UserExtras {
  readonly identities?: readonly {
    readonly provider: string
    readonly extern_uid: string
    readonly saml_provider_id: number | null
  }[]
  readonly customAttributes?: readonly { readonly key: string; readonly value: string }[]
  readonly followers?: number
  readonly following?: number
  /** Whether the viewer follows this user; undefined for anonymous viewers. */
  readonly isFollowed?: boolean
  /** The viewer may see the profile (not private, or the viewer is the user or an administrator). */
  readonly canReadProfile?: boolean
  readonly namespaceId?: number | null
}

function withCustomAttributes<T extends object>(entity: T, extras: UserExtras): T {
  if (!extras.customAttributes) return entity
  return { ...entity, custom_attributes: extras.customAttributes.map((a) => ({ key: a.key, value: a.value })) }
}

/** UserBasic, plus custom_attributes when an administrator asked for them. */
export function userBasic(user: UserRow, baseUrl: string, extras: UserExtras = {}): Readonly<Record<string, unknown>> {
  return withCustomAttributes({ ...userRef(user, baseUrl) }, extras)
}

function workInformation(user: UserRow): string | null {
  if (user.job_title && user.organization) return `${user.job_title} at ${user.organization}`
  return user.job_title || user.organization || null
}

/**
 * GitLab's User entity, the public single-get view: UserBasic plus the profile fields. created_at,
 * followers and following are left out when the profile is private to the viewer.
 */
export function userPublic(user: UserRow, baseUrl: string, extras: UserExtras = {}): Readonly<Record<string, unknown>> {
  const canRead = extras.canReadProfile ?? true
  const out: Record<string, unknown> = { ...userRef(user, baseUrl) }
  if (canRead) out.created_at = user.created_at
  Object.assign(out, {
    bio: user.bio,
    location: user.location,
    public_email: user.public_email === '' ? null : user.public_email,
    skype: user.skype,
    linkedin: user.linkedin,
    twitter: user.twitter,
    discord: user.discord,
    website_url: user.website_url,
    organization: user.organization,
    job_title: user.job_title,
    pronouns: user.pronouns,
    bot: user.user_type !== 'human',
    work_information: workInformation(user),
  })
  if (canRead) {
    out.followers = extras.followers ?? 0
    out.following = extras.following ?? 0
    if (extras.isFollowed !== undefined) out.is_followed = extras.isFollowed
  }
  out.local_time = null
  return withCustomAttributes(out, extras)
}

/**
 * The self view and, with `admin`, the administrator view, built as one object literal: the
 * spread-and-extend chain it replaces produced dictionary-mode objects that were slow to build
 * and to serialise on admin user lists. Keys a view lacks are `undefined`, which JSON omits.
 */
function userDetails(
  user: UserRow,
  baseUrl: string,
  extras: UserExtras,
  admin: boolean,
): Readonly<Record<string, unknown>> {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    locked: isAccessLocked(user),
    avatar_url: avatarUrl(user.avatar_url, baseUrl),
    web_url: userWebUrl(baseUrl, user.username),
    created_at: user.created_at,
    bio: user.bio,
    location: user.location,
    public_email: user.public_email === '' ? null : user.public_email,
    skype: user.skype,
    linkedin: user.linkedin,
    twitter: user.twitter,
    discord: user.discord,
    website_url: user.website_url,
    organization: user.organization,
    job_title: user.job_title,
    pronouns: user.pronouns,
    bot: user.user_type !== 'human',
    work_information: workInformation(user),
    followers: extras.followers ?? 0,
    following: extras.following ?? 0,
    is_followed: extras.isFollowed,
    local_time: null,
    custom_attributes: extras.customAttributes?.map((a) => ({ key: a.key, value: a.value })),
    last_sign_in_at: user.last_sign_in_at,
    confirmed_at: user.confirmed_at,
    last_activity_on: user.last_activity_on,
    email: user.email,
    theme_id: user.theme_id,
    color_scheme_id: user.color_scheme_id,
    projects_limit: user.projects_limit,
    current_sign_in_at: user.current_sign_in_at,
    identities: (extras.identities ?? []).map((i) => ({
      provider: i.provider,
      extern_uid: i.extern_uid,
      saml_provider_id: i.saml_provider_id,
    })),
    can_create_group: user.can_create_group === 1,
    can_create_project: user.projects_limit > 0,
    two_factor_enabled: user.two_factor_enabled === 1,
    external: user.external === 1,
    private_profile: user.private_profile === 1,
    commit_email: user.commit_email ?? user.email,
    shared_runners_minutes_limit: user.shared_runners_minutes_limit,
    extra_shared_runners_minutes_limit: user.extra_shared_runners_minutes_limit,
    scim_identities: [],
    is_admin: admin ? user.is_admin === 1 : undefined,
    note: admin ? user.note : undefined,
    namespace_id: admin ? (extras.namespaceId ?? null) : undefined,
    created_by: admin ? null : undefined,
    email_reset_offered_at: admin ? null : undefined,
    current_sign_in_ip: admin ? user.current_sign_in_ip : undefined,
    last_sign_in_ip: admin ? user.last_sign_in_ip : undefined,
    sign_in_count: admin ? user.sign_in_count : undefined,
    is_auditor: admin ? user.is_auditor === 1 : undefined,
    using_license_seat: admin ? user.user_type === 'human' && user.state === 'active' : undefined,
    provisioned_by_group_id: admin ? user.provisioned_by_group_id : undefined,
    plan: admin ? null : undefined,
    trial: admin ? false : undefined,
  }
}

/** The self view (`GET /user`, GitLab's UserPublic): the public view plus the account's own settings. */
export function userSelf(user: UserRow, baseUrl: string, extras: UserExtras = {}): Readonly<Record<string, unknown>> {
  return userDetails(user, baseUrl, extras, false)
}

/** The administrator view (UserDetailsWithAdmin): the self view plus admin-only fields. */
export function userAdmin(user: UserRow, baseUrl: string, extras: UserExtras = {}): Readonly<Record<string, unknown>> {
  return userDetails(user, baseUrl, extras, true)
}

/** The status of a user who has set none (Burrow keeps no statuses). */
export function emptyUserStatus(): UserStatus {
  return { emoji: null, availability: 'not_set', message: null, message_html: '', clear_status_at: null }
}
