import { accessLevelName } from '../../platform/auth/access'
import type { AccessRequestRow, MemberWithUser, SourceNames } from './queries'
import type { MemberRow, UserRow } from '../../platform/db/rows'
import { userRef, type UserRef } from '../users'

/** GitLab's Member entity: the user's basic fields plus the membership. */
export interface MemberEntity extends UserRef {
  readonly access_level: number
  readonly created_at: string
  readonly created_by?: UserRef
  readonly expires_at: string | null
  readonly group_saml_identity: null
  readonly email?: string
  readonly membership_state: 'active'
}

/** Date part of a stored expiry (`YYYY-MM-DD`), as GitLab shows `expires_at` on members. */
function dateOnly(value: string | null): string | null {
  return value ? value.slice(0, 10) : null
}

/**
 * Serializes a membership. `created_by` is omitted when unknown (GitLab does not expose it as
 * null); `email` appears only for users who made an email public.
 */
export function memberEntity(
  row: MemberWithUser,
  creators: ReadonlyMap<number, UserRow>,
  baseUrl: string,
): MemberEntity {
  const creator = row.member.created_by_id !== null ? creators.get(row.member.created_by_id) : undefined
  const user = userRef(row.user, baseUrl)
  // One literal, the optional fields undefined when absent (the serializer leaves them out): with userRef and the
  // optional fields spread in, nearly every member of a page had its own hidden class, and a page of 1,000 took 5x as long.
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    locked: user.locked,
    avatar_url: user.avatar_url,
    web_url: user.web_url,
    access_level: row.member.access_level,
    created_at: row.member.created_at,
    created_by: creator ? userRef(creator, baseUrl) : undefined,
    expires_at: dateOnly(row.member.expires_at),
    group_saml_identity: null,
    email: row.user.public_email || undefined,
    membership_state: 'active',
  }
}

/** GitLab's AccessRequester entity. */
export interface AccessRequestEntity extends UserRef {
  readonly created_at: string
  readonly requested_at: string
}

export function accessRequestEntity(user: UserRow, request: AccessRequestRow, baseUrl: string): AccessRequestEntity {
  return { ...userRef(user, baseUrl), created_at: request.created_at, requested_at: request.requested_at }
}

/** GitLab's BillableMember entity. */
export interface BillableMemberEntity extends UserRef {
  readonly email: string | null
  readonly last_activity_on: string | null
  readonly membership_type: 'group_member' | 'group_invite'
  readonly removable: boolean
  readonly created_at: string
  readonly last_login_at: string | null
}

/** Direct members of the hierarchy are removable; users only reached through a share are not. */
export function billableMemberEntity(user: UserRow, direct: boolean, baseUrl: string): BillableMemberEntity {
  return {
    ...userRef(user, baseUrl),
    email: user.public_email || null,
    last_activity_on: user.last_activity_on,
    membership_type: direct ? 'group_member' : 'group_invite',
    removable: direct,
    created_at: user.created_at,
    last_login_at: user.current_sign_in_at,
  }
}

/** GitLab's BillableMembership entity: one direct membership inside the group hierarchy. */
export interface BillableMembershipEntity {
  readonly id: number
  readonly source_id: number
  readonly source_full_name: string
  readonly source_members_url: string
  readonly created_at: string
  readonly expires_at: string | null
  readonly access_level: { readonly string_value: string; readonly integer_value: number }
}

/** Web page listing the members of a group or project. */
export function sourceMembersUrl(baseUrl: string, row: Pick<MemberRow, 'source_type'>, names: SourceNames): string {
  return row.source_type === 'Namespace'
    ? `${baseUrl}/groups/${names.full_path}/-/group_members`
    : `${baseUrl}/${names.full_path}/-/project_members`
}

export function billableMembershipEntity(
  row: MemberRow,
  names: SourceNames | undefined,
  baseUrl: string,
): BillableMembershipEntity {
  return {
    id: row.id,
    source_id: row.source_id,
    source_full_name: names?.full_name ?? '',
    source_members_url: names ? sourceMembersUrl(baseUrl, row, names) : '',
    created_at: row.created_at,
    expires_at: dateOnly(row.expires_at),
    access_level: { string_value: accessLevelName(row.access_level), integer_value: row.access_level },
  }
}

/** GitLab's Membership entity (`GET /users/:id/memberships`). */
export interface UserMembershipEntity {
  readonly source_id: number
  readonly source_name: string
  readonly source_type: 'Project' | 'Namespace'
  readonly access_level: number
}

export function userMembershipEntity(row: MemberRow, names: SourceNames | undefined): UserMembershipEntity {
  return {
    source_id: row.source_id,
    source_name: names?.name ?? '',
    source_type: row.source_type,
    access_level: row.access_level,
  }
}
