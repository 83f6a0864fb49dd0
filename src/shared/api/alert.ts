/**
 * Alerts. GitLab lists and manages alerts over GraphQL (served at /api/graphql); over REST an
 * alert appears as a to-do's target and in the answer of an alert receiving endpoint.
 */
import { Type, type Static } from 'typebox'
import { ALERT_SEVERITIES, ALERT_STATUSES } from '../alerts'
import { Entity, Nullable, Timestamp } from './common'

/** An alert as a to-do's `target`. */
export const AlertTarget = Entity({
  id: Type.Integer(),
  iid: Type.Integer(),
  project_id: Type.Integer(),
  title: Type.String(),
  description: Nullable(Type.String()),
  severity: Type.Enum([...ALERT_SEVERITIES]),
  status: Type.Enum([...ALERT_STATUSES]),
  service: Nullable(Type.String()),
  monitoring_tool: Nullable(Type.String()),
  started_at: Timestamp,
  ended_at: Nullable(Timestamp),
  event_count: Type.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
  web_url: Type.String(),
})
export type AlertTarget = Static<typeof AlertTarget>

/** `POST …/alerts/notify…`: the alerts the payload created or updated. */
export const AlertNotifyResult = Type.Array(Entity({ iid: Type.Integer(), title: Type.String() }))
export type AlertNotifyResult = Static<typeof AlertNotifyResult>
