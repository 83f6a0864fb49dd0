import type { Job, RunnerJob } from '../../../shared/api/job'
import type { Pipeline, PipelineBasic } from '../../../shared/api/pipeline'
import type { Caller } from '../../platform/caller'
import type { Db } from '../../platform/db/connection'
import { artifactsOfJobs } from './artifacts-queries'
import { jobsByIds, pipelineJobs, pipelinesByIds, type JobRow, type PipelineRow } from './queries'
import { usersByIds } from '../users'
import { runnersByIds } from '../runners'
import { findProjectWithNamespace, type ProjectWithNamespaceRow } from '../projects'
import { jobEntity, runnerJobEntity, type JobContext } from './job-entity'
import { pipelineBasicEntity, pipelineEntity } from './entity'
import { latestJobs } from './service'

/** The ids among `ids` that are set. */
function presentIds(ids: readonly (number | null)[]): number[] {
  return ids.filter((id): id is number => id !== null)
}

function projectsById(db: Db, ids: readonly number[]): Map<number, ProjectWithNamespaceRow> {
  const out = new Map<number, ProjectWithNamespaceRow>()
  for (const id of new Set(ids)) {
    const p = findProjectWithNamespace(db, id)
    if (p) out.set(id, p)
  }
  return out
}

/** Pipeline list rows (GitLab's PipelineBasic). */
export function presentPipelines(caller: Caller, rows: readonly PipelineRow[]): PipelineBasic[] {
  const baseUrl = caller.baseUrl
  const projects = projectsById(
    caller.db,
    rows.map((r) => r.project_id),
  )
  return rows.map((p) => {
    const project = projects.get(p.project_id) as ProjectWithNamespaceRow
    return pipelineBasicEntity(p, { baseUrl, projectPath: `${project.ns_full_path}/${project.path}` })
  })
}

/** One pipeline with its user, dates, coverage and detailed status (GitLab's Pipeline). */
export function presentPipeline(caller: Caller, row: PipelineRow): Pipeline {
  const db = caller.db
  const project = findProjectWithNamespace(db, row.project_id) as ProjectWithNamespaceRow
  const user = row.user_id !== null ? usersByIds(db, [row.user_id]).get(row.user_id) : undefined
  const coverages = latestJobs(pipelineJobs(db, row.id))
    .map((j) => j.coverage)
    .filter((c): c is number => c !== null)
  const coverage = coverages.length > 0 ? coverages.reduce((a, b) => a + b, 0) / coverages.length : null
  return pipelineEntity(
    row,
    { baseUrl: caller.baseUrl, projectPath: `${project.ns_full_path}/${project.path}` },
    user,
    coverage,
  )
}

/**
 * What serialising each job of a page needs, loaded once for the page: pipelines, projects, users,
 * runners and artifacts.
 */
function jobContexts(db: Db, baseUrl: string, rows: readonly JobRow[]): (job: JobRow) => JobContext {
  const pipelines = pipelinesByIds(
    db,
    rows.map((j) => j.pipeline_id),
  )
  const projects = projectsById(
    db,
    rows.map((j) => j.project_id),
  )
  const users = usersByIds(db, presentIds(rows.map((j) => j.user_id)))
  const runners = runnersByIds(db, presentIds(rows.map((j) => j.runner_id)))
  const artifacts = artifactsOfJobs(
    db,
    rows.map((j) => j.id),
  )
  const now = Date.now()
  return (job) => ({
    baseUrl,
    project: projects.get(job.project_id) as ProjectWithNamespaceRow,
    pipeline: pipelines.get(job.pipeline_id) as PipelineRow,
    user: job.user_id !== null ? users.get(job.user_id) : undefined,
    runner: job.runner_id !== null ? runners.get(job.runner_id) : undefined,
    artifacts: artifacts.get(job.id) ?? [],
    now,
  })
}

/** Jobs as the caller gets them (GitLab's Job entity), a page at a time. */
export function presentJobs(caller: Caller, rows: readonly JobRow[]): Job[] {
  const contextOf = jobContexts(caller.db, caller.baseUrl, rows)
  return rows.map((job) => jobEntity(job, contextOf(job)))
}

/** A runner's jobs (GitLab's JobBasicWithProject), a page at a time. */
export function presentRunnerJobs(caller: Caller, rows: readonly JobRow[]): RunnerJob[] {
  const contextOf = jobContexts(caller.db, caller.baseUrl, rows)
  return rows.map((job) => runnerJobEntity(job, contextOf(job)))
}

/** GitLab's Job entity for each existing job id (a deployment's `deployable`). */
export function jobEntitiesById(db: Db, baseUrl: string, ids: readonly number[]): Map<number, Job> {
  if (ids.length === 0) return new Map()
  const rows = jobsByIds(db, ids)
  const contextOf = jobContexts(db, baseUrl, rows)
  return new Map(rows.map((r) => [r.id, jobEntity(r, contextOf(r))]))
}
