import type { Caller } from '../../platform/caller'
import type { ResourceLabelEvent, ResourceMilestoneEvent, ResourceStateEvent } from '../../../shared/api/event'
import { milestonesById } from '../issues'
import { findLabelById, labelBasicEntity, type LabelRow } from '../labels'
import { presentMilestones } from '../milestones'
import { userRef, usersByIds, type UserRef } from '../users'
import { labelEventEntity, milestoneEventEntity, stateEventEntity } from './entity'
import { canReadEventSubject } from './policy'
import type { LabelEventRow, MilestoneEventRow, ResourceEventRow, StateEventRow } from './queries'

/** The `user` of each event, loaded once for a page (null for a user since deleted). */
function eventUsers(caller: Caller, rows: readonly ResourceEventRow[]): (id: number) => UserRef | null {
  const users = usersByIds(
    caller.db,
    rows.map((r) => r.user_id),
  )
  return (id) => {
    const user = users.get(id)
    return user ? userRef(user, caller.baseUrl) : null
  }
}

/**
 * Label events as the caller sees them, in order: an event naming a label of a project or group
 * the caller cannot read is left out (its label stays hidden); a deleted label shows as null.
 */
export function presentLabelEvents(caller: Caller, rows: readonly LabelEventRow[]): ResourceLabelEvent[] {
  const user = eventUsers(caller, rows)
  const labels = new Map<number, LabelRow | undefined>()
  const out: ResourceLabelEvent[] = []
  for (const row of rows) {
    let label: LabelRow | undefined
    if (row.label_id !== null) {
      if (!labels.has(row.label_id)) labels.set(row.label_id, findLabelById(caller.db, row.label_id))
      label = labels.get(row.label_id)
      if (label && !canReadEventSubject(caller, label)) continue
    }
    out.push(labelEventEntity(row, user(row.user_id), label ? labelBasicEntity(label) : null))
  }
  return out
}

/** Milestone events as the caller sees them, with the same rule as label events for their milestones. */
export function presentMilestoneEvents(caller: Caller, rows: readonly MilestoneEventRow[]): ResourceMilestoneEvent[] {
  const user = eventUsers(caller, rows)
  const milestones = milestonesById(caller.db, [
    ...new Set(rows.map((r) => r.milestone_id).filter((id): id is number => id !== null)),
  ])
  const readable = [...milestones.values()].filter((m) => canReadEventSubject(caller, m))
  const shown = new Map(presentMilestones(caller, readable).map((m) => [m.id, m]))
  const out: ResourceMilestoneEvent[] = []
  for (const row of rows) {
    const known = row.milestone_id !== null && milestones.has(row.milestone_id)
    const milestone = row.milestone_id !== null ? shown.get(row.milestone_id) : undefined
    if (known && !milestone) continue
    out.push(milestoneEventEntity(row, user(row.user_id), milestone ?? null))
  }
  return out
}

/** State events: every one is shown (they name no label or milestone). */
export function presentStateEvents(caller: Caller, rows: readonly StateEventRow[]): ResourceStateEvent[] {
  const user = eventUsers(caller, rows)
  return rows.map((row) => stateEventEntity(row, user(row.user_id)))
}
