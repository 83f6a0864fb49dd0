/**
 * Activity events (spec "Activity event"), audit events (spec "Audit event") and the resource
 * events of issues, merge requests and epics (label, milestone and state changes).
 */
import { Type, type Static } from 'typebox'
import { Entity, LabelBasic, Nullable, OpenObject, Timestamp } from './common'
import { Milestone } from './milestone'
import { EventNote } from './note'
import { UserRef } from './user'

/** What a `pushed` event says about the ref it changed. */
export const PushData = Entity({
  commit_count: Type.Integer(),
  action: Type.Enum(['pushed', 'created', 'removed']),
  ref_type: Type.Enum(['branch', 'tag']),
  commit_from: Nullable(Type.String()),
  commit_to: Nullable(Type.String()),
  ref: Type.String(),
  commit_title: Nullable(Type.String()),
  ref_count: Type.Optional(Nullable(Type.Integer())),
})
export type PushData = Static<typeof PushData>

/**
 * GitLab's Event entity. `push_data` on pushes, `note` on comments (the note as it was when
 * commented), `data` where the event recorded more.
 */
export const ActivityEvent = Entity({
  id: Type.Integer(),
  title: Nullable(Type.String()),
  project_id: Nullable(Type.Integer()),
  /** `opened`, `closed`, `pushed to`, `pushed new`, `commented on`, `accepted`, `joined`… */
  action_name: Type.String(),
  target_id: Nullable(Type.Integer()),
  target_iid: Nullable(Type.Integer()),
  /** `Issue`, `MergeRequest`, `Note`, `Milestone`, `Project`, `Snippet`, `Epic`… */
  target_type: Nullable(Type.String()),
  author_id: Type.Integer(),
  target_title: Nullable(Type.String()),
  created_at: Timestamp,
  author: UserRef,
  author_username: Type.String(),
  imported: Type.Boolean(),
  imported_from: Type.String(),
  push_data: Type.Optional(PushData),
  note: Type.Optional(EventNote),
  data: Type.Optional(OpenObject),
})
export type ActivityEvent = Static<typeof ActivityEvent>

/** GitLab's AuditEvent entity; `details` as recorded (custom_message, add, change, from, to, author_name, target_*, ip_address, entity_path…). */
export const AuditEvent = Entity({
  id: Type.Integer(),
  author_id: Type.Integer(),
  entity_id: Type.Integer(),
  entity_type: Type.Enum(['User', 'Group', 'Project']),
  details: OpenObject,
  created_at: Timestamp,
})
export type AuditEvent = Static<typeof AuditEvent>

/** The fields every resource event shares. */
const resourceEventFields = {
  id: Type.Integer(),
  user: Nullable(UserRef),
  created_at: Timestamp,
  resource_type: Type.Enum(['Issue', 'MergeRequest', 'Epic']),
  resource_id: Type.Integer(),
}

/** GitLab's ResourceLabelEvent; `label` is null once the label was deleted. */
export const ResourceLabelEvent = Entity({
  ...resourceEventFields,
  label: Nullable(LabelBasic),
  action: Type.Enum(['add', 'remove']),
})
export type ResourceLabelEvent = Static<typeof ResourceLabelEvent>

/** GitLab's ResourceMilestoneEvent: the whole milestone, and the item's state at the change. */
export const ResourceMilestoneEvent = Entity({
  ...resourceEventFields,
  milestone: Nullable(Milestone),
  action: Type.Enum(['add', 'remove']),
  state: Type.String(),
})
export type ResourceMilestoneEvent = Static<typeof ResourceMilestoneEvent>

/** GitLab's ResourceStateEvent, with the commit or merge request that caused the change. */
export const ResourceStateEvent = Entity({
  ...resourceEventFields,
  source_commit: Nullable(Type.String()),
  source_merge_request_id: Nullable(Type.Integer()),
  state: Type.Enum(['opened', 'closed', 'merged', 'locked', 'reopened']),
})
export type ResourceStateEvent = Static<typeof ResourceStateEvent>
