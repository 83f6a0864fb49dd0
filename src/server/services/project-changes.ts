import type { FastifyRequest } from 'fastify'
import { findProjectWithNamespace } from '../db/projects'
import type { ProjectRow } from '../db/rows'
import { recordAudit, type AuditChange } from './audit'
import { recordEvent, type EventAction, type EventTargetType } from './events'

export interface ProjectChange {
  readonly action: EventAction
  readonly targetType: EventTargetType
  readonly targetId: number
  /** What the activity feed and the audit log name the target by (an environment name, a domain). */
  readonly targetTitle: string
  readonly audit: AuditChange
}

/**
 * Records a change to a project's operations resource (environment, cluster, Pages domain…)
 * twice: as a project audit event and as an activity event authored by the caller. Secrets never
 * reach either: callers describe the change, not the values.
 */
export function recordProjectChange(request: FastifyRequest, project: ProjectRow, change: ProjectChange): void {
  const db = request.server.burrow.db
  const full = findProjectWithNamespace(db, project.id)
  const path = full ? `${full.ns_full_path}/${full.path}` : project.path
  recordAudit(db, request, {
    entityType: 'Project',
    entityId: project.id,
    entityPath: path,
    targetId: change.targetId,
    targetType: change.targetType,
    targetDetails: change.targetTitle,
    change: change.audit,
  })
  const author = request.actor.user
  if (author) {
    recordEvent(db, {
      authorId: author.id,
      action: change.action,
      projectId: project.id,
      targetType: change.targetType,
      targetId: change.targetId,
      targetTitle: change.targetTitle,
    })
  }
}
