/**
 * Milestones of projects and groups (spec "Milestone (project)") and their burndown chart.
 */
import { Type, type Static } from 'typebox'
import { Entity, IsoDate, Nullable, Timestamp } from './common'

/**
 * GitLab's Milestone entity: `project_id` for project milestones, `group_id` for group milestones.
 * Also the `milestone` embedded in issues, merge requests and milestone events.
 */
export const Milestone = Entity({
  id: Type.Integer(),
  iid: Type.Integer(),
  project_id: Type.Optional(Type.Integer()),
  group_id: Type.Optional(Type.Integer()),
  title: Type.String(),
  description: Nullable(Type.String()),
  state: Type.Enum(['active', 'closed']),
  created_at: Timestamp,
  updated_at: Timestamp,
  due_date: Nullable(IsoDate),
  start_date: Nullable(IsoDate),
  /** The due date has passed (a milestone without one never expires). */
  expired: Type.Boolean(),
  web_url: Type.String(),
})
export type Milestone = Static<typeof Milestone>

/** `GET …/milestones/:milestone_id/burndown_events`: an issue created, closed or reopened, with its weight. */
export const BurndownEvent = Entity({
  created_at: Timestamp,
  weight: Nullable(Type.Integer()),
  action: Type.Enum(['created', 'closed', 'reopened']),
})
export type BurndownEvent = Static<typeof BurndownEvent>
