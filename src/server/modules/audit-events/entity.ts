import type { AuditEvent } from '../../../shared/api/event'
import { isRecord } from '../../../shared/json'
import type { AuditEventRow } from './queries'

/** GitLab's AuditEvent entity from an `audit_events` row; `details` is returned as it was recorded. */
export function auditEvent(row: AuditEventRow): AuditEvent {
  const details: unknown = JSON.parse(row.details)
  return {
    id: row.id,
    author_id: row.author_id,
    entity_id: row.entity_id,
    entity_type: row.entity_type,
    details: isRecord(details) ? details : {},
    created_at: row.created_at,
  }
}
