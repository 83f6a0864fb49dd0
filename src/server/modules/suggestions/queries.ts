import type { Db } from '../../platform/db/connection'
import { cachedStatement } from '../../platform/db/statements'

/** A stored suggestion of a diff note. */
export interface SuggestionRow {
  readonly id: number
  readonly note_id: number
  readonly relative_order: number
  readonly lines_above: number
  readonly lines_below: number
  readonly from_line: number
  readonly to_line: number
  readonly from_content: string
  readonly to_content: string
  readonly applied: number
  readonly commit_id: string | null
}

/** A suggestion as a note's text gives it, with the lines of the file it covers. */
export interface NewSuggestion {
  readonly linesAbove: number
  readonly linesBelow: number
  readonly fromLine: number
  readonly toLine: number
  readonly fromContent: string
  readonly toContent: string
}

/** The suggestions of these notes, each note's in its text's order. */
export function suggestionsOfNotes(db: Db, noteIds: readonly number[]): SuggestionRow[] {
  if (noteIds.length === 0) return []
  return db
    .prepare(
      `SELECT * FROM suggestions WHERE note_id IN (SELECT value FROM json_each(?)) ORDER BY note_id, relative_order`,
    )
    .all(JSON.stringify(noteIds)) as SuggestionRow[]
}

/** The suggestions with these ids that exist, by id. */
export function suggestionsByIds(db: Db, ids: readonly number[]): SuggestionRow[] {
  return db
    .prepare(`SELECT * FROM suggestions WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`)
    .all(JSON.stringify(ids)) as SuggestionRow[]
}

/** Replaces a note's suggestions with `rows` (its text changed), in one transaction. */
export function replaceSuggestions(db: Db, noteId: number, rows: readonly NewSuggestion[]): void {
  db.transaction(() => {
    cachedStatement(db, 'DELETE FROM suggestions WHERE note_id = ?').run(noteId)
    const insert = cachedStatement(
      db,
      `INSERT INTO suggestions (note_id, relative_order, lines_above, lines_below, from_line, to_line, from_content, to_content)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    rows.forEach((r, order) =>
      insert.run(noteId, order, r.linesAbove, r.linesBelow, r.fromLine, r.toLine, r.fromContent, r.toContent),
    )
  })()
}

/** Marks suggestions applied by `commitId`. */
export function markApplied(db: Db, ids: readonly number[], commitId: string): void {
  db.prepare(
    'UPDATE suggestions SET applied = 1, commit_id = ? WHERE id IN (SELECT value FROM json_each(?)) AND applied = 0',
  ).run(commitId, JSON.stringify(ids))
}
