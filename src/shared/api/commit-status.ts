/**
 * Commit statuses (GitLab's Commit status API): the jobs of a commit's pipelines, CI builds and
 * the statuses external CI posts alike, as `GET …/commits/:sha/statuses` lists them.
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable, Timestamp } from './common'
import { CiStatus } from './pipeline'
import { UserRef } from './user'

/** GitLab's CommitStatus entity. `target_url` and `description` are external CI's (null for builds). */
export const CommitStatus = Entity({
  id: Type.Integer(),
  sha: Type.String(),
  ref: Type.String(),
  status: CiStatus,
  name: Type.String(),
  target_url: Nullable(Type.String()),
  description: Nullable(Type.String()),
  created_at: Timestamp,
  started_at: Nullable(Timestamp),
  finished_at: Nullable(Timestamp),
  allow_failure: Type.Boolean(),
  coverage: Nullable(Type.Number()),
  pipeline_id: Type.Integer(),
  author: Nullable(UserRef),
})
export type CommitStatus = Static<typeof CommitStatus>

/** The states external CI may post (`POST /projects/:id/statuses/:sha`). */
export const COMMIT_STATUS_STATES = ['pending', 'running', 'success', 'failed', 'canceled', 'skipped'] as const
export type CommitStatusState = (typeof COMMIT_STATUS_STATES)[number]
