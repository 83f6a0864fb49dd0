import type { Db } from '../../platform/db/connection'
import { cachedStatement } from '../../platform/db/statements'

/** A stored draft note; `position` is the diff position's JSON, null for a general comment. */
export interface DraftNoteRow {
  readonly id: number
  readonly merge_request_id: number
  readonly author_id: number
  readonly note: string
  readonly discussion_id: string | null
  readonly resolve_discussion: number
  readonly commit_id: string | null
  readonly line_code: string | null
  readonly position: string | null
  readonly created_at: string
  readonly updated_at: string
}

export interface NewDraftNote {
  readonly mergeRequestId: number
  readonly authorId: number
  readonly note: string
  readonly discussionId: string | null
  readonly resolveDiscussion: boolean
  readonly commitId: string | null
  readonly position: string | null
  readonly lineCode: string | null
  readonly now: string
}

/** The author's drafts on a merge request, in the order they were written. */
export function listDraftNotes(db: Db, mergeRequestId: number, authorId: number): DraftNoteRow[] {
  return cachedStatement(db, 'SELECT * FROM draft_notes WHERE merge_request_id = ? AND author_id = ? ORDER BY id').all(
    mergeRequestId,
    authorId,
  ) as DraftNoteRow[]
}

/** One of the author's drafts on a merge request; undefined for anybody else's. */
export function findDraftNote(db: Db, mergeRequestId: number, authorId: number, id: number): DraftNoteRow | undefined {
  return cachedStatement(db, 'SELECT * FROM draft_notes WHERE id = ? AND merge_request_id = ? AND author_id = ?').get(
    id,
    mergeRequestId,
    authorId,
  ) as DraftNoteRow | undefined
}

export function insertDraftNote(db: Db, d: NewDraftNote): DraftNoteRow {
  return db
    .prepare(
      `INSERT INTO draft_notes (merge_request_id, author_id, note, discussion_id, resolve_discussion, commit_id, position, line_code, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    )
    .get(
      d.mergeRequestId,
      d.authorId,
      d.note,
      d.discussionId,
      d.resolveDiscussion ? 1 : 0,
      d.commitId,
      d.position,
      d.lineCode,
      d.now,
      d.now,
    ) as DraftNoteRow
}

/** Replaces a draft's text and its diff anchor (position JSON and line code, both null for a general comment). */
export function updateDraftNote(
  db: Db,
  id: number,
  note: string,
  anchor: { readonly position: string | null; readonly lineCode: string | null },
  now: string,
): DraftNoteRow {
  return db
    .prepare('UPDATE draft_notes SET note = ?, position = ?, line_code = ?, updated_at = ? WHERE id = ? RETURNING *')
    .get(note, anchor.position, anchor.lineCode, now, id) as DraftNoteRow
}

export function deleteDraftNotes(db: Db, ids: readonly number[]): void {
  db.prepare('DELETE FROM draft_notes WHERE id IN (SELECT value FROM json_each(?))').run(JSON.stringify(ids))
}
