import type { LabelEventRow, MilestoneEventRow, ResourceEventRow, StateEventRow } from './queries'
import { resourceOfEvent } from './queries'
import type { LabelBasic } from '../../../shared/api/common'
import type { ResourceLabelEvent, ResourceMilestoneEvent, ResourceStateEvent } from '../../../shared/api/event'
import type { Milestone } from '../../../shared/api/milestone'
import type { UserRef } from '../users'

/** The fields every resource event shares: GitLab's `id, user, created_at, resource_type, resource_id`. */
function common(row: ResourceEventRow, user: UserRef | null) {
  const resource = resourceOfEvent(row)
  return { id: row.id, user, created_at: row.created_at, resource_type: resource.type, resource_id: resource.id }
}

/** GitLab's ResourceLabelEvent entity; `label` (LabelBasic) is null once the label was deleted. */
export function labelEventEntity(
  row: LabelEventRow,
  user: UserRef | null,
  label: LabelBasic | null,
): ResourceLabelEvent {
  return { ...common(row, user), label, action: row.action }
}

/** GitLab's ResourceMilestoneEvent entity: the whole milestone, and the item's state when it changed. */
export function milestoneEventEntity(
  row: MilestoneEventRow,
  user: UserRef | null,
  milestone: Milestone | null,
): ResourceMilestoneEvent {
  return { ...common(row, user), milestone, action: row.action, state: row.state }
}

/** GitLab's ResourceStateEvent entity, with the commit or merge request that caused the change. */
export function stateEventEntity(row: StateEventRow, user: UserRef | null): ResourceStateEvent {
  return {
    ...common(row, user),
    source_commit: row.source_commit,
    source_merge_request_id: row.source_merge_request_id,
    state: row.state,
  }
}
