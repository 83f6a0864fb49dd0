import type { CommitStatus } from '../../../shared/api/commit-status'
import type { UserRef } from '../../../shared/api/user'
import type { CommitStatusRow } from './queries'

/** GitLab's CommitStatus entity of a build or an external status; `author` is its user's UserBasic. */
export function commitStatusEntity(row: CommitStatusRow, author: UserRef | null): CommitStatus {
  return {
    id: row.id,
    sha: row.pipeline_sha,
    ref: row.pipeline_ref,
    status: row.status,
    name: row.name,
    target_url: row.target_url,
    description: row.description,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    allow_failure: row.allow_failure === 1,
    coverage: row.coverage,
    pipeline_id: row.pipeline_id,
    author,
  }
}
