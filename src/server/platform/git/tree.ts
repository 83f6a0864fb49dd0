import { git, GitError } from './git'

/** One entry of `git ls-tree`: a blob, a subtree or a submodule commit. */
export interface TreeEntry {
  readonly id: string
  readonly name: string
  readonly type: 'tree' | 'blob' | 'commit'
  /** Full path from the repository root. */
  readonly path: string
  /** Octal mode as git writes it, six digits (`100644`, `040000`). */
  readonly mode: string
}

// Trees are immutable per (commit, path): a few recent listings are kept, because clients page
// through the same recursive listing request after request.
const CACHE_SIZE = 16
const cache = new Map<string, readonly TreeEntry[]>()

function parse(out: Buffer, base: string): TreeEntry[] {
  const entries: TreeEntry[] = []
  for (const record of out.toString('utf8').split('\0')) {
    if (!record) continue
    const tab = record.indexOf('\t')
    const [mode, type, id] = record.slice(0, tab).split(' ')
    const rel = record.slice(tab + 1)
    const path = base ? `${base}/${rel}` : rel
    entries.push({
      id,
      name: path.slice(path.lastIndexOf('/') + 1),
      type: type as TreeEntry['type'],
      path,
      mode: mode.padStart(6, '0'),
    })
  }
  return entries
}

/**
 * Lists the tree at `path` (root when empty) of commit `sha`, recursively (directories
 * included, as GitLab lists them) or one level. Returns null when the path is not a
 * directory of that commit. Callers validate `path` with assertPath first.
 */
export async function listTree(
  gitDir: string,
  sha: string,
  path: string,
  recursive: boolean,
): Promise<readonly TreeEntry[] | null> {
  const key = `${gitDir}\0${sha}\0${path}\0${recursive ? 1 : 0}`
  const hit = cache.get(key)
  if (hit) {
    cache.delete(key)
    cache.set(key, hit)
    return hit
  }
  const treeish = path ? `${sha}:${path}` : `${sha}^{tree}`
  const args = ['ls-tree', '-z', ...(recursive ? ['-r', '-t'] : []), '--end-of-options', treeish]
  let out: Buffer
  try {
    out = (await git(args, { gitDir })).stdout
  } catch (error) {
    // A missing path, or a path naming a file: both are "no such tree".
    if (error instanceof GitError && error.exitCode === 128) return null
    throw error
  }
  const entries = parse(out, path)
  cache.set(key, entries)
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string)
  return entries
}

/** True when `path` names a file or directory in commit `sha`. */
export async function pathExists(gitDir: string, sha: string, path: string): Promise<boolean> {
  const out = await git(['cat-file', '-e', '--end-of-options', `${sha}:${path}`], {
    gitDir,
    successExitCodes: [0, 1, 128],
  })
  return out.exitCode === 0
}
