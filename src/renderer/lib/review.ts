import type { DiffLine, ParsedDiffFile } from './diff'

/**
 * Merge request review as pure data: the file tree with change counts, and the diff of every
 * file as one flat list of fixed-height rows (unified or side by side), which the review's
 * virtual list draws a screenful at a time. Every line row carries its anchor — path, old and
 * new line — where a thread or a comment form attaches (GitLab's diff note position).
 */

/** A folder or a file of the changed files' tree. Folders with a single folder inside are shown as one (`src/lib`). */
export interface ReviewTreeNode {
  readonly name: string
  /** The folder's path, or the file's new path. */
  readonly path: string
  /** The file's index in the diff, null for a folder. */
  readonly file: number | null
  readonly additions: number
  readonly deletions: number
  readonly children: readonly ReviewTreeNode[]
}

interface MutableFolder {
  readonly folders: Map<string, MutableFolder>
  readonly files: ReviewTreeNode[]
}

/** The changed files as a tree: folders first, by name, each with the sum of its files' counts. */
export function reviewTree(files: readonly ParsedDiffFile[]): ReviewTreeNode[] {
  const root: MutableFolder = { folders: new Map(), files: [] }
  files.forEach((file, index) => {
    const parts = file.newPath.split('/')
    let folder = root
    for (const part of parts.slice(0, -1)) {
      let next = folder.folders.get(part)
      if (next === undefined) {
        next = { folders: new Map(), files: [] }
        folder.folders.set(part, next)
      }
      folder = next
    }
    folder.files.push({
      name: parts[parts.length - 1],
      path: file.newPath,
      file: index,
      additions: file.additions,
      deletions: file.deletions,
      children: [],
    })
  })
  const build = (folder: MutableFolder, prefix: string): ReviewTreeNode[] => {
    const folders = [...folder.folders.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, child]) => {
        let label = name
        let path = prefix === '' ? name : `${prefix}/${name}`
        let inner = child
        // A chain of lone folders reads as one path.
        while (inner.files.length === 0 && inner.folders.size === 1) {
          const [nextName, next] = [...inner.folders.entries()][0]
          label = `${label}/${nextName}`
          path = `${path}/${nextName}`
          inner = next
        }
        const children = build(inner, path)
        return {
          name: label,
          path,
          file: null,
          additions: children.reduce((n, c) => n + c.additions, 0),
          deletions: children.reduce((n, c) => n + c.deletions, 0),
          children,
        }
      })
    const leaves = [...folder.files].sort((a, b) => a.name.localeCompare(b.name))
    return [...folders, ...leaves]
  }
  return build(root, '')
}

/** The files in the order the tree shows them (what the diff follows, so tree and diff read alike). */
/**
 * A tree name cut where it may wrap: after each `/` of a folder chain, and after the `.`, `-` and `_`
 * of a file name, so that a long name in a narrow tree wraps between its words instead of being cut.
 */
export function nameBreaks(name: string): string[] {
  return name.split(/(?<=[/._-])/)
}

export function treeOrder(tree: readonly ReviewTreeNode[]): number[] {
  return tree.flatMap((node) => (node.file !== null ? [node.file] : treeOrder(node.children)))
}

/** Where a comment on a line attaches: the file's new path and the line's numbers on either side. */
export interface LineAnchor {
  readonly path: string
  readonly oldPath: string
  readonly oldLine: number | null
  readonly newLine: number | null
}

/** A thread anchor's key: `path:old:new` (one side empty for an added or removed line). */
export function anchorKey(anchor: LineAnchor): string {
  return `${anchor.path}:${anchor.oldLine ?? ''}:${anchor.newLine ?? ''}`
}

export type ReviewMode = 'unified' | 'split'

/** One row of the review's virtual list. */
export type ReviewRow =
  | { readonly kind: 'file'; readonly file: number }
  | { readonly kind: 'notice'; readonly file: number; readonly text: string; readonly expandable: boolean }
  /** A hunk header or a "no newline" note, across the whole width. */
  | { readonly kind: 'meta'; readonly file: number; readonly text: string }
  | { readonly kind: 'line'; readonly file: number; readonly line: DiffLine; readonly index: number }
  | {
      readonly kind: 'pair'
      readonly file: number
      readonly left: DiffLine | null
      readonly leftIndex: number | null
      readonly right: DiffLine | null
      readonly rightIndex: number | null
    }
  /** What shows under a line (its threads, drafts, the comment form): `anchors` are the keys of the lines above it. */
  | { readonly kind: 'slot'; readonly file: number; readonly anchors: readonly string[] }

/** A diff too large to draw without asking; the reviewer opens it with one click. */
export const REVIEW_LARGE_FILE_LINES = 2_000

/** Why a file shows no lines, or null when it shows them. */
function noticeOf(file: ParsedDiffFile, expanded: boolean): { text: string; expandable: boolean } | null {
  if (file.omitted) return { text: 'The server did not send this diff: it is too large to display.', expandable: false }
  if (file.binary) return { text: 'Binary file: no line-by-line view.', expandable: false }
  if (file.lines.length === 0) return { text: 'No content changes (mode or rename only).', expandable: false }
  if (!expanded)
    return {
      text: `Large diff (${file.lines.length.toLocaleString('en')} lines): collapsed.`,
      expandable: file.lines.length > REVIEW_LARGE_FILE_LINES,
    }
  return null
}

/**
 * Side by side: context lines face themselves; within a run of changes, the removed lines face
 * the added ones in order, the longer side going on alone.
 */
function pairRows(file: number, lines: readonly DiffLine[]): ReviewRow[] {
  const rows: ReviewRow[] = []
  let i = 0
  while (i < lines.length) {
    const line = lines[i]
    if (line.kind === 'hunk' || line.kind === 'note') {
      rows.push({ kind: 'meta', file, text: line.text })
      i++
    } else if (line.kind === 'context') {
      rows.push({ kind: 'pair', file, left: line, leftIndex: i, right: line, rightIndex: i })
      i++
    } else {
      const deletions: number[] = []
      const additions: number[] = []
      while (i < lines.length && lines[i].kind === 'deletion') deletions.push(i++)
      while (i < lines.length && lines[i].kind === 'addition') additions.push(i++)
      for (let k = 0; k < Math.max(deletions.length, additions.length); k++) {
        const left = deletions[k] ?? null
        const right = additions[k] ?? null
        rows.push({
          kind: 'pair',
          file,
          left: left === null ? null : lines[left],
          leftIndex: left,
          right: right === null ? null : lines[right],
          rightIndex: right,
        })
      }
    }
  }
  return rows
}

/**
 * The rows `reviewRows` made for a file, kept by file: a file laid out again reuses them, so a
 * comment on one line leaves every other row object (and the component drawn from it) as it was.
 */
export type ReviewRowsCache = WeakMap<ParsedDiffFile, FileRows>
interface FileRows {
  readonly index: number
  readonly mode: ReviewMode
  /** The rows of the file's lines (lines, pairs, hunk headers), without slots. */
  readonly lines: readonly ReviewRow[]
  /** Its header, notice and slot rows, by what they are (`file`, `notice`, `slot:<anchors>`). */
  readonly others: Map<string, ReviewRow>
}

/** The slot keys (anchor keys, `path:old:new`) by the path of their file. */
function slotsByPath(slots: ReadonlySet<string>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>()
  for (const key of slots) {
    const path = key.split(':').slice(0, -2).join(':')
    const keys = out.get(path)
    if (keys === undefined) out.set(path, new Set([key]))
    else keys.add(key)
  }
  return out
}

/** The rows of a file's lines: a line (unified) or a pair of lines (split) each, and its hunk headers. */
function lineRows(index: number, file: ParsedDiffFile, mode: ReviewMode): readonly ReviewRow[] {
  if (mode === 'split') return pairRows(index, file.lines)
  return file.lines.map((line, i): ReviewRow =>
    line.kind === 'hunk' || line.kind === 'note'
      ? { kind: 'meta', file: index, text: line.text }
      : { kind: 'line', file: index, line, index: i },
  )
}

/** The anchor keys of a row's lines that have a slot under them. */
function slotAnchors(file: ParsedDiffFile, row: ReviewRow, slots: ReadonlySet<string>): string[] {
  const lines = row.kind === 'line' ? [row.line] : row.kind === 'pair' ? [row.left, row.right] : []
  const anchors = lines.flatMap((l) => (l === null ? [] : [anchorKey(lineAnchor(file, l))]))
  return [...new Set(anchors)].filter((a) => slots.has(a))
}

/** The file's rows from the cache (or new ones, then cached) for this index and mode. */
function cachedFileRows(
  cache: ReviewRowsCache | undefined,
  index: number,
  file: ParsedDiffFile,
  mode: ReviewMode,
): FileRows {
  const cached = cache?.get(file)
  if (cached !== undefined && cached.index === index && cached.mode === mode) return cached
  const made: FileRows = { index, mode, lines: lineRows(index, file, mode), others: new Map() }
  cache?.set(file, made)
  return made
}

/**
 * Every file's header, then its lines (or why it has none), in `order`. A collapsed file (viewed,
 * or collapsed by hand) is its header alone; a file above REVIEW_LARGE_FILE_LINES shows a notice
 * until expanded. `firstRows[file]` is where each file's header is, for the tree to scroll to.
 * With a `cache`, a row laid out as before is the same object as before.
 */
export function reviewRows(
  files: readonly ParsedDiffFile[],
  order: readonly number[],
  options: {
    readonly mode: ReviewMode
    readonly collapsed: (file: number) => boolean
    readonly expandedLarge: (file: number) => boolean
    /** Anchor keys of the lines with something under them: a slot row follows each. */
    readonly slots?: ReadonlySet<string>
    readonly cache?: ReviewRowsCache
  },
): { readonly rows: ReviewRow[]; readonly firstRows: ReadonlyMap<number, number> } {
  const slots = slotsByPath(options.slots ?? new Set<string>())
  const rows: ReviewRow[] = []
  const firstRows = new Map<number, number>()
  for (const index of order) {
    const file = files[index]
    const kept = cachedFileRows(options.cache, index, file, options.mode)
    const keep = (key: string, make: () => ReviewRow): ReviewRow => {
      let row = kept.others.get(key)
      if (row === undefined) {
        row = make()
        kept.others.set(key, row)
      }
      return row
    }
    firstRows.set(index, rows.length)
    rows.push(keep('file', () => ({ kind: 'file', file: index })))
    if (options.collapsed(index)) continue
    const notice = noticeOf(file, file.lines.length <= REVIEW_LARGE_FILE_LINES || options.expandedLarge(index))
    if (notice !== null) {
      rows.push(keep(`notice:${notice.text}`, () => ({ kind: 'notice', file: index, ...notice })))
      continue
    }
    const fileSlots = slots.get(file.newPath)
    for (const row of kept.lines) {
      rows.push(row)
      const anchors = fileSlots === undefined ? [] : slotAnchors(file, row, fileSlots)
      if (anchors.length > 0)
        rows.push(keep(`slot:${anchors.join('|')}`, () => ({ kind: 'slot', file: index, anchors })))
    }
  }
  return { rows, firstRows }
}

/** The anchor of a line of a file. */
export function lineAnchor(file: ParsedDiffFile, line: DiffLine): LineAnchor {
  return { path: file.newPath, oldPath: file.oldPath, oldLine: line.oldLine, newLine: line.newLine }
}
