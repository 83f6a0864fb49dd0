import { logCommits, type GitCommit } from './commits'
import { diffCollection, diffCollectionSinceMergeBase, type DiffLimits, type FileDiff } from './diff'

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
 * Two git runs at once, the commits and the diff (which finds the merge base itself): each
 * process the server starts blocks it for a few milliseconds.
 */
export async function compareCommits(
  gitDir: string,
  from: string,
  to: string,
  opts: { readonly straight: boolean; readonly limits: DiffLimits },
): Promise<Comparison | null> {
  const [commits, collection] = await Promise.all([
    logCommits(gitDir, ['--reverse', '--end-of-options', `${from}..${to}`]),
    opts.straight
      ? diffCollection(gitDir, from, to, opts.limits)
      : diffCollectionSinceMergeBase(gitDir, from, to, opts.limits),
  ])
  if (!collection) return null
  return { commits, diffs: collection.diffs, overflow: collection.overflow }
}
