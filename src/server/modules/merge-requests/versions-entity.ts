import type { MergeRequestDiffVersion, MergeRequestDiffVersionDetail } from '../../../shared/api/merge-request'
import { commitEntity, type GitCommit } from '../../platform/git/commits'
import type { FileDiff } from '../../platform/git/diff'
import { diffEntity } from '../repository'
import type { DiffVersionRow } from './versions-queries'

/** GitLab's MergeRequestDiff entity: one version's refs, state and size. `patch_id_sha` is not computed. */
export function diffVersionEntity(version: DiffVersionRow): MergeRequestDiffVersion {
  return {
    id: version.id,
    head_commit_sha: version.head_commit_sha,
    base_commit_sha: version.base_commit_sha,
    start_commit_sha: version.start_commit_sha,
    created_at: version.created_at,
    merge_request_id: version.merge_request_id,
    state: version.state,
    real_size: version.real_size,
    patch_id_sha: null,
  }
}

/** GitLab's MergeRequestDiffFull entity: the version with its commits and diffs (`unidiff`: with file headers). */
export function diffVersionDetailEntity(
  detail: {
    readonly version: DiffVersionRow
    readonly commits: readonly GitCommit[]
    readonly diffs: readonly FileDiff[]
  },
  projectWebUrl: string,
  unidiff: boolean,
): MergeRequestDiffVersionDetail {
  return {
    ...diffVersionEntity(detail.version),
    commits: detail.commits.map((c) => commitEntity(c, projectWebUrl)) as MergeRequestDiffVersionDetail['commits'],
    diffs: detail.diffs.map((d) => diffEntity(d, unidiff)),
  }
}
