import type { NoteRow } from './queries'
import type { UserRow } from '../../platform/db/rows'
import { userRef, type UserRef } from '../users'

/** What a note's JSON needs from its noteable. */
export interface NoteableRef {
  readonly iid: number | null
}

/**
 * What a diff note adds after `project_id`: the commit it was made on (merge request diff notes)
 * and its position, as GitLab's Note entity exposes them, with the position it was written at
 * (`original_position`, as GitLab's DiffNote keeps it: `position` moves to newer diff versions
 * while its lines are unchanged). Nothing for other notes.
 */
function diffFields(note: NoteRow): Record<string, unknown> {
  if (note.type !== 'DiffNote' || note.position === null) return {}
  return {
    ...(note.noteable_type === 'MergeRequest' ? { commit_id: note.commit_id } : {}),
    position: JSON.parse(note.position) as unknown,
    original_position: JSON.parse(note.original_position ?? note.position) as unknown,
  }
}

/** The effect of quick actions run with a note (GitLab's commands_changes). */
export type CommandsChanges = Readonly<Record<string, unknown>>

/**
 * GitLab's Note entity. `commands_changes` appears on create responses where quick actions ran;
 * the resolved fields only on resolvable notes, `commit_id` and `position` only on diff notes.
 */
export function noteEntity(
  note: NoteRow,
  author: UserRow,
  noteable: NoteableRef,
  baseUrl: string,
  commandsChanges?: CommandsChanges,
  resolvedBy?: UserRow,
): Readonly<Record<string, unknown>> {
  const out: Record<string, unknown> = {
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
  }
  if (note.resolvable === 1) {
    out.resolved = note.resolved_at !== null
    out.resolved_by = resolvedBy ? userRef(resolvedBy, baseUrl) : null
    out.resolved_at = note.resolved_at
  }
  if (commandsChanges) out.commands_changes = commandsChanges
  return out
}

/** The `note` object of a `commented` activity event. */
export function eventNote(note: NoteRow, author: UserRef, noteable: NoteableRef): Readonly<Record<string, unknown>> {
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
