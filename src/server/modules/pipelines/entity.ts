import type { DetailedStatus, Pipeline, PipelineBasic } from '../../../shared/api/pipeline'
import type { CiStatus, PipelineRow } from './queries'
import type { UserRow } from '../../platform/db/rows'
import { userRef } from '../users'

const STATUS_TEXT: Readonly<Record<string, string>> = {
  created: 'created',
  waiting_for_resource: 'waiting',
  preparing: 'preparing',
  pending: 'pending',
  running: 'running',
  success: 'passed',
  failed: 'failed',
  canceled: 'canceled',
  skipped: 'skipped',
  manual: 'blocked',
  scheduled: 'delayed',
}

/** GitLab's DetailedStatusEntity for a pipeline or job status. */
export function detailedStatus(status: CiStatus, detailsPath: string, kind: 'pipeline' | 'job'): DetailedStatus {
  const text = kind === 'job' && status === 'manual' ? 'manual' : (STATUS_TEXT[status] ?? status)
  const icon = `status_${status === 'waiting_for_resource' ? 'pending' : status}`
  return {
    icon,
    text,
    label:
      status === 'success' ? 'passed' : kind === 'pipeline' && status === 'manual' ? 'waiting for manual action' : text,
    group: status === 'manual' && kind === 'pipeline' ? 'manual' : status,
    tooltip: status === 'success' ? 'passed' : text,
    has_details: true,
    details_path: detailsPath,
    illustration: null,
    favicon: `/assets/ci_favicons/favicon_${icon}.png`,
  }
}

function seconds(from: string | null, to: string | null): number | null {
  if (!from || !to) return null
  return Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000))
}

/** Where a pipeline lives, for its URLs. */
export interface PipelinePlace {
  readonly baseUrl: string
  readonly projectPath: string
}

/** GitLab's PipelineBasic entity (lists, and the `pipeline` embedded in jobs). */
export function pipelineBasicEntity(p: PipelineRow, place: PipelinePlace): PipelineBasic {
  return {
    id: p.id,
    iid: p.iid,
    project_id: p.project_id,
    sha: p.sha,
    ref: p.ref,
    status: p.status,
    source: p.source,
    created_at: p.created_at,
    updated_at: p.updated_at,
    web_url: `${place.baseUrl}/${place.projectPath}/-/pipelines/${p.id}`,
  }
}

/** GitLab's Pipeline entity (single pipeline, create, retry, cancel). */
export function pipelineEntity(
  p: PipelineRow,
  place: PipelinePlace,
  user: UserRow | undefined,
  coverage: number | null,
): Pipeline {
  return {
    ...pipelineBasicEntity(p, place),
    before_sha: p.before_sha,
    tag: p.tag === 1,
    yaml_errors: p.yaml_errors,
    user: user ? userRef(user, place.baseUrl) : null,
    started_at: p.started_at,
    finished_at: p.finished_at,
    committed_at: p.committed_at,
    duration: seconds(p.started_at, p.finished_at),
    queued_duration: seconds(p.created_at, p.started_at),
    coverage: coverage === null ? null : coverage.toFixed(2),
    detailed_status: detailedStatus(p.status, `/${place.projectPath}/-/pipelines/${p.id}`, 'pipeline'),
  }
}

/** The `pipeline` object of a merge request: id, iid, project_id, sha, ref, status, source, dates, web_url. */
export function mergeRequestPipeline(p: PipelineRow, place: PipelinePlace): PipelineBasic {
  return pipelineBasicEntity(p, place)
}
