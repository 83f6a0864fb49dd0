import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'

export type StorageMoveState =
  'initial' | 'scheduled' | 'started' | 'replicated' | 'finished' | 'failed' | 'cleanup_failed'

/** What a move carries: a project's repositories, a snippet's, or a group's wiki. */
export type StorageMoveKind = 'project' | 'snippet' | 'group'

/** A row of `repository_storage_moves`. */
export interface StorageMoveRow {
  readonly id: number
  readonly project_id: number | null
  readonly snippet_id: number | null
  readonly group_id: number | null
  readonly state: StorageMoveState
  readonly source_storage_name: string
  readonly destination_storage_name: string
  readonly error_message: string | null
  readonly user_id: number | null
  readonly created_at: string
  readonly updated_at: string
}

const COLUMN: Readonly<Record<StorageMoveKind, string>> = {
  project: 'project_id',
  snippet: 'snippet_id',
  group: 'group_id',
}

/** The kind of a move row and the id of what it moves. */
export function moveContainer(row: StorageMoveRow): { kind: StorageMoveKind; id: number } {
  if (row.project_id !== null) return { kind: 'project', id: row.project_id }
  if (row.snippet_id !== null) return { kind: 'snippet', id: row.snippet_id }
  return { kind: 'group', id: row.group_id as number }
}

/** Inserts a move in state `scheduled` (GitLab's `initial` lasts only inside its transaction). */
export function insertStorageMove(
  db: Db,
  kind: StorageMoveKind,
  containerId: number,
  source: string,
  destination: string,
  userId: number | null,
): StorageMoveRow {
  const now = nowIso()
  const info = db
    .prepare(
      `INSERT INTO repository_storage_moves (${COLUMN[kind]}, state, source_storage_name, destination_storage_name, user_id, created_at, updated_at)
       VALUES (?, 'scheduled', ?, ?, ?, ?, ?)`,
    )
    .run(containerId, source, destination, userId, now, now)
  return findStorageMove(db, Number(info.lastInsertRowid)) as StorageMoveRow
}

/** A move by id, whatever it moves. */
export function findStorageMove(db: Db, id: number): StorageMoveRow | undefined {
  return db.prepare('SELECT * FROM repository_storage_moves WHERE id = ?').get(id) as StorageMoveRow | undefined
}

/** A move of this kind by id, optionally of one container only. */
export function findStorageMoveOf(
  db: Db,
  kind: StorageMoveKind,
  id: number,
  containerId?: number,
): StorageMoveRow | undefined {
  const column = COLUMN[kind]
  const row = db.prepare(`SELECT * FROM repository_storage_moves WHERE id = ? AND ${column} IS NOT NULL`).get(id) as
    StorageMoveRow | undefined
  if (!row || (containerId !== undefined && moveContainer(row).id !== containerId)) return undefined
  return row
}

/** One page of moves of a kind (of one container when given), newest first as GitLab orders them. */
export function listStorageMoves(
  db: Db,
  kind: StorageMoveKind,
  containerId: number | undefined,
  page: { readonly limit: number; readonly offset: number },
): { rows: StorageMoveRow[]; total: number } {
  const column = COLUMN[kind]
  const where = containerId === undefined ? `${column} IS NOT NULL` : `${column} = ?`
  const args = containerId === undefined ? [] : [containerId]
  const total = (
    db.prepare(`SELECT COUNT(*) AS n FROM repository_storage_moves WHERE ${where}`).get(...args) as { n: number }
  ).n
  const rows = db
    .prepare(`SELECT * FROM repository_storage_moves WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`)
    .all(...args, page.limit, page.offset) as StorageMoveRow[]
  return { rows, total }
}

/** Moves left unfinished by a previous run of the server, oldest first. */
export function unfinishedStorageMoves(db: Db): StorageMoveRow[] {
  return db
    .prepare(`SELECT * FROM repository_storage_moves WHERE state IN ('scheduled', 'started', 'replicated') ORDER BY id`)
    .all() as StorageMoveRow[]
}

/** Sets a move's state (and its error, when failing). */
export function setStorageMoveState(db: Db, id: number, state: StorageMoveState, error: string | null = null): void {
  db.prepare(
    'UPDATE repository_storage_moves SET state = ?, error_message = COALESCE(?, error_message), updated_at = ? WHERE id = ?',
  ).run(state, error, nowIso(), id)
}

/** Marks a project's repository read-only (during a move) or writable again. */
export function setProjectReadOnly(db: Db, projectId: number, readOnly: boolean): void {
  db.prepare('UPDATE projects SET repository_read_only = ? WHERE id = ?').run(readOnly ? 1 : 0, projectId)
}

/** True while a project's repository is read-only. */
export function isProjectReadOnly(db: Db, projectId: number): boolean {
  const row = db.prepare('SELECT repository_read_only FROM projects WHERE id = ?').get(projectId) as
    { repository_read_only: number } | undefined
  return row?.repository_read_only === 1
}

/** Switches a project to its new storage and makes it writable again (the move has replicated). */
export function switchProjectStorage(db: Db, projectId: number, storage: string): void {
  db.prepare('UPDATE projects SET repository_storage = ?, repository_read_only = 0, updated_at = ? WHERE id = ?').run(
    storage,
    nowIso(),
    projectId,
  )
}

/** Records a group's (wiki) storage. */
export function switchGroupStorage(db: Db, groupId: number, storage: string): void {
  db.prepare(`UPDATE namespaces SET repository_storage = ?, updated_at = ? WHERE id = ? AND kind = 'group'`).run(
    storage,
    nowIso(),
    groupId,
  )
}

/** Ids of the projects on a storage, not already read-only (a move of theirs is under way). */
export function writableProjectIdsOnStorage(db: Db, storage: string): number[] {
  return (
    db
      .prepare('SELECT id FROM projects WHERE repository_storage = ? AND repository_read_only = 0 ORDER BY id')
      .all(storage) as { id: number }[]
  ).map((r) => r.id)
}

/**
 * The storage a snippet's repository is on: the destination of its last move that replicated,
 * else the default storage. Snippets keep their content in the database (migration 0008), so
 * the moves table is the only place their storage is recorded.
 */
export function snippetStorage(db: Db, snippetId: number, defaultStorage: string): string {
  const row = db
    .prepare(
      `SELECT destination_storage_name AS storage FROM repository_storage_moves
       WHERE snippet_id = ? AND state IN ('replicated', 'finished', 'cleanup_failed') ORDER BY id DESC LIMIT 1`,
    )
    .get(snippetId) as { storage: string } | undefined
  return row?.storage ?? defaultStorage
}

/** Ids of the snippets whose storage (as `snippetStorage` tells) is `storage`. */
export function snippetIdsOnStorage(db: Db, storage: string, defaultStorage: string): number[] {
  return (
    db
      .prepare(
        `SELECT s.id FROM snippets s
         WHERE COALESCE((SELECT m.destination_storage_name FROM repository_storage_moves m
                         WHERE m.snippet_id = s.id AND m.state IN ('replicated', 'finished', 'cleanup_failed') ORDER BY m.id DESC LIMIT 1), ?) = ?
         ORDER BY s.id`,
      )
      .all(defaultStorage, storage) as { id: number }[]
  ).map((r) => r.id)
}

/** True when a move of this container is scheduled or running (its repository is read-only). */
export function hasMoveInProgress(db: Db, kind: StorageMoveKind, containerId: number): boolean {
  return (
    db
      .prepare(
        `SELECT 1 FROM repository_storage_moves WHERE ${COLUMN[kind]} = ? AND state IN ('initial', 'scheduled', 'started') LIMIT 1`,
      )
      .get(containerId) !== undefined
  )
}

/** Ids of the groups whose (wiki) storage is `storage`; a storage name not configured counts as the default one. */
export function groupIdsOnStorage(db: Db, storage: string, storages: readonly string[]): number[] {
  return (
    db
      .prepare(
        `SELECT id FROM namespaces WHERE kind = 'group'
         AND (CASE WHEN repository_storage IN (SELECT value FROM json_each(?)) THEN repository_storage ELSE ? END) = ?
         ORDER BY id`,
      )
      .all(JSON.stringify(storages), storages[0], storage) as { id: number }[]
  ).map((r) => r.id)
}

/** What a move record shows of its project. */
export interface MovedProjectRow {
  readonly id: number
  readonly name: string
  readonly path: string
  readonly description: string | null
  readonly created_at: string
  readonly ns_full_path: string
  readonly ns_full_name: string
}

/** What a move record shows of its snippet (and the path of the project it belongs to). */
export interface MovedSnippetRow {
  readonly id: number
  readonly title: string
  readonly description: string | null
  readonly visibility: string
  readonly created_at: string
  readonly updated_at: string
  readonly project_id: number | null
  readonly author_id: number
  readonly project_full_path: string | null
}

/** What a move record shows of its group. */
export interface MovedGroupRow {
  readonly id: number
  readonly name: string
  readonly full_path: string
}

/** The projects of a page of moves (those still there), by id. */
export function movedProjects(db: Db, ids: readonly number[]): Map<number, MovedProjectRow> {
  const rows = db
    .prepare(
      `SELECT p.id, p.name, p.path, p.description, p.created_at, n.full_path AS ns_full_path, n.full_name AS ns_full_name
       FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE p.id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(ids)) as MovedProjectRow[]
  return new Map(rows.map((p) => [p.id, p]))
}

/** The snippets of a page of moves (those still there), by id. */
export function movedSnippets(db: Db, ids: readonly number[]): Map<number, MovedSnippetRow> {
  const rows = db
    .prepare(
      `SELECT s.id, s.title, s.description, s.visibility, s.created_at, s.updated_at, s.project_id, s.author_id,
              CASE WHEN p.id IS NULL THEN NULL ELSE n.full_path || '/' || p.path END AS project_full_path
       FROM snippets s LEFT JOIN projects p ON p.id = s.project_id LEFT JOIN namespaces n ON n.id = p.namespace_id
       WHERE s.id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(ids)) as MovedSnippetRow[]
  return new Map(rows.map((s) => [s.id, s]))
}

/** The groups of a page of moves (those still there), by id. */
export function movedGroups(db: Db, ids: readonly number[]): Map<number, MovedGroupRow> {
  const rows = db
    .prepare(
      `SELECT id, name, full_path FROM namespaces WHERE kind = 'group' AND id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(ids)) as MovedGroupRow[]
  return new Map(rows.map((g) => [g.id, g]))
}
