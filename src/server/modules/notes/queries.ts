import { randomBytes } from 'node:crypto'
import type { Db } from '../../platform/db/connection'
import { NOTE_EVENT_TARGET_TYPES } from '../events'

export type NoteableType = 'Issue' | 'MergeRequest' | 'Snippet' | 'Epic' | 'Commit'
export type NoteType = 'DiscussionNote' | 'DiffNote' | null

export interface NoteRow {
  readonly id: number
  readonly noteable_type: NoteableType
  readonly noteable_id: number
  readonly project_id: number | null
  readonly group_id: number | null
  readonly author_id: number
  readonly body: string
  readonly type: NoteType
  readonly discussion_id: string
  readonly system: number
  readonly internal: number
  readonly resolvable: number
  readonly resolved_at: string | null
  readonly resolved_by_id: number | null
  /** A diff note's commit (commented on one commit of the merge request), else null. */
  readonly commit_id: string | null
  /** A diff note's position (JSON of a TextPosition): where it shows now. */
  readonly position: string | null
  /** A diff note's position (JSON) when it was written. */
  readonly original_position: string | null
  /** The line a diff note names in its diff (GitLab's line code). */
  readonly line_code: string | null
  readonly created_at: string
  readonly updated_at: string
}

/** Where a diff note is anchored: its position, the line code there and the commit it was made on. */
export interface DiffAnchor {
  readonly position: string
  readonly lineCode: string
  readonly commitId: string | null
}

export interface NewNote {
  readonly noteableType: NoteableType
  readonly noteableId: number
  readonly projectId: number | null
  readonly groupId?: number | null
  readonly authorId: number
  readonly body: string
  readonly type: NoteType
  readonly discussionId: string
  readonly system?: boolean
  readonly internal: boolean
  readonly resolvable?: boolean
  /** Diff notes only. */
  readonly diff?: DiffAnchor
  readonly createdAt: string
  readonly updatedAt: string
}

/** One note by id. */
export function findNoteById(db: Db, id: number): NoteRow | undefined {
  return db.prepare('SELECT * FROM notes WHERE id = ?').get(id) as NoteRow | undefined
}

/** Inserts a note and returns the stored row. */
export function insertNote(db: Db, n: NewNote): NoteRow {
  const info = db
    .prepare(
      `INSERT INTO notes (noteable_type, noteable_id, project_id, group_id, author_id, body, type, discussion_id, system, internal, resolvable,
         commit_id, position, original_position, line_code, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      n.noteableType,
      n.noteableId,
      n.projectId,
      n.groupId ?? null,
      n.authorId,
      n.body,
      n.type,
      n.discussionId,
      n.system ? 1 : 0,
      n.internal ? 1 : 0,
      n.resolvable ? 1 : 0,
      n.diff?.commitId ?? null,
      n.diff?.position ?? null,
      n.diff?.position ?? null,
      n.diff?.lineCode ?? null,
      n.createdAt,
      n.updatedAt,
    )
  return findNoteById(db, Number(info.lastInsertRowid)) as NoteRow
}

/** Replaces a note's body. */
export function updateNoteBody(db: Db, id: number, body: string, now: string): NoteRow {
  db.prepare('UPDATE notes SET body = ?, updated_at = ? WHERE id = ?').run(body, now, id)
  return findNoteById(db, id) as NoteRow
}

/** A new random discussion id: 40 hex characters, like GitLab's. */
export function newDiscussionId(): string {
  return randomBytes(20).toString('hex')
}

/** The notes of a noteable, oldest first, by id and body. */
export function noteBodiesOf(db: Db, noteableType: NoteableType, noteableId: number): { id: number; body: string }[] {
  return db
    .prepare('SELECT id, body FROM notes WHERE noteable_type = ? AND noteable_id = ? ORDER BY id')
    .all(noteableType, noteableId) as { id: number; body: string }[]
}

/** Where notes are copied to: the noteable, and the project or group its notes belong to. */
export interface NoteCopyTarget {
  readonly type: NoteableType
  readonly id: number
  readonly projectId: number | null
  readonly groupId: number | null
}

/**
 * Copies a noteable's notes to the end of another's, oldest first; each source thread gets one
 * fresh discussion id. Authors, times and resolution are kept; diff positions are not.
 */
export function insertNoteCopies(
  db: Db,
  from: { readonly type: NoteableType; readonly id: number },
  to: NoteCopyTarget,
): void {
  const notes = db
    .prepare('SELECT * FROM notes WHERE noteable_type = ? AND noteable_id = ? ORDER BY id')
    .all(from.type, from.id) as Record<string, unknown>[]
  const fresh = new Map<unknown, string>()
  const insert = db.prepare(
    `INSERT INTO notes (noteable_type, noteable_id, project_id, group_id, author_id, body, type, discussion_id, system, internal, resolvable, resolved_at, resolved_by_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  for (const n of notes) {
    if (!fresh.has(n.discussion_id)) fresh.set(n.discussion_id, newDiscussionId())
    insert.run(
      to.type,
      to.id,
      to.projectId,
      to.groupId,
      n.author_id,
      n.body,
      n.type,
      fresh.get(n.discussion_id),
      n.system,
      n.internal,
      n.resolvable,
      n.resolved_at,
      n.resolved_by_id,
      n.created_at,
      n.updated_at,
    )
  }
}

/** Replaces a note's body as it is (a copy's references rewritten), leaving updated_at alone. */
export function rewriteNoteBody(db: Db, id: number, body: string): void {
  db.prepare('UPDATE notes SET body = ? WHERE id = ?').run(body, id)
}

/**
 * Turns every note of an individual discussion into a thread note (a reply converts the comment);
 * on merge requests thread notes are resolvable, so the converted comment becomes one too.
 */
export function convertToThread(db: Db, discussionId: string, resolvable = false): void {
  db.prepare(
    `UPDATE notes SET type = 'DiscussionNote', resolvable = MAX(resolvable, ?) WHERE discussion_id = ? AND type IS NULL AND system = 0`,
  ).run(resolvable ? 1 : 0, discussionId)
}

/** Gives a discussion another id (the seed replaces random ids with ones from its generator). */
export function renameDiscussion(db: Db, from: string, to: string): void {
  db.prepare('UPDATE notes SET discussion_id = ? WHERE discussion_id = ?').run(to, from)
}

/** Resolves (with the resolver and time) or unresolves the resolvable notes of a discussion, or of one note. */
export function setResolved(
  db: Db,
  where: { readonly discussionId: string } | { readonly noteId: number },
  by: { readonly userId: number; readonly at: string } | null,
): void {
  const [column, key] = 'noteId' in where ? ['id', where.noteId] : ['discussion_id', where.discussionId]
  db.prepare(`UPDATE notes SET resolved_at = ?, resolved_by_id = ? WHERE ${column} = ? AND resolvable = 1`).run(
    by?.at ?? null,
    by?.userId ?? null,
    key,
  )
}

const NOTE_EVENT_TYPES = `(${NOTE_EVENT_TARGET_TYPES.map((t) => `'${t}'`).join(', ')})`

/** Deletes one note with its award emoji and its activity event (which quotes its body), and the to-dos raised by it. */
export function deleteNoteRow(db: Db, id: number): void {
  db.prepare("DELETE FROM award_emoji WHERE awardable_type = 'Note' AND awardable_id = ?").run(id)
  db.prepare(`DELETE FROM events WHERE target_type IN ${NOTE_EVENT_TYPES} AND target_id = ?`).run(id)
  db.prepare('DELETE FROM notes WHERE id = ?').run(id)
}

/** Deletes the activity events of a noteable's notes (before its notes go): they quote the notes' bodies. */
export function deleteNoteEventsOf(db: Db, noteableType: NoteableType, noteableId: number): void {
  db.prepare(
    `DELETE FROM events WHERE target_type IN ${NOTE_EVENT_TYPES} AND target_id IN (SELECT id FROM notes WHERE noteable_type = ? AND noteable_id = ?)`,
  ).run(noteableType, noteableId)
}

/** Deletes the award emoji of a noteable's notes (before its notes go; the polymorphic tables have no FK). */
export function deleteNoteAwardsOf(db: Db, noteableType: NoteableType, noteableId: number): void {
  db.prepare(
    "DELETE FROM award_emoji WHERE awardable_type = 'Note' AND awardable_id IN (SELECT id FROM notes WHERE noteable_type = ? AND noteable_id = ?)",
  ).run(noteableType, noteableId)
}

export interface NoteScope {
  readonly noteableType: NoteableType
  readonly noteableId: number
  /** Internal notes are left out for callers below Reporter. */
  readonly includeInternal: boolean
  /** Only comments (`false`) or only system notes (`true`); both when absent (the notes API's activity_filter). */
  readonly system?: boolean
  /** Notes left out: system notes naming what the caller may not read (see `referencingSystemNotes`). */
  readonly hiddenIds?: readonly number[]
  /**
   * Commit noteables whose user notes show with the noteable's own (a merge request's commits,
   * GitLab's `related_notes`).
   */
  readonly relatedCommitIds?: readonly number[]
}

function scopeWhere(scope: NoteScope): { where: string; params: unknown[] } {
  const system = scope.system === undefined ? '' : ` AND system = ${scope.system ? 1 : 0}`
  const hidden = scope.hiddenIds && scope.hiddenIds.length > 0 ? ' AND id NOT IN (SELECT value FROM json_each(?))' : ''
  const related = scope.relatedCommitIds && scope.relatedCommitIds.length > 0
  const noteable = related
    ? "((noteable_type = ? AND noteable_id = ?) OR (noteable_type = 'Commit' AND system = 0 AND noteable_id IN (SELECT value FROM json_each(?))))"
    : 'noteable_type = ? AND noteable_id = ?'
  return {
    where: `${noteable}${scope.includeInternal ? '' : ' AND internal = 0'}${system}${hidden}`,
    params: [
      scope.noteableType,
      scope.noteableId,
      ...(related ? [JSON.stringify(scope.relatedCommitIds)] : []),
      ...(hidden ? [JSON.stringify(scope.hiddenIds)] : []),
    ],
  }
}

/** The scope's system notes that name another item or comment (cross-references, moves…): those a reader may not see. */
export function referencingSystemNotes(db: Db, scope: NoteScope): NoteRow[] {
  const { where, params } = scopeWhere(scope)
  return db
    .prepare(
      `SELECT * FROM notes WHERE ${where} AND system = 1 AND id IN (SELECT note_id FROM system_note_metadata WHERE source_type IS NOT NULL)`,
    )
    .all(...params) as NoteRow[]
}

/** A page of a noteable's notes, ordered by `order_by` (created_at|updated_at) and `sort`, id breaking ties. */
export function listNotes(
  db: Db,
  scope: NoteScope,
  order: { readonly by: 'created_at' | 'updated_at'; readonly sort: 'asc' | 'desc' },
  limit: number,
  offset: number,
): { rows: NoteRow[]; total: number } {
  const { where, params } = scopeWhere(scope)
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM notes WHERE ${where}`).get(...params) as { n: number }).n
  const dir = order.sort === 'asc' ? 'ASC' : 'DESC'
  const rows = db
    .prepare(`SELECT * FROM notes WHERE ${where} ORDER BY ${order.by} ${dir}, id ${dir} LIMIT ? OFFSET ?`)
    .all(...params, limit, offset) as NoteRow[]
  return { rows, total }
}

/** The notes of one discussion of a noteable, oldest first (empty when it does not exist there). */
export function discussionNotes(db: Db, scope: NoteScope, discussionId: string): NoteRow[] {
  const { where, params } = scopeWhere(scope)
  return db
    .prepare(`SELECT * FROM notes WHERE ${where} AND discussion_id = ? ORDER BY id`)
    .all(...params, discussionId) as NoteRow[]
}

/** A page of a noteable's discussions (in order of their first note) with all their notes, in two queries. */
export function listDiscussions(
  db: Db,
  scope: NoteScope,
  limit: number,
  offset: number,
): { discussions: NoteRow[][]; total: number } {
  const { where, params } = scopeWhere(scope)
  const total = (
    db.prepare(`SELECT COUNT(DISTINCT discussion_id) AS n FROM notes WHERE ${where}`).get(...params) as { n: number }
  ).n
  const ids = (
    db
      .prepare(
        `SELECT discussion_id FROM notes WHERE ${where} GROUP BY discussion_id ORDER BY MIN(id) LIMIT ? OFFSET ?`,
      )
      .all(...params, limit, offset) as { discussion_id: string }[]
  ).map((r) => r.discussion_id)
  if (ids.length === 0) return { discussions: [], total }
  const rows = db
    .prepare(`SELECT * FROM notes WHERE ${where} AND discussion_id IN (${ids.map(() => '?').join(', ')}) ORDER BY id`)
    .all(...params, ...ids) as NoteRow[]
  const byId = new Map<string, NoteRow[]>(ids.map((id) => [id, []]))
  for (const r of rows) byId.get(r.discussion_id)?.push(r)
  return { discussions: ids.map((id) => byId.get(id) as NoteRow[]), total }
}

/** A merge request's diff notes (their positions as stored), oldest first. */
export function diffNotesOfMergeRequest(db: Db, mergeRequestId: number): NoteRow[] {
  return db
    .prepare(
      `SELECT * FROM notes WHERE noteable_type = 'MergeRequest' AND noteable_id = ? AND type = 'DiffNote'
         AND position IS NOT NULL ORDER BY id`,
    )
    .all(mergeRequestId) as NoteRow[]
}

/**
 * Moves a diff note to a position on a newer diff version (its `original_position` stays), unless
 * its position changed since it was read (a concurrent trace): true when it moved.
 */
export function moveDiffNote(db: Db, id: number, from: string, to: { position: string; lineCode: string }): boolean {
  return (
    db
      .prepare('UPDATE notes SET position = ?, line_code = ? WHERE id = ? AND position = ?')
      .run(to.position, to.lineCode, id, from).changes === 1
  )
}
