import { Type, type Static } from 'typebox'
import { DiffPosition as ApiDiffPosition, LineRangeEnd as ApiLineRangeEnd } from '../api/note'
import { Entity, Nullable } from '../api/common'
import type { DiffPosition } from './diff-position'
import { Explained, PositiveInteger } from './schema-check'

/**
 * A line comment's `position` (diff-position.ts) as a TypeBox schema, for the outbox's and the
 * review's requests. Its fields are the wire model's (src/shared/api/note.ts), tightened where a
 * request must say more than a note's answer does: SHAs are commit ids, paths are file paths, lines
 * are positive, and a line (or each end of a range) names at least one side. Every refusal is a
 * whole sentence naming its field (`position.head_sha must be a commit id`), for the `verbatim` style.
 */

/** A commit id, abbreviated or full, lowercase (`position.<name> must be a commit id`). */
const CommitId = (name: string) =>
  Explained(Type.String({ pattern: '^[0-9a-f]{7,64}$' }), `position.${name} must be a commit id`)

/** A file's path in the repository: not empty, no NUL or line break. */
const FilePath = (name: string) =>
  Explained(
    Type.String({ minLength: 1, maxLength: 4096, pattern: '^[^\\0\\n\\r]*$' }),
    `position.${name} must be a file path`,
  )

/** A line number, or null on the side a line is not on. */
const Line = (why: string) => Explained(Nullable(PositiveInteger), why)

/** Whether a line (or an end of a range) is on at least one side of the diff. */
const namesALine = (line: { readonly old_line: number | null; readonly new_line: number | null }): boolean =>
  line.old_line !== null || line.new_line !== null

/** One end (`start` or `end`) of a multi-line comment's range; `line_code` is core's to fill in when left out. */
const RangeEnd = (end: 'start' | 'end') => {
  const at = `line_range.${end}`
  const lineWhy = `${at}: old_line and new_line must be line numbers or null`
  return Explained(
    Type.Refine(
      Entity({
        line_code: Type.Optional(
          Explained(Type.String({ pattern: '^[0-9a-f]{40}_\\d+_\\d+$' }), `${at}.line_code must be <sha1>_<old>_<new>`),
        ),
        type: Explained(ApiLineRangeEnd.properties.type, `${at}.type must be 'old', 'new' or null`),
        old_line: Line(lineWhy),
        new_line: Line(lineWhy),
      }),
      namesALine,
      () => `${at} must name a line`,
    ),
    {
      type: `${at} must be an object`,
      required: `${at} must be an object`,
      additionalProperties: `${at}: unknown field(s)`,
    },
  )
}

const lineWhy = 'position.old_line and new_line must be line numbers or null'

/** A text position on a merge request's (or a commit's) diff: the request's DiffPosition. */
export const Position = Explained(
  Type.Refine(
    Entity({
      position_type: Explained(ApiDiffPosition.properties.position_type, "position.position_type must be 'text'"),
      base_sha: CommitId('base_sha'),
      start_sha: CommitId('start_sha'),
      head_sha: CommitId('head_sha'),
      old_path: FilePath('old_path'),
      new_path: FilePath('new_path'),
      old_line: Line(lineWhy),
      new_line: Line(lineWhy),
      line_range: Type.Optional(
        Explained(Entity({ start: RangeEnd('start'), end: RangeEnd('end') }), {
          type: 'position.line_range must be {start, end}',
        }),
      ),
    }),
    namesALine,
    () => 'position must name a line (old_line or new_line)',
  ),
  { type: 'position must be an object', additionalProperties: 'position: unknown field(s)' },
)

// The schema and diff-position.ts's type (which the renderer imports without typebox) say the same shape.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const sameShape: Same<Static<typeof Position>, DiffPosition> = true
void sameShape
