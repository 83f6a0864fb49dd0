import type { CommitNote } from '../../../shared/api/note'
import type { NoteRow, TextPosition } from '../notes'
import type { UserRef } from '../users'

/** An added line has only a new number, a removed one only an old one; an unchanged line has no type (GitLab's diff line type). */
function lineTypeOf(position: TextPosition): CommitNote['line_type'] {
  if (position.old_line === null) return 'new'
  if (position.new_line === null) return 'old'
  return null
}

/**
 * GitLab's CommitNote entity: a diff note gives the file, line and line type of its position, any
 * other note nulls there.
 */
export function commitNoteEntity(note: NoteRow, author: UserRef): CommitNote {
  const position =
    note.type === 'DiffNote' && note.position !== null ? (JSON.parse(note.position) as TextPosition) : null
  return {
    note: note.body,
    path: position ? position.new_path : null,
    line: position ? (position.new_line ?? position.old_line) : null,
    line_type: position ? lineTypeOf(position) : null,
    author,
    created_at: note.created_at,
  }
}
