import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'
import { nextIid } from '../../platform/db/internal-ids'

/** Statuses shared by pipelines and jobs (GitLab's Ci::HasStatus::AVAILABLE_STATUSES). */
export const CI_STATUSES = [
  'created',
  'waiting_for_resource',
  'preparing',
  'pending',
  'running',
  'success',
  'failed',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
] as const
export type CiStatus = (typeof CI_STATUSES)[number]

/** Statuses after which nothing more happens to a job or pipeline. */
export const COMPLETED_STATUSES: readonly CiStatus[] = ['success', 'failed', 'canceled', 'skipped']
/** Statuses of jobs that a cancel stops. */
export const CANCELABLE_STATUSES: readonly CiStatus[] = [
  'created',
  'waiting_for_resource',
  'preparing',
  'pending',
  'running',
  'scheduled',
]
/** Pipeline sources GitLab knows. */
export const PIPELINE_SOURCES = [
  'push',
  'web',
  'trigger',
  'schedule',
  'api',
  'external',
  'pipeline',
  'chat',
  'webide',
  'merge_request_event',
  'external_pull_request_event',
  'parent_pipeline',
  'ondemand_dast_scan',
  'ondemand_dast_validation',
  'security_orchestration_policy',
] as const

/** A row of `ci_pipelines`. */
export interface PipelineRow {
  readonly id: number
  readonly iid: number
  readonly project_id: number
  readonly ref: string
  readonly tag: number
  readonly sha: string
  readonly before_sha: string
  readonly protected: number
  readonly status: CiStatus
  readonly source: string
  readonly user_id: number | null
  readonly yaml_errors: string | null
  readonly failure_reason: string | null
  readonly commit_json: string
  /** The variables the pipeline was created with: JSON sealed with the instance key. */
  readonly encrypted_variables: string
  readonly merge_request_id: number | null
  readonly created_at: string
  readonly updated_at: string
  readonly started_at: string | null
  readonly finished_at: string | null
  readonly committed_at: string | null
}

/** A row of `ci_builds`: one job of a pipeline. */
export interface JobRow {
  readonly id: number
  readonly project_id: number
  readonly pipeline_id: number
  readonly name: string
  readonly stage: string
  readonly stage_idx: number
  readonly status: CiStatus
  readonly when: string
  readonly allow_failure: number
  /** JSON array of job names, or null (stage order). */
  readonly needs: string | null
  readonly tag_list: string
  /** JSON of JobOptions. */
  readonly options: string
  readonly environment: string | null
  readonly coverage: number | null
  readonly user_id: number | null
  readonly runner_id: number | null
  readonly token_digest: string | null
  readonly failure_reason: string | null
  readonly retried: number
  readonly exit_code: number | null
  readonly created_at: string
  readonly updated_at: string
  readonly queued_at: string | null
  readonly started_at: string | null
  readonly finished_at: string | null
  readonly erased_at: string | null
  readonly artifacts_expire_at: string | null
  /** `build` for a job of the CI configuration, `external` for a status posted by external CI. */
  readonly type: 'build' | 'external'
  /** What external CI linked its status to (null for builds). */
  readonly target_url: string | null
  readonly description: string | null
}

export interface NewPipeline {
  readonly projectId: number
  readonly ref: string
  readonly tag: boolean
  readonly sha: string
  readonly beforeSha: string
  readonly protected: boolean
  readonly status: CiStatus
  readonly source: string
  readonly userId: number | null
  readonly yamlErrors: string | null
  readonly failureReason: string | null
  readonly commitJson: string
  /** JSON of the pipeline's variables, sealed with the instance key. */
  readonly encryptedVariables: string
  readonly mergeRequestId: number | null
  readonly committedAt: string | null
}

export interface NewJob {
  readonly name: string
  readonly stage: string
  readonly stageIdx: number
  readonly when: string
  readonly allowFailure: boolean
  readonly needs: readonly string[] | null
  readonly tagList: readonly string[]
  readonly options: string
  readonly environment: string | null
}

/** Inserts a pipeline and its jobs (status `created`) in one transaction; returns the pipeline. */
export function insertPipeline(db: Db, p: NewPipeline, jobs: readonly NewJob[]): PipelineRow {
  return db.transaction(() => {
    const now = nowIso()
    const iid = nextIid(db, { projectId: p.projectId }, 'ci_pipelines')
    const info = db
      .prepare(
        `INSERT INTO ci_pipelines (iid, project_id, ref, tag, sha, before_sha, protected, status, source, user_id, yaml_errors, failure_reason,
           commit_json, encrypted_variables, merge_request_id, created_at, updated_at, finished_at, committed_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        iid,
        p.projectId,
        p.ref,
        Number(p.tag),
        p.sha,
        p.beforeSha,
        Number(p.protected),
        p.status,
        p.source,
        p.userId,
        p.yamlErrors,
        p.failureReason,
        p.commitJson,
        p.encryptedVariables,
        p.mergeRequestId,
        now,
        now,
        p.status === 'failed' || p.status === 'skipped' ? now : null,
        p.committedAt,
      )
    const pipelineId = Number(info.lastInsertRowid)
    const insertJob = db.prepare(
      `INSERT INTO ci_builds (project_id, pipeline_id, name, stage, stage_idx, status, "when", allow_failure, needs, tag_list, options, environment,
         user_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'created', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    for (const j of jobs) {
      insertJob.run(
        p.projectId,
        pipelineId,
        j.name,
        j.stage,
        j.stageIdx,
        j.when,
        Number(j.allowFailure),
        j.needs ? JSON.stringify(j.needs) : null,
        JSON.stringify(j.tagList),
        j.options,
        j.environment,
        p.userId,
        now,
        now,
      )
    }
    return findPipelineById(db, pipelineId) as PipelineRow
  })()
}

export function findPipelineById(db: Db, id: number): PipelineRow | undefined {
  return db.prepare('SELECT * FROM ci_pipelines WHERE id = ?').get(id) as PipelineRow | undefined
}

export function findProjectPipeline(db: Db, projectId: number, id: number): PipelineRow | undefined {
  return db.prepare('SELECT * FROM ci_pipelines WHERE id = ? AND project_id = ?').get(id, projectId) as
    PipelineRow | undefined
}

export function pipelinesByIds(db: Db, ids: readonly number[]): Map<number, PipelineRow> {
  if (ids.length === 0) return new Map()
  const rows = db
    .prepare('SELECT * FROM ci_pipelines WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify([...new Set(ids)])) as PipelineRow[]
  return new Map(rows.map((r) => [r.id, r]))
}

export type PipelineChanges = Partial<Pick<PipelineRow, 'status' | 'started_at' | 'finished_at' | 'failure_reason'>>

export function updatePipelineRow(db: Db, id: number, changes: PipelineChanges): PipelineRow {
  const keys = Object.keys(changes) as (keyof PipelineChanges)[]
  const sets = keys.map((k) => `${k} = ?`).join(', ')
  db.prepare(`UPDATE ci_pipelines SET ${sets}${keys.length > 0 ? ', ' : ''}updated_at = ? WHERE id = ?`).run(
    ...keys.map((k) => changes[k] ?? null),
    nowIso(),
    id,
  )
  return findPipelineById(db, id) as PipelineRow
}

export function deletePipelineRow(db: Db, id: number): void {
  db.prepare('DELETE FROM ci_pipelines WHERE id = ?').run(id)
}

export const PIPELINE_ORDERS = ['id', 'status', 'ref', 'updated_at', 'user_id'] as const
export type PipelineOrder = (typeof PIPELINE_ORDERS)[number]

export interface PipelineFilter {
  readonly projectId: number
  /** running, pending, finished, branches, tags. */
  readonly scope?: string
  readonly status?: string
  readonly ref?: string
  readonly sha?: string
  readonly yamlErrors?: boolean
  readonly userId?: number
  readonly source?: string
  readonly updatedAfter?: string
  readonly updatedBefore?: string
  readonly createdAfter?: string
  readonly createdBefore?: string
  readonly mergeRequestId?: number
  readonly orderBy: PipelineOrder
  readonly sort: 'asc' | 'desc'
}

/** One page of a project's pipelines with GitLab's PipelinesFinder filters. */
export function listPipelines(
  db: Db,
  f: PipelineFilter,
  page: { readonly limit: number; readonly offset: number },
): { rows: PipelineRow[]; total: number } {
  const where = ['project_id = ?']
  const args: unknown[] = [f.projectId]
  const add = (clause: string, ...values: unknown[]) => {
    where.push(clause)
    args.push(...values)
  }
  if (f.scope === 'running') add(`status = 'running'`)
  else if (f.scope === 'pending') add(`status = 'pending'`)
  else if (f.scope === 'finished') add(`status IN ('success', 'failed', 'canceled', 'skipped')`)
  else if (f.scope === 'branches')
    add(
      `tag = 0 AND id IN (SELECT MAX(id) FROM ci_pipelines WHERE project_id = ? AND tag = 0 GROUP BY ref)`,
      f.projectId,
    )
  else if (f.scope === 'tags')
    add(
      `tag = 1 AND id IN (SELECT MAX(id) FROM ci_pipelines WHERE project_id = ? AND tag = 1 GROUP BY ref)`,
      f.projectId,
    )
  if (f.status) add('status = ?', f.status)
  if (f.ref !== undefined) add('ref = ?', f.ref)
  if (f.sha !== undefined) add('sha = ?', f.sha)
  if (f.yamlErrors === true) add('yaml_errors IS NOT NULL')
  else if (f.yamlErrors === false) add('yaml_errors IS NULL')
  if (f.userId !== undefined) add('user_id = ?', f.userId)
  if (f.source) add('source = ?', f.source)
  if (f.updatedAfter) add('updated_at > ?', f.updatedAfter)
  if (f.updatedBefore) add('updated_at < ?', f.updatedBefore)
  if (f.createdAfter) add('created_at > ?', f.createdAfter)
  if (f.createdBefore) add('created_at < ?', f.createdBefore)
  if (f.mergeRequestId !== undefined) add('merge_request_id = ?', f.mergeRequestId)
  const sql = where.join(' AND ')
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM ci_pipelines WHERE ${sql}`).get(...args) as { n: number }).n
  const dir = f.sort === 'asc' ? 'ASC' : 'DESC'
  const order = f.orderBy === 'id' ? `id ${dir}` : `${f.orderBy} ${dir}, id ${dir}`
  const rows = db
    .prepare(`SELECT * FROM ci_pipelines WHERE ${sql} ORDER BY ${order} LIMIT ? OFFSET ?`)
    .all(...args, page.limit, page.offset) as PipelineRow[]
  return { rows, total }
}

/** The newest pipeline of a project for a ref (and sha, when given). */
export function latestPipelineFor(db: Db, projectId: number, ref: string, sha?: string): PipelineRow | undefined {
  if (sha !== undefined) {
    return db
      .prepare('SELECT * FROM ci_pipelines WHERE project_id = ? AND ref = ? AND sha = ? ORDER BY id DESC LIMIT 1')
      .get(projectId, ref, sha) as PipelineRow | undefined
  }
  return db
    .prepare('SELECT * FROM ci_pipelines WHERE project_id = ? AND ref = ? ORDER BY id DESC LIMIT 1')
    .get(projectId, ref) as PipelineRow | undefined
}

// ---- jobs -------------------------------------------------------------------------------------

export function findJobById(db: Db, id: number): JobRow | undefined {
  return db.prepare('SELECT * FROM ci_builds WHERE id = ?').get(id) as JobRow | undefined
}

export function findProjectJob(db: Db, projectId: number, id: number): JobRow | undefined {
  return db.prepare("SELECT * FROM ci_builds WHERE id = ? AND project_id = ? AND type = 'build'").get(id, projectId) as
    JobRow | undefined
}

export function findJobByTokenDigest(db: Db, digest: string): JobRow | undefined {
  return db.prepare('SELECT * FROM ci_builds WHERE token_digest = ?').get(digest) as JobRow | undefined
}

/** Every job of a pipeline, retried ones included, in stage then creation order. */
export function pipelineJobs(db: Db, pipelineId: number): JobRow[] {
  return db.prepare('SELECT * FROM ci_builds WHERE pipeline_id = ? ORDER BY stage_idx, id').all(pipelineId) as JobRow[]
}

export type JobChanges = Partial<
  Pick<
    JobRow,
    | 'status'
    | 'runner_id'
    | 'token_digest'
    | 'failure_reason'
    | 'queued_at'
    | 'started_at'
    | 'finished_at'
    | 'exit_code'
    | 'coverage'
    | 'user_id'
    | 'retried'
    | 'erased_at'
    | 'artifacts_expire_at'
  >
>

export function updateJobRow(db: Db, id: number, changes: JobChanges): JobRow {
  const keys = Object.keys(changes) as (keyof JobChanges)[]
  const sets = keys.map((k) => `${k} = ?`).join(', ')
  db.prepare(`UPDATE ci_builds SET ${sets}${keys.length > 0 ? ', ' : ''}updated_at = ? WHERE id = ?`).run(
    ...keys.map((k) => changes[k] ?? null),
    nowIso(),
    id,
  )
  return findJobById(db, id) as JobRow
}

/** Moves a job from one status to another only if it still has the first (a runner racing a cancel loses). */
export function transitionJob(db: Db, id: number, from: readonly CiStatus[], changes: JobChanges): boolean {
  const keys = Object.keys(changes) as (keyof JobChanges)[]
  const sets = keys.map((k) => `${k} = ?`).join(', ')
  const info = db
    .prepare(`UPDATE ci_builds SET ${sets}, updated_at = ? WHERE id = ? AND status IN (SELECT value FROM json_each(?))`)
    .run(...keys.map((k) => changes[k] ?? null), nowIso(), id, JSON.stringify(from))
  return info.changes === 1
}

/** Inserts a copy of a job (a retry) with status `created`, marking the original retried. */
export function cloneJobForRetry(db: Db, job: JobRow, userId: number | null): JobRow {
  return db.transaction(() => {
    const now = nowIso()
    db.prepare('UPDATE ci_builds SET retried = 1, updated_at = ? WHERE id = ?').run(now, job.id)
    const info = db
      .prepare(
        `INSERT INTO ci_builds (project_id, pipeline_id, name, stage, stage_idx, status, "when", allow_failure, needs, tag_list, options, environment,
           user_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'created', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        job.project_id,
        job.pipeline_id,
        job.name,
        job.stage,
        job.stage_idx,
        job.when,
        job.allow_failure,
        job.needs,
        job.tag_list,
        job.options,
        job.environment,
        userId,
        now,
        now,
      )
    return findJobById(db, Number(info.lastInsertRowid)) as JobRow
  })()
}

export interface JobFilter {
  readonly projectId?: number
  readonly pipelineId?: number
  readonly runnerId?: number
  /** Only jobs of these projects (a runner's jobs the caller may read); null for no restriction. */
  readonly projectIds?: readonly number[] | null
  readonly statuses?: readonly string[]
  readonly includeRetried: boolean
  readonly sort: 'asc' | 'desc'
}

/** One page of jobs, by id. */
export function listJobs(
  db: Db,
  f: JobFilter,
  page: { readonly limit: number; readonly offset: number },
): { rows: JobRow[]; total: number } {
  // External commit statuses are no jobs of the jobs API (GitLab lists Ci::Build only).
  const where: string[] = ["type = 'build'"]
  const args: unknown[] = []
  if (f.projectId !== undefined) {
    where.push('project_id = ?')
    args.push(f.projectId)
  }
  if (f.pipelineId !== undefined) {
    where.push('pipeline_id = ?')
    args.push(f.pipelineId)
  }
  if (f.runnerId !== undefined) {
    where.push('runner_id = ?')
    args.push(f.runnerId)
  }
  if (f.projectIds) {
    where.push('project_id IN (SELECT value FROM json_each(?))')
    args.push(JSON.stringify(f.projectIds))
  }
  if (f.statuses && f.statuses.length > 0) {
    where.push('status IN (SELECT value FROM json_each(?))')
    args.push(JSON.stringify(f.statuses))
  }
  if (!f.includeRetried) where.push('retried = 0')
  const sql = where.join(' AND ')
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM ci_builds WHERE ${sql}`).get(...args) as { n: number }).n
  const order =
    f.pipelineId !== undefined ? `id ${f.sort === 'asc' ? 'ASC' : 'DESC'}` : `id ${f.sort === 'asc' ? 'ASC' : 'DESC'}`
  const rows = db
    .prepare(`SELECT * FROM ci_builds WHERE ${sql} ORDER BY ${order} LIMIT ? OFFSET ?`)
    .all(...args, page.limit, page.offset) as JobRow[]
  return { rows, total }
}

/** Pending jobs a runner may be offered, oldest first, with what the queue checks need. */
export interface QueuedJobRow extends JobRow {
  readonly pipeline_protected: number
  readonly project_settings: string
  readonly project_archived: number
  readonly namespace_id: number
}

/**
 * Pending jobs of the projects a runner serves: every project (instance runners, where shared
 * runners are enabled), the projects under the runner's group (group runners), or its own projects.
 */
export function pendingJobsFor(
  db: Db,
  runner: { readonly id: number; readonly runner_type: string; readonly group_id: number | null },
  groupProjectNamespaces: readonly number[],
  page: { readonly limit: number; readonly afterId: number },
): QueuedJobRow[] {
  let scope: string
  const args: unknown[] = []
  if (runner.runner_type === 'instance_type') scope = '1 = 1'
  else if (runner.runner_type === 'group_type') {
    scope = 'pr.namespace_id IN (SELECT value FROM json_each(?))'
    args.push(JSON.stringify(groupProjectNamespaces))
  } else {
    scope = 'b.project_id IN (SELECT project_id FROM ci_runner_projects WHERE runner_id = ?)'
    args.push(runner.id)
  }
  return db
    .prepare(
      `SELECT b.*, p.protected AS pipeline_protected, pr.settings AS project_settings, pr.archived AS project_archived, pr.namespace_id AS namespace_id
       FROM ci_builds b JOIN ci_pipelines p ON p.id = b.pipeline_id JOIN projects pr ON pr.id = b.project_id
       WHERE b.status = 'pending' AND b.type = 'build' AND b.id > ? AND ${scope} ORDER BY b.id LIMIT ?`,
    )
    .all(page.afterId, ...args, page.limit) as QueuedJobRow[]
}

// ---- traces -----------------------------------------------------------------------------------

export function readTrace(db: Db, jobId: number): Buffer | null {
  const row = db.prepare('SELECT content FROM ci_build_traces WHERE build_id = ?').get(jobId) as
    { content: Buffer } | undefined
  return row ? row.content : null
}

/** Appends to the job log; returns the new size. (SQLite's `||` would turn the blob into text.) */
export function appendTrace(db: Db, jobId: number, chunk: Buffer): number {
  return db.transaction(() => {
    const content = Buffer.concat([readTrace(db, jobId) ?? Buffer.alloc(0), chunk])
    writeTrace(db, jobId, content)
    return content.length
  })()
}

/** Replaces the job log. */
export function writeTrace(db: Db, jobId: number, content: Buffer): void {
  db.prepare(
    'INSERT INTO ci_build_traces (build_id, content) VALUES (?, ?) ON CONFLICT (build_id) DO UPDATE SET content = excluded.content',
  ).run(jobId, content)
}

export function deleteTrace(db: Db, jobId: number): void {
  db.prepare('DELETE FROM ci_build_traces WHERE build_id = ?').run(jobId)
}

/** Where a merge request's pipelines run: its source project and branch (undefined for no such merge request). */
export function mergeRequestSource(
  db: Db,
  projectId: number,
  iid: number,
): { readonly source_project_id: number | null; readonly source_branch: string } | undefined {
  return db
    .prepare('SELECT source_project_id, source_branch FROM merge_requests WHERE project_id = ? AND iid = ?')
    .get(projectId, iid) as { source_project_id: number | null; source_branch: string } | undefined
}

/** The projects a runner has run jobs of. */
export function runnerJobProjectIds(db: Db, runnerId: number): number[] {
  const rows = db.prepare('SELECT DISTINCT project_id FROM ci_builds WHERE runner_id = ?').all(runnerId) as {
    project_id: number
  }[]
  return rows.map((r) => r.project_id)
}

/** The jobs with these ids (those that exist), in one query. */
export function jobsByIds(db: Db, ids: readonly number[]): JobRow[] {
  return db
    .prepare('SELECT * FROM ci_builds WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify([...new Set(ids)])) as JobRow[]
}

/** The newest successful job named `name` of a pipeline on `ref` (whose artifacts `…/artifacts/:ref/download` serves). */
export function latestSuccessfulJob(db: Db, projectId: number, ref: string, name: string): JobRow | undefined {
  return db
    .prepare(
      `SELECT b.* FROM ci_builds b JOIN ci_pipelines p ON p.id = b.pipeline_id
       WHERE b.project_id = ? AND p.ref = ? AND b.name = ? AND b.status = 'success' AND b.type = 'build'
       ORDER BY b.id DESC LIMIT 1`,
    )
    .get(projectId, ref, name) as JobRow | undefined
}
