/**
 * Environments, deployments and protected environments (spec "Environment", "Protected
 * environment").
 */
import { Type, type Static } from 'typebox'
import { AccessLevelValue, Entity, Nullable, Timestamp } from './common'
import { Job } from './job'
import { UserRef } from './user'

const basicFields = {
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  external_url: Nullable(Type.String()),
}

/** GitLab's EnvironmentBasic: the entries of a review-app deletion. */
export const EnvironmentBasic = Entity(basicFields)
export type EnvironmentBasic = Static<typeof EnvironmentBasic>

const environmentFields = {
  ...basicFields,
  description: Nullable(Type.String()),
  state: Type.Enum(['available', 'stopping', 'stopped']),
  tier: Type.Enum(['production', 'staging', 'testing', 'development', 'other']),
  created_at: Timestamp,
  updated_at: Timestamp,
  auto_stop_at: Nullable(Timestamp),
  auto_stop_setting: Type.String(),
}

/** GitLab's Environment entity (lists, create, update, stop). */
export const Environment = Entity(environmentFields)
export type Environment = Static<typeof Environment>

const deploymentFields = {
  id: Type.Integer(),
  iid: Type.Integer(),
  ref: Type.String(),
  sha: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
  finished_at: Nullable(Timestamp),
  status: Type.Enum(['created', 'running', 'success', 'failed', 'canceled', 'skipped', 'blocked']),
  user: Nullable(UserRef),
  /** The deploying CI job, or null for deployments made through the API. */
  deployable: Nullable(Job),
}

/** A deployment inside an environment's `last_deployment` (no `environment`). */
export const EnvironmentDeployment = Entity(deploymentFields)
export type EnvironmentDeployment = Static<typeof EnvironmentDeployment>

/** `GET /projects/:id/environments/:environment_id`: the environment and its latest successful deployment. */
export const EnvironmentDetail = Entity({ ...environmentFields, last_deployment: Nullable(EnvironmentDeployment) })
export type EnvironmentDetail = Static<typeof EnvironmentDetail>

/** GitLab's Deployment entity (the deployments API), with the environment it went to. */
export const Deployment = Entity({
  ...deploymentFields,
  environment: Entity({ ...basicFields, created_at: Timestamp, updated_at: Timestamp }),
})
export type Deployment = Static<typeof Deployment>

/** `DELETE /projects/:id/environments/review_apps`: what was (or, on a dry run, would be) deleted. */
export const ReviewAppsDeletion = Entity({
  scheduled_entries: Type.Array(EnvironmentBasic),
  unprocessable_entries: Type.Array(EnvironmentBasic),
})
export type ReviewAppsDeletion = Static<typeof ReviewAppsDeletion>

/** Who may deploy to a protected environment: a role, a user or a group. */
export const DeployAccessLevel = Entity({
  id: Type.Integer(),
  access_level: AccessLevelValue,
  /** The role's name, or the user's or group's name. */
  access_level_description: Nullable(Type.String()),
  user_id: Nullable(Type.Integer()),
  group_id: Nullable(Type.Integer()),
})

/** GitLab's ProtectedEnvironment entity. */
export const ProtectedEnvironment = Entity({
  name: Type.String(),
  deploy_access_levels: Type.Array(DeployAccessLevel),
})
export type ProtectedEnvironment = Static<typeof ProtectedEnvironment>
