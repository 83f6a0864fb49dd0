import type { Caller } from '../../platform/caller'
import type { Permissions } from '../../platform/auth/permissions'
import type { ServerContext } from '../../platform/context'
import type { Db } from '../../platform/db/connection'
import type { JobArtifactRow } from './artifacts-queries'
import type { CiStatus, JobRow, PipelineRow } from './queries'

/**
 * What happens in CI that other families react to: deployments follow jobs with an environment,
 * merge requests merge when their pipeline succeeds, security reports are read from artifacts.
 * Listeners subscribe per server; one failing listener never stops the others. Guards decide
 * whether a job may be queued at all (protected environments). The environments module also
 * tells CI about the environments jobs deploy to (DeploymentTargets): CI knows nothing of them.
 */

export interface JobStatusEvent {
  readonly ctx: ServerContext
  /** Who changed the status (a runner's update, a user's cancel…), if it happened during a request. */
  readonly caller: Caller | null
  readonly job: JobRow
  readonly pipeline: PipelineRow
  /** Null for a job that was just created. */
  readonly previous: CiStatus | null
}

export interface PipelineStatusEvent {
  readonly ctx: ServerContext
  readonly caller: Caller | null
  readonly pipeline: PipelineRow
  readonly previous: CiStatus | null
}

export interface ArtifactStoredEvent {
  readonly ctx: ServerContext
  readonly job: JobRow
  readonly artifact: JobArtifactRow
}

export interface JobEnqueueEvent {
  readonly ctx: ServerContext
  /** The job about to become pending, as its user left it (`user_id` is who runs it). */
  readonly job: JobRow
}

type Listener<E> = (event: E) => Promise<void> | void

/** Says why a job may not be queued (a GitLab failure reason), or null to let it run. */
export type EnqueueGuard = (event: JobEnqueueEvent) => string | null

/** The environment a job deploys to, as its CI_ENVIRONMENT_* variables name it. */
export interface DeploymentTarget {
  readonly slug: string
  readonly tier: string
  /** The environment's stored external URL, used when the job names none. */
  readonly url: string | null
}

/** What CI asks of the environments jobs deploy to. */
export interface DeploymentTargets {
  /** The environment `name` of a project, as it is stored or would be made with `declaredTier`. */
  describe(db: Db, projectId: number, name: string, declaredTier: string | undefined): DeploymentTarget
  /** True when the holder of `perms` may not deploy to `name` (a protected environment that does not grant them). */
  refuses(db: Db, perms: Permissions, projectId: number, name: string): boolean
}

/** Without an environments module: nothing is protected, and names are their own slugs. */
const NO_TARGETS: DeploymentTargets = {
  describe: (_db, _projectId, name, declaredTier) => ({ slug: name, tier: declaredTier ?? 'other', url: null }),
  refuses: () => false,
}

interface Registry {
  readonly job: Listener<JobStatusEvent>[]
  readonly pipeline: Listener<PipelineStatusEvent>[]
  readonly artifact: Listener<ArtifactStoredEvent>[]
  readonly enqueue: EnqueueGuard[]
  targets: DeploymentTargets
}

const registries = new WeakMap<ServerContext, Registry>()

function registry(ctx: ServerContext): Registry {
  let r = registries.get(ctx)
  if (!r) {
    r = { job: [], pipeline: [], artifact: [], enqueue: [], targets: NO_TARGETS }
    registries.set(ctx, r)
  }
  return r
}

/** Subscribes to job status changes (including creation, with `previous` null). */
export function onJobStatus(ctx: ServerContext, listener: Listener<JobStatusEvent>): void {
  const list = registry(ctx).job
  if (!list.includes(listener)) list.push(listener)
}

/** Subscribes to pipeline status changes (including creation, with `previous` null). */
export function onPipelineStatus(ctx: ServerContext, listener: Listener<PipelineStatusEvent>): void {
  const list = registry(ctx).pipeline
  if (!list.includes(listener)) list.push(listener)
}

/** Subscribes to stored job artifacts (uploads by runners and job traces). */
export function onArtifactStored(ctx: ServerContext, listener: Listener<ArtifactStoredEvent>): void {
  const list = registry(ctx).artifact
  if (!list.includes(listener)) list.push(listener)
}

/**
 * Adds a check run before a job is queued for runners (GitLab's ProcessBuildService#enqueue): a
 * guard naming a failure reason drops the job as `failed` with that reason instead.
 */
export function onJobEnqueue(ctx: ServerContext, guard: EnqueueGuard): void {
  const list = registry(ctx).enqueue
  if (!list.includes(guard)) list.push(guard)
}

/** The failure reason the first refusing guard gives for queuing this job, or null. */
export function enqueueRefusal(ctx: ServerContext, job: JobRow): string | null {
  for (const guard of registry(ctx).enqueue) {
    const reason = guard({ ctx, job })
    if (reason !== null) return reason
  }
  return null
}

/** Sets who answers CI's questions about the environments jobs deploy to (the environments module). */
export function provideDeploymentTargets(ctx: ServerContext, targets: DeploymentTargets): void {
  registry(ctx).targets = targets
}

/** The environments jobs deploy to, as the environments module describes them. */
export function deploymentTargets(ctx: ServerContext): DeploymentTargets {
  return registry(ctx).targets
}

async function emit<E>(listeners: readonly Listener<E>[], event: E, what: string): Promise<void> {
  for (const listener of listeners) {
    try {
      await listener(event)
    } catch (error) {
      process.emitWarning(`${what} listener failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
}

export function jobStatusChanged(event: JobStatusEvent): Promise<void> {
  return emit(registry(event.ctx).job, event, 'job status')
}

export function pipelineStatusChanged(event: PipelineStatusEvent): Promise<void> {
  return emit(registry(event.ctx).pipeline, event, 'pipeline status')
}

export function artifactStored(event: ArtifactStoredEvent): Promise<void> {
  return emit(registry(event.ctx).artifact, event, 'artifact')
}
