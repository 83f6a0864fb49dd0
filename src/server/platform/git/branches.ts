import { commitFromFields, type GitCommit } from './commits'
import { assertRef, gitText, isValidRef } from './git'

const HEADS = 'refs/heads/'

// Fields separated by NUL, records by 0x1e, so any commit message survives (as in commits.ts).
const FORMAT =
  [
    '%(refname)',
    '%(objectname)',
    '%(parent)',
    '%(authorname)',
    '%(authoremail:trim)',
    '%(authordate:iso-strict)',
    '%(committername)',
    '%(committeremail:trim)',
    '%(committerdate:iso-strict)',
    '%(contents)',
    '%(trailers:only,unfold)',
  ].join('%00') + '%1e'

/** Every branch name of a repository, sorted by name (byte order, as git sorts refs). */
export async function listBranchNames(gitDir: string): Promise<string[]> {
  const out = await gitText(['for-each-ref', '--sort=refname', '--format=%(refname)', HEADS], { gitDir })
  return out
    .split('\n')
    .filter((l) => l.startsWith(HEADS))
    .map((l) => l.slice(HEADS.length))
}

function refPatterns(names: readonly string[]): string[] {
  for (const n of names) assertRef(n)
  return names.map((n) => HEADS + n)
}

/**
 * The head commit of each named branch, read with one `for-each-ref` call for the whole set
 * (lists serialise a page of branches without a git call per branch).
 */
export async function branchCommits(gitDir: string, names: readonly string[]): Promise<Map<string, GitCommit>> {
  const result = new Map<string, GitCommit>()
  if (names.length === 0) return result
  const wanted = new Set(names)
  const out = await gitText(['for-each-ref', `--format=${FORMAT}`, ...refPatterns(names)], { gitDir })
  for (const record of out.split('\x1e')) {
    const text = record.replace(/^\n/, '')
    if (!text) continue
    const [ref, ...fields] = text.split('\x00')
    const name = ref.slice(HEADS.length)
    // A plain pattern also matches refs below it (`a` matches `a/b`); keep exact names only.
    if (!wanted.has(name)) continue
    result.set(name, commitFromFields(fields))
  }
  return result
}

/** Which of `names` are merged into `target` (their head is an ancestor of it), in one call. */
export async function mergedBranchNames(
  gitDir: string,
  target: string,
  names: readonly string[],
): Promise<Set<string>> {
  if (names.length === 0) return new Set()
  assertRef(target)
  const out = await gitText(['for-each-ref', `--merged=${target}`, '--format=%(refname)', ...refPatterns(names)], {
    gitDir,
  })
  return new Set(
    out
      .split('\n')
      .filter((l) => l.startsWith(HEADS))
      .map((l) => l.slice(HEADS.length)),
  )
}

/**
 * True when `name` is acceptable as a new branch name: git's ref-format rules, and not a name
 * GitLab refuses because it would be ambiguous (`HEAD`, a `refs/` prefix, a full SHA).
 */
export async function isValidBranchName(name: string): Promise<boolean> {
  if (
    !isValidRef(name) ||
    name === 'HEAD' ||
    name.startsWith('refs/') ||
    /^[0-9a-f]{40}$/.test(name) ||
    name.startsWith('-')
  )
    return false
  const out = await gitText(['check-ref-format', '--allow-onelevel', `${HEADS}${name}`]).then(
    () => true,
    () => false,
  )
  return out
}
