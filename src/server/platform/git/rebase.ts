import { gitText, isSha } from './git'
import { commitTree, mergeTreeWithBase, treeOf } from './merge'

/** Outcome of replaying commits: the new head, or the commit whose replay conflicted. */
export type RebaseResult =
  { readonly ok: true; readonly head: string } | { readonly ok: false; readonly conflictAt: string }

interface ReplayedCommit {
  readonly sha: string
  readonly parent: string
  readonly authorName: string
  readonly authorEmail: string
  readonly authorDate: string
  readonly message: string
}

async function commitsToReplay(gitDir: string, onto: string, head: string): Promise<ReplayedCommit[]> {
  // %x00-separated records; merge commits are dropped as `git rebase` drops them by default.
  const out = await gitText(
    [
      'log',
      '--reverse',
      '--topo-order',
      '--no-merges',
      '-z',
      '--format=%H%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%B',
      head,
      `^${onto}`,
    ],
    { gitDir },
  )
  return out
    .split('\0')
    .filter((r) => r.trim() !== '')
    .map((r) => {
      const [sha, parents, authorName, authorEmail, authorDate, message] = r.split('\x1f')
      return { sha: sha.trim(), parent: parents.split(' ')[0], authorName, authorEmail, authorDate, message }
    })
}

/**
 * Replays the commits of `head` that `onto` lacks on top of `onto`, without a worktree: each commit
 * is cherry-picked with a three-way tree merge against its parent, keeping author and message.
 * Commits whose changes are already in `onto` become no-ops and are dropped, as in `git rebase`.
 */
export async function rebaseCommits(gitDir: string, onto: string, head: string): Promise<RebaseResult> {
  if (!isSha(onto) || !isSha(head)) throw new Error('rebase needs commit ids')
  let current = onto
  for (const c of await commitsToReplay(gitDir, onto, head)) {
    const merged = await mergeTreeWithBase(gitDir, c.parent, current, c.sha)
    if (merged.conflicts) return { ok: false, conflictAt: c.sha }
    if (merged.tree === (await treeOf(gitDir, current))) continue
    current = await commitTree(gitDir, merged.tree, [current], c.message, {
      author: { name: c.authorName, email: c.authorEmail, date: c.authorDate },
    })
  }
  return { ok: true, head: current }
}
