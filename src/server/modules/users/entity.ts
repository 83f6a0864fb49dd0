import { isAccessLocked } from '../../platform/auth/password'
import type {
  CustomAttribute,
  UserAdmin,
  UserBasic,
  UserPublic,
  UserRef,
  UserSelf,
  UserStatus,
} from '../../../shared/api/user'
import type { UserRow } from '../../platform/db/rows'

export type { UserRef }

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

/** The custom attributes an administrator asked for, or undefined (left out) when none did. */
function customAttributesOf(extras: UserExtras): CustomAttribute[] | undefined {
  return extras.customAttributes?.map((a) => ({ key: a.key, value: a.value }))
}

/** UserBasic, plus custom_attributes when an administrator asked for them. */
export function userBasic(user: UserRow, baseUrl: string, extras: UserExtras = {}): UserBasic {
  const custom = customAttributesOf(extras)
  return custom ? { ...userRef(user, baseUrl), custom_attributes: custom } : userRef(user, baseUrl)
}

function workInformation(user: UserRow): string | null {
  if (user.job_title && user.organization) return `${user.job_title} at ${user.organization}`
  return user.job_title || user.organization || null
}

/**
 * GitLab's User entity, the public single-get view: UserBasic plus the profile fields. created_at,
 * followers and following are left out (undefined) when the profile is private to the viewer.
 */
export function userPublic(user: UserRow, baseUrl: string, extras: UserExtras = {}): UserPublic {
  const canRead = extras.canReadProfile ?? true
  // userRef's fields written out: see userSelf.
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    locked: isAccessLocked(user),
    avatar_url: avatarUrl(user.avatar_url, baseUrl),
    web_url: userWebUrl(baseUrl, user.username),
    created_at: canRead ? user.created_at : undefined,
    ...profileOf(user),
    followers: canRead ? (extras.followers ?? 0) : undefined,
    following: canRead ? (extras.following ?? 0) : undefined,
    is_followed: canRead ? extras.isFollowed : undefined,
    custom_attributes: customAttributesOf(extras),
  }
}

/** The profile fields of the single views: the public view but for UserBasic's fields and the follow counters. */
type UserProfile = Omit<UserPublic, keyof UserBasic | 'created_at' | 'followers' | 'following' | 'is_followed'>

/** The profile fields every single view of a user shows. */
function profileOf(user: UserRow): UserProfile {
  return {
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
    local_time: null,
  }
}

/** The self view (`GET /user`, GitLab's UserPublic): the public view plus the account's own settings. */
export function userSelf(user: UserRow, baseUrl: string, extras: UserExtras = {}): UserSelf {
  // Written out, not spread from userRef: a spread at the head of a literal gives nearly every object V8 builds from
  // it a hidden class of its own, and each field added after it a new one (building one took ~1 ms, and the admin
  // view's list of 100 users 57 ms). Spreads after a written field share their classes.
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    locked: isAccessLocked(user),
    avatar_url: avatarUrl(user.avatar_url, baseUrl),
    web_url: userWebUrl(baseUrl, user.username),
    created_at: user.created_at,
    ...profileOf(user),
    ...accountOf(user, extras),
  }
}

/** The fields the self view adds to the profile: the follow counters and the account's own settings. */
type UserAccount = Omit<UserSelf, keyof UserRef | 'created_at' | keyof UserProfile>

/** The fields the self and administrator views add to the profile. */
function accountOf(user: UserRow, extras: UserExtras): UserAccount {
  return {
    followers: extras.followers ?? 0,
    following: extras.following ?? 0,
    is_followed: extras.isFollowed,
    custom_attributes: customAttributesOf(extras),
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
  }
}

/** The administrator view (UserDetailsWithAdmin): the self view plus admin-only fields. */
export function userAdmin(user: UserRow, baseUrl: string, extras: UserExtras = {}): UserAdmin {
  // userSelf's fields written out: see userSelf.
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    locked: isAccessLocked(user),
    avatar_url: avatarUrl(user.avatar_url, baseUrl),
    web_url: userWebUrl(baseUrl, user.username),
    created_at: user.created_at,
    ...profileOf(user),
    ...accountOf(user, extras),
    is_admin: user.is_admin === 1,
    note: user.note,
    namespace_id: extras.namespaceId ?? null,
    created_by: null,
    email_reset_offered_at: null,
    current_sign_in_ip: user.current_sign_in_ip,
    last_sign_in_ip: user.last_sign_in_ip,
    sign_in_count: user.sign_in_count,
    is_auditor: user.is_auditor === 1,
    using_license_seat: user.user_type === 'human' && user.state === 'active',
    provisioned_by_group_id: user.provisioned_by_group_id,
    plan: null,
    trial: false,
  }
}

/** The status of a user who has set none (Burrow keeps no statuses). */
export function emptyUserStatus(): UserStatus {
  return { emoji: null, availability: 'not_set', message: null, message_html: '', clear_status_at: null }
}
