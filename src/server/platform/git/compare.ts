import { logCommits, type GitCommit } from './commits'
import { diffCollection, diffCollectionSinceMergeBase, type DiffLimits, type FileDiff } from './diff'
import { mergeBase } from './merge-base'

/** What `GET /repository/compare` reports: the commits of `to` not in `from`, and the diff. */
export interface Comparison {
  /** Oldest first, as GitLab lists compare commits. */
  readonly commits: readonly GitCommit[]
  readonly diffs: readonly FileDiff[]
  /** The diff hit the file or line limit (GitLab reports it as `compare_timeout`). */
  readonly overflow: boolean
}

/**
 * Compares two resolved commits. `straight` diffs `from` against `to` directly (`from..to`);
 * otherwise against their merge base (`from...to`), which is null when they share no history.
 * The merge base, the commits and the diff are asked of git at once, not one after the other.
 */
export async function compareCommits(
  gitDir: string,
  from: string,
  to: string,
  opts: { readonly straight: boolean; readonly limits: DiffLimits },
): Promise<Comparison | null> {
  const diff = opts.straight
    ? diffCollection(gitDir, from, to, opts.limits)
    : diffCollectionSinceMergeBase(gitDir, from, to, opts.limits)
  // Without a merge base the diff fails: that answer is null, so the failure is looked at only once the base is known.
  diff.catch(() => undefined)
  const [base, commits] = await Promise.all([
    opts.straight ? from : mergeBase(gitDir, [from, to]),
    logCommits(gitDir, ['--reverse', '--end-of-options', `${from}..${to}`]),
  ])
  if (!base) return null
  const collection = await diff
  return { commits, diffs: collection.diffs, overflow: collection.overflow }
}
