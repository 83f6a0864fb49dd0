import type { MilestoneRow } from './queries'

/** GitLab's Milestone entity: `project_id` for project milestones, `group_id` for group milestones. */
export interface MilestoneEntity {
  readonly id: number
  readonly iid: number
  readonly project_id?: number
  readonly group_id?: number
  readonly title: string
  readonly description: string | null
  readonly state: 'active' | 'closed'
  readonly created_at: string
  readonly updated_at: string
  readonly due_date: string | null
  readonly start_date: string | null
  readonly expired: boolean
  readonly web_url: string
}

/** Today's date (`YYYY-MM-DD`, UTC), against which `expired` is judged. */
export function todayIso(now = new Date()): string {
  return now.toISOString().slice(0, 10)
}

/**
 * Serializes a milestone. `ownerPath` is the full path of its project or group; `today` is passed
 * in so one page is judged against one date.
 */
export function milestoneEntity(row: MilestoneRow, baseUrl: string, ownerPath: string, today: string): MilestoneEntity {
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
