/**
 * Suggestions: a ```suggestion block in a merge request diff note proposes new content for the
 * lines around the note's line (GitLab's Suggestion entity).
 */
import { Type, type Static } from 'typebox'
import { Entity } from './common'

/**
 * One suggestion of a diff note: the lines it replaces (`from_line`..`to_line` of the note's file at
 * the note's head, their text `from_content`), what it puts there (`to_content`), whether it was
 * applied and whether it may be applied now (not applied, merge request open, lines unchanged
 * since, content different). `commit_id` (a Burrow addition, as `suggestions` on a REST note is) is
 * the commit that applied it, null until then: the app shows it beside "Applied".
 */
export const Suggestion = Entity({
  id: Type.Integer(),
  from_line: Type.Integer(),
  to_line: Type.Integer(),
  appliable: Type.Boolean(),
  applied: Type.Boolean(),
  from_content: Type.String(),
  to_content: Type.String(),
  commit_id: Type.Union([Type.String(), Type.Null()]),
})
export type Suggestion = Static<typeof Suggestion>
