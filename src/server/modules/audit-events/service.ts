import type { FastifyRequest } from 'fastify'
import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'

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
  return recordAuditBy(db, auditAuthorOf(request), e)
}

/** Who an audit event is by, kept by background work that finishes after its request. */
export interface AuditAuthor {
  /** -1 for an unauthenticated caller. */
  readonly id: number
  readonly name: string
  readonly ip: string | null
  readonly impersonatedBy: string | null
}

/** The request's caller as an AuditAuthor. */
export function auditAuthorOf(request: FastifyRequest): AuditAuthor {
  const author = request.actor.user
  return {
    id: author?.id ?? -1,
    name: author?.name ?? 'An unauthenticated user',
    ip: request.ip ?? null,
    impersonatedBy: request.actor.sudoBy?.name ?? null,
  }
}

/** Records an audit event by `author`: the request's caller, or the one who started background work. */
export function recordAuditBy(db: Db, author: AuditAuthor, e: NewAuditEvent): number {
  const details: Record<string, unknown> = {
    ...e.change,
    author_name: author.name,
    author_class: 'User',
    target_id: e.targetId ?? e.entityId,
    target_type: e.targetType ?? e.entityType,
    target_details: e.targetDetails ?? e.entityPath,
    ip_address: author.ip,
    entity_path: e.entityPath,
  }
  if (author.impersonatedBy) details.impersonated_by = author.impersonatedBy
  const info = db
    .prepare(
      'INSERT INTO audit_events (author_id, entity_id, entity_type, details, ip_address, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    .run(author.id, e.entityId, e.entityType, JSON.stringify(details), author.ip, nowIso())
  return Number(info.lastInsertRowid)
}
