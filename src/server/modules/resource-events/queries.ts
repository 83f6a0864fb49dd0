import type { Db } from '../../platform/db/connection'
import { cachedStatement } from '../../platform/db/statements'

/** What resource events and system notes are recorded on. */
export type ResourceType = 'Issue' | 'MergeRequest' | 'Epic'

/** One issue, merge request or epic. */
export interface ResourceRef {
  readonly type: ResourceType
  readonly id: number
}

const COLUMN: Readonly<Record<ResourceType, string>> = {
  Issue: 'issue_id',
  MergeRequest: 'merge_request_id',
  Epic: 'epic_id',
}

interface ResourceColumns {
  readonly issue_id: number | null
  readonly merge_request_id: number | null
  readonly epic_id: number | null
}

export interface LabelEventRow extends ResourceColumns {
  readonly id: number
  readonly label_id: number | null
  readonly user_id: number
  readonly action: 'add' | 'remove'
  readonly created_at: string
}

export interface MilestoneEventRow extends ResourceColumns {
  readonly id: number
  readonly milestone_id: number | null
  readonly user_id: number
  readonly action: 'add' | 'remove'
  readonly state: string
  readonly created_at: string
}

export type ResourceState = 'opened' | 'closed' | 'merged' | 'locked' | 'reopened'

export interface StateEventRow extends ResourceColumns {
  readonly id: number
  readonly user_id: number
  readonly state: ResourceState
  readonly source_commit: string | null
  readonly source_merge_request_id: number | null
  readonly created_at: string
}

/** The row of each resource event table (GitLab's ResourceLabelEvent, ResourceMilestoneEvent, ResourceStateEvent). */
export interface ResourceEventRows {
  readonly resource_label_events: LabelEventRow
  readonly resource_milestone_events: MilestoneEventRow
  readonly resource_state_events: StateEventRow
}

/** The three resource event tables. */
export type ResourceEventTable = keyof ResourceEventRows

export type ResourceEventRow = ResourceEventRows[ResourceEventTable]

/** The resource a row belongs to (exactly one of its three columns is set). */
export function resourceOfEvent(row: ResourceColumns): ResourceRef {
  if (row.issue_id !== null) return { type: 'Issue', id: row.issue_id }
  if (row.merge_request_id !== null) return { type: 'MergeRequest', id: row.merge_request_id }
  return { type: 'Epic', id: row.epic_id as number }
}

function ids(r: ResourceRef): [number | null, number | null, number | null] {
  return [r.type === 'Issue' ? r.id : null, r.type === 'MergeRequest' ? r.id : null, r.type === 'Epic' ? r.id : null]
}

/** Records one label added to or removed from a resource. */
export function insertLabelEvent(
  db: Db,
  r: ResourceRef,
  labelId: number,
  userId: number,
  action: 'add' | 'remove',
  at: string,
): void {
  cachedStatement(
    db,
    'INSERT INTO resource_label_events (issue_id, merge_request_id, epic_id, label_id, user_id, action, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(...ids(r), labelId, userId, action, at)
}

/** Records a milestone set on (`add`) or taken off (`remove`) an issue or merge request in `state`. */
export function insertMilestoneEvent(
  db: Db,
  r: ResourceRef,
  milestoneId: number,
  userId: number,
  action: 'add' | 'remove',
  state: string,
  at: string,
): void {
  const [issueId, mergeRequestId] = ids(r)
  cachedStatement(
    db,
    'INSERT INTO resource_milestone_events (issue_id, merge_request_id, milestone_id, user_id, action, state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(issueId, mergeRequestId, milestoneId, userId, action, state, at)
}

/** What caused a state change, when a commit or a merge request did. */
export interface StateSource {
  readonly commit?: string | null
  readonly mergeRequestId?: number | null
}

/** Records a state change (closed, reopened, merged…). */
export function insertStateEvent(
  db: Db,
  r: ResourceRef,
  userId: number,
  state: ResourceState,
  source: StateSource,
  at: string,
): void {
  cachedStatement(
    db,
    'INSERT INTO resource_state_events (issue_id, merge_request_id, epic_id, user_id, state, source_commit, source_merge_request_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(...ids(r), userId, state, source.commit ?? null, source.mergeRequestId ?? null, at)
}

/** A page of one resource's events of a kind, oldest first, and how many there are. */
export function listResourceEvents<T extends ResourceEventTable>(
  db: Db,
  table: T,
  r: ResourceRef,
  limit: number,
  offset: number,
): { rows: ResourceEventRows[T][]; total: number } {
  const column = COLUMN[r.type]
  const total = (
    cachedStatement(db, `SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`).get(r.id) as { n: number }
  ).n
  const rows = cachedStatement(db, `SELECT * FROM ${table} WHERE ${column} = ? ORDER BY id LIMIT ? OFFSET ?`).all(
    r.id,
    limit,
    offset,
  ) as ResourceEventRows[T][]
  return { rows, total }
}

/** One event of a resource, or undefined when that resource has no event with this id. */
export function findResourceEvent<T extends ResourceEventTable>(
  db: Db,
  table: T,
  r: ResourceRef,
  id: number,
): ResourceEventRows[T] | undefined {
  return cachedStatement(db, `SELECT * FROM ${table} WHERE id = ? AND ${COLUMN[r.type]} = ?`).get(id, r.id) as
    ResourceEventRows[T] | undefined
}

/**
 * Copies an issue's label, milestone and state events to its copy (move and clone keep the
 * history, as GitLab's CopyResourceEventsService does).
 */
export function copyIssueResourceEvents(db: Db, fromIssueId: number, toIssueId: number): void {
  db.prepare(
    `INSERT INTO resource_label_events (issue_id, label_id, user_id, action, created_at)
    SELECT ?, label_id, user_id, action, created_at FROM resource_label_events WHERE issue_id = ? ORDER BY id`,
  ).run(toIssueId, fromIssueId)
  db.prepare(
    `INSERT INTO resource_milestone_events (issue_id, milestone_id, user_id, action, state, created_at)
    SELECT ?, milestone_id, user_id, action, state, created_at FROM resource_milestone_events WHERE issue_id = ? ORDER BY id`,
  ).run(toIssueId, fromIssueId)
  db.prepare(
    `INSERT INTO resource_state_events (issue_id, user_id, state, source_commit, source_merge_request_id, created_at)
    SELECT ?, user_id, state, source_commit, source_merge_request_id, created_at FROM resource_state_events WHERE issue_id = ? ORDER BY id`,
  ).run(toIssueId, fromIssueId)
}

// ---------------------------------------------------------------------------------------------
// System note metadata.

/** GitLab's SystemNoteMetadata: the kind of change and, for cross-references, what mentioned the noteable. */
export interface SystemNoteMetadataRow {
  readonly note_id: number
  readonly action: string
  readonly source_type: ResourceType | null
  readonly source_id: number | null
  readonly source_note_id: number | null
}

/** Stores the metadata of a system note. */
export function insertSystemNoteMetadata(db: Db, m: SystemNoteMetadataRow): void {
  cachedStatement(
    db,
    'INSERT INTO system_note_metadata (note_id, action, source_type, source_id, source_note_id) VALUES (?, ?, ?, ?, ?)',
  ).run(m.note_id, m.action, m.source_type, m.source_id, m.source_note_id)
}

/** Metadata of the given notes that have any (system notes), by note id. */
export function systemNoteMetadataOf(db: Db, noteIds: readonly number[]): Map<number, SystemNoteMetadataRow> {
  if (noteIds.length === 0) return new Map()
  const rows = cachedStatement(
    db,
    'SELECT * FROM system_note_metadata WHERE note_id IN (SELECT value FROM json_each(?))',
  ).all(JSON.stringify(noteIds)) as SystemNoteMetadataRow[]
  return new Map(rows.map((r) => [r.note_id, r]))
}

/** Whether `target` already has a cross-reference note from `source` (GitLab notes a mention once). */
export function crossReferenceExists(db: Db, target: ResourceRef, source: ResourceRef): boolean {
  return (
    cachedStatement(
      db,
      `SELECT 1 FROM notes n JOIN system_note_metadata m ON m.note_id = n.id
       WHERE n.noteable_type = ? AND n.noteable_id = ? AND n.system = 1 AND m.action = 'cross_reference' AND m.source_type = ? AND m.source_id = ? LIMIT 1`,
    ).get(target.type, target.id, source.type, source.id) !== undefined
  )
}

/**
 * Carries system note metadata over to a copy of a noteable's notes (move, clone, promotion):
 * the copies were just inserted in id order, so they are the copy's last notes, n-th for n-th.
 */
export function copySystemNoteMetadata(db: Db, from: ResourceRef, to: ResourceRef): void {
  const sources = db
    .prepare('SELECT id FROM notes WHERE noteable_type = ? AND noteable_id = ? ORDER BY id')
    .all(from.type, from.id) as { id: number }[]
  const copies = db
    .prepare('SELECT id FROM notes WHERE noteable_type = ? AND noteable_id = ? ORDER BY id')
    .all(to.type, to.id) as { id: number }[]
  if (copies.length < sources.length) return
  const offset = copies.length - sources.length
  const meta = systemNoteMetadataOf(
    db,
    sources.map((n) => n.id),
  )
  sources.forEach((source, n) => {
    const m = meta.get(source.id)
    if (m) insertSystemNoteMetadata(db, { ...m, note_id: copies[offset + n].id })
  })
}
