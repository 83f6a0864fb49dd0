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
  assertPath(path)
  const entry = await gitText(['ls-tree', '-z', '--full-tree', commit, '--', path], { gitDir })
  const m = /^(\d{6}) blob ([0-9a-f]{40,64})\t(.*)\0/s.exec(entry)
  if (!m || m[3] !== path) return null
  const content = (await git(['cat-file', 'blob', m[2]], { gitDir })).stdout
  const lastCommitId = (await gitText(['log', '-1', '--format=%H', commit, '--', path], { gitDir })).trim()
  return { mode: m[1], sha: m[2], content, lastCommitId }
}
