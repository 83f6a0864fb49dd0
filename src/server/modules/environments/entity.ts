import type { Deployment, Environment, EnvironmentBasic, EnvironmentDeployment } from '../../../shared/api/environment'
import type { Job } from '../../../shared/api/job'
import type { DeploymentRow, EnvironmentRow } from './queries'
import type { UserRow } from '../../platform/db/rows'
import { userRefOrNull } from '../users'

/** GitLab's EnvironmentBasic as review-app deletion lists it. */
export function environmentBasic(env: EnvironmentRow): EnvironmentBasic {
  return { id: env.id, name: env.name, slug: env.slug, external_url: env.external_url }
}

/** GitLab's Environment entity (lists, create, update, stop). */
export function environmentEntity(env: EnvironmentRow): Environment {
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
  readonly deployable: Job | null
}

/** A deployment as an environment's `last_deployment` shows it: GitLab's Deployment without its environment. */
export function environmentDeploymentEntity(d: DeploymentRow, x: DeploymentExtras): EnvironmentDeployment {
  return {
    id: d.id,
    iid: d.iid,
    ref: d.ref,
    sha: d.sha,
    created_at: d.created_at,
    updated_at: d.updated_at,
    finished_at: d.finished_at,
    status: d.status,
    user: userRefOrNull(x.user, x.baseUrl),
    deployable: x.deployable,
  }
}

/** GitLab's Deployment entity: the deployment and the environment it went to. */
export function deploymentEntity(d: DeploymentRow, env: EnvironmentRow, x: DeploymentExtras): Deployment {
  // Written out, not spread from environmentDeploymentEntity and environmentBasic: with the spreads nearly every
  // deployment of a page had its own hidden class, and serializing 1,000 took several times as long.
  return {
    id: d.id,
    iid: d.iid,
    ref: d.ref,
    sha: d.sha,
    created_at: d.created_at,
    updated_at: d.updated_at,
    finished_at: d.finished_at,
    status: d.status,
    user: userRefOrNull(x.user, x.baseUrl),
    deployable: x.deployable,
    environment: {
      id: env.id,
      name: env.name,
      slug: env.slug,
      external_url: env.external_url,
      created_at: env.created_at,
      updated_at: env.updated_at,
    },
  }
}
