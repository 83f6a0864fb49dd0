import type { Job, RunnerJob } from '../../../shared/api/job'
import type { JobArtifactRow } from './artifacts-queries'
import type { JobRow, PipelineRow } from './queries'
import type { ProjectWithNamespaceRow } from '../projects'
import type { UserRow } from '../../platform/db/rows'
import type { RunnerRow } from '../runners'
import { commitEntity, type GitCommit } from '../../platform/git/commits'
import { pipelineBasicEntity } from './entity'
import { projectRef } from '../projects'
import { runnerEntity } from '../runners'
import { userPublic } from '../users'

/** What serialising a job needs besides its row, loaded once per page. */
export interface JobContext {
  readonly baseUrl: string
  readonly project: ProjectWithNamespaceRow
  readonly pipeline: PipelineRow
  readonly user: UserRow | undefined
  readonly runner: RunnerRow | undefined
  readonly artifacts: readonly JobArtifactRow[]
  readonly now: number
}

function elapsed(from: string | null, to: string | null, now: number): number | null {
  if (!from) return null
  const end = to ? Date.parse(to) : now
  return Math.max(0, (end - Date.parse(from)) / 1000)
}

/** The commit a pipeline ran on, as stored when it was created. */
export function pipelineCommit(p: PipelineRow): GitCommit {
  return JSON.parse(p.commit_json) as GitCommit
}

/** GitLab's JobBasic fields, shared by the job entity and a runner's jobs. */
type JobBasic = Omit<
  Job,
  | 'project'
  | 'artifacts_file'
  | 'artifacts'
  | 'runner'
  | 'runner_manager'
  | 'artifacts_expire_at'
  | 'archived'
  | 'tag_list'
>

/** GitLab's JobBasic entity. `failure_reason` only on failed jobs. */
export function jobBasicEntity(job: JobRow, c: JobContext): JobBasic {
  const projectPath = `${c.project.ns_full_path}/${c.project.path}`
  const projectUrl = `${c.baseUrl}/${projectPath}`
  return {
    id: job.id,
    status: job.status,
    stage: job.stage,
    name: job.name,
    ref: c.pipeline.ref,
    tag: c.pipeline.tag === 1,
    coverage: job.coverage,
    allow_failure: job.allow_failure === 1,
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
    erased_at: job.erased_at,
    duration: job.started_at ? elapsed(job.started_at, job.finished_at, c.now) : null,
    queued_duration: job.queued_at ? elapsed(job.queued_at, job.started_at, c.now) : null,
    user: c.user ? userPublic(c.user, c.baseUrl) : null,
    commit: commitEntity(pipelineCommit(c.pipeline), projectUrl),
    pipeline: pipelineBasicEntity(c.pipeline, { baseUrl: c.baseUrl, projectPath }),
    web_url: `${projectUrl}/-/jobs/${job.id}`,
    failure_reason: job.status === 'failed' ? (job.failure_reason ?? 'unknown_failure') : undefined,
  }
}

/** GitLab's Job entity: JobBasic plus artifacts, runner and tags. */
export function jobEntity(job: JobRow, c: JobContext): Job {
  const archive = c.artifacts.find((a) => a.file_type === 'archive')
  return {
    ...jobBasicEntity(job, c),
    project: { ci_job_token_scope_enabled: false },
    artifacts_file: archive ? { filename: archive.filename, size: archive.size } : undefined,
    artifacts: c.artifacts.map((a) => ({
      file_type: a.file_type,
      size: a.size,
      filename: a.filename,
      file_format: a.file_format,
    })),
    runner: c.runner ? runnerEntity(c.runner, c.now) : null,
    runner_manager: null,
    artifacts_expire_at: job.artifacts_expire_at,
    archived: false,
    tag_list: (JSON.parse(job.tag_list) as string[]).slice().sort(),
  }
}

/**
 * A runner's job (`GET /runners/:id/jobs`, GitLab's JobBasicWithProject) as the spec lists it:
 * the runner's ip_address, a whole-second duration and the project_ref.
 */
export function runnerJobEntity(job: JobRow, c: JobContext): RunnerJob {
  const basic = jobBasicEntity(job, c)
  return {
    ...basic,
    ip_address: c.runner?.ip_address ?? null,
    duration: basic.duration === null ? null : Math.round(basic.duration),
    project: { ...projectRef(c.project), ci_job_token_scope_enabled: false },
  }
}
