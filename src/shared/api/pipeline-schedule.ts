/**
 * Pipeline schedules (GitLab's Pipeline schedules API): a cron expression in a timezone that runs
 * a pipeline on a ref as the schedule's owner, with variables of its own.
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable, Timestamp } from './common'
import { PipelineBasic } from './pipeline'
import { UserRef } from './user'

/** A schedule variable, given to the pipelines the schedule runs. */
export const PipelineScheduleVariable = Entity({
  key: Type.String(),
  value: Type.String(),
  variable_type: Type.Enum(['env_var', 'file']),
})
export type PipelineScheduleVariable = Static<typeof PipelineScheduleVariable>

const scheduleFields = {
  id: Type.Integer(),
  description: Type.String(),
  /** The full ref: `refs/heads/main` or `refs/tags/v1.0`. */
  ref: Type.String(),
  cron: Type.String(),
  /** An IANA timezone name. */
  cron_timezone: Type.String(),
  /** Null when the expression never fires again. */
  next_run_at: Nullable(Timestamp),
  active: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
  /** Null when the owner's account was deleted. */
  owner: Nullable(UserRef),
}

/** GitLab's PipelineSchedule entity: lists, updates, take ownership. */
export const PipelineSchedule = Entity(scheduleFields)
export type PipelineSchedule = Static<typeof PipelineSchedule>

/** GitLab's PipelineScheduleDetails: one schedule with its latest pipeline and variables (get, create). */
export const PipelineScheduleDetails = Entity({
  ...scheduleFields,
  last_pipeline: Nullable(PipelineBasic),
  variables: Type.Array(PipelineScheduleVariable),
})
export type PipelineScheduleDetails = Static<typeof PipelineScheduleDetails>
