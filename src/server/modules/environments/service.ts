import type { Deployment, EnvironmentDetail } from '../../../shared/api/environment'
import { createHash } from 'node:crypto'
import type { Caller } from '../../platform/caller'
import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import { type Db, nowIso } from '../../platform/db/connection'
import {
  deleteEnvironment,
  environmentsByIds,
  environmentsDueForDeletion,
  environmentsDueForStop,
  findDeploymentById,
  findEnvironment,
  findEnvironmentByName,
  insertDeployment,
  insertEnvironment,
  lastDeployments,
  scheduleEnvironmentDeletion,
  setDeploymentStatus,
  slugTaken,
  stoppedReviewApps,
  updateEnvironment,
  type DeploymentRow,
  type DeploymentStatus,
  type EnvironmentChanges,
  type EnvironmentRow,
  type EnvironmentTier,
  type NewDeployment,
  makeEnvironmentAvailable,
} from './queries'
import { usersByIds } from '../users'
import { findProtectedEnvironment } from './protected-queries'
import type { ProjectRow } from '../../platform/db/rows'
import { deploymentEntity, environmentDeploymentEntity, environmentEntity, type DeploymentExtras } from './entity'
import { recordProjectChange } from '../projects'
import {
  findJobById,
  jobEntitiesById,
  jobOptions,
  jobPlayable,
  type JobRow,
  latestJobs,
  pipelineJobs,
  playJob,
} from '../pipelines'
import { exceeds, TEXT_LIMITS, tooLong } from '../../platform/text/limits'

/**
 * Environments and deployments: the rules every writer shares. Routes call the caller-level
 * operations (they record audit and activity events); the CI side (pipelines and jobs) calls
 * the database-level ones: `ensureEnvironment`, `createDeployment`, `updateDeploymentStatus`,
 * and asks `canDeployToEnvironment` before running a job that deploys.
 */

/** Raised when an environment cannot be saved; `errors` maps attributes to messages (GitLab's model errors). */
export class EnvironmentValidationError extends Error {
  constructor(readonly errors: Readonly<Record<string, readonly string[]>>) {
    super(
      Object.entries(errors)
        .map(([k, v]) => `${k} ${v.join(', ')}`)
        .join('; '),
    )
  }
}

// Letters, digits, '_', '$', '{', '}', '.', ' ', '-' and, inside only, '/'.
const NAME_PATTERN = /^[\w${}. -]([\w${}./ -]*[\w${}. -])?$/
const NAME_MESSAGE =
  "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'"

/**
 * GitLab's environment slug: lowercase letters, digits and '-', starting with a letter, at most 24
 * characters. A name that had to change (or is too long) is cut to 17 characters and gets a
 * 6-character suffix derived from the SHA-256 of the name, so the same name always gives the
 * same slug and different names rarely collide.
 */
export function environmentSlug(name: string): string {
  let slug = name.toLowerCase().replace(/[^a-z0-9]/g, '-')
  if (!/^[a-z]/.test(slug)) slug = `env-${slug}`
  slug = slug.replace(/-+/g, '-')
  if (slug.length > 24 || slug !== name) {
    slug = slug.slice(0, 17)
    if (!slug.endsWith('-')) slug += '-'
    const digest = createHash('sha256').update(name, 'utf8').digest('hex')
    return slug + BigInt(`0x${digest}`).toString(36).slice(-6)
  }
  return slug.replace(/-$/, '')
}

/** The tier GitLab guesses from a name when none is given. */
export function guessTier(name: string): EnvironmentTier {
  if (/(dev|review|trunk)/i.test(name)) return 'development'
  if (/(test|tst|int|ac(ce|)pt|qa|qc|control|quality)/i.test(name)) return 'testing'
  if (/(st(a|)g|mod(e|)l|pre|demo|non)/i.test(name)) return 'staging'
  if (/(pr(o|)d|live)/i.test(name)) return 'production'
  return 'other'
}

/** Validation messages for a name (empty when valid). */
export function environmentNameErrors(name: string): string[] {
  if (name.trim() === '') return ["can't be blank"]
  const errors: string[] = []
  if (exceeds(name, TEXT_LIMITS.name.name)) errors.push(tooLong(TEXT_LIMITS.name.name))
  if (!NAME_PATTERN.test(name)) errors.push(NAME_MESSAGE)
  return errors
}

/** Validation messages for an external URL (empty when valid); blank URLs are stored as null. */
export function externalUrlErrors(url: string): string[] {
  if (exceeds(url, TEXT_LIMITS.name.name)) return [tooLong(TEXT_LIMITS.name.name)]
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return ['must be a valid URL']
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return ['is blocked: Only allowed schemes are http, https']
  return []
}

function blankToNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : value
}

function checkAttributes(
  db: Db,
  projectId: number,
  attrs: { readonly name?: string; readonly externalUrl?: string | null },
  exceptId = 0,
): void {
  const errors: Record<string, string[]> = {}
  if (attrs.name !== undefined) {
    const nameErrors = environmentNameErrors(attrs.name)
    const clash = findEnvironmentByName(db, projectId, attrs.name)
    if (clash && clash.id !== exceptId) nameErrors.unshift('has already been taken')
    if (nameErrors.length > 0) errors.name = nameErrors
  }
  if (attrs.externalUrl) {
    const urlErrors = externalUrlErrors(attrs.externalUrl)
    if (urlErrors.length > 0) errors.external_url = urlErrors
  }
  if (Object.keys(errors).length > 0) throw new EnvironmentValidationError(errors)
}

export interface EnvironmentAttributes {
  readonly externalUrl?: string | null
  readonly tier?: EnvironmentTier
  readonly description?: string | null
  /** When the environment stops by itself (a job's `environment:auto_stop_in`). */
  readonly autoStopAt?: string | null
}

/** Inserts a validated environment with its slug and tier (guessed from the name when absent). */
function insertValidated(db: Db, projectId: number, name: string, attrs: EnvironmentAttributes): EnvironmentRow {
  const externalUrl = blankToNull(attrs.externalUrl)
  checkAttributes(db, projectId, { name, externalUrl })
  const slug = environmentSlug(name)
  if (slugTaken(db, projectId, slug)) throw new EnvironmentValidationError({ slug: ['has already been taken'] })
  return insertEnvironment(db, {
    projectId,
    name,
    slug,
    externalUrl,
    description: attrs.description ?? null,
    tier: attrs.tier ?? guessTier(name),
    autoStopAt: attrs.autoStopAt ?? null,
  })
}

/**
 * The project's environment with this name, created when missing (what a deploying job does).
 * Given attributes update an existing environment (a job's `environment:url` replaces the URL).
 * Throws EnvironmentValidationError for an invalid name or URL.
 */
export function ensureEnvironment(
  db: Db,
  projectId: number,
  name: string,
  attrs: EnvironmentAttributes = {},
): EnvironmentRow {
  return db.transaction(() => {
    const existing = findEnvironmentByName(db, projectId, name)
    if (!existing) return insertValidated(db, projectId, name, attrs)
    const changes: { -readonly [K in keyof EnvironmentChanges]: EnvironmentChanges[K] } = {}
    const url = blankToNull(attrs.externalUrl)
    if (url !== null && url !== existing.external_url) {
      checkAttributes(db, projectId, { externalUrl: url }, existing.id)
      changes.external_url = url
    }
    if (attrs.tier !== undefined && attrs.tier !== existing.tier) changes.tier = attrs.tier
    if (attrs.autoStopAt !== undefined && attrs.autoStopAt !== existing.auto_stop_at)
      changes.auto_stop_at = attrs.autoStopAt
    return Object.keys(changes).length > 0 ? updateEnvironment(db, existing.id, changes) : existing
  })()
}

/** A successful deployment starts a stopped environment again and cancels its scheduled deletion. */
function afterStatus(db: Db, deployment: DeploymentRow): void {
  if (deployment.status !== 'success') return
  makeEnvironmentAvailable(db, deployment.environment_id)
}

/** Records a deployment to an environment (iid per project). */
export function createDeployment(db: Db, input: NewDeployment): DeploymentRow {
  return db.transaction(() => {
    const deployment = insertDeployment(db, input)
    afterStatus(db, deployment)
    return deployment
  })()
}

/** Moves a deployment to a new status (a job started, succeeded, failed or was canceled). */
export function updateDeploymentStatus(db: Db, deploymentId: number, status: DeploymentStatus): DeploymentRow {
  return db.transaction(() => {
    const current = findDeploymentById(db, deploymentId)
    if (!current) throw new Error(`deployment ${deploymentId} does not exist`)
    if (current.status === status) return current
    const updated = setDeploymentStatus(db, deploymentId, status)
    afterStatus(db, updated)
    return updated
  })()
}

/**
 * Whether the caller may deploy to (and so stop or delete) the named environment: Developers may,
 * unless the environment is protected; then only the listed roles, users and group members
 * (administrators always may), as GitLab's protected environments decide.
 */
export function canDeployToEnvironment(
  db: Db,
  perms: Permissions,
  project: Pick<ProjectRow, 'id'>,
  name: string,
): boolean {
  if (!perms.canInProject(project, AccessLevel.DEVELOPER)) return false
  const rule = findProtectedEnvironment(db, project.id, name)
  if (!rule || perms.isAdmin) return true
  const user = perms.user
  if (!user) return false
  return rule.levels.some((level) => {
    if (level.user_id !== null) return level.user_id === user.id
    if (level.group_id !== null) return perms.groupAccess(level.group_id) > AccessLevel.NO_ACCESS
    if (level.access_level === AccessLevel.ADMIN) return false
    return perms.projectAccess(project) >= level.access_level
  })
}

/**
 * Whether the named environment is protected and the caller may not deploy to it (GitLab's
 * `protected_from?`): what blocks a CI job deploying there. Unprotected environments block no one.
 */
export function protectedFromDeploying(
  db: Db,
  perms: Permissions,
  project: Pick<ProjectRow, 'id'>,
  name: string,
): boolean {
  return (
    findProtectedEnvironment(db, project.id, name) !== undefined && !canDeployToEnvironment(db, perms, project, name)
  )
}

/** Periodic work: deletes environments whose scheduled deletion has come and stops those past auto_stop_at. */
export function runEnvironmentMaintenance(
  db: Db,
  now = new Date(),
): { readonly deletedEnvironments: number; readonly stoppedEnvironments: number } {
  const at = now.toISOString()
  return db.transaction(() => {
    const due = environmentsDueForDeletion(db, at)
    for (const env of due) deleteEnvironment(db, env.id)
    const stale = environmentsDueForStop(db, at)
    for (const env of stale) updateEnvironment(db, env.id, { state: 'stopped' })
    return { deletedEnvironments: due.length, stoppedEnvironments: stale.length }
  })()
}

// --- Request-level operations (routes): validation errors become 400s there, side effects here.

export interface EnvironmentCreateParams {
  readonly name: string
  readonly external_url?: string | null
  readonly tier?: EnvironmentTier
  readonly description?: string | null
}

/** Creates an environment (state `available`) and records the audit and activity events. */
export function createEnvironment(
  caller: Caller,
  project: ProjectRow,
  params: EnvironmentCreateParams,
): EnvironmentRow {
  const db = caller.db
  return db.transaction(() => {
    const env = insertValidated(db, project.id, params.name, {
      externalUrl: params.external_url,
      tier: params.tier,
      description: params.description,
    })
    recordProjectChange(caller, project, {
      targetType: 'Environment',
      targetId: env.id,
      targetTitle: env.name,
      audit: { add: 'environment', custom_message: `Created environment ${env.name}` },
    })
    return env
  })()
}

export interface EnvironmentUpdateParams {
  readonly name?: string
  readonly external_url?: string | null
  readonly tier?: EnvironmentTier
  readonly description?: string | null
}

/** Updates name (deprecated, the slug stays), external URL, tier or description. */
export function updateEnvironmentAttributes(
  caller: Caller,
  project: ProjectRow,
  env: EnvironmentRow,
  params: EnvironmentUpdateParams,
): EnvironmentRow {
  const db = caller.db
  return db.transaction(() => {
    const changes: { -readonly [K in keyof EnvironmentChanges]: EnvironmentChanges[K] } = {}
    if (params.name !== undefined && params.name !== env.name) changes.name = params.name
    if (params.external_url !== undefined) changes.external_url = blankToNull(params.external_url)
    if (params.tier !== undefined) changes.tier = params.tier
    if (params.description !== undefined) changes.description = params.description
    checkAttributes(db, project.id, { name: changes.name, externalUrl: changes.external_url }, env.id)
    if (Object.keys(changes).length === 0) return env
    const updated = updateEnvironment(db, env.id, changes)
    const changed = Object.keys(changes).join(', ')
    recordProjectChange(caller, project, {
      targetType: 'Environment',
      targetId: env.id,
      targetTitle: updated.name,
      audit: { change: changed, custom_message: `Updated environment ${updated.name} (${changed})` },
    })
    return updated
  })()
}

/**
 * The job that stops the environment: the `environment:on_stop` job of the pipeline that made its
 * last deployment, when it can be played (GitLab's stop action).
 */
function stopActionOf(db: Db, env: EnvironmentRow): JobRow | undefined {
  const last = lastDeployments(db, [env.id]).get(env.id)
  const deployer = last && last.deployable_id !== null ? findJobById(db, last.deployable_id) : undefined
  const onStop = deployer ? jobOptions(deployer).environment?.on_stop : undefined
  if (!deployer || !onStop) return undefined
  return latestJobs(pipelineJobs(db, deployer.pipeline_id)).find((j) => j.name === onStop && jobPlayable(j))
}

/**
 * Stops an environment at once: the spec's transition is `available` → `stopped` (200), with no
 * intermediate state. With a stop action (and without `force`) its on_stop job is played too,
 * as GitLab did before it introduced `stopping`. A stopped environment stays as it is.
 */
export async function stopEnvironment(
  caller: Caller,
  project: ProjectRow,
  env: EnvironmentRow,
  force = false,
): Promise<EnvironmentRow> {
  const ctx = caller.ctx
  if (env.state === 'stopped') return env
  const user = caller.user
  const action = force || !user ? undefined : stopActionOf(ctx.db, env)
  const updated = ctx.db.transaction(() => {
    const row = updateEnvironment(ctx.db, env.id, { state: 'stopped' })
    recordProjectChange(caller, project, {
      targetType: 'Environment',
      targetId: env.id,
      targetTitle: env.name,
      audit: {
        change: 'state',
        from: env.state,
        to: 'stopped',
        custom_message: `Stopped environment ${env.name}${action ? ` (running ${action.name})` : ''}`,
      },
    })
    return row
  })()
  if (!action || !user) return updated
  await playJob(ctx, action, user, caller)
  return findEnvironment(ctx.db, project.id, env.id) ?? updated
}

/** Deletes an environment and its deployments. */
export function destroyEnvironment(caller: Caller, project: ProjectRow, env: EnvironmentRow): void {
  const db = caller.db
  db.transaction(() => {
    deleteEnvironment(db, env.id)
    recordProjectChange(caller, project, {
      targetType: 'Environment',
      targetId: env.id,
      targetTitle: env.name,
      audit: { remove: 'environment', custom_message: `Deleted environment ${env.name}` },
    })
  })()
}

/** How long a review app scheduled for deletion survives (GitLab: one week). */
export const REVIEW_APP_DELETION_DELAY_MS = 7 * 24 * 60 * 60 * 1000

export interface ReviewAppsDeletion {
  readonly scheduled: readonly EnvironmentRow[]
  readonly unprocessable: readonly EnvironmentRow[]
}

/**
 * Picks the stopped review apps older than `before` (at most `limit`); when the caller may delete
 * every one of them and this is not a dry run, schedules their deletion a week from now (the
 * periodic maintenance deletes them then). Protected ones the caller may not deploy to are
 * unprocessable, and then nothing is scheduled, as GitLab does.
 */
export function scheduleReviewAppsDeletion(
  caller: Caller,
  project: ProjectRow,
  params: { readonly before: string; readonly limit: number; readonly dryRun: boolean },
): ReviewAppsDeletion {
  const db = caller.db
  return db.transaction(() => {
    const candidates = stoppedReviewApps(db, project.id, params.before, params.limit)
    const scheduled = candidates.filter((env) => canDeployToEnvironment(db, caller.perms, project, env.name))
    const unprocessable = candidates.filter((env) => !scheduled.includes(env))
    if (scheduled.length === 0 || unprocessable.length > 0) return { scheduled: [], unprocessable }
    if (!params.dryRun) {
      const at = new Date(Date.parse(nowIso()) + REVIEW_APP_DELETION_DELAY_MS).toISOString()
      scheduleEnvironmentDeletion(
        db,
        scheduled.map((e) => e.id),
        at,
      )
      for (const env of scheduled) {
        recordProjectChange(caller, project, {
          targetType: 'Environment',
          targetId: env.id,
          targetTitle: env.name,
          audit: {
            change: 'auto_delete_at',
            from: null,
            to: at,
            custom_message: `Scheduled review app ${env.name} for deletion`,
          },
        })
      }
    }
    return { scheduled, unprocessable }
  })()
}

// --- Presentation: everything a page of environments or deployments needs, loaded in bulk.

/**
 * What each deployment of a page shows beyond its row: its user and its deploying CI job as
 * GitLab's Job entity (jobs of deleted pipelines are absent), one query each for the page.
 */
function deploymentExtrasOf(caller: Caller, rows: readonly DeploymentRow[]): (d: DeploymentRow) => DeploymentExtras {
  const { db, baseUrl } = caller
  const users = usersByIds(db, [...new Set(rows.map((r) => r.user_id).filter((id): id is number => id !== null))])
  const jobs = jobEntitiesById(
    db,
    baseUrl,
    rows.map((r) => r.deployable_id).filter((id): id is number => id !== null),
  )
  return (d) => ({
    baseUrl,
    user: d.user_id !== null ? users.get(d.user_id) : undefined,
    deployable: d.deployable_id !== null ? (jobs.get(d.deployable_id) ?? null) : null,
  })
}

/** Deployments as GitLab's Deployment entity (users, environments and jobs in one query each). */
export function presentDeployments(caller: Caller, rows: readonly DeploymentRow[]): Deployment[] {
  const envs = environmentsByIds(caller.db, [...new Set(rows.map((r) => r.environment_id))])
  const extrasOf = deploymentExtrasOf(caller, rows)
  return rows.map((d) => {
    // deployments.environment_id is NOT NULL and cascades: a deployment's environment exists.
    const env = envs.get(d.environment_id)
    if (!env) throw new Error(`deployment ${d.id} has no environment ${d.environment_id}`)
    return deploymentEntity(d, env, extrasOf(d))
  })
}

/** One environment with `last_deployment` (its latest successful deployment, or null). */
export function presentEnvironmentDetail(caller: Caller, env: EnvironmentRow): EnvironmentDetail {
  const last = lastDeployments(caller.db, [env.id]).get(env.id)
  return {
    ...environmentEntity(env),
    last_deployment: last ? environmentDeploymentEntity(last, deploymentExtrasOf(caller, [last])(last)) : null,
  }
}
