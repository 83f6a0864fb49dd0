import { nowIso, type Db } from '../../platform/db/connection'

/** An `audit_events` row. */
export interface AuditEventRow {
  readonly id: number
  readonly author_id: number
  readonly entity_id: number
  readonly entity_type: 'User' | 'Group' | 'Project'
  /** JSON object text. */
  readonly details: string
  readonly ip_address: string | null
  readonly created_at: string
}

export interface AuditEventFilter {
  readonly entityType?: string
  readonly entityId?: number
  /** Only actions of this author (non-owners see their own actions only). */
  readonly authorId?: number
  /** Inclusive bounds on created_at (ISO timestamps). */
  readonly createdAfter?: string
  readonly createdBefore?: string
}

function where(f: AuditEventFilter): { sql: string; values: unknown[] } {
  const clauses: string[] = []
  const values: unknown[] = []
  if (f.entityType !== undefined) {
    clauses.push('entity_type = ?')
    values.push(f.entityType)
  }
  if (f.entityId !== undefined) {
    clauses.push('entity_id = ?')
    values.push(f.entityId)
  }
  if (f.authorId !== undefined) {
    clauses.push('author_id = ?')
    values.push(f.authorId)
  }
  if (f.createdAfter !== undefined) {
    clauses.push('created_at >= ?')
    values.push(f.createdAfter)
  }
  if (f.createdBefore !== undefined) {
    clauses.push('created_at <= ?')
    values.push(f.createdBefore)
  }
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', values }
}

/** One page of audit events, newest first (GitLab orders them by id descending), with the total. */
export function listAuditEvents(
  db: Db,
  f: AuditEventFilter,
  limit: number,
  offset: number,
): { rows: AuditEventRow[]; total: number } {
  const w = where(f)
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM audit_events ${w.sql}`).get(...w.values) as { n: number }).n
  const rows = db
    .prepare(`SELECT * FROM audit_events ${w.sql} ORDER BY id DESC LIMIT ? OFFSET ?`)
    .all(...w.values, limit, offset) as AuditEventRow[]
  return { rows, total }
}

/** One audit event by id, optionally required to belong to the given entity. */
export function findAuditEvent(
  db: Db,
  id: number,
  entity?: { readonly type: string; readonly id: number },
): AuditEventRow | undefined {
  if (entity) {
    return db
      .prepare('SELECT * FROM audit_events WHERE id = ? AND entity_type = ? AND entity_id = ?')
      .get(id, entity.type, entity.id) as AuditEventRow | undefined
  }
  return db.prepare('SELECT * FROM audit_events WHERE id = ?').get(id) as AuditEventRow | undefined
}

/** Stores one audit event; answers its id. */
export function insertAuditEvent(
  db: Db,
  e: {
    readonly authorId: number
    readonly entityId: number
    readonly entityType: string
    readonly details: string
    readonly ip: string | null
  },
): number {
  const info = db
    .prepare(
      'INSERT INTO audit_events (author_id, entity_id, entity_type, details, ip_address, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    .run(e.authorId, e.entityId, e.entityType, e.details, e.ip, nowIso())
  return Number(info.lastInsertRowid)
}
