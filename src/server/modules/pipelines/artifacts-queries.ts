import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'

/** A row of `ci_job_artifacts`: one stored file of a job, by type (archive, trace, sast…). */
export interface JobArtifactRow {
  readonly id: number
  readonly project_id: number
  readonly job_id: number
  readonly file_type: string
  readonly file_format: string
  readonly filename: string
  readonly size: number
  readonly file_sha256: string
  /** Relative to the data directory. */
  readonly path: string
  readonly expire_at: string | null
  readonly created_at: string
}

export interface NewJobArtifact {
  readonly projectId: number
  readonly jobId: number
  readonly fileType: string
  readonly fileFormat: string
  readonly filename: string
  readonly size: number
  readonly sha256: string
  readonly path: string
  readonly expireAt: string | null
}

export function insertJobArtifact(db: Db, a: NewJobArtifact): JobArtifactRow {
  const info = db
    .prepare(
      `INSERT INTO ci_job_artifacts (project_id, job_id, file_type, file_format, filename, size, file_sha256, path, expire_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(a.projectId, a.jobId, a.fileType, a.fileFormat, a.filename, a.size, a.sha256, a.path, a.expireAt, nowIso())
  return db.prepare('SELECT * FROM ci_job_artifacts WHERE id = ?').get(Number(info.lastInsertRowid)) as JobArtifactRow
}

export function findJobArtifact(db: Db, jobId: number, fileType: string): JobArtifactRow | undefined {
  return db.prepare('SELECT * FROM ci_job_artifacts WHERE job_id = ? AND file_type = ?').get(jobId, fileType) as
    JobArtifactRow | undefined
}

/** Artifacts of each job, by job id. */
export function artifactsOfJobs(db: Db, jobIds: readonly number[]): Map<number, JobArtifactRow[]> {
  const out = new Map<number, JobArtifactRow[]>()
  if (jobIds.length === 0) return out
  const rows = db
    .prepare('SELECT * FROM ci_job_artifacts WHERE job_id IN (SELECT value FROM json_each(?)) ORDER BY id')
    .all(JSON.stringify(jobIds)) as JobArtifactRow[]
  for (const r of rows) {
    const list = out.get(r.job_id) ?? []
    list.push(r)
    out.set(r.job_id, list)
  }
  return out
}

export interface ArtifactFilter {
  readonly projectId: number
  readonly fileType: string
  readonly pipelineId?: number
  readonly jobId?: number
}

/** Artifacts of one type in a project (optionally one pipeline or job), newest first. */
export function listJobArtifacts(db: Db, f: ArtifactFilter): JobArtifactRow[] {
  const where = ['a.project_id = ?', 'a.file_type = ?']
  const args: unknown[] = [f.projectId, f.fileType]
  if (f.pipelineId !== undefined) {
    where.push('b.pipeline_id = ?')
    args.push(f.pipelineId)
  }
  if (f.jobId !== undefined) {
    where.push('a.job_id = ?')
    args.push(f.jobId)
  }
  return db
    .prepare(
      `SELECT a.* FROM ci_job_artifacts a JOIN ci_builds b ON b.id = a.job_id WHERE ${where.join(' AND ')} ORDER BY a.id DESC`,
    )
    .all(...args) as JobArtifactRow[]
}

export function deleteJobArtifacts(db: Db, jobId: number, keepTypes: readonly string[] = []): JobArtifactRow[] {
  const rows = (db.prepare('SELECT * FROM ci_job_artifacts WHERE job_id = ?').all(jobId) as JobArtifactRow[]).filter(
    (r) => !keepTypes.includes(r.file_type),
  )
  for (const r of rows) db.prepare('DELETE FROM ci_job_artifacts WHERE id = ?').run(r.id)
  return rows
}
