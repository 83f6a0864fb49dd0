import { assertRef, git, gitText, isSha } from './git'

/**
 * The commit SHA a revision (branch, tag, SHA) names, or null when it names none.
 * Throws GitError('bad-ref') for malformed input, which routes turn into a 400.
 */
export async function resolveCommit(gitDir: string, rev: string): Promise<string | null> {
  assertRef(rev)
  const out = await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], {
    gitDir,
    successExitCodes: [0, 1, 128],
  })
  if (out.exitCode !== 0) return null
  return out.stdout.toString('utf8').trim() || null
}

/**
 * `resolveCommit` for several revisions in one git run (`cat-file --batch-check`, one revision a
 * line): the commit SHA of each, or null for one that names none. Starting a process blocks the
 * server for milliseconds, so endpoints naming two refs resolve them together.
 */
export async function resolveCommits(gitDir: string, revs: readonly string[]): Promise<(string | null)[]> {
  for (const rev of revs) assertRef(rev)
  const out = await gitText(['cat-file', '--batch-check=%(objectname)'], {
    gitDir,
    input: revs.map((rev) => `${rev}^{commit}\n`).join(''),
  })
  // Each answer is the id, or the revision followed by `missing` or `ambiguous`.
  const lines = out.split('\n')
  return revs.map((_, i) => (/^[0-9a-f]{40,64}$/.test(lines[i] ?? '') ? lines[i] : null))
}

/** The object a full ref name points at (`refs/tags/v1`), or null when the ref does not exist. */
export async function readRef(gitDir: string, fullRef: string): Promise<string | null> {
  assertRef(fullRef)
  const out = await git(['rev-parse', '--verify', '--quiet', '--end-of-options', fullRef], {
    gitDir,
    successExitCodes: [0, 1, 128],
  })
  if (out.exitCode !== 0) return null
  return out.stdout.toString('utf8').trim() || null
}

/** A branch or tag that contains a commit, as `GET /commits/:sha/refs` lists them. */
export interface ContainingRef {
  readonly type: 'branch' | 'tag'
  readonly name: string
}

/** Branches and/or tags whose history contains `sha` (a resolved commit id), sorted by name. */
export async function refsContaining(
  gitDir: string,
  sha: string,
  type: 'branch' | 'tag' | 'all',
): Promise<ContainingRef[]> {
  const prefixes = type === 'branch' ? ['refs/heads/'] : type === 'tag' ? ['refs/tags/'] : ['refs/heads/', 'refs/tags/']
  const refs: ContainingRef[] = []
  for (const line of await refNamesContaining(gitDir, sha, prefixes)) {
    if (line.startsWith('refs/heads/')) refs.push({ type: 'branch', name: line.slice('refs/heads/'.length) })
    else if (line.startsWith('refs/tags/')) refs.push({ type: 'tag', name: line.slice('refs/tags/'.length) })
  }
  return refs
}

/** The full names of the refs under `prefixes` whose commit has `sha` in its history, sorted. */
export async function refNamesContaining(gitDir: string, sha: string, prefixes: readonly string[]): Promise<string[]> {
  const out = await gitText(
    ['for-each-ref', '--sort=refname', `--contains=${sha}`, '--format=%(refname)', ...prefixes],
    { gitDir },
  )
  return out.split('\n').filter((line) => line !== '')
}

/**
 * Which of `commits` have `sha` in their history (`sha` itself included), in one walk: the
 * ancestry paths from `sha` to them hold exactly those that descend from it. Commits the
 * repository lacks are left out.
 */
export async function descendantsOf(gitDir: string, sha: string, commits: readonly string[]): Promise<Set<string>> {
  const wanted = new Set(commits.filter(isSha))
  const found = new Set<string>(wanted.has(sha) ? [sha] : [])
  const tips = [...wanted].filter((c) => c !== sha)
  if (tips.length === 0) return found
  const out = await gitText(['rev-list', '--ignore-missing', '--ancestry-path', `^${sha}`, ...tips], { gitDir })
  for (const line of out.split('\n')) if (wanted.has(line)) found.add(line)
  return found
}

/**
 * Copies commit `sha` (and its history) from another local repository into `gitDir` under a
 * temporary ref, so a cross-project compare can run in one repository; returns the ref to
 * delete afterwards with `deleteRef`.
 */
export async function fetchCommitInto(
  gitDir: string,
  sourceGitDir: string,
  sha: string,
  tempRef: string,
): Promise<void> {
  assertRef(tempRef)
  // Protocol v2 lets upload-pack serve any object id, so the commit needs no ref of its own there.
  await git(
    [
      '-c',
      'protocol.version=2',
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-write-fetch-head',
      sourceGitDir,
      `+${sha}:${tempRef}`,
    ],
    { gitDir },
  )
}

/** Deletes a ref if it exists. */
export async function deleteRef(gitDir: string, fullRef: string): Promise<void> {
  assertRef(fullRef)
  await git(['update-ref', '-d', '--end-of-options', fullRef], { gitDir, successExitCodes: [0, 1] })
}

/**
 * Copies the branches and tags of another local repository into `gitDir` (a fork's first fill):
 * every branch and tag, or only `branch` when given. Refs of the same name are overwritten.
 */
export async function copyRefsFrom(gitDir: string, sourceGitDir: string, branch?: string): Promise<void> {
  if (branch !== undefined) assertRef(`refs/heads/${branch}`)
  const refspecs =
    branch === undefined
      ? ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*']
      : [`+refs/heads/${branch}:refs/heads/${branch}`]
  await git(['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', sourceGitDir, ...refspecs], {
    gitDir,
    timeoutMs: 30 * 60_000,
  })
}
