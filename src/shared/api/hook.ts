/**
 * Webhooks (GitLab's Project webhooks, Group webhooks and System hooks APIs): where Burrow Server
 * posts events, which events, and the recent deliveries. A hook's secret token and the values of
 * its URL variables and custom headers are write-only: only their keys come back.
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable, OpenObject, Timestamp } from './common'

/** `executable`, or auto-disabled for a while (`temporarily_disabled`) or until re-enabled (`disabled`). */
export const HookAlertStatus = Type.Enum(['executable', 'temporarily_disabled', 'disabled'])

const KeyOnly = Type.Array(Entity({ key: Type.String() }))

const HookBase = {
  id: Type.Integer(),
  url: Type.String(),
  name: Nullable(Type.String()),
  description: Nullable(Type.String()),
  created_at: Timestamp,
  push_events: Type.Boolean(),
  tag_push_events: Type.Boolean(),
  merge_requests_events: Type.Boolean(),
  repository_update_events: Type.Boolean(),
  enable_ssl_verification: Type.Boolean(),
  alert_status: HookAlertStatus,
  /** When a temporarily disabled hook runs again; null otherwise. */
  disabled_until: Nullable(Timestamp),
  url_variables: KeyOnly,
  push_events_branch_filter: Nullable(Type.String()),
  branch_filter_strategy: Type.Enum(['wildcard', 'regex', 'all_branches']),
  custom_headers: KeyOnly,
}

/** The events only project and group hooks subscribe to. */
const ProjectEventFlags = {
  issues_events: Type.Boolean(),
  confidential_issues_events: Type.Boolean(),
  note_events: Type.Boolean(),
  confidential_note_events: Type.Boolean(),
  pipeline_events: Type.Boolean(),
  wiki_page_events: Type.Boolean(),
  job_events: Type.Boolean(),
  releases_events: Type.Boolean(),
}

/** GitLab's ProjectHook entity. */
export const ProjectHook = Entity({ ...HookBase, ...ProjectEventFlags, project_id: Type.Integer() })
export type ProjectHook = Static<typeof ProjectHook>

/** GitLab's GroupHook entity. */
export const GroupHook = Entity({ ...HookBase, ...ProjectEventFlags, group_id: Type.Integer() })
export type GroupHook = Static<typeof GroupHook>

/** GitLab's SystemHook entity. */
export const SystemHook = Entity(HookBase)
export type SystemHook = Static<typeof SystemHook>

/** One delivery of a hook (GitLab's web hook log, as the hook events API lists it). */
export const HookEvent = Entity({
  id: Type.Integer(),
  url: Type.String(),
  /** `push_hooks`, `issue_hooks`, `confidential_note_hooks`… */
  trigger: Type.String(),
  request_headers: Type.Record(Type.String(), Type.String()),
  request_data: OpenObject,
  response_headers: Type.Record(Type.String(), Type.String()),
  /** Truncated to 8 KiB. */
  response_body: Type.String(),
  /** Seconds. */
  execution_duration: Type.Number(),
  /** The HTTP status as text, or `internal error` when no answer came. */
  response_status: Type.String(),
  internal_error_message: Nullable(Type.String()),
  created_at: Timestamp,
})
export type HookEvent = Static<typeof HookEvent>

/** What resending a delivery answers: the new delivery's HTTP status. */
export const HookResendResult = Entity({ response_status: Type.Integer() })
export type HookResendResult = Static<typeof HookResendResult>

/** What a successful test delivery answers (`{"message": "201 Created"}`). */
export const HookTestResult = Entity({ message: Type.String() })
export type HookTestResult = Static<typeof HookTestResult>

/** What the system hook test answers: the sample `project_create` payload it sent. */
export const SystemHookTestResult = OpenObject
