import type { FastifyRequest } from 'fastify'
import type { Db } from '../db/connection'
import { nowIso } from '../db/connection'

export type AuditEntityType = 'User' | 'Group' | 'Project'

/** What changed, in GitLab's audit `details` vocabulary (custom_message, add, change/from/to…). */
export interface AuditChange {
  readonly custom_message?: string
  readonly add?: string
  readonly remove?: string
  readonly change?: string
  readonly from?: string | number | boolean | null
  readonly to?: string | number | boolean | null
  readonly as?: string
  readonly [key: string]: unknown
}

export interface NewAuditEvent {
  readonly entityType: AuditEntityType
  readonly entityId: number
  /** Full path of the entity (`group/project`, a username). */
  readonly entityPath: string
  readonly targetId?: number | string | null
  readonly targetType?: string | null
  readonly targetDetails?: string | null
  readonly change: AuditChange
}

/**
 * Records an audit event authored by the request's caller (the administrator behind a sudo
 * call is named as `impersonated_by`).
 */
export function recordAudit(db: Db, request: FastifyRequest, e: NewAuditEvent): number {
  const author = request.actor.user
  const authorId = author?.id ?? -1
  const details: Record<string, unknown> = {
    ...e.change,
    author_name: author?.name ?? 'An unauthenticated user',
    author_class: 'User',
    target_id: e.targetId ?? e.entityId,
    target_type: e.targetType ?? e.entityType,
    target_details: e.targetDetails ?? e.entityPath,
    ip_address: request.ip ?? null,
    entity_path: e.entityPath,
  }
  if (request.actor.sudoBy) details.impersonated_by = request.actor.sudoBy.name
  const info = db
    .prepare('INSERT INTO audit_events (author_id, entity_id, entity_type, details, ip_address, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(authorId, e.entityId, e.entityType, JSON.stringify(details), request.ip ?? null, nowIso())
  return Number(info.lastInsertRowid)
}
