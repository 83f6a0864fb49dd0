/**
 * CI jobs (spec "Runner job"): the job entity of job lists and actions, and a runner's jobs.
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable, Timestamp } from './common'
import { CiStatus, PipelineBasic } from './pipeline'
import { ProjectRef } from './project'
import { Commit } from './repository'
import { Runner } from './runner'
import { UserPublic } from './user'

/** An artifact file of a job. */
export const JobArtifact = Entity({
  file_type: Type.String(),
  size: Type.Integer(),
  filename: Type.String(),
  file_format: Type.String(),
})
export type JobArtifact = Static<typeof JobArtifact>

/** GitLab's JobBasic fields. `failure_reason` only on failed jobs. */
const basicFields = {
  id: Type.Integer(),
  status: CiStatus,
  stage: Type.String(),
  name: Type.String(),
  ref: Type.String(),
  tag: Type.Boolean(),
  coverage: Nullable(Type.Number()),
  allow_failure: Type.Boolean(),
  created_at: Timestamp,
  started_at: Nullable(Timestamp),
  finished_at: Nullable(Timestamp),
  erased_at: Nullable(Timestamp),
  /** Seconds, with fractions. */
  duration: Nullable(Type.Number()),
  queued_duration: Nullable(Type.Number()),
  user: Nullable(UserPublic),
  commit: Commit,
  pipeline: PipelineBasic,
  web_url: Type.String(),
  failure_reason: Type.Optional(Type.String()),
}

/** GitLab's Job entity: JobBasic plus artifacts, runner and tags (job lists, a job, its actions, a deployment's deployable). */
export const Job = Entity({
  ...basicFields,
  project: Entity({ ci_job_token_scope_enabled: Type.Boolean() }),
  artifacts_file: Type.Optional(Entity({ filename: Type.String(), size: Type.Integer() })),
  artifacts: Type.Array(JobArtifact),
  runner: Nullable(Runner),
  /** Runner managers are not tracked on Burrow Server. */
  runner_manager: Type.Null(),
  artifacts_expire_at: Nullable(Timestamp),
  archived: Type.Boolean(),
  tag_list: Type.Array(Type.String()),
})
export type Job = Static<typeof Job>

/** `GET /runners/:id/jobs` (GitLab's JobBasicWithProject): the runner's address, whole seconds and the project. */
export const RunnerJob = Entity({
  ...basicFields,
  ip_address: Nullable(Type.String()),
  duration: Nullable(Type.Integer()),
  project: Entity({ ...ProjectRef.properties, ci_job_token_scope_enabled: Type.Boolean() }),
})
export type RunnerJob = Static<typeof RunnerJob>
