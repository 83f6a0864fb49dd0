import { gitText } from './git'

/** Commit authors of a history with their commit counts, as `git shortlog -sne` groups them. */
export interface GitContributor {
  readonly name: string
  readonly email: string
  readonly commits: number
}

/** Authors of the history of commit `sha` (a resolved commit id). */
export async function listContributors(gitDir: string, sha: string): Promise<GitContributor[]> {
  const out = await gitText(['shortlog', '-s', '-n', '-e', '--end-of-options', sha], { gitDir })
  const contributors: GitContributor[] = []
  for (const line of out.split('\n')) {
    const m = /^\s*(\d+)\t(.*) <([^>]*)>$/.exec(line)
    if (m) contributors.push({ commits: Number(m[1]), name: m[2], email: m[3] })
  }
  return contributors
}
