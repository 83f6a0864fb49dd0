/**
 * Notes and discussions of issues, merge requests, snippets and epics (spec "Note", "Discussion").
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable, OpenObject, Timestamp } from './common'
import { Suggestion } from './suggestion'
import { UserRef } from './user'

/** What a note is attached to. */
export const NoteableType = Type.Enum(['Issue', 'MergeRequest', 'Snippet', 'Epic', 'Commit'])

/** `null` for a lone comment, `DiscussionNote` in a thread, `DiffNote` on a diff line. */
export const NoteType = Nullable(Type.Enum(['DiscussionNote', 'DiffNote']))

/** One end of a multi-line diff note's range. */
export const LineRangeEnd = Entity({
  line_code: Nullable(Type.String()),
  type: Nullable(Type.Enum(['new', 'old'])),
  old_line: Nullable(Type.Integer()),
  new_line: Nullable(Type.Integer()),
})

/**
 * A diff note's text position (GitLab's Position `to_h`): the merge request diff version's refs,
 * the file's paths, the line (an added line has only new_line, a removed one only old_line) and
 * the range of a multi-line comment.
 */
export const DiffPosition = Entity({
  base_sha: Type.String(),
  start_sha: Type.String(),
  head_sha: Type.String(),
  old_path: Type.String(),
  new_path: Type.String(),
  position_type: Type.Literal('text'),
  old_line: Nullable(Type.Integer()),
  new_line: Nullable(Type.Integer()),
  line_range: Nullable(Entity({ start: LineRangeEnd, end: LineRangeEnd })),
})
export type DiffPosition = Static<typeof DiffPosition>

/**
 * What diff notes add after `project_id`: the commit (merge request diff notes), the position
 * where the note shows now (carried to the newest diff version while its lines are unchanged) and
 * the one it was written at.
 */
const diffNoteFields = {
  commit_id: Type.Optional(Nullable(Type.String())),
  position: Type.Optional(DiffPosition),
  original_position: Type.Optional(DiffPosition),
}

/** The fields every note shape starts with. */
const noteFields = {
  id: Type.Integer(),
  type: NoteType,
  body: Type.String(),
  attachment: Nullable(Type.String()),
  author: UserRef,
  created_at: Timestamp,
  updated_at: Timestamp,
  system: Type.Boolean(),
  noteable_id: Type.Integer(),
  noteable_type: NoteableType,
  project_id: Nullable(Type.Integer()),
}

/**
 * GitLab's Note entity. The resolved fields appear on resolvable notes only; `commands_changes` on
 * create answers where quick actions ran.
 */
export const Note = Entity({
  ...noteFields,
  ...diffNoteFields,
  resolvable: Type.Boolean(),
  /** Deprecated: `internal`. */
  confidential: Type.Boolean(),
  internal: Type.Boolean(),
  imported: Type.Boolean(),
  imported_from: Type.String(),
  noteable_iid: Nullable(Type.Integer()),
  resolved: Type.Optional(Type.Boolean()),
  resolved_by: Type.Optional(Nullable(UserRef)),
  resolved_at: Type.Optional(Nullable(Timestamp)),
  /** The suggestions of a merge request diff note that has any (GitLab's note entity of its merge request page). */
  suggestions: Type.Optional(Type.Array(Suggestion)),
  commands_changes: Type.Optional(OpenObject),
})
export type Note = Static<typeof Note>

/** A note made only of quick actions (202): what they changed and a summary. */
export const NoteCommandsResult = Entity({
  commands_changes: OpenObject,
  summary: Type.Array(Type.String()),
})
export type NoteCommandsResult = Static<typeof NoteCommandsResult>

/** GitLab's Discussion entity: a 40-hex id, whether it is a lone comment, its notes oldest first. */
export const Discussion = Entity({
  id: Type.String(),
  individual_note: Type.Boolean(),
  notes: Type.Array(Note),
})
export type Discussion = Static<typeof Discussion>

/**
 * The author as a `commented on` event stored it when the comment was made: events recorded before
 * accounts could be locked have no `locked`.
 */
export const EventNoteAuthor = Entity({ ...UserRef.properties, locked: Type.Optional(Type.Boolean()) })

/** The `note` of a `commented on` activity event, as it was when commented (stored with the event). */
export const EventNote = Entity({
  ...noteFields,
  ...diffNoteFields,
  author: EventNoteAuthor,
  confidential: Type.Boolean(),
  internal: Type.Boolean(),
  noteable_iid: Nullable(Type.Integer()),
})
export type EventNote = Static<typeof EventNote>

/**
 * GitLab's CommitNote entity (the Commits API's comments): the text, and for a comment on a line
 * of the commit's diff the file, the line and whether it is an added (`new`) or removed (`old`) one.
 */
export const CommitNote = Entity({
  note: Type.String(),
  path: Nullable(Type.String()),
  line: Nullable(Type.Integer()),
  line_type: Nullable(Type.Enum(['new', 'old'])),
  author: UserRef,
  created_at: Timestamp,
})
export type CommitNote = Static<typeof CommitNote>
