import { gitText } from '../../platform/git/git'
import { resolveCommit } from '../../platform/git/refs'
import type { CodeProject } from '../../platform/http/repository'
import { languageOf } from './linguist'

/**
 * GitLab's repository languages: each language's share of the bytes of the default branch's
 * files in percent (two decimals), largest first. An empty repository has none.
 */
export async function repositoryLanguages(repo: CodeProject): Promise<Record<string, number>> {
  const branch = repo.project.default_branch
  if (!repo.exists || branch === null || (await resolveCommit(repo.gitDir, branch)) === null) return {}
  const listing = await gitText(['ls-tree', '-r', '-l', '-z', '--full-tree', `${branch}^{commit}`], {
    gitDir: repo.gitDir,
  })
  const bytes = new Map<string, number>()
  for (const entry of listing.split('\0')) {
    // `<mode> blob <sha> <size>\t<path>`; submodules (commit) and their `-` sizes do not count.
    const match = /^\d+ blob [0-9a-f]+ +(\d+)\t(.+)$/s.exec(entry)
    if (!match) continue
    const language = languageOf(match[2])
    if (language !== null) bytes.set(language, (bytes.get(language) ?? 0) + Number(match[1]))
  }
  const total = [...bytes.values()].reduce((sum, n) => sum + n, 0)
  if (total === 0) return {}
  return Object.fromEntries(
    [...bytes.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([language, n]) => [language, Math.round((n / total) * 10000) / 100]),
  )
}
