/**
 * CI runners (spec "Runner"): the summary of lists, the details of a single runner and the tokens
 * the runner endpoints hand out. The runner's own token never appears in them.
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable, Timestamp } from './common'
import { ProjectIdentity } from './project'

const summaryFields = {
  id: Type.Integer(),
  description: Type.String(),
  ip_address: Nullable(Type.String()),
  active: Type.Boolean(),
  paused: Type.Boolean(),
  is_shared: Type.Boolean(),
  runner_type: Type.Enum(['instance_type', 'group_type', 'project_type']),
  name: Nullable(Type.String()),
  online: Type.Boolean(),
  status: Type.Enum(['online', 'offline', 'paused']),
  created_at: Timestamp,
}

/** GitLab's Runner entity: what runner lists return. */
export const Runner = Entity(summaryFields)
export type Runner = Static<typeof Runner>

/** A group a runner belongs to. */
export const RunnerGroup = Entity({ id: Type.Integer(), name: Type.String(), web_url: Type.String() })

/** GitLab's RunnerDetails: the summary plus configuration, the versions it reported and its owners the caller may see. */
export const RunnerDetail = Entity({
  ...summaryFields,
  tag_list: Type.Array(Type.String()),
  run_untagged: Type.Boolean(),
  locked: Type.Boolean(),
  /** Seconds. */
  maximum_timeout: Nullable(Type.Integer()),
  access_level: Type.Enum(['not_protected', 'ref_protected']),
  version: Nullable(Type.String()),
  revision: Nullable(Type.String()),
  platform: Nullable(Type.String()),
  architecture: Nullable(Type.String()),
  contacted_at: Nullable(Timestamp),
  /** Shown to those who may update the runner. */
  maintenance_note: Nullable(Type.String()),
  projects: Type.Array(ProjectIdentity),
  groups: Type.Array(RunnerGroup),
})
export type RunnerDetail = Static<typeof RunnerDetail>

/** A new runner or registration token (`reset_*_token`). */
export const RunnerToken = Entity({ token: Type.String(), token_expires_at: Nullable(Timestamp) })
export type RunnerToken = Static<typeof RunnerToken>

/** `POST /runners`: a registered runner's id and its authentication token. */
export const RegisteredRunner = Entity({
  id: Type.Integer(),
  token: Type.String(),
  token_expires_at: Nullable(Timestamp),
})
export type RegisteredRunner = Static<typeof RegisteredRunner>
