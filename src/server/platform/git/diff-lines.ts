/**
 * The lines of one file's patch (a `FileDiff.diff`: hunks from the first `@@`), numbered as
 * GitLab's diff parser numbers them: an added line has only a new line number, a removed line
 * only an old one, an unchanged line both. Pure.
 */
import { createHash } from 'node:crypto'

/** Where a line sits in a patch: its own numbers (null on the side it is missing from) and both counters there. */
export interface PatchLine {
  readonly type: 'new' | 'old' | null
  readonly oldLine: number | null
  readonly newLine: number | null
  /** The old and new line counters at this line (GitLab's old_pos/new_pos), which its line code names. */
  readonly oldPos: number
  readonly newPos: number
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/

/** Every added, removed and unchanged line of a patch, in order. */
export function patchLines(patch: string): PatchLine[] {
  const lines: PatchLine[] = []
  let oldPos = 0
  let newPos = 0
  for (const text of patch.split('\n')) {
    const hunk = HUNK.exec(text)
    if (hunk) {
      // An empty side (`-0,0` for a new file) counts from 0, as in GitLab's line codes (`…_0_1`).
      oldPos = Number(hunk[1])
      newPos = Number(hunk[3])
      continue
    }
    if (text.startsWith('+')) {
      lines.push({ type: 'new', oldLine: null, newLine: newPos, oldPos, newPos })
      newPos += 1
    } else if (text.startsWith('-')) {
      lines.push({ type: 'old', oldLine: oldPos, newLine: null, oldPos, newPos })
      oldPos += 1
    } else if (text.startsWith(' ')) {
      lines.push({ type: null, oldLine: oldPos, newLine: newPos, oldPos, newPos })
      oldPos += 1
      newPos += 1
    }
  }
  return lines
}

/**
 * The line a position names: the patch line with exactly these numbers, or an unchanged line
 * outside the hunks (both numbers given, `newLine - oldLine` the shift the hunks before it made,
 * and at most `newLineCount`, the length of the file after the change). Null when there is none.
 */
export function findPatchLine(
  patch: string,
  oldLine: number | null,
  newLine: number | null,
  newLineCount: number,
): PatchLine | null {
  const lines = patchLines(patch)
  const exact = lines.find((l) => l.oldLine === oldLine && l.newLine === newLine)
  if (exact) return exact
  if (oldLine === null || newLine === null || newLine > newLineCount) return null
  if (lines.some((l) => l.oldLine === oldLine || l.newLine === newLine)) return null
  const before = [...lines].reverse().find((l) => (l.newLine ?? l.newPos - 1) < newLine)
  const shift = before
    ? before.newPos - before.oldPos + (before.type === 'new' ? 1 : before.type === 'old' ? -1 : 0)
    : 0
  return newLine - oldLine === shift ? { type: null, oldLine, newLine, oldPos: oldLine, newPos: newLine } : null
}

/** GitLab's line code: the SHA-1 of the file path, then the line's old and new counters. */
export function lineCode(path: string, line: Pick<PatchLine, 'oldPos' | 'newPos'>): string {
  return `${createHash('sha1').update(path).digest('hex')}_${line.oldPos}_${line.newPos}`
}

/**
 * Where line `line` of one side of a patch (`from`: 'old' for the file before, 'new' for after)
 * is on the other side, when the patch leaves it untouched: shifted by the lines added and removed
 * above it. Null when the patch removes or rewrites it (GitLab's position tracer then keeps the
 * note on its old version, outdated).
 */
export function traceUnchangedLine(patch: string, line: number, from: 'old' | 'new'): number | null {
  const here = (l: PatchLine): number | null => (from === 'old' ? l.oldLine : l.newLine)
  const there = (l: PatchLine): number | null => (from === 'old' ? l.newLine : l.oldLine)
  // The line's own side counter where a line missing from that side (added on the other) sits.
  const counter = (l: PatchLine): number => (from === 'old' ? l.oldPos : l.newPos)
  let shift = 0
  for (const l of patchLines(patch)) {
    const own = here(l)
    if (own === null) {
      if (counter(l) > line) break
      shift += 1
    } else if (there(l) === null) {
      if (own === line) return null
      if (own > line) break
      shift -= 1
    } else {
      if (own === line) return there(l)
      if (own > line) break
      shift = (there(l) as number) - own
    }
  }
  return line + shift
}
