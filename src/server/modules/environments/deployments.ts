import { Permissions } from '../../platform/auth/permissions'
import type { ServerContext } from '../../platform/context'
import { nowIso } from '../../platform/db/connection'
import { deploymentsOfDeployable, type DeploymentStatus, findEnvironmentByName, updateEnvironment } from './queries'
import type { CiStatus } from '../pipelines'
import { findUserById } from '../users'
import type { EnvironmentTier } from './queries'
import type { DeploymentTargets, JobEnqueueEvent, JobStatusEvent } from '../pipelines'
import {
  createDeployment,
  ensureEnvironment,
  environmentSlug,
  EnvironmentValidationError,
  guessTier,
  protectedFromDeploying,
  updateDeploymentStatus,
} from './service'
import { jobOptions, parseCiDuration } from '../pipelines'

// How a deploying job's status shows on its deployment (GitLab's Deployment states follow the job).
const DEPLOYMENT_STATUS: Readonly<Partial<Record<CiStatus, DeploymentStatus>>> = {
  created: 'created',
  waiting_for_resource: 'created',
  preparing: 'created',
  pending: 'created',
  manual: 'created',
  scheduled: 'created',
  running: 'running',
  success: 'success',
  failed: 'failed',
  canceled: 'canceled',
  skipped: 'skipped',
}

/**
 * Job status listener: a job with `environment:` (action `start`, the default) deploys. The
 * environment is created when missing (with the job's URL and tier), the job gets a deployment
 * when it is created or retried, and the deployment follows the job's status. A successful job
 * with action `stop` stops its environment.
 */
export function trackDeployment({ ctx, job, pipeline }: JobStatusEvent): void {
  if (!job.environment) return
  const env = jobOptions(job).environment
  if (!env) return
  if (env.action === 'stop') {
    if (job.status === 'success') stopEnvironmentNamed(ctx, job.project_id, job.environment)
    return
  }
  if (env.action !== 'start') return
  const status = DEPLOYMENT_STATUS[job.status]
  if (!status) return
  const existing = deploymentsOfDeployable(ctx.db, job.id)[0]
  if (existing) {
    if (existing.status !== status) updateDeploymentStatus(ctx.db, existing.id, status)
    return
  }
  let environmentId: number
  try {
    const autoStop = env.auto_stop_in ? parseCiDuration(env.auto_stop_in) : null
    environmentId = ensureEnvironment(ctx.db, job.project_id, job.environment, {
      externalUrl: env.url ?? null,
      ...(env.deployment_tier ? { tier: env.deployment_tier as EnvironmentTier } : {}),
      ...(autoStop !== null ? { autoStopAt: new Date(Date.parse(nowIso()) + autoStop * 1000).toISOString() } : {}),
    }).id
  } catch (error) {
    // An environment name the configuration expanded into something invalid deploys nowhere.
    if (error instanceof EnvironmentValidationError) return
    throw error
  }
  createDeployment(ctx.db, {
    projectId: job.project_id,
    environmentId,
    ref: pipeline.ref,
    sha: pipeline.sha,
    tag: pipeline.tag === 1,
    userId: job.user_id,
    deployableId: job.id,
    status,
  })
}

/**
 * Enqueue guard: a job deploying to (or stopping) a protected environment its user may not deploy
 * to never reaches a runner. GitLab drops it with `protected_environment_failure`; without
 * approval rules (not built here) there is nothing to wait for. Unprotected environments are
 * left to the pipeline's own rights, as GitLab's `protected_from?` does.
 */
export function refuseProtectedDeployment({ ctx, job }: JobEnqueueEvent): string | null {
  if (!job.environment) return null
  const user = job.user_id !== null ? (findUserById(ctx.db, job.user_id) ?? null) : null
  const perms = new Permissions(ctx.db, user)
  return protectedFromDeploying(ctx.db, perms, { id: job.project_id }, job.environment)
    ? 'protected_environment_failure'
    : null
}

function stopEnvironmentNamed(ctx: ServerContext, projectId: number, name: string): void {
  const env = findEnvironmentByName(ctx.db, projectId, name)
  if (env && env.state !== 'stopped') updateEnvironment(ctx.db, env.id, { state: 'stopped' })
}

/**
 * What CI learns of the environments jobs deploy to: a stored environment's slug, tier and URL
 * (a job with `environment:` creates it before it runs), the name-derived ones for one that
 * could not be saved; and whether a protected environment refuses a deployer.
 */
export const environmentTargets: DeploymentTargets = {
  describe(db, projectId, name, declaredTier) {
    const stored = findEnvironmentByName(db, projectId, name)
    return {
      slug: stored?.slug ?? environmentSlug(name),
      tier: stored?.tier ?? declaredTier ?? guessTier(name),
      url: stored?.external_url ?? null,
    }
  },
  refuses: (db, perms, projectId, name) => protectedFromDeploying(db, perms, { id: projectId }, name),
}
