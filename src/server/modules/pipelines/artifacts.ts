import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { ServerContext } from '../../platform/context'
import { nowIso } from '../../platform/db/connection'
import {
  deleteJobArtifacts,
  findJobArtifact,
  insertJobArtifact,
  listJobArtifacts,
  type JobArtifactRow,
} from './artifacts-queries'
import { readTrace, updateJobRow, type JobRow } from './queries'
import { parseCiDuration } from './config/duration'
import { artifactStored } from './ci-events'

/** GitLab's job artifact file types (Ci::JobArtifact.file_types). */
export const ARTIFACT_FILE_TYPES = [
  'archive',
  'metadata',
  'trace',
  'junit',
  'sast',
  'dependency_scanning',
  'container_scanning',
  'dast',
  'codequality',
  'license_scanning',
  'performance',
  'metrics',
  'metrics_referee',
  'network_referee',
  'lsif',
  'dotenv',
  'cobertura',
  'terraform',
  'accessibility',
  'cluster_applications',
  'secret_detection',
  'requirements',
  'coverage_fuzzing',
  'browser_performance',
  'load_performance',
  'api_fuzzing',
  'cluster_image_scanning',
  'cyclonedx',
  'requirements_v2',
  'annotations',
  'repository_xray',
  'jacoco',
] as const
export const ARTIFACT_FILE_FORMATS = ['raw', 'zip', 'gzip'] as const

/** Where a job's artifacts live, relative to the data directory. */
function artifactPath(job: Pick<JobRow, 'project_id' | 'id'>, fileType: string, filename: string): string {
  return join(
    'artifacts',
    String(job.project_id),
    String(job.id),
    fileType,
    filename.replace(/[/\\]/g, '_') || 'artifact',
  )
}

export interface NewArtifactFile {
  readonly fileType: string
  readonly fileFormat: string
  readonly filename: string
  readonly content: Buffer
  /** `expire_in` as the runner sends it (`30 days`, `never`); absent keeps the artifact. */
  readonly expireIn?: string
}

/** 400-style reasons an upload is refused. */
export class ArtifactError extends Error {}

/**
 * Stores one artifact of a job under the data directory (one per type and job, as GitLab keeps
 * them), sets the job's artifacts_expire_at for archives, and tells artifact listeners.
 */
export async function storeArtifact(ctx: ServerContext, job: JobRow, file: NewArtifactFile): Promise<JobArtifactRow> {
  if (findJobArtifact(ctx.db, job.id, file.fileType))
    throw new ArtifactError('Another artifact of the same type already exists')
  let expireAt: string | null = null
  if (file.expireIn !== undefined && file.expireIn !== '' && file.expireIn !== 'never') {
    const seconds = parseCiDuration(file.expireIn)
    if (seconds === null) throw new ArtifactError('expire_in is invalid')
    expireAt = new Date(Date.parse(nowIso()) + seconds * 1000).toISOString()
  }
  const rel = artifactPath(job, file.fileType, file.filename)
  const abs = join(ctx.options.dataDir, rel)
  mkdirSync(dirname(abs), { recursive: true })
  writeFileSync(abs, file.content)
  const row = insertJobArtifact(ctx.db, {
    projectId: job.project_id,
    jobId: job.id,
    fileType: file.fileType,
    fileFormat: file.fileFormat,
    filename: file.filename,
    size: file.content.length,
    sha256: createHash('sha256').update(file.content).digest('hex'),
    path: rel,
    expireAt,
  })
  if (file.fileType === 'archive') updateJobRow(ctx.db, job.id, { artifacts_expire_at: expireAt })
  await artifactStored({ ctx, job, artifact: row })
  return row
}

/** Keeps a finished job's log as its `trace` artifact (`job.log`, raw). */
export async function storeTraceArtifact(ctx: ServerContext, job: JobRow): Promise<void> {
  if (findJobArtifact(ctx.db, job.id, 'trace')) return
  await storeArtifact(ctx, job, {
    fileType: 'trace',
    fileFormat: 'raw',
    filename: 'job.log',
    content: readTrace(ctx.db, job.id) ?? Buffer.alloc(0),
  })
}

/** The stored bytes of an artifact, as uploaded. */
export function readArtifactFile(ctx: ServerContext, artifact: JobArtifactRow): Buffer {
  return readFileSync(join(ctx.options.dataDir, artifact.path))
}

/**
 * The content of an artifact, uncompressed when it was uploaded gzipped (report artifacts such as
 * `gl-sast-report.json` arrive raw or gzip). Zip archives are returned as they are.
 */
export function readJobArtifact(ctx: ServerContext, artifact: JobArtifactRow): Buffer {
  const bytes = readArtifactFile(ctx, artifact)
  if (artifact.file_format === 'gzip') {
    try {
      return gunzipSync(bytes)
    } catch {
      return bytes
    }
  }
  return bytes
}

/**
 * Artifacts of one file type in a project, newest first, optionally of one pipeline or job: the
 * entry point for features that read reports (`sast`, `dependency_scanning`…).
 */
export function jobArtifactsOfType(
  ctx: ServerContext,
  filter: {
    readonly projectId: number
    readonly fileType: string
    readonly pipelineId?: number
    readonly jobId?: number
  },
): JobArtifactRow[] {
  return listJobArtifacts(ctx.db, filter)
}

/** Removes a job's artifact rows and files (all, or all but `keepTypes`). */
export function eraseJobArtifacts(ctx: ServerContext, job: JobRow, keepTypes: readonly string[] = []): void {
  for (const row of deleteJobArtifacts(ctx.db, job.id, keepTypes))
    rmSync(join(ctx.options.dataDir, row.path), { force: true })
}

/** Removes the artifact files of jobs whose rows are going away (pipeline deletion). */
export function removeArtifactFiles(ctx: ServerContext, jobs: readonly Pick<JobRow, 'project_id' | 'id'>[]): void {
  for (const job of jobs)
    rmSync(join(ctx.options.dataDir, 'artifacts', String(job.project_id), String(job.id)), {
      recursive: true,
      force: true,
    })
}
