import type { DiffPosition as ApiDiffPosition } from '../api/note'

/**
 * Where a merge request line comment attaches: GitLab's text position of a diff note (the
 * Discussions and Draft notes APIs' `position`), on the diff version its three SHAs name. The
 * wire model's DiffPosition (src/shared/api/note.ts) as a request writes it: `line_range` left
 * out rather than null, and its ends' `line_code` too. Types and helpers only (the renderer imports
 * them); the request's check is the schema in diff-position-schema.ts.
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
