import { structuredPatch } from 'diff'

/** Git's rule for "binary": a NUL byte among the first 8000 bytes. */
export function isBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8000)
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true
  return false
}

const decoder = new TextDecoder('utf-8', { fatal: false })

/** UTF-8 text, invalid sequences replaced (as a browser shows a file it cannot decode). */
export function decodeText(bytes: Uint8Array): string {
  return decoder.decode(bytes)
}

/** `@@ -3,2 +3,4 @@` the way git writes it: no `,1`, and an empty side starts at 0. */
function range(start: number, count: number): string {
  if (count === 0) return `${start - 1},0`
  return count === 1 ? `${start}` : `${start},${count}`
}

/** What makes a file diff expensive: past these it is left out (`too_large`) rather than computed. */
export interface DiffLimits {
  /** Bytes per side. */
  readonly maxBytes: number
  /** Edit distance past which the line diff gives up (jsdiff's `maxEditLength`). */
  readonly maxEdits: number
}

export const DEFAULT_DIFF_LIMITS: DiffLimits = { maxBytes: 1024 * 1024, maxEdits: 20_000 }

/** One file's unified diff: the hunks as git prints them with 3 lines of context, no file headers. */
export type FileDiff =
  | { readonly kind: 'text'; readonly diff: string; readonly lines: number }
  | { readonly kind: 'binary'; readonly diff: string }
  | { readonly kind: 'too-large' }

/**
 * The diff of one file between two versions (null: the file does not exist on that side). Binary
 * content gives git's `Binary files a/… and b/… differ`; a side over `maxBytes`, or a diff over
 * `maxEdits`, gives `too-large` (the viewer says so instead of freezing on it).
 */
export function diffFile(
  oldPath: string,
  newPath: string,
  before: Uint8Array | null,
  after: Uint8Array | null,
  limits: DiffLimits = DEFAULT_DIFF_LIMITS,
): FileDiff {
  const a = before ?? new Uint8Array()
  const b = after ?? new Uint8Array()
  if (isBinary(a) || isBinary(b)) {
    return {
      kind: 'binary',
      diff: `Binary files ${before === null ? '/dev/null' : `a/${oldPath}`} and ${after === null ? '/dev/null' : `b/${newPath}`} differ\n`,
    }
  }
  if (a.length > limits.maxBytes || b.length > limits.maxBytes) return { kind: 'too-large' }
  const patch = structuredPatch(oldPath, newPath, decodeText(a), decodeText(b), undefined, undefined, {
    context: 3,
    maxEditLength: limits.maxEdits,
  })
  if (patch === undefined) return { kind: 'too-large' }
  let text = ''
  let lines = 0
  for (const hunk of patch.hunks) {
    text += `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@\n`
    for (const line of hunk.lines) text += `${line}\n`
    lines += hunk.lines.length + 1
  }
  return { kind: 'text', diff: text, lines }
}
