import type { Caller } from '../../platform/caller'
import type { Db } from '../../platform/db/connection'
import { insertAuditEvent } from './queries'

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
 * Records an audit event authored by the caller (the administrator behind a sudo call is named as
 * `impersonated_by`).
 */
export function recordAudit(caller: Caller, e: NewAuditEvent): number {
  return recordAuditBy(caller.db, auditAuthorOf(caller), e)
}

/** Who an audit event is by, kept by background work that finishes after its request. */
export interface AuditAuthor {
  /** -1 for an unauthenticated caller. */
  readonly id: number
  readonly name: string
  readonly ip: string | null
  readonly impersonatedBy: string | null
}

/** The caller as an AuditAuthor. */
export function auditAuthorOf(caller: Caller): AuditAuthor {
  const author = caller.user
  return {
    id: author?.id ?? -1,
    name: author?.name ?? 'An unauthenticated user',
    ip: caller.ip,
    impersonatedBy: caller.actor.sudoBy?.name ?? null,
  }
}

/** Records an audit event by `author`: the caller, or the one who started background work. */
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
  return insertAuditEvent(db, {
    authorId: author.id,
    entityId: e.entityId,
    entityType: e.entityType,
    details: JSON.stringify(details),
    ip: author.ip,
  })
}
