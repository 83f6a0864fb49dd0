import type { SecretBox } from '../../platform/auth/encryption'
import { nowIso, type Db } from '../../platform/db/connection'
import type { PipelineRow } from '../pipelines'

/** A row of `ci_pipeline_schedules`. */
export interface ScheduleRow {
  readonly id: number
  readonly project_id: number
  readonly owner_id: number | null
  readonly description: string
  /** The full ref: `refs/heads/…` or `refs/tags/…`. */
  readonly ref: string
  readonly cron: string
  readonly cron_timezone: string
  readonly next_run_at: string | null
  readonly active: number
  readonly created_at: string
  readonly updated_at: string
}

/** A schedule variable, its value opened. */
export interface ScheduleVariableRow {
  readonly key: string
  readonly value: string
  readonly variable_type: 'env_var' | 'file'
}

/** The columns a create or an update writes. */
export interface ScheduleFields {
  readonly description: string
  readonly ref: string
  readonly cron: string
  readonly cron_timezone: string
  readonly active: boolean
  readonly next_run_at: string | null
}

/** The project's schedules, oldest first; only active or inactive ones when `active` is given. */
export function listSchedules(db: Db, projectId: number, active?: boolean): ScheduleRow[] {
  if (active === undefined)
    return db
      .prepare('SELECT * FROM ci_pipeline_schedules WHERE project_id = ? ORDER BY id')
      .all(projectId) as ScheduleRow[]
  return db
    .prepare('SELECT * FROM ci_pipeline_schedules WHERE project_id = ? AND active = ? ORDER BY id')
    .all(projectId, active ? 1 : 0) as ScheduleRow[]
}

export function findSchedule(db: Db, projectId: number, id: number): ScheduleRow | undefined {
  return db.prepare('SELECT * FROM ci_pipeline_schedules WHERE project_id = ? AND id = ?').get(projectId, id) as
    ScheduleRow | undefined
}

export function insertSchedule(db: Db, projectId: number, ownerId: number, f: ScheduleFields): ScheduleRow {
  const now = nowIso()
  const info = db
    .prepare(
      `INSERT INTO ci_pipeline_schedules (project_id, owner_id, description, ref, cron, cron_timezone, next_run_at, active, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(projectId, ownerId, f.description, f.ref, f.cron, f.cron_timezone, f.next_run_at, f.active ? 1 : 0, now, now)
  return findSchedule(db, projectId, Number(info.lastInsertRowid)) as ScheduleRow
}

export function updateSchedule(db: Db, s: ScheduleRow, f: ScheduleFields): ScheduleRow {
  db.prepare(
    `UPDATE ci_pipeline_schedules SET description = ?, ref = ?, cron = ?, cron_timezone = ?, next_run_at = ?, active = ?, updated_at = ?
     WHERE id = ?`,
  ).run(f.description, f.ref, f.cron, f.cron_timezone, f.next_run_at, f.active ? 1 : 0, nowIso(), s.id)
  return findSchedule(db, s.project_id, s.id) as ScheduleRow
}

export function setScheduleOwner(db: Db, s: ScheduleRow, ownerId: number): ScheduleRow {
  db.prepare('UPDATE ci_pipeline_schedules SET owner_id = ?, updated_at = ? WHERE id = ?').run(ownerId, nowIso(), s.id)
  return findSchedule(db, s.project_id, s.id) as ScheduleRow
}

/** Moves a schedule's next run (the scheduler, after running it). */
export function setNextRun(db: Db, id: number, nextRunAt: string | null): void {
  db.prepare('UPDATE ci_pipeline_schedules SET next_run_at = ? WHERE id = ?').run(nextRunAt, id)
}

export function deleteSchedule(db: Db, id: number): void {
  db.prepare('DELETE FROM ci_pipeline_schedules WHERE id = ?').run(id)
}

/** Active schedules whose next run is at or before `at`, of every project, oldest due first. */
export function dueSchedules(db: Db, at: string): ScheduleRow[] {
  return db
    .prepare(
      'SELECT * FROM ci_pipeline_schedules WHERE active = 1 AND next_run_at IS NOT NULL AND next_run_at <= ? ORDER BY next_run_at, id',
    )
    .all(at) as ScheduleRow[]
}

export function scheduleVariables(db: Db, secrets: SecretBox, scheduleId: number): ScheduleVariableRow[] {
  const rows = db
    .prepare(
      'SELECT key, encrypted_value, variable_type FROM ci_pipeline_schedule_variables WHERE pipeline_schedule_id = ? ORDER BY id',
    )
    .all(scheduleId) as { key: string; encrypted_value: string; variable_type: 'env_var' | 'file' }[]
  return rows.map((r) => ({ key: r.key, value: secrets.open(r.encrypted_value), variable_type: r.variable_type }))
}

export function insertScheduleVariable(db: Db, secrets: SecretBox, scheduleId: number, v: ScheduleVariableRow): void {
  const now = nowIso()
  db.prepare(
    `INSERT INTO ci_pipeline_schedule_variables (pipeline_schedule_id, key, encrypted_value, variable_type, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(scheduleId, v.key, secrets.seal(v.value), v.variable_type, now, now)
}

export function updateScheduleVariable(db: Db, secrets: SecretBox, scheduleId: number, v: ScheduleVariableRow): void {
  db.prepare(
    `UPDATE ci_pipeline_schedule_variables SET encrypted_value = ?, variable_type = ?, updated_at = ?
     WHERE pipeline_schedule_id = ? AND key = ?`,
  ).run(secrets.seal(v.value), v.variable_type, nowIso(), scheduleId, v.key)
}

export function deleteScheduleVariable(db: Db, scheduleId: number, key: string): void {
  db.prepare('DELETE FROM ci_pipeline_schedule_variables WHERE pipeline_schedule_id = ? AND key = ?').run(
    scheduleId,
    key,
  )
}

/** Records that `pipelineId` was made by the schedule. */
export function linkPipeline(db: Db, pipelineId: number, scheduleId: number): void {
  db.prepare('UPDATE ci_pipelines SET pipeline_schedule_id = ? WHERE id = ?').run(scheduleId, pipelineId)
}

/** The schedule's latest pipeline, if it made any. */
export function lastPipelineOf(db: Db, scheduleId: number): PipelineRow | undefined {
  return db
    .prepare('SELECT * FROM ci_pipelines WHERE pipeline_schedule_id = ? ORDER BY id DESC LIMIT 1')
    .get(scheduleId) as PipelineRow | undefined
}

/** A page of the schedule's pipelines, oldest first (GitLab's order), and how many there are. */
export function schedulePipelines(
  db: Db,
  scheduleId: number,
  page: { readonly limit: number; readonly offset: number },
): { readonly rows: PipelineRow[]; readonly total: number } {
  const rows = db
    .prepare('SELECT * FROM ci_pipelines WHERE pipeline_schedule_id = ? ORDER BY id LIMIT ? OFFSET ?')
    .all(scheduleId, page.limit, page.offset) as PipelineRow[]
  const total = db
    .prepare('SELECT COUNT(*) FROM ci_pipelines WHERE pipeline_schedule_id = ?')
    .pluck()
    .get(scheduleId) as number
  return { rows, total }
}
