import type { DiffPosition as ApiDiffPosition } from '../api/note'
import { isRecord } from '../json'

/**
 * Where a merge request line comment attaches: GitLab's text position of a diff note (the
 * Discussions and Draft notes APIs' `position`), on the diff version its three SHAs name. The
 * wire model's DiffPosition (src/shared/api/note.ts) as a request writes it: `line_range` left
 * out rather than null, and its ends' `line_code` too.
 */

/** One end of the wire model's `line_range`. */
type ApiLineRangeEnd = NonNullable<ApiDiffPosition['line_range']>['start']

/**
 * One end of a multi-line comment's range: `type` is `old` on a removed line, `new` on an added
 * one, null on an unchanged one; `line_code` is GitLab's `<sha1 of the path>_<old>_<new>`, which
 * core fills in when the renderer leaves it out.
 */
export type LineRangeEnd = Readonly<Omit<ApiLineRangeEnd, 'line_code'>> & { readonly line_code?: string }

/**
 * A text position: an added line has only `new_line`, a removed one only `old_line`, an unchanged
 * one both; a comment over several lines has a `line_range` from `start` to `end`, the line the
 * comment shows under.
 */
export type DiffPosition = Readonly<Omit<ApiDiffPosition, 'line_range'>> & {
  readonly line_range?: { readonly start: LineRangeEnd; readonly end: LineRangeEnd }
}

type Problem = string | null

const isSha = (value: unknown): value is string => typeof value === 'string' && /^[0-9a-f]{7,64}$/.test(value)
const isLine = (value: unknown): value is number | null =>
  value === null || (typeof value === 'number' && Number.isSafeInteger(value) && value > 0)
const isPath = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= 4096 && !/[\0\n\r]/.test(value)

function extraKeys(o: Record<string, unknown>, allowed: readonly string[]): Problem {
  const extra = Object.keys(o).filter((k) => !allowed.includes(k))
  return extra.length > 0 ? `unknown field(s): ${extra.join(', ')}` : null
}

function rangeEndProblem(value: unknown, name: string): Problem {
  if (!isRecord(value)) return `line_range.${name} must be an object`
  const extra = extraKeys(value, ['line_code', 'type', 'old_line', 'new_line'])
  if (extra !== null) return `line_range.${name}: ${extra}`
  if (
    value.line_code !== undefined &&
    !(typeof value.line_code === 'string' && /^[0-9a-f]{40}_\d+_\d+$/.test(value.line_code))
  )
    return `line_range.${name}.line_code must be <sha1>_<old>_<new>`
  if (value.type !== null && value.type !== 'old' && value.type !== 'new')
    return `line_range.${name}.type must be 'old', 'new' or null`
  if (!isLine(value.old_line) || !isLine(value.new_line))
    return `line_range.${name}: old_line and new_line must be line numbers or null`
  if (value.old_line === null && value.new_line === null) return `line_range.${name} must name a line`
  return null
}

/** Checks a DiffPosition; returns the first problem or null. */
export function diffPositionProblem(value: unknown): Problem {
  if (!isRecord(value)) return 'position must be an object'
  const extra = extraKeys(value, [
    'position_type',
    'base_sha',
    'start_sha',
    'head_sha',
    'old_path',
    'new_path',
    'old_line',
    'new_line',
    'line_range',
  ])
  if (extra !== null) return `position: ${extra}`
  if (value.position_type !== 'text') return "position.position_type must be 'text'"
  for (const k of ['base_sha', 'start_sha', 'head_sha'] as const)
    if (!isSha(value[k])) return `position.${k} must be a commit id`
  for (const k of ['old_path', 'new_path'] as const) if (!isPath(value[k])) return `position.${k} must be a file path`
  if (!isLine(value.old_line) || !isLine(value.new_line))
    return 'position.old_line and new_line must be line numbers or null'
  if (value.old_line === null && value.new_line === null) return 'position must name a line (old_line or new_line)'
  if (value.line_range === undefined) return null
  if (!isRecord(value.line_range)) return 'position.line_range must be {start, end}'
  return (
    extraKeys(value.line_range, ['start', 'end']) ??
    rangeEndProblem(value.line_range.start, 'start') ??
    rangeEndProblem(value.line_range.end, 'end')
  )
}

/** Whether two positions name the same line of the same diff version (what a found draft or note is matched by). */
export function samePosition(a: DiffPosition | null | undefined, b: DiffPosition | null | undefined): boolean {
  if (a == null || b == null) return (a ?? null) === (b ?? null)
  return (
    a.head_sha === b.head_sha &&
    a.new_path === b.new_path &&
    a.old_path === b.old_path &&
    (a.new_line ?? null) === (b.new_line ?? null) &&
    (a.old_line ?? null) === (b.old_line ?? null)
  )
}
