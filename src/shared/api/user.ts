/**
 * Users (spec "User", `user_ref`): the basic shape embedded everywhere, the public single view, the
 * signed-in user's own view and the administrators' view, plus statuses, memberships and starrers.
 */
import { Type, type Static } from 'typebox'
import { AccessLevelValue, Entity, IsoDate, Nullable, Timestamp } from './common'

/** The fields of `user_ref` (GitLab's UserBasic), spread into every view that extends it. */
const userRefFields = {
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  /** `active`, `blocked`, `deactivated`, `banned`, `ldap_blocked`, `blocked_pending_approval`. */
  state: Type.String(),
  /** Password sign-in is locked after too many wrong passwords. */
  locked: Type.Boolean(),
  avatar_url: Nullable(Type.String()),
  web_url: Type.String(),
}

/** `user_ref`: authors, assignees, reviewers, members… */
export const UserRef = Entity(userRefFields)
export type UserRef = Static<typeof UserRef>

/** The part of `user_ref` the app shows, and writes itself for the author of what it makes offline. */
export type UserSummary = Readonly<Pick<UserRef, 'id' | 'username' | 'name' | 'avatar_url'>>

/** A custom attribute administrators set on users (`with_custom_attributes=true`). */
export const CustomAttribute = Entity({ key: Type.String(), value: Type.String() })
export type CustomAttribute = Static<typeof CustomAttribute>

/** `GET /users` for non-administrators: UserBasic, with custom attributes when asked by an administrator. */
export const UserBasic = Entity({ ...userRefFields, custom_attributes: Type.Optional(Type.Array(CustomAttribute)) })
export type UserBasic = Static<typeof UserBasic>

/** The profile fields of the single views. */
const profileFields = {
  bio: Type.String(),
  location: Type.String(),
  public_email: Nullable(Type.String()),
  skype: Type.String(),
  linkedin: Type.String(),
  twitter: Type.String(),
  discord: Type.String(),
  website_url: Type.String(),
  organization: Type.String(),
  job_title: Type.String(),
  pronouns: Nullable(Type.String()),
  bot: Type.Boolean(),
  /** `job_title at organization`, either alone, or null. */
  work_information: Nullable(Type.String()),
  local_time: Nullable(Type.String()),
}

/**
 * `GET /users/:id` for non-administrators (GitLab's User entity). `created_at`, `followers` and
 * `following` are left out when the profile is private to the viewer; `is_followed` is given to
 * signed-in viewers.
 */
export const UserPublic = Entity({
  ...userRefFields,
  created_at: Type.Optional(Timestamp),
  ...profileFields,
  followers: Type.Optional(Type.Integer()),
  following: Type.Optional(Type.Integer()),
  is_followed: Type.Optional(Type.Boolean()),
  custom_attributes: Type.Optional(Type.Array(CustomAttribute)),
})
export type UserPublic = Static<typeof UserPublic>

/** An external identity of a user (SAML, LDAP…). */
export const UserIdentity = Entity({
  provider: Type.String(),
  extern_uid: Type.String(),
  saml_provider_id: Nullable(Type.Integer()),
})

/** A SCIM identity (GitLab.com group provisioning); Burrow Server has none. */
export const ScimIdentity = Entity({ extern_uid: Type.String(), group_id: Type.Integer(), active: Type.Boolean() })

/** The account's own settings, shown to the user and to administrators. */
const accountFields = {
  ...userRefFields,
  created_at: Timestamp,
  ...profileFields,
  followers: Type.Integer(),
  following: Type.Integer(),
  is_followed: Type.Optional(Type.Boolean()),
  custom_attributes: Type.Optional(Type.Array(CustomAttribute)),
  last_sign_in_at: Nullable(Timestamp),
  confirmed_at: Nullable(Timestamp),
  last_activity_on: Nullable(IsoDate),
  email: Type.String(),
  theme_id: Type.Integer(),
  color_scheme_id: Type.Integer(),
  projects_limit: Type.Integer(),
  current_sign_in_at: Nullable(Timestamp),
  identities: Type.Array(UserIdentity),
  can_create_group: Type.Boolean(),
  can_create_project: Type.Boolean(),
  two_factor_enabled: Type.Boolean(),
  external: Type.Boolean(),
  private_profile: Type.Boolean(),
  commit_email: Type.String(),
  shared_runners_minutes_limit: Nullable(Type.Integer()),
  extra_shared_runners_minutes_limit: Nullable(Type.Integer()),
  scim_identities: Type.Array(ScimIdentity),
}

/** `GET /user` for a non-administrator (GitLab's UserPublic): the public view and the account's settings. */
export const UserSelf = Entity(accountFields)
export type UserSelf = Static<typeof UserSelf>

/** The administrators' view of any user (GitLab's UserDetailsWithAdmin): the self view and admin-only fields. */
export const UserAdmin = Entity({
  ...accountFields,
  is_admin: Type.Boolean(),
  note: Nullable(Type.String()),
  namespace_id: Nullable(Type.Integer()),
  created_by: Nullable(UserRef),
  email_reset_offered_at: Nullable(Timestamp),
  current_sign_in_ip: Nullable(Type.String()),
  last_sign_in_ip: Nullable(Type.String()),
  sign_in_count: Type.Integer(),
  is_auditor: Type.Boolean(),
  using_license_seat: Type.Boolean(),
  provisioned_by_group_id: Nullable(Type.Integer()),
  plan: Nullable(Type.String()),
  trial: Type.Boolean(),
})
export type UserAdmin = Static<typeof UserAdmin>

/** `GET /user`: the administrator view for administrators, the self view for everyone else. */
export const User = Type.Union([UserAdmin, UserSelf])
export type User = Static<typeof User>

/** `POST /users/:id/block`, `unblock`, `activate`, `deactivate`, `unlock`: GitLab answers `true`. */
export const UserStateChanged = Type.Literal(true)
export type UserStateChanged = Static<typeof UserStateChanged>

/** `GET /user/status`, `GET /users/:id/status`. */
export const UserStatus = Entity({
  emoji: Nullable(Type.String()),
  availability: Type.String(),
  message: Nullable(Type.String()),
  message_html: Type.String(),
  clear_status_at: Nullable(Timestamp),
})
export type UserStatus = Static<typeof UserStatus>

/** `GET /users/:id/memberships`: a direct membership of a project or group (GitLab's Membership). */
export const UserMembership = Entity({
  source_id: Type.Integer(),
  source_name: Type.String(),
  source_type: Type.Enum(['Project', 'Namespace']),
  access_level: AccessLevelValue,
})
export type UserMembership = Static<typeof UserMembership>

/** `GET /projects/:id/starrers`. */
export const Starrer = Entity({ starred_since: Timestamp, user: UserRef })
export type Starrer = Static<typeof Starrer>
