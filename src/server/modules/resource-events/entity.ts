import type { LabelEventRow, MilestoneEventRow, StateEventRow } from './queries'
import { resourceOfEvent } from './queries'
import type { LabelBasic } from '../../../shared/api/common'
import type { ResourceLabelEvent, ResourceMilestoneEvent, ResourceStateEvent } from '../../../shared/api/event'
import type { Milestone } from '../../../shared/api/milestone'
import type { UserRef } from '../users'

// Each entity writes the shared fields (GitLab's `id, user, created_at, resource_type, resource_id`) out: a helper's object
// spread at the head of a literal gives nearly every object V8 builds from it a hidden class of its own, and a page of
// 1,000 events took several times as long to serialize.

/** GitLab's ResourceLabelEvent entity; `label` (LabelBasic) is null once the label was deleted. */
export function labelEventEntity(
  row: LabelEventRow,
  user: UserRef | null,
  label: LabelBasic | null,
): ResourceLabelEvent {
  const resource = resourceOfEvent(row)
  return {
    id: row.id,
    user,
    created_at: row.created_at,
    resource_type: resource.type,
    resource_id: resource.id,
    label,
    action: row.action,
  }
}

/** GitLab's ResourceMilestoneEvent entity: the whole milestone, and the item's state when it changed. */
export function milestoneEventEntity(
  row: MilestoneEventRow,
  user: UserRef | null,
  milestone: Milestone | null,
): ResourceMilestoneEvent {
  const resource = resourceOfEvent(row)
  return {
    id: row.id,
    user,
    created_at: row.created_at,
    resource_type: resource.type,
    resource_id: resource.id,
    milestone,
    action: row.action,
    state: row.state,
  }
}

/** GitLab's ResourceStateEvent entity, with the commit or merge request that caused the change. */
export function stateEventEntity(row: StateEventRow, user: UserRef | null): ResourceStateEvent {
  const resource = resourceOfEvent(row)
  return {
    id: row.id,
    user,
    created_at: row.created_at,
    resource_type: resource.type,
    resource_id: resource.id,
    source_commit: row.source_commit,
    source_merge_request_id: row.source_merge_request_id,
    state: row.state,
  }
}
