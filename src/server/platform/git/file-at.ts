import { assertPath, git, gitText } from './git'

/** A blob at a path of a commit. */
export interface BlobAtPath {
  readonly mode: string
  readonly sha: string
  readonly content: Buffer
  /** The last commit at or before the given one that touched the path. */
  readonly lastCommitId: string
}

/** Reads the file at `path` in commit `commit` (a resolved SHA), or null when no blob is there. */
export async function readFileAt(gitDir: string, commit: string, path: string): Promise<BlobAtPath | null> {
  const blob = await readBlobAt(gitDir, commit, path)
  if (!blob) return null
  const lastCommitId = (await gitText(['log', '-1', '--format=%H', commit, '--', path], { gitDir })).trim()
  return { ...blob, lastCommitId }
}

/**
 * `readFileAt` without the last commit that touched the file, for readers that want the content
 * only (CI configuration): that commit is a history walk in one more git process.
 */
export async function readBlobAt(
  gitDir: string,
  commit: string,
  path: string,
): Promise<Omit<BlobAtPath, 'lastCommitId'> | null> {
  assertPath(path)
  const entry = await gitText(['ls-tree', '-z', '--full-tree', commit, '--', path], { gitDir })
  const m = /^(\d{6}) blob ([0-9a-f]{40,64})\t(.*)\0/s.exec(entry)
  if (!m || m[3] !== path) return null
  const content = (await git(['cat-file', 'blob', m[2]], { gitDir })).stdout
  return { mode: m[1], sha: m[2], content }
}
