import { git } from './git'

/**
 * The best common ancestor of resolved commit ids, as `git merge-base` computes it for two
 * or more commits; null when the histories share nothing.
 */
export async function mergeBase(gitDir: string, shas: readonly string[]): Promise<string | null> {
  const out = await git(['merge-base', '--end-of-options', ...shas], { gitDir, successExitCodes: [0, 1] })
  if (out.exitCode !== 0) return null
  return out.stdout.toString('utf8').trim() || null
}
