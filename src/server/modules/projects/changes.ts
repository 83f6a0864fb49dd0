import type { Caller } from '../../platform/caller'
import { findProjectWithNamespace } from './queries'
import type { ProjectRow } from '../../platform/db/rows'
import { recordAudit, type AuditChange } from '../audit-events'

export interface ProjectChange {
  /** GitLab's class name of the changed thing (`Environment`, `Clusters::Cluster`, `PagesDomain`…). */
  readonly targetType: string
  readonly targetId: number
  /** What the audit log names the target by (an environment name, a domain). */
  readonly targetTitle: string
  readonly audit: AuditChange
}

/**
 * Records a change to a project's operations resource (environment, cluster, Pages domain…) as a
 * project audit event. GitLab keeps no activity event for these (its Events API knows issues,
 * merge requests, milestones, notes, projects, snippets, users, epics, wiki pages and designs), so
 * none is recorded. Secrets never reach the audit log: callers describe the change, not the values.
 */
export function recordProjectChange(caller: Caller, project: ProjectRow, change: ProjectChange): void {
  const full = findProjectWithNamespace(caller.db, project.id)
  const path = full ? `${full.ns_full_path}/${full.path}` : project.path
  recordAudit(caller, {
    entityType: 'Project',
    entityId: project.id,
    entityPath: path,
    targetId: change.targetId,
    targetType: change.targetType,
    targetDetails: change.targetTitle,
    change: change.audit,
  })
}
