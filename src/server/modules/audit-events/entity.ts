import type { AuditEventRow } from './queries'

/** GitLab's AuditEvent entity. */
export interface AuditEvent {
  readonly id: number
  readonly author_id: number
  readonly entity_id: number
  readonly entity_type: string
  readonly details: Readonly<Record<string, unknown>>
  readonly created_at: string
}

/** An `audit_events` row → API JSON; `details` is returned as it was recorded. */
export function auditEvent(row: AuditEventRow): AuditEvent {
  const details = JSON.parse(row.details) as unknown
  return {
    id: row.id,
    author_id: row.author_id,
    entity_id: row.entity_id,
    entity_type: row.entity_type,
    details: details !== null && typeof details === 'object' ? (details as Record<string, unknown>) : {},
    created_at: row.created_at,
  }
}
