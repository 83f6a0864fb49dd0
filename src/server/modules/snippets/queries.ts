import type { Db } from '../../platform/db/connection'
import { deleteNoteAwardsOf } from '../notes'
import { nowIso } from '../../platform/db/connection'
import type { Visibility } from '../../platform/db/rows'
import { allRows, containsLike } from '../../platform/db/statements'

export interface SnippetRow {
  readonly id: number
  readonly project_id: number | null
  readonly author_id: number
  readonly title: string
  readonly description: string | null
  readonly file_name: string
  readonly content: string
  readonly visibility: Visibility
  readonly created_at: string
  readonly updated_at: string
}

export interface NewSnippet {
  readonly projectId: number | null
  readonly authorId: number
  readonly title: string
  readonly description: string | null
  readonly fileName: string
  readonly content: string
  readonly visibility: Visibility
}

/** One snippet by its global id. */
export function findSnippetById(db: Db, id: number): SnippetRow | undefined {
  return db.prepare('SELECT * FROM snippets WHERE id = ?').get(id) as SnippetRow | undefined
}

/** Inserts a snippet and returns the stored row. */
export function insertSnippet(db: Db, s: NewSnippet): SnippetRow {
  const now = nowIso()
  const info = db
    .prepare(
      `INSERT INTO snippets (project_id, author_id, title, description, file_name, content, visibility, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(s.projectId, s.authorId, s.title, s.description, s.fileName, s.content, s.visibility, now, now)
  return findSnippetById(db, Number(info.lastInsertRowid)) as SnippetRow
}

export interface SnippetChanges {
  readonly title?: string
  readonly description?: string | null
  readonly file_name?: string
  readonly content?: string
  readonly visibility?: Visibility
}

/** Applies the given columns (only the known ones) and bumps updated_at. */
export function updateSnippetRow(db: Db, id: number, changes: SnippetChanges): SnippetRow {
  const allowed = ['title', 'description', 'file_name', 'content', 'visibility'] as const
  const sets: string[] = []
  const values: unknown[] = []
  for (const key of allowed) {
    if (changes[key] === undefined) continue
    sets.push(`${key} = ?`)
    values.push(changes[key])
  }
  sets.push('updated_at = ?')
  values.push(nowIso(), id)
  db.prepare(`UPDATE snippets SET ${sets.join(', ')} WHERE id = ?`).run(...values)
  return findSnippetById(db, id) as SnippetRow
}

/** Marks a snippet updated at `at` (a note on it touches it, as in GitLab). */
export function touchSnippet(db: Db, id: number, at: string): void {
  db.prepare('UPDATE snippets SET updated_at = ? WHERE id = ?').run(at, id)
}

/** Deletes a snippet with its notes, award emoji and to-dos (the polymorphic tables have no FK). */
export function deleteSnippetRow(db: Db, id: number): void {
  db.transaction(() => {
    db.prepare(`DELETE FROM todos WHERE target_type = 'Snippet' AND target_id = ?`).run(id)
    db.prepare(`DELETE FROM award_emoji WHERE awardable_type = 'Snippet' AND awardable_id = ?`).run(id)
    deleteNoteAwardsOf(db, 'Snippet', id)
    db.prepare(`DELETE FROM notes WHERE noteable_type = 'Snippet' AND noteable_id = ?`).run(id)
    db.prepare('DELETE FROM snippets WHERE id = ?').run(id)
  })()
}

/**
 * A page of a project's snippets the caller may see, newest first. `visibilities` lists the
 * visibility levels readable by everyone allowed into the list; `authorId` adds the caller's own.
 */
export function listProjectSnippets(
  db: Db,
  projectId: number,
  visibilities: readonly Visibility[],
  authorId: number | null,
  limit: number,
  offset: number,
): { rows: SnippetRow[]; total: number } {
  const marks = visibilities.map(() => '?').join(', ') || 'NULL'
  const where = `project_id = ? AND (visibility IN (${marks}) OR author_id = ?)`
  const params = [projectId, ...visibilities, authorId ?? -1]
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM snippets WHERE ${where}`).get(...params) as { n: number }).n
  const rows = db
    .prepare(`SELECT * FROM snippets WHERE ${where} ORDER BY id DESC LIMIT ? OFFSET ?`)
    .all(...params, limit, offset) as SnippetRow[]
  return { rows, total }
}

/**
 * The newest snippets whose title, description or file name contains `text` (GitLab's
 * Snippet.search), at most `limit`: candidates the caller's read rule still filters.
 */
export function snippetsMatching(db: Db, text: string, limit: number): SnippetRow[] {
  return allRows<SnippetRow>(
    db,
    `SELECT * FROM snippets
     WHERE title LIKE @text ESCAPE '\\' OR description LIKE @text ESCAPE '\\' OR file_name LIKE @text ESCAPE '\\'
     ORDER BY created_at DESC, id DESC LIMIT @limit`,
    { text: containsLike(text), limit },
  )
}
