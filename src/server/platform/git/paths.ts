import { git, gitText, ZERO_SHA } from './git'

/** Every file path of a commit (at most `limit`), for `rules:exists`. */
export async function listPaths(gitDir: string, sha: string, limit = 10000): Promise<string[]> {
  const out = await git(['ls-tree', '-r', '-z', '--name-only', '--full-tree', '--end-of-options', sha], {
    gitDir,
    successExitCodes: [0, 128],
  })
  if (out.exitCode !== 0) return []
  return out.stdout
    .toString('utf8')
    .split('\0')
    .filter((p) => p !== '')
    .slice(0, limit)
}

/** Paths changed between two commits, or null when there is no earlier commit to compare with. */
export async function changedPaths(gitDir: string, from: string, to: string): Promise<string[] | null> {
  if (from === ZERO_SHA || from === to) return null
  const text = await gitText(['diff', '--name-only', '-z', '--no-renames', '--end-of-options', from, to], {
    gitDir,
  }).catch(() => null)
  if (text === null) return null
  return text.split('\0').filter((p) => p !== '')
}
