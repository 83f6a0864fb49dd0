import type { Caller } from '../../platform/caller'
import type { ServerContext } from '../../platform/context'
import { nowIso } from '../../platform/db/connection'
import {
  CANCELABLE_STATUSES,
  COMPLETED_STATUSES,
  cloneJobForRetry,
  findPipelineById,
  insertPipeline,
  pipelineJobs,
  updateJobRow,
  updatePipelineRow,
  type CiStatus,
  type JobRow,
  type NewJob,
  type PipelineRow,
} from './queries'
import type { ProjectRow, UserRow } from '../../platform/db/rows'
import { loadCiConfig, type CiJob } from './config/config'
import { seedJobs, workflowAllows, type JobSeed } from './config/seed'
import { compositeStatus, nextJobStatus } from './config/status'
import { readCommit, type GitCommit } from '../../platform/git/commits'
import { readBlobAt } from '../../platform/git/file-at'
import { ZERO_SHA } from '../../platform/git/git'
import { changedPaths, listPaths } from '../../platform/git/paths'
import { projectGitDir } from '../../platform/git/project-repo'
import { ciConfigPath, includeSource, isProtectedRef, predefinedVariables, projectVariablesFor } from './ci-context'
import { enqueueRefusal, jobStatusChanged, pipelineStatusChanged } from './ci-events'
import type { LandedPush } from '../../platform/git/push-listeners'

/** A variable given when a pipeline is created (`variables[]` of `POST /projects/:id/pipeline`). */
export interface PipelineVariable {
  readonly key: string
  readonly value: string
  readonly variable_type: 'env_var' | 'file'
}

/** The variables `pipeline` was created with, opened. */
export function pipelineInputVariables(ctx: ServerContext, pipeline: PipelineRow): PipelineVariable[] {
  return JSON.parse(ctx.secrets.open(pipeline.encrypted_variables)) as PipelineVariable[]
}

export interface CreatePipelineInput {
  readonly project: ProjectRow
  readonly ref: string
  readonly tag: boolean
  readonly sha: string
  readonly beforeSha?: string
  readonly source: string
  readonly user: UserRow | null
  readonly variables?: readonly PipelineVariable[]
  readonly mergeRequestId?: number | null
  /** Paths the push changed (`rules:changes`); null when unknown, which makes `changes` hold. */
  readonly changedPaths?: readonly string[] | null
  /**
   * A push's old head: the paths changed since it become `changedPaths`, read only once there is
   * a configuration to apply them to (most pushes have none).
   */
  readonly changedSince?: string
  /** The commit at `sha` when the caller has read it already (the push listeners share one read). */
  readonly commit?: GitCommit
  /** Pushes honour `[skip ci]`; pipelines asked for through the API do not. */
  readonly honourSkipCi: boolean
  /** The push said `-o ci.skip`: the pipeline is stored as skipped, as `[skip ci]` makes it. */
  readonly skipRequested?: boolean
  /** Pushes keep a failed pipeline carrying the configuration errors; the API refuses instead. */
  readonly saveOnErrors: boolean
  readonly baseUrl: string
  /** Who asked for it through the API, passed on to status listeners. */
  readonly caller?: Caller | null
}

export type CreatePipelineResult = { readonly pipeline: PipelineRow } | { readonly errors: readonly string[] }

/** What a job's row keeps of its configuration: everything a runner or the API needs later. */
export interface JobOptions {
  readonly script: readonly string[]
  readonly before_script: readonly string[]
  readonly after_script: readonly string[]
  readonly image: CiJob['image']
  readonly services: CiJob['services']
  readonly artifacts: CiJob['artifacts']
  readonly environment: CiJob['environment']
  readonly variables: Readonly<Record<string, string>>
  readonly timeout: number | null
  readonly coverage: string | null
  readonly dependencies: readonly string[] | null
  readonly retry: number
  readonly interruptible: boolean
  readonly resource_group: string | null
}

/** Parses a job's stored options. */
export function jobOptions(job: Pick<JobRow, 'options'>): JobOptions {
  return JSON.parse(job.options) as JobOptions
}

const SKIP_CI = /\[(?:ci[ _-]skip|skip[ _-]ci)\]/i

function newJob(seed: JobSeed): NewJob {
  const j = seed.job
  const options: JobOptions = {
    script: j.script,
    before_script: j.before_script,
    after_script: j.after_script,
    image: j.image,
    services: j.services,
    artifacts: j.artifacts,
    environment: j.environment,
    variables: { ...j.variables, ...seed.ruleVariables },
    timeout: j.timeout,
    coverage: j.coverage,
    dependencies: j.dependencies,
    retry: j.retry,
    interruptible: j.interruptible,
    resource_group: j.resource_group,
  }
  return {
    name: j.name,
    stage: j.stage,
    stageIdx: seed.stageIndex,
    when: seed.when,
    allowFailure: seed.allowFailure,
    needs: j.needs,
    tagList: j.tags,
    options: JSON.stringify(options),
    environment: j.environment?.name ?? null,
  }
}

/** What creating a pipeline would do, before anything is stored. */
export type PipelinePlan =
  | { readonly kind: 'refused'; readonly errors: readonly string[]; readonly warnings: readonly string[] }
  /** Stored as failed with its configuration errors when the caller saves on errors (pushes). */
  | { readonly kind: 'invalid'; readonly errors: readonly string[]; readonly warnings: readonly string[] }
  | { readonly kind: 'skipped' }
  | { readonly kind: 'jobs'; readonly seeds: readonly JobSeed[]; readonly warnings: readonly string[] }

interface PlanFacts {
  readonly commit: GitCommit
  readonly protectedRef: boolean
  readonly beforeSha: string
}

/**
 * Decides what a pipeline for `input` would contain, as GitLab's CreatePipelineService chain
 * does: reads the configuration (the project's file at the commit, or `content` for a lint dry
 * run) with its includes, applies `workflow:rules` and each job's rules (or only/except).
 */
export async function planPipeline(
  ctx: ServerContext,
  input: CreatePipelineInput,
  content?: string,
): Promise<{ plan: PipelinePlan; facts: PlanFacts | null }> {
  const gitDir = projectGitDir(ctx, input.project)
  let commit: GitCommit
  try {
    commit = input.commit ?? (await readCommit(gitDir, input.sha))
  } catch {
    return { plan: { kind: 'refused', errors: ['Reference not found'], warnings: [] }, facts: null }
  }
  let text = content
  if (text === undefined) {
    const file = await readBlobAt(gitDir, commit.id, ciConfigPath(input.project)).catch(() => null)
    if (!file) return { plan: { kind: 'refused', errors: ['Missing CI config file'], warnings: [] }, facts: null }
    text = file.content.toString('utf8')
  }
  const protectedRef = isProtectedRef(ctx, input.project, input.ref, input.tag)
  const facts: PlanFacts = { commit, protectedRef, beforeSha: input.beforeSha ?? ZERO_SHA }
  if (input.skipRequested === true || (input.honourSkipCi && SKIP_CI.test(commit.message)))
    return { plan: { kind: 'skipped' }, facts }
  const variables: Record<string, string> = predefinedVariables(
    ctx,
    { ...input, sha: commit.id, beforeSha: facts.beforeSha, protected: protectedRef, commit },
    input.baseUrl,
  )
  for (const v of projectVariablesFor(ctx, input.project.id, protectedRef, null)) variables[v.key] = v.value
  for (const v of input.variables ?? []) variables[v.key] = v.value
  const loaded = await loadCiConfig(
    text,
    includeSource(ctx, { project: input.project, sha: commit.id }, input.user, variables, input.baseUrl),
  )
  if (!loaded.config) return { plan: { kind: 'invalid', errors: loaded.errors, warnings: loaded.warnings }, facts }
  const seedContext = {
    ref: input.ref,
    tag: input.tag,
    source: input.source,
    projectPath: variables.CI_PROJECT_PATH,
    variables,
    changedPaths:
      input.changedSince === undefined
        ? (input.changedPaths ?? null)
        : await changedPaths(gitDir, input.changedSince, commit.id),
    repositoryPaths: await listPaths(gitDir, commit.id),
  }
  if (!workflowAllows(loaded.config, seedContext))
    return {
      plan: { kind: 'refused', errors: ['Pipeline filtered out by workflow rules.'], warnings: loaded.warnings },
      facts,
    }
  const { seeds, errors } = seedJobs(loaded.config, seedContext)
  if (errors.length > 0) return { plan: { kind: 'invalid', errors, warnings: loaded.warnings }, facts }
  if (seeds.length === 0)
    return {
      plan: { kind: 'refused', errors: ['No stages / jobs for this pipeline.'], warnings: loaded.warnings },
      facts,
    }
  const expanded = seeds.map((s) => withExpandedEnvironment(s, { ...s.job.variables, ...variables }))
  return { plan: { kind: 'jobs', seeds: expanded, warnings: loaded.warnings }, facts }
}

function expandText(text: string, vars: Readonly<Record<string, string>>): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (all, a: string | undefined, b: string | undefined) => vars[a ?? b ?? ''] ?? all,
  )
}

/** Environment names and URLs may use variables (`review/$CI_COMMIT_REF_SLUG`); GitLab expands them when the job is created. */
function withExpandedEnvironment(seed: JobSeed, vars: Readonly<Record<string, string>>): JobSeed {
  const env = seed.job.environment
  if (!env) return seed
  const name = expandText(env.name, vars)
  const url = env.url === undefined ? undefined : expandText(env.url, vars)
  return { ...seed, job: { ...seed.job, environment: { ...env, name, ...(url === undefined ? {} : { url }) } } }
}

/**
 * Creates a pipeline from the project's CI configuration at `sha` (see planPipeline), stores it
 * with its jobs and starts the first stage. Returns the errors instead when none is created.
 */
export async function createPipeline(ctx: ServerContext, input: CreatePipelineInput): Promise<CreatePipelineResult> {
  const { plan, facts } = await planPipeline(ctx, input)
  if (plan.kind === 'refused' || !facts)
    return { errors: plan.kind === 'refused' ? plan.errors : ['Reference not found'] }
  if (plan.kind === 'invalid' && !input.saveOnErrors) return { errors: plan.errors }
  const caller = input.caller ?? null
  const pipeline = insertPipeline(
    ctx.db,
    {
      projectId: input.project.id,
      ref: input.ref,
      tag: input.tag,
      sha: facts.commit.id,
      beforeSha: facts.beforeSha,
      protected: facts.protectedRef,
      status: plan.kind === 'jobs' ? 'created' : plan.kind === 'skipped' ? 'skipped' : 'failed',
      source: input.source,
      userId: input.user?.id ?? null,
      yamlErrors: plan.kind === 'invalid' ? plan.errors.join(', ') : null,
      failureReason: plan.kind === 'invalid' ? 'config_error' : null,
      commitJson: JSON.stringify(facts.commit),
      encryptedVariables: ctx.secrets.seal(JSON.stringify(input.variables ?? [])),
      mergeRequestId: input.mergeRequestId ?? null,
      committedAt: facts.commit.committedDate,
    },
    plan.kind === 'jobs' ? plan.seeds.map(newJob) : [],
  )
  await pipelineStatusChanged({ ctx, caller, pipeline, previous: null })
  if (plan.kind !== 'jobs') return { pipeline }
  for (const job of latestJobs(pipelineJobs(ctx.db, pipeline.id)))
    await jobStatusChanged({ ctx, caller, job, pipeline, previous: null })
  return { pipeline: await processPipeline(ctx, pipeline.id, caller) }
}

/** The jobs that count: the newest of each name (retried ones are history). */
export function latestJobs(jobs: readonly JobRow[]): JobRow[] {
  return jobs.filter((j) => j.retried === 0)
}

/**
 * Moves a pipeline forward, as GitLab's AtomicProcessingService: each `created` job whose
 * previous stages (or needs) are complete becomes pending, manual or skipped; then the pipeline's
 * status is recomputed from its jobs. Status listeners hear about every change.
 */
export async function processPipeline(
  ctx: ServerContext,
  pipelineId: number,
  caller: Caller | null,
  changedJobs: readonly { readonly job: JobRow; readonly previous: CiStatus }[] = [],
): Promise<PipelineRow> {
  const db = ctx.db
  const before = findPipelineById(db, pipelineId) as PipelineRow
  const changes: { job: JobRow; previous: CiStatus }[] = [...changedJobs]
  let jobs = latestJobs(pipelineJobs(db, pipelineId))
  for (let progressed = true; progressed;) {
    progressed = false
    for (const job of jobs) {
      if (job.status !== 'created') continue
      const needs = job.needs === null ? null : (JSON.parse(job.needs) as string[])
      const deps =
        needs === null ? jobs.filter((j) => j.stage_idx < job.stage_idx) : jobs.filter((j) => needs.includes(j.name))
      const prior = compositeStatus(deps, needs !== null) ?? 'success'
      if (!COMPLETED_STATUSES.includes(prior)) continue
      const next = nextJobStatus(job.when, prior, needs !== null)
      const updated = next === 'pending' ? enqueueJob(ctx, job) : updateJobRow(db, job.id, { status: next })
      changes.push({ job: updated, previous: job.status })
      progressed = true
    }
    if (progressed) jobs = latestJobs(pipelineJobs(db, pipelineId))
  }
  const status = compositeStatus(jobs) ?? 'skipped'
  const startedAt =
    jobs
      .map((j) => j.started_at)
      .filter((t): t is string => t !== null)
      .sort()[0] ?? null
  const finished = COMPLETED_STATUSES.includes(status)
  const finishedAt = finished ? (before.finished_at && before.status === status ? before.finished_at : nowIso()) : null
  const pipeline =
    status !== before.status || startedAt !== before.started_at || finishedAt !== before.finished_at
      ? updatePipelineRow(db, pipelineId, {
          status,
          started_at: before.started_at ?? startedAt,
          finished_at: finishedAt,
        })
      : before
  for (const c of changes) await jobStatusChanged({ ctx, caller, job: c.job, pipeline, previous: c.previous })
  if (pipeline.status !== before.status) await pipelineStatusChanged({ ctx, caller, pipeline, previous: before.status })
  return pipeline
}

/** Cancels every job still to run or running, then lets the pipeline settle. */
export async function cancelPipeline(
  ctx: ServerContext,
  pipeline: PipelineRow,
  caller: Caller | null,
): Promise<PipelineRow> {
  const changed: { job: JobRow; previous: CiStatus }[] = []
  for (const job of latestJobs(pipelineJobs(ctx.db, pipeline.id))) {
    if (!CANCELABLE_STATUSES.includes(job.status)) continue
    changed.push({
      job: updateJobRow(ctx.db, job.id, { status: 'canceled', finished_at: job.started_at ? nowIso() : null }),
      previous: job.status,
    })
  }
  return processPipeline(ctx, pipeline.id, caller, changed)
}

/** Jobs that follow `from` (later stages, or needing it) and were skipped start over as `created`. */
function resetSkippedAfter(ctx: ServerContext, pipelineId: number, from: readonly JobRow[]): void {
  const jobs = latestJobs(pipelineJobs(ctx.db, pipelineId))
  const minStage = Math.min(...from.map((j) => j.stage_idx))
  for (const job of jobs) {
    if (job.status !== 'skipped') continue
    const needs = job.needs === null ? null : (JSON.parse(job.needs) as string[])
    const follows = needs === null ? job.stage_idx > minStage : needs.some((n) => from.some((f) => f.name === n))
    if (follows) updateJobRow(ctx.db, job.id, { status: 'created', finished_at: null })
  }
}

/** Retries every failed or canceled job of the pipeline (GitLab's RetryPipelineService). */
export async function retryPipeline(
  ctx: ServerContext,
  pipeline: PipelineRow,
  user: UserRow,
  caller: Caller | null,
): Promise<PipelineRow> {
  const retryable = latestJobs(pipelineJobs(ctx.db, pipeline.id)).filter(
    (j) => j.status === 'failed' || j.status === 'canceled',
  )
  if (retryable.length === 0) return pipeline
  for (const job of retryable) cloneJobForRetry(ctx.db, job, user.id)
  resetSkippedAfter(ctx, pipeline.id, retryable)
  return processPipeline(ctx, pipeline.id, caller)
}

/** True when a job can be retried: a build (external statuses are external CI's to rerun) that finished and was not erased. */
export function jobRetryable(job: JobRow): boolean {
  return (
    job.type === 'build' &&
    (job.status === 'success' || job.status === 'failed' || job.status === 'canceled') &&
    job.retried === 0
  )
}

/** Retries one job: a new job with the same configuration takes its place (GitLab's RetryJobService). */
export async function retryJob(ctx: ServerContext, job: JobRow, user: UserRow, caller: Caller | null): Promise<JobRow> {
  const clone = cloneJobForRetry(ctx.db, job, user.id)
  resetSkippedAfter(ctx, job.pipeline_id, [job])
  await processPipeline(ctx, job.pipeline_id, caller)
  return latestJobs(pipelineJobs(ctx.db, job.pipeline_id)).find((j) => j.id === clone.id) ?? clone
}

/** Cancels one job when it can still be stopped; returns it as it is afterwards. */
export async function cancelJob(ctx: ServerContext, job: JobRow, caller: Caller | null): Promise<JobRow> {
  if (!CANCELABLE_STATUSES.includes(job.status)) return job
  const updated = updateJobRow(ctx.db, job.id, { status: 'canceled', finished_at: job.started_at ? nowIso() : null })
  await processPipeline(ctx, job.pipeline_id, caller, [{ job: updated, previous: job.status }])
  return updated
}

/** True for a manual job waiting for someone, or a finished manual job that can run again. */
export function jobPlayable(job: JobRow): boolean {
  return job.when === 'manual' && (job.status === 'manual' || jobRetryable(job))
}

/**
 * Queues a job for runners, unless a guard refuses it (a protected environment its user may not
 * deploy to): then it fails at once with the guard's reason and never reaches a runner.
 */
function enqueueJob(ctx: ServerContext, job: JobRow): JobRow {
  const now = nowIso()
  const refusal = enqueueRefusal(ctx, job)
  if (refusal !== null)
    return updateJobRow(ctx.db, job.id, { status: 'failed', failure_reason: refusal, finished_at: now })
  return updateJobRow(ctx.db, job.id, { status: 'pending', queued_at: now })
}

/** Starts a manual job (as `user`), or runs a finished one again. */
export async function playJob(ctx: ServerContext, job: JobRow, user: UserRow, caller: Caller | null): Promise<JobRow> {
  if (job.status !== 'manual') {
    const clone = cloneJobForRetry(ctx.db, job, user.id)
    const queued = enqueueJob(ctx, clone)
    await processPipeline(ctx, job.pipeline_id, caller, [{ job: queued, previous: 'created' }])
    return queued
  }
  const queued = enqueueJob(ctx, updateJobRow(ctx.db, job.id, { user_id: user.id }))
  await processPipeline(ctx, job.pipeline_id, caller, [{ job: queued, previous: 'manual' }])
  return queued
}

/**
 * Push listener: every pushed branch or tag (not deletions) gets a pipeline from its CI
 * configuration, as GitLab creates them on push; `rules:changes` sees the pushed paths. A git
 * push's `-o ci.skip` stores them skipped, its `-o ci.variable="K=V"` are pipeline variables.
 */
export async function createPipelinesOnPush({
  ctx,
  project,
  user,
  updates,
  options,
  reads,
}: LandedPush): Promise<void> {
  const variables = pushOptionVariables(options?.texts('ci.variable') ?? [])
  for (const u of updates) {
    if (u.newSha === ZERO_SHA) continue
    const tag = u.ref.startsWith('refs/tags/')
    if (!tag && !u.ref.startsWith('refs/heads/')) continue
    // A ref that did not end where the push said (a rejected update) gets nothing.
    if ((await reads.refNow(u.ref).catch(() => null))?.commit !== u.newSha) continue
    await createPipeline(ctx, {
      project,
      ref: u.ref.replace(/^refs\/(?:heads|tags)\//, ''),
      tag,
      sha: u.newSha,
      beforeSha: u.oldSha,
      source: 'push',
      user,
      changedSince: u.oldSha,
      commit: (await reads.landedCommit(u).catch(() => null))?.commit,
      honourSkipCi: true,
      skipRequested: options?.has('ci.skip') === true,
      variables,
      saveOnErrors: true,
      baseUrl: ctx.baseUrl(),
    })
  }
}

/** `-o ci.variable="KEY=value"` options as pipeline variables (GitLab splits at the first `=`; no `=`, no variable). */
function pushOptionVariables(options: readonly string[]): PipelineVariable[] {
  return options.flatMap((option) => {
    const at = option.indexOf('=')
    if (at <= 0) return []
    return [{ key: option.slice(0, at), value: option.slice(at + 1), variable_type: 'env_var' as const }]
  })
}
