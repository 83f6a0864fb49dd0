import { isBinary } from './diff'

/**
 * How alike two files are, as git's rename detection estimates it (diffcore-rename and
 * diffcore-delta): each file is cut into spans ending at a newline or after 64 bytes, spans are
 * counted by a hash of their bytes, and the bytes the target shares with the source, over the
 * larger file's size, are the score. Computing it the same way, hash included, makes blame
 * follow exactly the renames `git blame` follows.
 */

/** git's scale of similarity: 100%. */
export const MAX_SCORE = 60_000
/** git's default rename threshold, 50% (`-M50%`). */
export const RENAME_MIN_SCORE = MAX_SCORE / 2

/** The modulus of git's span hash (diffcore-delta's HASHBASE). */
const HASHBASE = 107_927
/** A span ends after this many bytes when no newline ends it first. */
const SPAN_MAX = 64

/** Bytes per span hash. In text, the CR of a CRLF is skipped, so line endings do not count. */
function spanBytes(bytes: Uint8Array): Map<number, number> {
  const text = !isBinary(bytes)
  const counts = new Map<number, number>()
  let accum1 = 0
  let accum2 = 0
  let n = 0
  const endSpan = (): void => {
    const hash = ((accum1 + Math.imul(accum2, 0x61)) >>> 0) % HASHBASE
    counts.set(hash, (counts.get(hash) ?? 0) + n)
    accum1 = 0
    accum2 = 0
    n = 0
  }
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]
    if (text && c === 0x0d && bytes[i + 1] === 0x0a) continue
    const old1 = accum1
    // git's accumulators are 32-bit unsigned: `>>> 0` wraps them the same way.
    accum1 = (((accum1 << 7) ^ (accum2 >>> 25)) + c) >>> 0
    accum2 = ((accum2 << 7) ^ (old1 >>> 25)) >>> 0
    if (++n < SPAN_MAX && c !== 0x0a) continue
    endSpan()
  }
  if (n > 0) endSpan()
  return counts
}

/**
 * The similarity of `source` to `target` on git's 0..MAX_SCORE scale; 0 when their sizes alone
 * rule out reaching the rename threshold (git does not look further either).
 */
export function renameScore(source: Uint8Array, target: Uint8Array): number {
  const max = Math.max(source.length, target.length)
  const delta = max - Math.min(source.length, target.length)
  if (target.length === 0 || max * (MAX_SCORE - RENAME_MIN_SCORE) < delta * MAX_SCORE) return 0
  const targetSpans = spanBytes(target)
  let copied = 0
  for (const [hash, count] of spanBytes(source)) copied += Math.min(count, targetSpans.get(hash) ?? 0)
  return Math.floor((copied * MAX_SCORE) / max)
}
