import { assertRef, git, gitText, isSha } from './git'

/** The result of merging two commits in memory: the tree written, and whether any path conflicted. */
export interface TreeMerge {
  readonly tree: string
  readonly conflicts: boolean
  /** Paths that conflicted (empty when clean). */
  readonly conflictPaths: readonly string[]
}

function checkSha(sha: string): void {
  if (!isSha(sha)) throw new Error(`not a commit id: ${sha}`)
}

/**
 * Merges commits `ours` and `theirs` without a worktree (`git merge-tree --write-tree`, git ≥ 2.38):
 * exit 0 is a clean merge, exit 1 a merge with conflicts (the tree then holds conflict markers).
 */
export async function mergeTree(gitDir: string, ours: string, theirs: string): Promise<TreeMerge> {
  checkSha(ours)
  checkSha(theirs)
  const out = await git(['merge-tree', '--write-tree', '--name-only', '--no-messages', ours, theirs], {
    gitDir,
    successExitCodes: [0, 1],
  })
  const lines = out.stdout
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
  return { tree: lines[0] ?? '', conflicts: out.exitCode === 1, conflictPaths: lines.slice(1) }
}

/**
 * Three-way merges `ours` and `theirs` against an explicit base commit (a cherry-pick when `base`
 * is the parent of `theirs`). git 2.39's merge-tree has no --merge-base, so the three trees are
 * wrapped in throwaway commits whose only common ancestor is the base tree; the dangling commits
 * are garbage collected later.
 */
export async function mergeTreeWithBase(
  gitDir: string,
  base: string,
  ours: string,
  theirs: string,
): Promise<TreeMerge> {
  const root = await commitTree(gitDir, `${base}^{tree}`, [], 'base')
  const a = await commitTree(gitDir, `${ours}^{tree}`, [root], 'ours')
  const b = await commitTree(gitDir, `${theirs}^{tree}`, [root], 'theirs')
  return mergeTree(gitDir, a, b)
}

/** Who a new commit is by; `date` (ISO) keeps an original author date when replaying commits. */
export interface CommitIdentity {
  readonly name: string
  readonly email: string
  readonly date?: string
}

/** Writes a commit object for `tree` with these parents and returns its id (no ref moves). */
export async function commitTree(
  gitDir: string,
  tree: string,
  parents: readonly string[],
  message: string,
  people: { readonly author?: CommitIdentity; readonly committer?: CommitIdentity } = {},
): Promise<string> {
  const env: Record<string, string> = {}
  if (people.author) {
    env.GIT_AUTHOR_NAME = people.author.name
    env.GIT_AUTHOR_EMAIL = people.author.email
    if (people.author.date) env.GIT_AUTHOR_DATE = people.author.date
  }
  if (people.committer) {
    env.GIT_COMMITTER_NAME = people.committer.name
    env.GIT_COMMITTER_EMAIL = people.committer.email
  }
  const args = ['commit-tree', ...parents.flatMap((p) => ['-p', p]), '-F', '-', '--end-of-options', tree]
  return (await gitText(args, { gitDir, env, input: message.endsWith('\n') ? message : `${message}\n` })).trim()
}

/**
 * Moves `ref` from `oldSha` to `newSha` atomically; fails (GitError) when the ref no longer points
 * at `oldSha`, so a concurrent push is never overwritten.
 */
export async function updateRef(gitDir: string, ref: string, newSha: string, oldSha: string): Promise<void> {
  assertRef(ref)
  await git(['update-ref', '--end-of-options', ref, newSha, oldSha], { gitDir })
}

/** True when commit `ancestor` is reachable from `descendant`. */
export async function isAncestor(gitDir: string, ancestor: string, descendant: string): Promise<boolean> {
  checkSha(ancestor)
  checkSha(descendant)
  const out = await git(['merge-base', '--is-ancestor', ancestor, descendant], { gitDir, successExitCodes: [0, 1] })
  return out.exitCode === 0
}

/** Number of commits reachable from `to` but not from `from`. */
export async function countCommitsBetween(gitDir: string, from: string, to: string): Promise<number> {
  checkSha(from)
  checkSha(to)
  return Number((await gitText(['rev-list', '--count', to, `^${from}`], { gitDir })).trim())
}

/** The tree id of a commit. */
export async function treeOf(gitDir: string, commit: string): Promise<string> {
  checkSha(commit)
  return (await gitText(['rev-parse', '--verify', `${commit}^{tree}`], { gitDir })).trim()
}
