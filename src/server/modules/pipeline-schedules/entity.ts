import type { PipelineBasic } from '../../../shared/api/pipeline'
import type {
  PipelineSchedule,
  PipelineScheduleDetails,
  PipelineScheduleVariable,
} from '../../../shared/api/pipeline-schedule'
import type { UserRow } from '../../platform/db/rows'
import { userRefOrNull } from '../users'
import type { ScheduleRow, ScheduleVariableRow } from './queries'

/** GitLab's PipelineSchedule entity. */
export function scheduleEntity(row: ScheduleRow, owner: UserRow | undefined, baseUrl: string): PipelineSchedule {
  return {
    id: row.id,
    description: row.description,
    ref: row.ref,
    cron: row.cron,
    cron_timezone: row.cron_timezone,
    next_run_at: row.next_run_at,
    active: row.active === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
    owner: userRefOrNull(owner, baseUrl),
  }
}

/** A schedule variable as the API shows it. */
export function scheduleVariableEntity(v: ScheduleVariableRow): PipelineScheduleVariable {
  return { key: v.key, variable_type: v.variable_type, value: v.value }
}

/** GitLab's PipelineScheduleDetails: the schedule with its latest pipeline (PipelineBasic) and variables. */
export function scheduleDetailsEntity(
  schedule: PipelineSchedule,
  lastPipeline: PipelineBasic | null,
  variables: readonly ScheduleVariableRow[],
): PipelineScheduleDetails {
  return { ...schedule, last_pipeline: lastPipeline, variables: variables.map(scheduleVariableEntity) }
}
