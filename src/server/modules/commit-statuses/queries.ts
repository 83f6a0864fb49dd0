import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'
import type { CiStatus, JobRow, PipelineRow } from '../pipelines'

/** Where GitLab puts external statuses: their own stage, after every stage of the configuration. */
export const EXTERNAL_STAGE = 'external'
export const EXTERNAL_STAGE_IDX = 1_000_000

/** A commit status with what its entity shows of its pipeline. */
export interface CommitStatusRow extends JobRow {
  readonly pipeline_sha: string
  readonly pipeline_ref: string
}

/** What `GET …/commits/:sha/statuses` narrows and orders by. */
export interface StatusFilter {
  readonly projectId: number
  readonly sha: string
  readonly ref?: string
  readonly stage?: string
  readonly name?: string
  readonly pipelineId?: number
  /** Retried statuses too (GitLab's `all`). */
  readonly all: boolean
  readonly orderBy: 'id' | 'pipeline_id'
  readonly sort: 'asc' | 'desc'
}

/** One page of the statuses (builds and external ones) of a commit's pipelines, with the total. */
export function listCommitStatuses(
  db: Db,
  f: StatusFilter,
  page: { readonly limit: number; readonly offset: number },
): { rows: CommitStatusRow[]; total: number } {
  const where = ['p.project_id = ?', 'p.sha = ?']
  const args: unknown[] = [f.projectId, f.sha]
  const add = (clause: string, value: unknown): void => {
    where.push(clause)
    args.push(value)
  }
  if (!f.all) where.push('b.retried = 0')
  if (f.ref !== undefined) add('p.ref = ?', f.ref)
  if (f.stage !== undefined) add('b.stage = ?', f.stage)
  if (f.name !== undefined) add('b.name = ?', f.name)
  if (f.pipelineId !== undefined) add('p.id = ?', f.pipelineId)
  const from = `FROM ci_builds b JOIN ci_pipelines p ON p.id = b.pipeline_id WHERE ${where.join(' AND ')}`
  const total = (db.prepare(`SELECT COUNT(*) AS n ${from}`).get(...args) as { n: number }).n
  const dir = f.sort === 'asc' ? 'ASC' : 'DESC'
  const order = f.orderBy === 'pipeline_id' ? `b.pipeline_id ${dir}, b.id ${dir}` : `b.id ${dir}`
  const rows = db
    .prepare(`SELECT b.*, p.sha AS pipeline_sha, p.ref AS pipeline_ref ${from} ORDER BY ${order} LIMIT ? OFFSET ?`)
    .all(...args, page.limit, page.offset) as CommitStatusRow[]
  return { rows, total }
}

/** The status as the list shows it. */
export function findCommitStatus(db: Db, id: number): CommitStatusRow | undefined {
  return db
    .prepare(
      `SELECT b.*, p.sha AS pipeline_sha, p.ref AS pipeline_ref
       FROM ci_builds b JOIN ci_pipelines p ON p.id = b.pipeline_id WHERE b.id = ?`,
    )
    .get(id) as CommitStatusRow | undefined
}

/**
 * The newest pipeline of a commit that a posted status joins: on `ref` and with id `pipelineId`
 * when given (GitLab's first_matching_pipeline).
 */
export function newestCommitPipeline(
  db: Db,
  projectId: number,
  sha: string,
  ref: string | undefined,
  pipelineId: number | undefined,
): PipelineRow | undefined {
  return db
    .prepare(
      `SELECT * FROM ci_pipelines WHERE project_id = ? AND sha = ? AND (? IS NULL OR ref = ?) AND (? IS NULL OR id = ?)
       ORDER BY id DESC LIMIT 1`,
    )
    .get(projectId, sha, ref ?? null, ref ?? null, pipelineId ?? null, pipelineId ?? null) as PipelineRow | undefined
}

/**
 * The external status `name` of `userId` that is still pending or running in the pipeline: a new
 * post of the same name updates it instead of adding another (GitLab's running_or_pending scope).
 */
export function findOpenExternalStatus(db: Db, pipelineId: number, name: string, userId: number): JobRow | undefined {
  return db
    .prepare(
      `SELECT * FROM ci_builds WHERE pipeline_id = ? AND type = 'external' AND name = ? AND user_id = ?
         AND status IN ('pending', 'running') AND retried = 0
       ORDER BY id DESC LIMIT 1`,
    )
    .get(pipelineId, name, userId) as JobRow | undefined
}

/** True when a job of the pipeline's configuration bears `name` (an external status may not take it). */
export function pipelineHasBuildNamed(db: Db, pipelineId: number, name: string): boolean {
  return (
    db
      .prepare("SELECT 1 FROM ci_builds WHERE pipeline_id = ? AND type = 'build' AND name = ? LIMIT 1")
      .get(pipelineId, name) !== undefined
  )
}

/** What a post sets on an external status: its state's timestamps, and what external CI sent. */
export interface ExternalStatusFields {
  readonly status: CiStatus
  readonly queuedAt: string | null
  readonly startedAt: string | null
  readonly finishedAt: string | null
  readonly targetUrl: string | null
  readonly description: string | null
  readonly coverage: number | null
}

/**
 * Stores a new external status in the pipeline's external stage, and marks older statuses of the
 * same name retried (the newest of a name is the one that counts, as GitLab's
 * update_older_statuses_retried!); one transaction. Returns the new status's id.
 */
export function insertExternalStatus(
  db: Db,
  pipeline: PipelineRow,
  name: string,
  userId: number,
  fields: ExternalStatusFields,
): number {
  return db.transaction(() => {
    const now = nowIso()
    const info = db
      .prepare(
        `INSERT INTO ci_builds (project_id, pipeline_id, name, stage, stage_idx, status, options, user_id, type, target_url,
           description, coverage, queued_at, started_at, finished_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, '{}', ?, 'external', ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        pipeline.project_id,
        pipeline.id,
        name,
        EXTERNAL_STAGE,
        EXTERNAL_STAGE_IDX,
        fields.status,
        userId,
        fields.targetUrl,
        fields.description,
        fields.coverage,
        fields.queuedAt,
        fields.startedAt,
        fields.finishedAt,
        now,
        now,
      )
    const id = Number(info.lastInsertRowid)
    db.prepare(
      `UPDATE ci_builds SET retried = 1, updated_at = ?
       WHERE pipeline_id = ? AND type = 'external' AND name = ? AND retried = 0 AND id <> ?`,
    ).run(now, pipeline.id, name, id)
    return id
  })()
}

/** Moves an open external status to its new state, with what the post sent. */
export function updateExternalStatus(db: Db, id: number, fields: ExternalStatusFields): void {
  db.prepare(
    `UPDATE ci_builds SET status = ?, queued_at = ?, started_at = ?, finished_at = ?, target_url = ?, description = ?,
       coverage = ?, updated_at = ? WHERE id = ?`,
  ).run(
    fields.status,
    fields.queuedAt,
    fields.startedAt,
    fields.finishedAt,
    fields.targetUrl,
    fields.description,
    fields.coverage,
    nowIso(),
    id,
  )
}
