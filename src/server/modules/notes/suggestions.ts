/**
 * The suggestions of merge request diff notes, as notes meet them: a registry the suggestions
 * module fills (applying one needs merge requests and branches, which build on notes). Notes call
 * it when a note's text is written and when notes are shown.
 */
import type { Suggestion } from '../../../shared/api/suggestion'
import type { Caller } from '../../platform/caller'
import type { NoteRow } from './queries'

/** What the suggestions module does for notes. */
export interface NoteSuggestions {
  /** Stores the suggestions of a note whose text was just written, replacing those of its earlier text. */
  record(caller: Caller, note: NoteRow): Promise<void>
  /** The suggestions of the notes being shown, by note id (a note without any is absent), read at once. */
  of(caller: Caller, notes: readonly NoteRow[]): ReadonlyMap<number, readonly Suggestion[]>
}

let registered: NoteSuggestions | null = null

/** Sets what notes call for suggestions (fillRegistries). */
export function registerNoteSuggestions(hooks: NoteSuggestions): void {
  registered = hooks
}

/** Records the suggestions of a note just created or edited (nothing before the registry is filled). */
export async function recordSuggestions(caller: Caller, note: NoteRow): Promise<void> {
  if (registered && note.type === 'DiffNote') await registered.record(caller, note)
}

/** The suggestions of the notes shown, by note id. */
export function suggestionsOf(caller: Caller, notes: readonly NoteRow[]): ReadonlyMap<number, readonly Suggestion[]> {
  const diffNotes = notes.filter((n) => n.type === 'DiffNote')
  return registered && diffNotes.length > 0 ? registered.of(caller, diffNotes) : new Map()
}
