import type { Milestone } from '../../../shared/api/milestone'
import type { MilestoneRow } from './queries'

/** Today's date (`YYYY-MM-DD`, UTC), against which `expired` is judged. */
export function todayIso(now = new Date()): string {
  return now.toISOString().slice(0, 10)
}

/**
 * GitLab's Milestone entity: `project_id` for project milestones, `group_id` for group milestones. `ownerPath` is the full path of its project or group; `today` is passed
 * in so one page is judged against one date.
 */
export function milestoneEntity(row: MilestoneRow, baseUrl: string, ownerPath: string, today: string): Milestone {
  const webUrl =
    row.project_id !== null
      ? `${baseUrl}/${ownerPath}/-/milestones/${row.iid}`
      : `${baseUrl}/groups/${ownerPath}/-/milestones/${row.iid}`
  return {
    id: row.id,
    iid: row.iid,
    ...(row.project_id !== null ? { project_id: row.project_id } : { group_id: row.group_id as number }),
    title: row.title,
    description: row.description,
    state: row.state,
    created_at: row.created_at,
    updated_at: row.updated_at,
    due_date: row.due_date,
    start_date: row.start_date,
    // A milestone expires the day after its due date; without a due date it never does.
    expired: row.due_date !== null && row.due_date < today,
    web_url: webUrl,
  }
}
