/**
 * Pipelines: the list form (PipelineBasic), the single pipeline with its detailed status, and the
 * variables a pipeline ran with.
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable, Timestamp } from './common'
import { UserRef } from './user'

/** The status of pipelines and jobs. */
export const CiStatus = Type.Enum([
  'created',
  'waiting_for_resource',
  'preparing',
  'pending',
  'running',
  'success',
  'failed',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
])
export type CiStatus = Static<typeof CiStatus>

/** GitLab's DetailedStatusEntity: how a pipeline or job status is shown (icon, text, favicon…). */
export const DetailedStatus = Entity({
  icon: Type.String(),
  text: Type.String(),
  label: Type.String(),
  group: Type.String(),
  tooltip: Type.String(),
  has_details: Type.Boolean(),
  details_path: Type.String(),
  illustration: Nullable(Type.String()),
  favicon: Type.String(),
})
export type DetailedStatus = Static<typeof DetailedStatus>

const basicFields = {
  id: Type.Integer(),
  iid: Type.Integer(),
  project_id: Type.Integer(),
  sha: Type.String(),
  ref: Type.String(),
  status: CiStatus,
  /** `push`, `web`, `api`, `trigger`, `merge_request_event`… */
  source: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
  web_url: Type.String(),
}

/** GitLab's PipelineBasic: pipeline lists, a job's and a merge request's `pipeline`. */
export const PipelineBasic = Entity(basicFields)
export type PipelineBasic = Static<typeof PipelineBasic>

/** GitLab's Pipeline entity (single pipeline, latest, create, retry, cancel; a merge request's `head_pipeline`). */
export const Pipeline = Entity({
  ...basicFields,
  before_sha: Type.String(),
  tag: Type.Boolean(),
  yaml_errors: Nullable(Type.String()),
  user: Nullable(UserRef),
  started_at: Nullable(Timestamp),
  finished_at: Nullable(Timestamp),
  committed_at: Nullable(Timestamp),
  /** Seconds. */
  duration: Nullable(Type.Integer()),
  queued_duration: Nullable(Type.Integer()),
  /** The average coverage of its latest jobs, as a string with two decimals. */
  coverage: Nullable(Type.String()),
  detailed_status: DetailedStatus,
})
export type Pipeline = Static<typeof Pipeline>

/** `GET /projects/:id/pipelines/:pipeline_id/variables`. */
export const PipelineVariable = Entity({
  variable_type: Type.Enum(['env_var', 'file']),
  key: Type.String(),
  value: Type.String(),
})
export type PipelineVariable = Static<typeof PipelineVariable>
