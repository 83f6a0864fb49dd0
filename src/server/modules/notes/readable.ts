import type { ReadableFamily } from '../../platform/auth/readable'
import { findNamespaceById } from '../../platform/db/platform-queries'
import { findNoteById } from './queries'
import { NOTE_EVENT_TARGET_TYPES } from '../events'
import { canSeeInternalNotes } from './policy'
import type { NoteContainer } from './service'

/**
 * Notes' read rules for other lists: an internal note's body is for Reporters and above of its
 * project or group, and a note is readable with its noteable (registered at startup).
 */
export const notesReadable: ReadableFamily = {
  notes: (items, id) => {
    const note = findNoteById(items.db, id)
    if (!note) return undefined
    let bodyReadable = note.internal === 0
    if (!bodyReadable) {
      const project = note.project_id !== null ? items.projectRow(note.project_id) : undefined
      const group =
        note.project_id === null && note.group_id !== null ? findNamespaceById(items.db, note.group_id) : undefined
      const container: NoteContainer | undefined = project
        ? { kind: 'project', project }
        : group
          ? { kind: 'group', group }
          : undefined
      bodyReadable = container !== undefined && canSeeInternalNotes(items.perms, container)
    }
    return { noteableType: note.noteable_type, noteableId: note.noteable_id, bodyReadable }
  },
  eventTargets: Object.fromEntries(
    NOTE_EVENT_TARGET_TYPES.map((type) => [type, (items, e) => items.note(e.target_id as number)]),
  ),
}
