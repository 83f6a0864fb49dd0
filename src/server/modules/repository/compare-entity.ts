import type { Compare } from '../../../shared/api/repository'
import { commitEntity } from '../../platform/git/commits'
import type { Comparison } from '../../platform/git/compare'
import { diffEntity } from './diff-entity'

/** GitLab's `Entities::Compare`. */
export type CompareEntity = Compare

/**
 * A comparison of `from` and `to` in a project: `commit` is the newest commit of the range
 * (null when there is none), `commits` run oldest first.
 */
export function compareEntity(
  c: Comparison,
  x: { readonly from: string; readonly to: string; readonly projectWebUrl: string; readonly unidiff: boolean },
): CompareEntity {
  const commits = c.commits.map((commit) => commitEntity(commit, x.projectWebUrl))
  return {
    commit: commits.length > 0 ? commits[commits.length - 1] : null,
    commits,
    diffs: c.diffs.map((d) => diffEntity(d, x.unidiff)),
    // GitLab's compare_timeout is its diff collection's overflow: the diff was cut at a limit.
    compare_timeout: c.overflow,
    compare_same_ref: x.from === x.to,
    web_url: `${x.projectWebUrl}/-/compare/${x.from}...${x.to}`,
  }
}
