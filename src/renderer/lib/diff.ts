/**
 * Unified diffs as the v4 API gives them (one `diff` per file in merge request changes,
 * commits and compare: hunks only, no `diff --git` header) or as `git diff` prints them
 * (several files, with headers), turned into numbered lines for the diff viewer.
 */

/** One changed file as the API returns it (`/merge_requests/:iid/changes`, `/repository/compare`). */
export interface DiffFileSource {
  readonly old_path: string
  readonly new_path: string
  readonly new_file: boolean
  readonly renamed_file: boolean
  readonly deleted_file: boolean
  readonly diff: string
  /** The server left the diff out because it is too large. */
  readonly too_large?: boolean
  /** The server collapsed the diff (large, or generated). */
  readonly collapsed?: boolean
}

export type DiffLineKind = 'context' | 'addition' | 'deletion' | 'hunk' | 'note'

export interface DiffLine {
  readonly kind: DiffLineKind
  /** Line number in the old file (context, deletion), else null. */
  readonly oldLine: number | null
  /** Line number in the new file (context, addition), else null. */
  readonly newLine: number | null
  /** The line without its `+`/`-`/space prefix; the whole header for `hunk`; the message for `note`. */
  readonly text: string
}

export type DiffFileStatus = 'added' | 'deleted' | 'renamed' | 'modified'

export interface ParsedDiffFile {
  readonly oldPath: string
  readonly newPath: string
  readonly status: DiffFileStatus
  /** Git said `Binary files … differ`: nothing to show line by line. */
  readonly binary: boolean
  /** The server did not send the lines (too large or collapsed on its side). */
  readonly omitted: boolean
  readonly lines: readonly DiffLine[]
  readonly additions: number
  readonly deletions: number
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/

/** Parses the hunks of one file's diff into numbered lines. Text before the first hunk is ignored. */
export function parseHunks(diff: string): {
  readonly lines: DiffLine[]
  readonly additions: number
  readonly deletions: number
} {
  const lines: DiffLine[] = []
  let additions = 0
  let deletions = 0
  let oldLine = 0
  let newLine = 0
  let inHunk = false
  const raw = diff.split('\n')
  // A diff ends with a newline: the empty string after it is not a line.
  if (raw.at(-1) === '') raw.pop()
  for (const line of raw) {
    const hunk = HUNK.exec(line)
    if (hunk) {
      oldLine = Number(hunk[1])
      newLine = Number(hunk[3])
      inHunk = true
      lines.push({ kind: 'hunk', oldLine: null, newLine: null, text: line })
      continue
    }
    if (!inHunk) continue
    const marker = line[0]
    const text = line.slice(1)
    if (marker === '+') {
      lines.push({ kind: 'addition', oldLine: null, newLine: newLine++, text })
      additions++
    } else if (marker === '-') {
      lines.push({ kind: 'deletion', oldLine: oldLine++, newLine: null, text })
      deletions++
    } else if (marker === '\\') {
      lines.push({ kind: 'note', oldLine: null, newLine: null, text: line.slice(2) })
    } else {
      // A context line; an empty line inside a hunk is an empty context line whose space was trimmed.
      lines.push({ kind: 'context', oldLine: oldLine++, newLine: newLine++, text: marker === ' ' ? text : line })
    }
  }
  return { lines, additions, deletions }
}

function statusOf(source: DiffFileSource): DiffFileStatus {
  if (source.new_file) return 'added'
  if (source.deleted_file) return 'deleted'
  if (source.renamed_file) return 'renamed'
  return 'modified'
}

/** One API diff entry → a parsed file. */
export function parseDiffFile(source: DiffFileSource): ParsedDiffFile {
  const binary = /^Binary files .* differ$/m.test(source.diff) && !source.diff.includes('@@')
  const omitted = source.too_large === true || (source.collapsed === true && source.diff === '')
  const { lines, additions, deletions } = parseHunks(source.diff)
  return {
    oldPath: source.old_path,
    newPath: source.new_path,
    status: statusOf(source),
    binary,
    omitted,
    lines,
    additions,
    deletions,
  }
}

function unquote(path: string): string {
  return path.startsWith('"') && path.endsWith('"') ? path.slice(1, -1).replace(/\\(.)/g, '$1') : path
}

/** `a/x` → `x`; `/dev/null` stays. */
function stripPrefix(path: string): string {
  const p = unquote(path.trim())
  return p === '/dev/null' ? p : p.replace(/^[ab]\//, '')
}

/**
 * Splits `git diff` output (several files, each starting with `diff --git a/… b/…`) into
 * API-shaped entries, so both sources reach the viewer the same way.
 */
export function splitGitDiff(text: string): DiffFileSource[] {
  const files: DiffFileSource[] = []
  const blocks = text.split(/^(?=diff --git )/m).filter((b) => b.startsWith('diff --git '))
  for (const block of blocks) {
    const header = block.slice(0, block.search(/^@@ /m) === -1 ? block.length : block.search(/^@@ /m))
    const git = /^diff --git (\S+|"[^"]+") (\S+|"[^"]+")$/m.exec(header)
    let oldPath = git ? stripPrefix(git[1]) : ''
    let newPath = git ? stripPrefix(git[2]) : ''
    const minus = /^--- (.+)$/m.exec(header)
    const plus = /^\+\+\+ (.+)$/m.exec(header)
    const renameFrom = /^rename from (.+)$/m.exec(header)
    const renameTo = /^rename to (.+)$/m.exec(header)
    if (renameFrom) oldPath = unquote(renameFrom[1])
    if (renameTo) newPath = unquote(renameTo[1])
    if (minus && stripPrefix(minus[1]) !== '/dev/null') oldPath = stripPrefix(minus[1])
    if (plus && stripPrefix(plus[1]) !== '/dev/null') newPath = stripPrefix(plus[1])
    const hunkStart = block.search(/^@@ /m)
    const binaryLine = /^Binary files .* differ$/m.exec(header)
    files.push({
      old_path: oldPath,
      new_path: newPath,
      new_file: /^new file mode /m.test(header),
      deleted_file: /^deleted file mode /m.test(header),
      renamed_file: renameFrom !== null,
      diff: hunkStart === -1 ? (binaryLine?.[0] ?? '') : block.slice(hunkStart),
    })
  }
  return files
}

/** Lines a viewer renders without asking: above this a file starts collapsed with a notice. */
export const LARGE_FILE_LINES = 1_000
/** Lines across all files a viewer renders before the rest start collapsed (the overflow notice). */
export const LARGE_DIFF_LINES = 5_000

/**
 * Which files start expanded: small ones, in order, until the budget runs out. A file the server
 * omitted, a binary file and a file above LARGE_FILE_LINES start collapsed.
 */
export function initiallyExpanded(files: readonly ParsedDiffFile[], budget = LARGE_DIFF_LINES): boolean[] {
  let used = 0
  return files.map((file) => {
    if (file.omitted || file.binary || file.lines.length > LARGE_FILE_LINES) return false
    if (used + file.lines.length > budget) return false
    used += file.lines.length
    return true
  })
}
