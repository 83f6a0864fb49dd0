import type { DeploymentRow, EnvironmentRow } from './queries'
import type { UserRow } from '../../platform/db/rows'
import { userRefOrNull } from '../users'

/** GitLab's EnvironmentBasic as review-app deletion lists it. */
export function environmentBasic(env: EnvironmentRow): Readonly<Record<string, unknown>> {
  return { id: env.id, name: env.name, slug: env.slug, external_url: env.external_url }
}

/** GitLab's Environment entity (lists, create, update, stop). */
export function environmentEntity(env: EnvironmentRow): Record<string, unknown> {
  return {
    id: env.id,
    name: env.name,
    slug: env.slug,
    description: env.description,
    external_url: env.external_url,
    state: env.state,
    tier: env.tier,
    created_at: env.created_at,
    updated_at: env.updated_at,
    auto_stop_at: env.auto_stop_at,
    auto_stop_setting: 'always',
  }
}

/** What a deployment shows beyond its row, loaded for a whole page by the caller. */
export interface DeploymentExtras {
  readonly baseUrl: string
  readonly user: UserRow | undefined
  /** The deploying CI job as GitLab's Job entity, or null (API-made deployments, jobs not found). */
  readonly deployable: Readonly<Record<string, unknown>> | null
  /** Present in the deployments API; absent inside an environment's last_deployment. */
  readonly environment?: EnvironmentRow
}

/** GitLab's Deployment entity. */
export function deploymentEntity(d: DeploymentRow, x: DeploymentExtras): Readonly<Record<string, unknown>> {
  const entity: Record<string, unknown> = {
    id: d.id,
    iid: d.iid,
    ref: d.ref,
    sha: d.sha,
    created_at: d.created_at,
    updated_at: d.updated_at,
    finished_at: d.finished_at,
    status: d.status,
    user: userRefOrNull(x.user, x.baseUrl),
  }
  if (x.environment)
    entity.environment = {
      ...environmentBasic(x.environment),
      created_at: x.environment.created_at,
      updated_at: x.environment.updated_at,
    }
  entity.deployable = x.deployable
  return entity
}
