/**
 * Draft notes (GitLab's Draft Notes API): the pending comments of a merge request review, seen only
 * by their author until published.
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable } from './common'

/** One end of a multi-line comment's range. */
export const DraftLineRangeEnd = Entity({
  line_code: Nullable(Type.String()),
  type: Nullable(Type.Enum(['new', 'old'])),
  old_line: Nullable(Type.Integer()),
  new_line: Nullable(Type.Integer()),
})

/**
 * A draft's diff position. A general comment has one too, every field null but `position_type`,
 * as GitLab answers.
 */
export const DraftNotePosition = Entity({
  base_sha: Nullable(Type.String()),
  start_sha: Nullable(Type.String()),
  head_sha: Nullable(Type.String()),
  old_path: Nullable(Type.String()),
  new_path: Nullable(Type.String()),
  position_type: Type.Literal('text'),
  old_line: Nullable(Type.Integer()),
  new_line: Nullable(Type.Integer()),
  line_range: Nullable(Entity({ start: DraftLineRangeEnd, end: DraftLineRangeEnd })),
})
export type DraftNotePosition = Static<typeof DraftNotePosition>

/** GitLab's DraftNote entity. */
export const DraftNote = Entity({
  id: Type.Integer(),
  author_id: Type.Integer(),
  merge_request_id: Type.Integer(),
  resolve_discussion: Type.Boolean(),
  /** The discussion the draft replies to; null when it starts a thread. */
  discussion_id: Nullable(Type.String()),
  note: Type.String(),
  commit_id: Nullable(Type.String()),
  line_code: Nullable(Type.String()),
  position: DraftNotePosition,
})
export type DraftNote = Static<typeof DraftNote>
