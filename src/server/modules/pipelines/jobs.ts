import type { Caller } from '../../platform/caller'
import { digestToken, generateToken } from '../../platform/auth/secrets'
import type { ServerContext } from '../../platform/context'
import { nowIso, type Db } from '../../platform/db/connection'
import { ApiError, forbidden } from '../../platform/http/errors'
import { artifactsOfJobs } from './artifacts-queries'
import { groupAndDescendantIds } from '../namespaces'
import {
  findJobById,
  findJobByTokenDigest,
  findPipelineById,
  pendingJobsFor,
  pipelineJobs,
  readTrace,
  transitionJob,
  type CiStatus,
  type JobRow,
  type PipelineRow,
  type QueuedJobRow,
} from './queries'
import { findProjectWithNamespace, type ProjectWithNamespaceRow } from '../projects'
import { runnerTags, touchRunner, type RunnerInfo, type RunnerRow } from '../runners'
import { findUserById } from '../users'
import { projectSettings } from '../projects'
import { pipelineCommit } from './job-entity'
import { jobVariables, pipelineVariables, predefinedVariables, projectVariablesFor } from './ci-context'
import { deploymentTargets } from './ci-events'
import { storeTraceArtifact } from './artifacts'
import { jobOptions, latestJobs, pipelineInputVariables, processPipeline } from './service'

/** A variable as the runner receives it. */
export interface RunnerVariable {
  readonly key: string
  readonly value: string
  readonly public: boolean
  readonly masked: boolean
  readonly file?: boolean
  readonly raw?: boolean
}

// Report types GitLab uploads gzipped; the security and other reports go up as they are.
const GZIP_REPORTS = new Set([
  'junit',
  'dotenv',
  'cobertura',
  'coverage_report',
  'metrics',
  'cyclonedx',
  'lsif',
  'accessibility',
])

/** Whether this runner may take this pending job: project settings, tags, protection. */
function runnerCanTake(runner: RunnerRow, job: QueuedJobRow): boolean {
  if (job.project_archived === 1) return false
  const settings = projectSettings(job.project_settings)
  if (settings.builds_access_level === 'disabled') return false
  if (runner.runner_type === 'instance_type' && settings.shared_runners_enabled === false) return false
  if (runner.runner_type === 'group_type' && settings.group_runners_enabled === false) return false
  if (runner.access_level === 'ref_protected' && job.pipeline_protected !== 1) return false
  const wanted = JSON.parse(job.tag_list) as string[]
  if (wanted.length === 0) return runner.run_untagged === 1
  const have = new Set(runnerTags(runner))
  return wanted.every((t) => have.has(t))
}

/** What `POST /jobs/request` answers with when it hands out a job. */
export interface JobPayload {
  readonly job: JobRow
  readonly body: Readonly<Record<string, unknown>>
}

/**
 * Hands the oldest pending job this runner may take to it, as GitLab's RegisterJobService:
 * the job becomes `running` with a fresh job token, and the runner gets everything it needs to
 * run it (git, steps, variables, image, artifacts to upload, dependencies to download).
 * Null when there is nothing for it.
 */
export async function assignJob(caller: Caller, runner: RunnerRow, info: RunnerInfo): Promise<JobPayload | null> {
  const ctx = caller.ctx
  touchRunner(ctx.db, runner.id, info)
  if (runner.active !== 1) return null
  const namespaces =
    runner.runner_type === 'group_type' && runner.group_id !== null
      ? groupAndDescendantIds(ctx.db, runner.group_id)
      : []
  // The queue is read a page at a time, oldest first, until a job fits this runner.
  for (let afterId = 0; ;) {
    const page = pendingJobsFor(ctx.db, runner, namespaces, { limit: 100, afterId })
    for (const candidate of page) {
      if (!runnerCanTake(runner, candidate)) continue
      const token = generateToken('glcbt-')
      const taken = transitionJob(ctx.db, candidate.id, ['pending'], {
        status: 'running',
        runner_id: runner.id,
        token_digest: digestToken(token),
        started_at: nowIso(),
      })
      if (!taken) continue
      const job = pipelineJobs(ctx.db, candidate.pipeline_id).find((j) => j.id === candidate.id) as JobRow
      await processPipeline(ctx, job.pipeline_id, caller, [{ job, previous: 'pending' }])
      const pipeline = findPipelineById(ctx.db, job.pipeline_id) as PipelineRow
      return { job, body: jobPayload(caller, runner, job, pipeline, token) }
    }
    if (page.length < 100) return null
    afterId = page[page.length - 1].id
  }
}

function artifactsSpec(job: JobRow): Readonly<Record<string, unknown>>[] | null {
  const a = jobOptions(job).artifacts
  if (!a) return null
  const out: Readonly<Record<string, unknown>>[] = []
  if (a.paths.length > 0 || a.untracked) {
    out.push({
      name: a.name ?? 'artifacts',
      untracked: a.untracked,
      paths: a.paths,
      exclude: a.exclude,
      when: a.when,
      expire_in: a.expire_in ?? null,
      artifact_type: 'archive',
      artifact_format: 'zip',
    })
  }
  for (const [type, paths] of Object.entries(a.reports)) {
    out.push({
      name: type,
      untracked: false,
      paths,
      when: 'always',
      expire_in: a.expire_in ?? null,
      artifact_type: type,
      artifact_format: GZIP_REPORTS.has(type) ? 'gzip' : 'raw',
    })
  }
  return out.length > 0 ? out : null
}

/** Jobs whose archives this job downloads: `dependencies:` when given, else every earlier stage's. */
function dependencyJobs(ctx: ServerContext, job: JobRow): JobRow[] {
  const options = jobOptions(job)
  const jobs = latestJobs(pipelineJobs(ctx.db, job.pipeline_id))
  const needs = job.needs === null ? null : (JSON.parse(job.needs) as string[])
  if (options.dependencies) return jobs.filter((j) => options.dependencies?.includes(j.name))
  if (needs) return jobs.filter((j) => needs.includes(j.name))
  return jobs.filter((j) => j.stage_idx < job.stage_idx)
}

function jobPayload(
  caller: Caller,
  runner: RunnerRow,
  job: JobRow,
  pipeline: PipelineRow,
  token: string,
): Readonly<Record<string, unknown>> {
  const ctx = caller.ctx
  const baseUrl = caller.baseUrl
  const project = findProjectWithNamespace(ctx.db, job.project_id) as ProjectWithNamespaceRow
  const projectPath = `${project.ns_full_path}/${project.path}`
  const settings = projectSettings(project.settings)
  const options = jobOptions(job)
  const timeout = Math.min(
    options.timeout ?? Number(settings.build_timeout ?? 3600),
    runner.maximum_timeout ?? Number.MAX_SAFE_INTEGER,
  )
  const variables = runnerVariables(caller, runner, job, pipeline, project, token)
  const repoUrl = new URL(baseUrl)
  repoUrl.username = 'gitlab-ci-token'
  repoUrl.password = token
  const refType = pipeline.tag === 1 ? 'tag' : 'branch'
  const steps: Record<string, unknown>[] = [
    {
      name: 'script',
      script: [...options.before_script, ...options.script],
      timeout,
      when: 'on_success',
      allow_failure: false,
    },
  ]
  if (options.after_script.length > 0)
    steps.push({ name: 'after_script', script: options.after_script, timeout, when: 'always', allow_failure: true })
  const deps = dependencyJobs(ctx, job)
  const depArtifacts = artifactsOfJobs(
    ctx.db,
    deps.map((d) => d.id),
  )
  return {
    id: job.id,
    token,
    allow_git_fetch: settings.build_git_strategy !== 'clone',
    job_info: {
      id: job.id,
      name: job.name,
      stage: job.stage,
      project_id: project.id,
      project_name: project.name,
      time_in_queue_seconds:
        job.queued_at && job.started_at
          ? Math.max(0, Math.round((Date.parse(job.started_at) - Date.parse(job.queued_at)) / 1000))
          : 0,
      project_jobs_running_on_instance_runners_count: '+Inf',
    },
    git_info: {
      repo_url: `${repoUrl.toString().replace(/\/$/, '')}/${projectPath}.git`,
      ref: pipeline.ref,
      sha: pipeline.sha,
      before_sha: pipeline.before_sha,
      ref_type: refType,
      // Burrow keeps no refs/pipelines/<id>: the runner fetches the branch or tag itself.
      refspecs: [
        refType === 'tag'
          ? `+refs/tags/${pipeline.ref}:refs/tags/${pipeline.ref}`
          : `+refs/heads/${pipeline.ref}:refs/remotes/origin/${pipeline.ref}`,
      ],
      depth: Number(settings.ci_default_git_depth ?? 20),
      repo_object_format: 'sha1',
    },
    runner_info: { timeout, runner_session_url: null },
    variables,
    steps,
    image: options.image
      ? { name: options.image.name, entrypoint: options.image.entrypoint ?? null, ports: [], pull_policy: null }
      : null,
    services: options.services.map((s) => ({
      name: s.name,
      alias: s.alias ?? null,
      entrypoint: s.entrypoint ?? null,
      command: s.command ?? null,
      ports: [],
      variables: [],
    })),
    artifacts: artifactsSpec(job),
    cache: [],
    credentials: [{ type: 'registry', url: new URL(baseUrl).host, username: 'gitlab-ci-token', password: token }],
    features: {
      trace_sections: true,
      failure_reasons: [
        'unknown_failure',
        'script_failure',
        'runner_system_failure',
        'job_execution_timeout',
        'stuck_or_timeout_failure',
      ],
    },
    dependencies: deps.flatMap((d) => {
      const archive = (depArtifacts.get(d.id) ?? []).find((a) => a.file_type === 'archive')
      return archive
        ? [{ id: d.id, name: d.name, token, artifacts_file: { filename: archive.filename, size: archive.size } }]
        : []
    }),
    hooks: [],
  }
}

function expand(text: string, vars: Readonly<Record<string, string>>): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (all, a: string | undefined, b: string | undefined) => vars[a ?? b ?? ''] ?? all,
  )
}

/**
 * The job's variables in GitLab's precedence, lowest first: predefined, pipeline and job
 * facts, the configuration's `variables:`, project variables, then those given to the pipeline.
 */
function runnerVariables(
  caller: Caller,
  runner: RunnerRow,
  job: JobRow,
  pipeline: PipelineRow,
  project: ProjectWithNamespaceRow,
  token: string,
): RunnerVariable[] {
  const ctx = caller.ctx
  const baseUrl = caller.baseUrl
  const projectPath = `${project.ns_full_path}/${project.path}`
  const user = pipeline.user_id !== null ? findUserById(ctx.db, pipeline.user_id) : undefined
  const jobUser = job.user_id !== null ? findUserById(ctx.db, job.user_id) : user
  const predefined = {
    ...predefinedVariables(
      ctx,
      {
        project,
        ref: pipeline.ref,
        tag: pipeline.tag === 1,
        sha: pipeline.sha,
        beforeSha: pipeline.before_sha,
        source: pipeline.source,
        protected: pipeline.protected === 1,
        user: jobUser ?? null,
        commit: pipelineCommit(pipeline),
      },
      baseUrl,
    ),
    ...pipelineVariables(pipeline, projectPath, baseUrl),
    ...jobVariables(job, projectPath, runner, token, baseUrl),
  }
  const options = jobOptions(job)
  const env = options.environment
  if (env && job.environment) {
    // The environment's own slug and tier (a job with `environment:` creates it before it runs);
    // the name-derived ones only for one that could not be saved.
    const target = deploymentTargets(ctx).describe(ctx.db, project.id, job.environment, env.deployment_tier)
    predefined.CI_ENVIRONMENT_NAME = job.environment
    predefined.CI_ENVIRONMENT_SLUG = target.slug
    predefined.CI_ENVIRONMENT_ACTION = env.action
    predefined.CI_ENVIRONMENT_TIER = target.tier
    const url = env.url ?? target.url
    if (url) predefined.CI_ENVIRONMENT_URL = expand(url, { ...predefined, ...options.variables })
  }
  const out = new Map<string, RunnerVariable>()
  for (const [key, value] of Object.entries(predefined))
    out.set(key, {
      key,
      value,
      public: key !== 'CI_JOB_TOKEN' && key !== 'CI_BUILD_TOKEN' && key !== 'CI_REPOSITORY_URL',
      masked: key === 'CI_JOB_TOKEN' || key === 'CI_BUILD_TOKEN',
    })
  for (const [key, value] of Object.entries(options.variables))
    out.set(key, { key, value, public: true, masked: false })
  for (const v of projectVariablesFor(ctx, project.id, pipeline.protected === 1, job.environment)) {
    out.set(v.key, {
      key: v.key,
      value: v.value,
      public: false,
      masked: v.masked === 1,
      file: v.variable_type === 'file',
      raw: v.raw === 1,
    })
  }
  for (const v of pipelineInputVariables(ctx, pipeline)) {
    out.set(v.key, { key: v.key, value: v.value, public: false, masked: false, file: v.variable_type === 'file' })
  }
  return [...out.values()]
}

/** The coverage a job's log reports through its `coverage:` regex (the last match), or null. */
function coverageOf(job: JobRow, trace: Buffer | null): number | null {
  const pattern = jobOptions(job).coverage
  if (!pattern || !trace) return null
  const m = /^\/(.*)\/([a-z]*)$/s.exec(pattern)
  if (!m) return null
  let re: RegExp
  try {
    re = new RegExp(m[1], `${m[2].replace(/[^im]/g, '')}g`)
  } catch {
    return null
  }
  let last: string | null = null
  for (const match of trace.toString('utf8').matchAll(re)) last = match[0]
  const number = last === null ? null : /\d+(?:\.\d+)?/.exec(last)
  return number ? Number(number[0]) : null
}

/** The running job whose token (CI_JOB_TOKEN) this is, or null: a finished job's token is worth nothing. */
export function runningJobOfToken(ctx: ServerContext, token: string): JobRow | null {
  const job = token === '' ? undefined : findJobByTokenDigest(ctx.db, digestToken(token))
  return job && job.status === 'running' ? job : null
}

/** The project whose code a running job's token may fetch (`gitlab-ci-token` over git), or null. */
export function runningJobProjectId(ctx: ServerContext, token: string): number | null {
  return runningJobOfToken(ctx, token)?.project_id ?? null
}

/** How a runner finishes a job (`PUT /jobs/:id`). */
export interface JobUpdate {
  readonly state?: 'running' | 'success' | 'failed'
  readonly failureReason?: string
  readonly exitCode?: number
}

/**
 * Records what the runner reports: a running job stays running (a heartbeat); success and failure
 * finish it, keep its log as a `trace` artifact, read its coverage and move the pipeline on.
 * Returns false when the job was no longer running (canceled meanwhile).
 */
export async function finishJob(caller: Caller, job: JobRow, update: JobUpdate): Promise<boolean> {
  const ctx = caller.ctx
  if (update.state === undefined || update.state === 'running') return job.status === 'running'
  const trace = readTrace(ctx.db, job.id)
  const status: CiStatus = update.state
  const done = transitionJob(ctx.db, job.id, ['running'], {
    status,
    finished_at: nowIso(),
    failure_reason: status === 'failed' ? (update.failureReason ?? 'script_failure') : null,
    exit_code: update.exitCode ?? null,
    coverage: coverageOf(job, trace),
  })
  if (!done) return false
  const finished = pipelineJobs(ctx.db, job.pipeline_id).find((j) => j.id === job.id) as JobRow
  await storeTraceArtifact(ctx, finished)
  await processPipeline(ctx, job.pipeline_id, caller, [{ job: finished, previous: 'running' }])
  return true
}

/**
 * The job `id` whose token was sent (GitLab's authenticate_job!): 403 for an unknown job or a
 * wrong token, and, when it must be running, 403 with a Job-Status header otherwise, which tells
 * the runner to stop.
 */
export function authenticateJob(db: Db, id: number, token: string, requireRunning = true): JobRow {
  const job = findJobById(db, id)
  if (!job || !job.token_digest || token === '' || digestToken(token) !== job.token_digest) throw forbidden()
  if (job.erased_at) throw forbidden('Job has been erased!')
  if (requireRunning && job.status !== 'running')
    throw new ApiError(403, { message: '403 Forbidden - Job is not running' }, { 'Job-Status': job.status })
  return job
}
