import type { DiffPosition, Discussion, EventNote, Note, NoteCommandsResult } from '../../../shared/api/note'
import type { Suggestion } from '../../../shared/api/suggestion'
import type { NoteRow } from './queries'
import type { UserRow } from '../../platform/db/rows'
import { userRef, type UserRef } from '../users'

/** What a note's JSON needs from its noteable. */
export interface NoteableRef {
  readonly iid: number | null
}

/** The fields a diff note adds (none on other notes). */
type DiffNoteFields = Pick<Note, 'commit_id' | 'position' | 'original_position'>

/** A position as stored: the JSON of the TextPosition checked when the note was written. */
function storedPosition(json: string): DiffPosition {
  return JSON.parse(json) as DiffPosition
}

/**
 * What a diff note adds after `project_id`: the commit it was made on (merge request diff notes)
 * and its position, as GitLab's Note entity exposes them, with the position it was written at
 * (`original_position`, as GitLab's DiffNote keeps it: `position` moves to newer diff versions
 * while its lines are unchanged). Nothing for other notes.
 */
function diffFields(note: NoteRow): DiffNoteFields {
  if (note.type !== 'DiffNote' || note.position === null) return {}
  return {
    ...(note.noteable_type === 'MergeRequest' ? { commit_id: note.commit_id } : {}),
    position: storedPosition(note.position),
    original_position: storedPosition(note.original_position ?? note.position),
  }
}

/** The effect of quick actions run with a note (GitLab's commands_changes). */
export type CommandsChanges = Readonly<Record<string, unknown>>

type ResolvedFields = Pick<Note, 'resolved' | 'resolved_by' | 'resolved_at'>

/** The resolved fields of a resolvable note: whether, by whom and when. */
function resolvedFields(note: NoteRow, baseUrl: string, resolvedBy: UserRow | undefined): ResolvedFields {
  if (note.resolvable !== 1) return {}
  return {
    resolved: note.resolved_at !== null,
    resolved_by: resolvedBy ? userRef(resolvedBy, baseUrl) : null,
    resolved_at: note.resolved_at,
  }
}

/**
 * GitLab's Note entity. `commands_changes` appears on create responses where quick actions ran;
 * the resolved fields only on resolvable notes, `commit_id` and `position` only on diff notes,
 * `suggestions` only on diff notes that have any.
 */
export function noteEntity(
  note: NoteRow,
  author: UserRow,
  noteable: NoteableRef,
  baseUrl: string,
  commandsChanges?: CommandsChanges,
  resolvedBy?: UserRow,
  suggestions?: readonly Suggestion[],
): Note {
  return {
    id: note.id,
    type: note.type,
    body: note.body,
    attachment: null,
    author: userRef(author, baseUrl),
    created_at: note.created_at,
    updated_at: note.updated_at,
    system: note.system === 1,
    noteable_id: note.noteable_id,
    noteable_type: note.noteable_type,
    project_id: note.project_id,
    ...diffFields(note),
    resolvable: note.resolvable === 1,
    confidential: note.internal === 1,
    internal: note.internal === 1,
    imported: false,
    imported_from: 'none',
    noteable_iid: noteable.iid,
    ...resolvedFields(note, baseUrl, resolvedBy),
    ...(suggestions && suggestions.length > 0 ? { suggestions: [...suggestions] } : {}),
    ...(commandsChanges ? { commands_changes: commandsChanges } : {}),
  }
}

/** What a note made only of quick actions did (answered 202): the changes and a summary. */
export function commandsResultEntity(changes: CommandsChanges, summary: readonly string[]): NoteCommandsResult {
  return { commands_changes: changes, summary: [...summary] }
}

/** The `note` object of a `commented` activity event. */
export function eventNote(note: NoteRow, author: UserRef, noteable: NoteableRef): EventNote {
  return {
    id: note.id,
    type: note.type,
    body: note.body,
    attachment: null,
    author,
    created_at: note.created_at,
    updated_at: note.updated_at,
    system: note.system === 1,
    noteable_id: note.noteable_id,
    noteable_type: note.noteable_type,
    project_id: note.project_id,
    ...diffFields(note),
    confidential: note.internal === 1,
    internal: note.internal === 1,
    noteable_iid: noteable.iid,
  }
}

/**
 * GitLab's Discussion entities of threads (each thread's rows oldest first): the 40-hex id, whether
 * it is a lone comment (its first note is a plain Note rather than a thread note), and its notes,
 * taken from `notes`, the notes of `threads.flat()` serialised in that order.
 */
export function discussionEntities(threads: readonly (readonly NoteRow[])[], notes: readonly Note[]): Discussion[] {
  let offset = 0
  return threads.map((rows) => {
    const own = notes.slice(offset, offset + rows.length)
    offset += rows.length
    return { id: rows[0].discussion_id, individual_note: rows[0].type === null, notes: own }
  })
}
