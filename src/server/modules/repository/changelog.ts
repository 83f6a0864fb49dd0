import type { GitCommit } from '../../platform/git/commits'
import { gitText } from '../../platform/git/git'

/** A `major.minor.patch[-pre][+build]` version, as GitLab's unbounded semver pattern accepts. */
export const SEMVER = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?$/

interface Version {
  readonly major: number
  readonly minor: number
  readonly patch: number
  readonly pre: string | null
}

function parseVersion(text: string): Version | null {
  const m = SEMVER.exec(text)
  if (!m) return null
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), pre: m[4] ?? null }
}

function compareCore(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch
}

/** a < b under semver precedence, for the cases changelogs need (a is always a stable tag). */
function lowerThan(a: Version, b: Version): boolean {
  const core = compareCore(a, b)
  if (core !== 0) return core < 0
  // Same core: a stable `a` is above any pre-release of it, and equal to a stable `b`.
  return false
}

/**
 * The commit of the highest stable tag (`vX.Y.Z` or `X.Y.Z`, pre-releases ignored) lower than
 * `version`, as GitLab's PreviousTagFinder; null when there is none.
 */
export async function previousTagCommit(gitDir: string, version: string): Promise<string | null> {
  const target = parseVersion(version)
  if (!target) return null
  const out = await gitText(
    ['for-each-ref', '--format=%(refname:strip=2)%00%(objectname)%00%(*objectname)', 'refs/tags/'],
    { gitDir },
  )
  let best: { v: Version; commit: string } | null = null
  for (const line of out.split('\n')) {
    if (!line) continue
    const [name, object, peeled] = line.split('\0')
    if (!/^v?\d+\.\d+\.\d+$/.test(name)) continue
    const v = parseVersion(name)
    if (!v || !lowerThan(v, target)) continue
    if (!best || compareCore(v, best.v) > 0) best = { v, commit: peeled || object }
  }
  return best?.commit ?? null
}

export interface ChangelogInput {
  readonly version: string
  /** `YYYY-MM-DD`. */
  readonly date: string
  readonly trailer: string
  /** Commits in the range, newest first (as `git log` lists them). */
  readonly commits: readonly GitCommit[]
  readonly projectWebUrl: string
}

/**
 * The release section GitLab's default changelog template renders: a `## version (date)`
 * heading, then one `### category (N changes)` block per trailer value, in the order the
 * categories first appear, each entry a link to its commit; `No changes.` when none qualify.
 */
export function renderRelease(input: ChangelogInput): string {
  const categories = new Map<string, GitCommit[]>()
  for (const c of input.commits) {
    const value = c.trailers[input.trailer]
    if (value === undefined || value.trim() === '') continue
    const list = categories.get(value.trim()) ?? []
    list.push(c)
    categories.set(value.trim(), list)
  }
  let text = `## ${input.version} (${input.date})\n\n`
  if (categories.size === 0) return `${text}No changes.\n`
  const blocks: string[] = []
  for (const [title, entries] of categories) {
    const count = entries.length === 1 ? '1 change' : `${entries.length} changes`
    blocks.push(
      `### ${title} (${count})\n\n` +
        entries.map((c) => `- [${c.title}](${input.projectWebUrl}/-/commit/${c.id})\n`).join(''),
    )
  }
  text += blocks.join('\n')
  return text
}
