import type { FastifyRequest } from 'fastify'
import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import type { Db } from '../../platform/db/connection'
import { artifactsOfJobs } from './artifacts-queries'
import { pipelineJobs, pipelinesByIds, type JobRow, type PipelineRow } from './queries'
import { findProjectWithNamespace, type ProjectWithNamespaceRow } from '../projects/queries'
import type { ProjectRow, UserRow } from '../../platform/db/rows'
import type { RunnerRow } from '../runners/queries'
import { jobEntity, runnerJobEntity, type JobContext } from './job-entity'
import { pipelineBasicEntity, pipelineEntity } from './entity'
import { projectSettings } from '../projects/entity'
import { latestJobs } from './service'

function usersById(db: Db, ids: readonly (number | null)[]): Map<number, UserRow> {
  const unique = [...new Set(ids.filter((id): id is number => id !== null))]
  if (unique.length === 0) return new Map()
  const rows = db
    .prepare('SELECT * FROM users WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(unique)) as UserRow[]
  return new Map(rows.map((u) => [u.id, u]))
}

function runnersById(db: Db, ids: readonly (number | null)[]): Map<number, RunnerRow> {
  const unique = [...new Set(ids.filter((id): id is number => id !== null))]
  if (unique.length === 0) return new Map()
  const rows = db
    .prepare('SELECT * FROM ci_runners WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(unique)) as RunnerRow[]
  return new Map(rows.map((r) => [r.id, r]))
}

function projectsById(db: Db, ids: readonly number[]): Map<number, ProjectWithNamespaceRow> {
  const out = new Map<number, ProjectWithNamespaceRow>()
  for (const id of new Set(ids)) {
    const p = findProjectWithNamespace(db, id)
    if (p) out.set(id, p)
  }
  return out
}

/**
 * Who may read a project's pipelines and jobs: the builds feature must not be disabled;
 * Reporters and above always; Guests and others only on public or internal projects whose
 * jobs are public (GitLab keeps private projects' jobs from Guests).
 */
export function canReadBuilds(perms: Permissions, project: ProjectRow): boolean {
  if (!perms.canReadProject(project)) return false
  const s = projectSettings(project.settings)
  if (s.builds_access_level === 'disabled') return false
  if (perms.canInProject(project, AccessLevel.REPORTER)) return true
  if (s.builds_access_level === 'private' || project.visibility === 'private') return false
  return s.public_jobs !== false
}

/** Pipeline list rows (GitLab's PipelineBasic). */
export function presentPipelines(
  request: FastifyRequest,
  rows: readonly PipelineRow[],
): Readonly<Record<string, unknown>>[] {
  const baseUrl = request.server.burrow.baseUrl(request)
  const projects = projectsById(
    request.server.burrow.db,
    rows.map((r) => r.project_id),
  )
  return rows.map((p) => {
    const project = projects.get(p.project_id) as ProjectWithNamespaceRow
    return pipelineBasicEntity(p, { baseUrl, projectPath: `${project.ns_full_path}/${project.path}` })
  })
}

/** One pipeline with its user, dates, coverage and detailed status (GitLab's Pipeline). */
export function presentPipeline(request: FastifyRequest, row: PipelineRow): Readonly<Record<string, unknown>> {
  const db = request.server.burrow.db
  const project = findProjectWithNamespace(db, row.project_id) as ProjectWithNamespaceRow
  const user = row.user_id !== null ? usersById(db, [row.user_id]).get(row.user_id) : undefined
  const coverages = latestJobs(pipelineJobs(db, row.id))
    .map((j) => j.coverage)
    .filter((c): c is number => c !== null)
  const coverage = coverages.length > 0 ? coverages.reduce((a, b) => a + b, 0) / coverages.length : null
  return pipelineEntity(
    row,
    { baseUrl: request.server.burrow.baseUrl(request), projectPath: `${project.ns_full_path}/${project.path}` },
    user,
    coverage,
  )
}

/**
 * Serialises a page of jobs with everything loaded once for the page: pipelines, projects,
 * users, runners and artifacts. `runner` gives the runner-jobs shape (JobBasicWithProject).
 */
export function jobEntities(
  db: Db,
  baseUrl: string,
  rows: readonly JobRow[],
  shape: 'job' | 'runner' = 'job',
): Readonly<Record<string, unknown>>[] {
  const pipelines = pipelinesByIds(
    db,
    rows.map((j) => j.pipeline_id),
  )
  const projects = projectsById(
    db,
    rows.map((j) => j.project_id),
  )
  const users = usersById(
    db,
    rows.map((j) => j.user_id),
  )
  const runners = runnersById(
    db,
    rows.map((j) => j.runner_id),
  )
  const artifacts = artifactsOfJobs(
    db,
    rows.map((j) => j.id),
  )
  const now = Date.now()
  return rows.map((job) => {
    const c: JobContext = {
      baseUrl,
      project: projects.get(job.project_id) as ProjectWithNamespaceRow,
      pipeline: pipelines.get(job.pipeline_id) as PipelineRow,
      user: job.user_id !== null ? users.get(job.user_id) : undefined,
      runner: job.runner_id !== null ? runners.get(job.runner_id) : undefined,
      artifacts: artifacts.get(job.id) ?? [],
      now,
    }
    return shape === 'runner' ? runnerJobEntity(job, c) : jobEntity(job, c)
  })
}

/** Jobs as the request's caller gets them (see jobEntities). */
export function presentJobs(
  request: FastifyRequest,
  rows: readonly JobRow[],
  shape: 'job' | 'runner' = 'job',
): Readonly<Record<string, unknown>>[] {
  return jobEntities(request.server.burrow.db, request.server.burrow.baseUrl(request), rows, shape)
}

/** GitLab's Job entity for each existing job id (a deployment's `deployable`). */
export function jobEntitiesById(
  db: Db,
  baseUrl: string,
  ids: readonly number[],
): Map<number, Readonly<Record<string, unknown>>> {
  if (ids.length === 0) return new Map()
  const rows = db
    .prepare('SELECT * FROM ci_builds WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify([...new Set(ids)])) as JobRow[]
  const entities = jobEntities(db, baseUrl, rows)
  return new Map(rows.map((r, i) => [r.id, entities[i]]))
}
