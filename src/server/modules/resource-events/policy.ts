import type { Caller } from '../../platform/caller'
import { findNamespaceById, findProjectById } from '../namespaces'

/** Where a label or milestone lives: a project or a group. */
export interface EventSubjectOwner {
  readonly project_id: number | null
  readonly group_id: number | null
}

/**
 * Whether the caller may see a label or milestone an event names: it belongs to a project or a
 * group the caller can read (GitLab's read_label / read_milestone). A moved issue keeps events
 * naming its old project's labels, which a caller of the new project may not read.
 */
export function canReadEventSubject(caller: Caller, owner: EventSubjectOwner): boolean {
  if (owner.project_id !== null) {
    const project = findProjectById(caller.db, owner.project_id)
    return project !== undefined && caller.perms.canReadProject(project)
  }
  const group = owner.group_id !== null ? findNamespaceById(caller.db, owner.group_id) : undefined
  return group !== undefined && caller.perms.canReadGroup(group)
}
