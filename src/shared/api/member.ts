/**
 * Members of groups and projects, access requests and billable members (spec "Member", "Access
 * request"): each a `user_ref` with what the membership adds.
 */
import { Type, type Static } from 'typebox'
import { AccessLevelValue, Entity, IsoDate, Nullable, Timestamp } from './common'
import { UserRef } from './user'

/**
 * `GET /projects/:id/members` and the group and `all` variants (GitLab's Member). `created_by` is
 * left out when unknown; `email` appears only for users who made an email public.
 */
export const Member = Entity({
  ...UserRef.properties,
  access_level: AccessLevelValue,
  created_at: Timestamp,
  created_by: Type.Optional(UserRef),
  expires_at: Nullable(IsoDate),
  /** GitLab.com's SAML identity of the member in the group; none on Burrow Server. */
  group_saml_identity: Type.Null(),
  email: Type.Optional(Type.String()),
  membership_state: Type.Enum(['active', 'awaiting']),
})
export type Member = Static<typeof Member>

/** `POST …/members` with several `user_id`s: success, or the per-user errors keyed by username or id. */
export const MemberBatchResult = Entity({
  status: Type.Enum(['success', 'error']),
  message: Type.Optional(Type.Record(Type.String(), Type.String())),
})
export type MemberBatchResult = Static<typeof MemberBatchResult>

/** `GET …/access_requests` (GitLab's AccessRequester). */
export const AccessRequest = Entity({
  ...UserRef.properties,
  created_at: Timestamp,
  requested_at: Timestamp,
})
export type AccessRequest = Static<typeof AccessRequest>

/** `GET /groups/:id/billable_members`. */
export const BillableMember = Entity({
  ...UserRef.properties,
  email: Nullable(Type.String()),
  last_activity_on: Nullable(IsoDate),
  membership_type: Type.Enum(['group_member', 'group_invite']),
  removable: Type.Boolean(),
  created_at: Timestamp,
  last_login_at: Nullable(Timestamp),
})
export type BillableMember = Static<typeof BillableMember>

/** `GET /groups/:id/billable_members/:user_id/memberships`: a direct membership in the hierarchy. */
export const BillableMembership = Entity({
  id: Type.Integer(),
  source_id: Type.Integer(),
  source_full_name: Type.String(),
  source_members_url: Type.String(),
  created_at: Timestamp,
  expires_at: Nullable(IsoDate),
  access_level: Entity({ string_value: Type.String(), integer_value: AccessLevelValue }),
})
export type BillableMembership = Static<typeof BillableMembership>
