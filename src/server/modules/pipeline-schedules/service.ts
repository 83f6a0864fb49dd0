import type { PipelineBasic } from '../../../shared/api/pipeline'
import type { PipelineSchedule, PipelineScheduleDetails } from '../../../shared/api/pipeline-schedule'
import { callerFor, type Caller } from '../../platform/caller'
import type { ServerContext } from '../../platform/context'
import { findProject, findUserById } from '../../platform/db/platform-queries'
import type { ProjectRow, UserRow } from '../../platform/db/rows'
import { isValidRef } from '../../platform/git/git'
import { projectGitDir, repoExists } from '../../platform/git/project-repo'
import { resolveCommit } from '../../platform/git/refs'
import { forbidden, notFound, validationFailed } from '../../platform/http/errors'
import { listProtectedBranches, type ProtectedBranch } from '../branches'
import { checkVariable } from '../ci-variables'
import { createPipeline, presentPipelines, type PipelineRow } from '../pipelines'
import { isKnownTimezone, nextRunAfter, parseCron } from './cron'
import { scheduleDetailsEntity, scheduleEntity, scheduleVariableEntity } from './entity'
import {
  canAdminSchedules,
  canCreateSchedules,
  canDeleteSchedule,
  canReadSchedules,
  canRunOnRef,
  canUpdateSchedule,
} from './policy'
import {
  deleteSchedule,
  deleteScheduleVariable,
  dueSchedules,
  findSchedule,
  insertSchedule,
  insertScheduleVariable,
  lastPipelineOf,
  linkPipeline,
  listSchedules,
  schedulePipelines,
  scheduleVariables,
  setNextRun,
  setScheduleOwner,
  updateSchedule,
  updateScheduleVariable,
  type ScheduleFields,
  type ScheduleRow,
  type ScheduleVariableRow,
} from './queries'

const BRANCH_PREFIX = 'refs/heads/'
const TAG_PREFIX = 'refs/tags/'
/** GitLab's CronValidator and CronTimezoneValidator message (with its leading space). */
const INVALID_SYNTAX = ' is invalid syntax'

/** What a create or an update asks for; absent fields keep their value (or take GitLab's default). */
export interface ScheduleInput {
  readonly description?: string
  readonly ref?: string
  readonly cron?: string
  readonly cronTimezone?: string
  readonly active?: boolean
}

/** The project of a schedules endpoint: 403 when its schedules are not the caller's to read. */
export function checkReadSchedules(caller: Caller, project: ProjectRow): void {
  if (!canReadSchedules(caller.perms, project)) throw forbidden()
}

/** The project's schedule `id`, or 404. */
export function loadSchedule(caller: Caller, project: ProjectRow, id: number): ScheduleRow {
  checkReadSchedules(caller, project)
  const schedule = findSchedule(caller.db, project.id, id)
  if (!schedule) throw notFound('Pipeline Schedule')
  return schedule
}

function ownerOf(db: Caller['db'], schedule: ScheduleRow): UserRow | undefined {
  return schedule.owner_id === null ? undefined : findUserById(db, schedule.owner_id)
}

/** The project's schedules (GitLab's PipelineSchedule entity), only active or inactive ones when `active` is given. */
export function listProjectSchedules(caller: Caller, project: ProjectRow, active?: boolean): PipelineSchedule[] {
  checkReadSchedules(caller, project)
  return listSchedules(caller.db, project.id, active).map((s) =>
    scheduleEntity(s, ownerOf(caller.db, s), caller.baseUrl),
  )
}

/** One schedule with its latest pipeline and its variables. */
export function scheduleDetails(caller: Caller, schedule: ScheduleRow): PipelineScheduleDetails {
  const last = lastPipelineOf(caller.db, schedule.id)
  const lastPipeline = last ? presentPipelines(caller, [last])[0] : null
  return scheduleDetailsEntity(
    scheduleEntity(schedule, ownerOf(caller.db, schedule), caller.baseUrl),
    lastPipeline,
    scheduleVariables(caller.db, caller.ctx.secrets, schedule.id),
  )
}

/** A page of the pipelines the schedule made (GitLab's PipelineBasic), oldest first, and how many there are. */
export function pipelinesOfSchedule(
  caller: Caller,
  schedule: ScheduleRow,
  page: { readonly perPage: number; readonly offset: number },
): { readonly pipelines: PipelineBasic[]; readonly total: number } {
  const { rows, total } = schedulePipelines(caller.db, schedule.id, { limit: page.perPage, offset: page.offset })
  return { pipelines: presentPipelines(caller, rows), total }
}

/** The branch a full ref names, or null for a tag. */
function branchOf(ref: string): string | null {
  return ref.startsWith(BRANCH_PREFIX) ? ref.slice(BRANCH_PREFIX.length) : null
}

/** The short name of a full ref (`main` of `refs/heads/main`). */
function shortRef(ref: string): string {
  return ref.startsWith(BRANCH_PREFIX) ? ref.slice(BRANCH_PREFIX.length) : ref.slice(TAG_PREFIX.length)
}

/**
 * The full ref (`refs/heads/…` or `refs/tags/…`) of a branch or tag of the project, given short or
 * full as GitLab accepts it (a branch wins over a tag of the same name), or null when neither exists.
 */
async function expandRef(ctx: ServerContext, project: ProjectRow, ref: string): Promise<string | null> {
  const gitDir = projectGitDir(ctx, project)
  if (!repoExists(gitDir)) return null
  const full = ref.startsWith(BRANCH_PREFIX) || ref.startsWith(TAG_PREFIX)
  const candidates = full ? [ref] : [`${BRANCH_PREFIX}${ref}`, `${TAG_PREFIX}${ref}`]
  for (const candidate of candidates) {
    if (!isValidRef(shortRef(candidate))) continue
    if (await resolveCommit(gitDir, candidate).catch(() => null)) return candidate
  }
  return null
}

/** The next run of an expression, as stored (null when it never fires again). */
function nextRunAt(caller: Caller, cron: string, timezone: string): string | null {
  const parsed = parseCron(cron)
  return parsed ? (nextRunAfter(parsed, timezone, caller.clock())?.toISOString() ?? null) : null
}

/**
 * The columns of a schedule after `input` (over `current` when updating), checked as GitLab does:
 * cron syntax, a known timezone, an existing branch or tag the caller may run pipelines on.
 * 400 with every field's errors, 403 for a protected branch the caller may not run on.
 */
async function checkedFields(
  caller: Caller,
  project: ProjectRow,
  input: ScheduleInput,
  current: ScheduleRow | null,
): Promise<ScheduleFields> {
  const description = (input.description ?? current?.description ?? '').trim()
  const cron = (input.cron ?? current?.cron ?? '').trim()
  const timezone = input.cronTimezone ?? current?.cron_timezone ?? 'UTC'
  const errors: Record<string, string[]> = {}
  if (description === '') errors.description = ["can't be blank"]
  const parsed = parseCron(cron)
  if (!parsed || !nextRunAfter(parsed, 'UTC', caller.clock())) errors.cron = [INVALID_SYNTAX]
  if (!isKnownTimezone(timezone)) errors.cron_timezone = [INVALID_SYNTAX]
  const ref =
    input.ref === undefined && current ? current.ref : await expandRef(caller.ctx, project, input.ref?.trim() ?? '')
  if (ref === null) errors.ref = ['is ambiguous']
  if (Object.keys(errors).length > 0 || ref === null) throw validationFailed(errors)
  if (input.ref !== undefined && !canRunOnRef(caller.perms, project, protectionRules(caller, project), branchOf(ref)))
    throw forbidden()
  const active = input.active ?? (current ? current.active === 1 : true)
  return { description, ref, cron, cron_timezone: timezone, active, next_run_at: nextRunAt(caller, cron, timezone) }
}

function protectionRules(caller: Caller, project: ProjectRow): ProtectedBranch[] {
  return listProtectedBranches(caller.db, project.id)
}

/** Creates a schedule owned by the caller (Developers and above). */
export async function createSchedule(
  caller: Caller,
  project: ProjectRow,
  input: ScheduleInput,
): Promise<PipelineScheduleDetails> {
  checkReadSchedules(caller, project)
  if (!canCreateSchedules(caller.perms, project) || !caller.user) throw forbidden()
  const owner = caller.user
  const fields = await checkedFields(caller, project, input, null)
  return scheduleDetails(caller, insertSchedule(caller.db, project.id, owner.id, fields))
}

/** Changes a schedule (its owner only). */
export async function editSchedule(
  caller: Caller,
  project: ProjectRow,
  schedule: ScheduleRow,
  input: ScheduleInput,
): Promise<PipelineScheduleDetails> {
  if (!canUpdateSchedule(caller.perms, project, schedule)) throw forbidden()
  const fields = await checkedFields(caller, project, input, schedule)
  return scheduleDetails(caller, updateSchedule(caller.db, schedule, fields))
}

/** Makes the caller the schedule's owner (Maintainers and above). */
export function takeOwnership(caller: Caller, project: ProjectRow, schedule: ScheduleRow): PipelineScheduleDetails {
  if (!canAdminSchedules(caller.perms, project) || !caller.user) throw forbidden()
  return scheduleDetails(caller, setScheduleOwner(caller.db, schedule, caller.user.id))
}

/** Deletes a schedule and its variables (its owner, or a Maintainer); its pipelines stay. */
export function removeSchedule(caller: Caller, project: ProjectRow, schedule: ScheduleRow): void {
  if (!canDeleteSchedule(caller.perms, project, schedule)) throw forbidden()
  deleteSchedule(caller.db, schedule.id)
}

/**
 * Runs the schedule's pipeline now, as `user`, with source `schedule` and the schedule's
 * variables. Its next run does not move. Returns the configuration's errors when no pipeline was made.
 */
async function runSchedule(
  ctx: ServerContext,
  project: ProjectRow,
  schedule: ScheduleRow,
  user: UserRow,
): Promise<PipelineRow | readonly string[]> {
  const caller = callerFor(ctx, user)
  const branch = branchOf(schedule.ref)
  if (!canRunOnRef(caller.perms, project, protectionRules(caller, project), branch)) return ['Insufficient permissions']
  const sha = await resolveCommit(projectGitDir(ctx, project), schedule.ref).catch(() => null)
  if (!sha) return ['Reference not found']
  const result = await createPipeline(ctx, {
    project,
    ref: shortRef(schedule.ref),
    tag: branch === null,
    sha,
    source: 'schedule',
    user,
    variables: scheduleVariables(ctx.db, ctx.secrets, schedule.id),
    honourSkipCi: false,
    saveOnErrors: true,
    baseUrl: caller.baseUrl,
    caller,
  })
  if ('errors' in result) return result.errors
  linkPipeline(ctx.db, result.pipeline.id, schedule.id)
  return result.pipeline
}

/**
 * "Run now": a pipeline of the schedule as the caller, who must be allowed to run pipelines on its
 * ref (403 otherwise, as GitLab's `play_pipeline_schedule`). 400 with the reasons when none was made.
 */
export async function playSchedule(caller: Caller, project: ProjectRow, schedule: ScheduleRow): Promise<void> {
  const user = caller.user
  if (!user || !canRunOnRef(caller.perms, project, protectionRules(caller, project), branchOf(schedule.ref)))
    throw forbidden()
  const outcome = await runSchedule(caller.ctx, project, schedule, user)
  if (!('id' in outcome)) throw validationFailed({ base: [...outcome] })
}

/**
 * Runs every active schedule due at `now` (the scheduler's tick): each moves to its next run
 * first, so a failing one does not run again at once, then runs as its owner. A schedule whose
 * owner is gone or may no longer run on its ref makes no pipeline (as GitLab's). Returns how many
 * pipelines were created.
 */
export async function runDueSchedules(ctx: ServerContext, now: Date): Promise<number> {
  let created = 0
  for (const schedule of dueSchedules(ctx.db, now.toISOString())) {
    const parsed = parseCron(schedule.cron)
    const next = parsed ? nextRunAfter(parsed, schedule.cron_timezone, now) : null
    setNextRun(ctx.db, schedule.id, next?.toISOString() ?? null)
    const owner = ownerOf(ctx.db, schedule)
    const project = findProject(ctx.db, schedule.project_id)
    if (!owner || !project || owner.state !== 'active') continue
    const outcome = await runSchedule(ctx, project, schedule, owner)
    if ('id' in outcome) created += 1
  }
  return created
}

/** The schedule's variable `key`, or 404. */
function loadVariable(caller: Caller, schedule: ScheduleRow, key: string): ScheduleVariableRow {
  const variable = scheduleVariables(caller.db, caller.ctx.secrets, schedule.id).find((v) => v.key === key)
  if (!variable) throw notFound('Pipeline Schedule Variable')
  return variable
}

function checkScheduleVariable(v: ScheduleVariableRow): void {
  checkVariable({
    key: v.key,
    value: v.value,
    variableType: v.variable_type,
    protected: false,
    masked: false,
    raw: false,
    environmentScope: '*',
    description: null,
  })
}

/** Adds a variable to the schedule (its owner only); 400 when the key is taken or invalid. */
export function addScheduleVariable(
  caller: Caller,
  project: ProjectRow,
  schedule: ScheduleRow,
  variable: ScheduleVariableRow,
): ScheduleVariableRow {
  if (!canUpdateSchedule(caller.perms, project, schedule)) throw forbidden()
  checkScheduleVariable(variable)
  if (scheduleVariables(caller.db, caller.ctx.secrets, schedule.id).some((v) => v.key === variable.key))
    throw validationFailed({ key: ['has already been taken'] })
  insertScheduleVariable(caller.db, caller.ctx.secrets, schedule.id, variable)
  return scheduleVariableEntity(variable)
}

/** Changes a variable's value or type (the schedule's owner only). */
export function editScheduleVariable(
  caller: Caller,
  project: ProjectRow,
  schedule: ScheduleRow,
  key: string,
  changes: { readonly value?: string; readonly variable_type?: 'env_var' | 'file' },
): ScheduleVariableRow {
  if (!canUpdateSchedule(caller.perms, project, schedule)) throw forbidden()
  const current = loadVariable(caller, schedule, key)
  const next = { ...current, ...changes }
  updateScheduleVariable(caller.db, caller.ctx.secrets, schedule.id, next)
  return scheduleVariableEntity(next)
}

/** Deletes a variable (the schedule's owner only) and answers what it was. */
export function removeScheduleVariable(
  caller: Caller,
  project: ProjectRow,
  schedule: ScheduleRow,
  key: string,
): ScheduleVariableRow {
  if (!canUpdateSchedule(caller.perms, project, schedule)) throw forbidden()
  const variable = loadVariable(caller, schedule, key)
  deleteScheduleVariable(caller.db, schedule.id, key)
  return scheduleVariableEntity(variable)
}
