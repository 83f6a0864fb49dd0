import type { NoteRow } from './queries'

/**
 * GitLab's Discussion entity: the 40-hex id, whether it is a lone comment (its first note is a
 * plain Note rather than a thread note), and the notes already serialised, oldest first.
 */
export function discussionEntity(
  notes: readonly NoteRow[],
  present: (note: NoteRow) => Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  return {
    id: notes[0].discussion_id,
    individual_note: notes[0].type === null,
    notes: notes.map(present),
  }
}
