import { assertPath, git, isSha } from './git'

/** Consecutive lines of a file last changed by one commit (GitLab's blame range). */
export interface BlameRange {
  readonly sha: string
  readonly lines: readonly string[]
}

/** Lines `start`..`end` (1-based, inclusive) of a blame; the end is clamped to the file. */
export interface LineRange {
  readonly start: number
  readonly end: number
}

const HEADER = /^([0-9a-f]{40,64}) \d+ \d+(?: \d+)?$/

/**
 * Parses `git blame --porcelain` output into ranges: each line's header names its commit, the
 * commit's metadata follows only its first time, and the line itself is the one starting with a tab.
 */
export function parseBlamePorcelain(out: string): BlameRange[] {
  const ranges: { sha: string; lines: string[] }[] = []
  let sha: string | null = null
  for (const line of out.split('\n')) {
    const header = HEADER.exec(line)
    if (header) sha = header[1]
    else if (line.startsWith('\t') && sha) {
      const last = ranges[ranges.length - 1]
      if (last && last.sha === sha) last.lines.push(line.slice(1))
      else ranges.push({ sha, lines: [line.slice(1)] })
    }
  }
  return ranges
}

/** The number of lines of a blob as git counts them (a last line without a newline counts). */
function lineCount(content: Buffer): number {
  if (content.length === 0) return 0
  let n = 0
  for (const byte of content) if (byte === 0x0a) n += 1
  return content[content.length - 1] === 0x0a ? n : n + 1
}

/**
 * Blames `path` at `commit` (a resolved SHA) with system git, over `range` when given; null when
 * the range starts past the file's last line. `content` is the blob, read by the caller already.
 */
export async function blame(
  gitDir: string,
  commit: string,
  path: string,
  content: Buffer,
  range?: LineRange,
): Promise<BlameRange[] | null> {
  if (!isSha(commit)) throw new Error(`not a commit id: ${commit}`)
  assertPath(path)
  const lines = lineCount(content)
  if (lines === 0) return []
  let window: string[] = []
  if (range) {
    if (range.start > lines) return null
    window = ['-L', `${range.start},${Math.min(range.end, lines)}`]
  }
  const out = await git(['blame', '--porcelain', ...window, commit, '--', path], { gitDir })
  return parseBlamePorcelain(out.stdout.toString('utf8'))
}
