import { gitText } from './git'

/** Lines added and removed by a commit against its first parent (GitLab's commit `stats`). */
export interface CommitStats {
  readonly additions: number
  readonly deletions: number
  readonly total: number
}

/** How many commits `git log` would list for the same revision and filter arguments. */
export async function countCommits(gitDir: string, args: readonly string[]): Promise<number> {
  return Number((await gitText(['rev-list', '--count', ...args], { gitDir })).trim()) || 0
}

/**
 * Stats of several commits (resolved ids) in one `git log` run; merge commits count against
 * their first parent and root commits against the empty tree, as GitLab counts them.
 */
export async function commitStats(gitDir: string, shas: readonly string[]): Promise<Map<string, CommitStats>> {
  const stats = new Map<string, CommitStats>()
  if (shas.length === 0) return stats
  const out = await gitText(
    [
      'log',
      '--no-walk=unsorted',
      '--diff-merges=first-parent',
      '--numstat',
      '--format=%x1e%H',
      '--end-of-options',
      ...shas,
    ],
    { gitDir },
  )
  for (const record of out.split('\x1e')) {
    const lines = record.split('\n')
    const sha = lines[0]?.trim()
    if (!sha) continue
    let additions = 0
    let deletions = 0
    for (const line of lines.slice(1)) {
      // Binary files show `-\t-`: they add and remove no lines.
      const m = /^(\d+|-)\t(\d+|-)\t/.exec(line)
      if (!m) continue
      additions += m[1] === '-' ? 0 : Number(m[1])
      deletions += m[2] === '-' ? 0 : Number(m[2])
    }
    stats.set(sha, { additions, deletions, total: additions + deletions })
  }
  return stats
}
