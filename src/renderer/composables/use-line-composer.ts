import { shallowRef, watch, type ShallowRef } from 'vue'
import type { DiffPosition } from '../../shared/ipc/diff-position'
import type { DiffLine, ParsedDiffFile } from '../lib/diff'
import type { ReviewRow } from '../lib/review'
import { lineAt, linesLabel, positionFor, type DiffRefs } from '../lib/review-threads'

/** Where the line comment form is open: the lines it comments on. */
export interface Composer {
  readonly file: number
  readonly from: DiffLine
  readonly to: DiffLine
  /** The anchor key of the last line, where the form shows. */
  readonly at: string
  /** The text the form opens with (a refused comment's, to send again). */
  readonly text?: string
}

export interface LineComposer {
  /** The open form, or null. */
  readonly composer: ShallowRef<Composer | null>
  /** Opens the form on lines `fromKey` to `toKey` (anchor keys, either order) of file `file`. */
  open(file: number, fromKey: string, toKey: string): void
  /** GitLab's position of the form's lines on the diff version `refs`, or null (no form, no version). */
  position(): DiffPosition | null
  /** The form's label (`Comment on line 12`) when it shows under this slot row, else null. */
  composingAt(row: Extract<ReviewRow, { kind: 'slot' }>): string | null
}

/**
 * The line comment form of a diff of `ReviewDiff` rows: a press on a line's `+` (or a drag over
 * several) opens it under the last line; it closes when the files change. Shared by a merge
 * request's review and a commit's diff.
 */
export function useLineComposer(files: () => readonly ParsedDiffFile[], refs: () => DiffRefs | null): LineComposer {
  const composer = shallowRef<Composer | null>(null)
  watch(files, () => (composer.value = null))
  return {
    composer,
    open(file, fromKey, toKey) {
      const f = files()[file]
      const a = lineAt(f, fromKey)
      const b = lineAt(f, toKey)
      if (a === null || b === null) return
      const [from, to] = a.index <= b.index ? [a, b] : [b, a]
      composer.value = { file, from: from.line, to: to.line, at: to === b ? toKey : fromKey }
    },
    position() {
      const c = composer.value
      const version = refs()
      return c === null || version === null ? null : positionFor(files()[c.file], c.from, c.to, version)
    },
    composingAt(row) {
      const c = composer.value
      return c !== null && c.file === row.file && row.anchors.includes(c.at) ? linesLabel(c.from, c.to) : null
    },
  }
}
