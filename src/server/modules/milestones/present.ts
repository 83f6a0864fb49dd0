/**
 * Milestones as the API shows them. Apart from the service, which reaches the issue and merge
 * request lists: merge requests and resource events show milestones without depending on them.
 */
import type { Caller } from '../../platform/caller'
import type { Milestone } from '../../../shared/api/milestone'
import { milestoneEntity, todayIso } from './entity'
import { ownerPaths, type MilestoneRow } from './queries'

/** Serializes a page of milestones with every owner path fetched in at most two queries. */
export function presentMilestones(caller: Caller, rows: readonly MilestoneRow[]): Milestone[] {
  const db = caller.db
  const paths = ownerPaths(
    db,
    [...new Set(rows.filter((r) => r.project_id !== null).map((r) => r.project_id as number))],
    [...new Set(rows.filter((r) => r.group_id !== null).map((r) => r.group_id as number))],
  )
  const baseUrl = caller.baseUrl
  const today = todayIso()
  return rows.map((r) =>
    milestoneEntity(
      r,
      baseUrl,
      (r.project_id !== null ? paths.projects.get(r.project_id) : paths.groups.get(r.group_id as number)) ?? '',
      today,
    ),
  )
}
