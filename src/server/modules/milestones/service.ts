import type { Issue } from '../../../shared/api/issue'
import type { MergeRequest } from '../../../shared/api/merge-request'
import type { BurndownEvent } from '../../../shared/api/milestone'
import type { Caller } from '../../platform/caller'
import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'
import { clearIssuesMilestone, milestoneIssueRows, milestoneIssues, moveIssuesToMilestone } from '../issues'
import { clearMergeRequestsMilestone, milestoneMergeRequests, moveMergeRequestsToMilestone } from '../merge-requests'
import {
  deleteMilestoneRow,
  findMilestoneTitle,
  insertMilestone,
  issueStateEvents,
  projectMilestonesTitled,
  updateMilestoneRow,
  type MilestoneRow,
} from './queries'
import type { NamespaceRow, ProjectRow } from '../../platform/db/rows'
import { todayIso } from './entity'
import { invalidParam, missingParam, noneGiven, validationFailed } from '../../platform/http/errors'
import { recordEvent } from '../events'
import { checkLengths, TEXT_LIMITS } from '../../platform/text/limits'
import { findNamespaceById } from '../namespaces'
import { projectsInNamespaces } from '../projects'
import { dateParam } from '../../platform/http/loose-params'

/** A milestone's owner: one project or one group. */
export type MilestoneOwner =
  { readonly kind: 'project'; readonly project: ProjectRow } | { readonly kind: 'group'; readonly group: NamespaceRow }

const TITLE_TAKEN = 'already being used for another group or project milestone.'

function checkDates(start: string | null, due: string | null): void {
  if (start !== null && due !== null && start > due)
    throw validationFailed({ due_date: ['must be greater than start date'] })
}

/**
 * Projects and groups whose milestone titles a new title must not repeat: a project's own and its
 * group's; a group's own and its direct projects' (GitLab's title uniqueness rule).
 */
function titleScope(db: Db, owner: MilestoneOwner): { projectIds: number[]; groupIds: number[] } {
  if (owner.kind === 'project') {
    const ns = findNamespaceById(db, owner.project.namespace_id)
    return { projectIds: [owner.project.id], groupIds: ns?.kind === 'group' ? [ns.id] : [] }
  }
  return { projectIds: projectIdsIn(db, owner.group.id), groupIds: [owner.group.id] }
}

/** Ids of the projects directly in group `groupId`. */
function projectIdsIn(db: Db, groupId: number): number[] {
  return projectsInNamespaces(db, [groupId]).map((p) => p.id)
}

function titleOf(raw: string): string {
  const title = raw.trim()
  if (title === '') throw validationFailed({ title: ["can't be blank"] })
  return title
}

function eventTarget(owner: MilestoneOwner): { projectId: number | null; groupId: number | null } {
  return owner.kind === 'project'
    ? { projectId: owner.project.id, groupId: null }
    : { projectId: null, groupId: owner.group.id }
}

/** Creation parameters as received. */
export interface MilestoneCreateParams {
  readonly title?: string
  readonly description?: string | null
  readonly due_date?: unknown
  readonly start_date?: unknown
}

/** Creates a milestone and records the `created` event. */
export function createMilestone(
  caller: Caller,
  owner: MilestoneOwner,
  params: MilestoneCreateParams,
  authorId: number,
): MilestoneRow {
  if (params.title === undefined) throw missingParam('title')
  const due = dateParam('due_date', params.due_date) ?? null
  const start = dateParam('start_date', params.start_date) ?? null
  const title = titleOf(params.title)
  checkLengths({ ...params, title }, TEXT_LIMITS.milestone)
  checkDates(start, due)
  const db = caller.db
  return db.transaction(() => {
    const scope = titleScope(db, owner)
    if (findMilestoneTitle(db, title, scope.projectIds, scope.groupIds))
      throw validationFailed({ title: [TITLE_TAKEN] })
    const row = insertMilestone(db, {
      ...(owner.kind === 'project' ? { projectId: owner.project.id } : { groupId: owner.group.id }),
      title,
      description: params.description ?? null,
      dueDate: due,
      startDate: start,
    })
    recordEvent(db, {
      authorId,
      action: 'created',
      ...eventTarget(owner),
      targetType: 'Milestone',
      targetId: row.id,
      targetIid: row.iid,
      targetTitle: row.title,
    })
    return row
  })()
}

/** Update parameters as received. */
export interface MilestoneUpdateParams extends MilestoneCreateParams {
  readonly state_event?: string
}

const UPDATABLE = ['title', 'description', 'start_date', 'due_date', 'state_event'] as const

/** Updates a milestone; a state change records `closed` or `reopened`. */
export function updateMilestone(
  caller: Caller,
  owner: MilestoneOwner,
  milestone: MilestoneRow,
  params: MilestoneUpdateParams,
  authorId: number,
): MilestoneRow {
  if (UPDATABLE.every((k) => params[k] === undefined)) throw noneGiven(UPDATABLE)
  if (params.state_event !== undefined && params.state_event !== 'close' && params.state_event !== 'activate')
    throw invalidParam('state_event', 'does not have a valid value')
  const due = dateParam('due_date', params.due_date)
  const start = dateParam('start_date', params.start_date)
  const title = params.title !== undefined ? titleOf(params.title) : undefined
  checkLengths({ ...params, title }, TEXT_LIMITS.milestone)
  checkDates(start === undefined ? milestone.start_date : start, due === undefined ? milestone.due_date : due)
  const db = caller.db
  return db.transaction(() => {
    if (title !== undefined && title !== milestone.title) {
      const scope = titleScope(db, owner)
      if (findMilestoneTitle(db, title, scope.projectIds, scope.groupIds, milestone.id))
        throw validationFailed({ title: [TITLE_TAKEN] })
    }
    const state = params.state_event === 'close' ? 'closed' : params.state_event === 'activate' ? 'active' : undefined
    const row = updateMilestoneRow(db, milestone.id, {
      title,
      description: params.description,
      due_date: due,
      start_date: start,
      state,
    })
    if (state !== undefined && state !== milestone.state) {
      recordEvent(db, {
        authorId,
        action: state === 'closed' ? 'closed' : 'reopened',
        ...eventTarget(owner),
        targetType: 'Milestone',
        targetId: row.id,
        targetIid: row.iid,
        targetTitle: row.title,
      })
    }
    return row
  })()
}

/**
 * Deletes a milestone and records the `destroyed` event. Its issues and merge requests lose it
 * first, and count as updated, as GitLab's destroy runs their update services (the foreign key's
 * ON DELETE SET NULL alone would leave their updated_at behind, and sync clients with them).
 */
export function destroyMilestone(
  caller: Caller,
  owner: MilestoneOwner,
  milestone: MilestoneRow,
  authorId: number,
): void {
  const db = caller.db
  db.transaction(() => {
    const now = nowIso()
    clearIssuesMilestone(db, milestone.id, now)
    clearMergeRequestsMilestone(db, milestone.id, now)
    deleteMilestoneRow(db, milestone.id)
    recordEvent(db, {
      authorId,
      action: 'destroyed',
      ...eventTarget(owner),
      targetType: 'Milestone',
      targetId: milestone.id,
      targetIid: milestone.iid,
      targetTitle: milestone.title,
    })
  })()
}

/**
 * Promotes a project milestone to a milestone of the project's group: the group milestone takes its
 * title, dates, description and state, and every same-titled milestone of the group's projects is
 * folded into it and removed, as GitLab's promotion does.
 */
export function promoteMilestone(caller: Caller, group: NamespaceRow, milestone: MilestoneRow): MilestoneRow {
  const db = caller.db
  return db.transaction(() => {
    const twins = projectMilestonesTitled(db, milestone.title, projectIdsIn(db, group.id))
    const target =
      findMilestoneTitle(db, milestone.title, [], [group.id]) ??
      insertMilestone(db, {
        groupId: group.id,
        title: milestone.title,
        description: milestone.description,
        state: milestone.state,
        dueDate: milestone.due_date,
        startDate: milestone.start_date,
      })
    // The twins' issues move to the group milestone before the twins go.
    moveIssuesToMilestone(
      db,
      twins.map((t) => t.id),
      target.id,
    )
    moveMergeRequestsToMilestone(
      db,
      twins.map((t) => t.id),
      target.id,
    )
    for (const twin of twins) deleteMilestoneRow(db, twin.id)
    return target
  })()
}

/** Issues and merge requests of a milestone, one page, as the caller may see them. */
export function milestoneItems(
  caller: Caller,
  milestone: MilestoneRow,
  kind: 'issues' | 'merge_requests',
  page: { readonly limit: number; readonly offset: number },
): { rows: Issue[] | MergeRequest[]; total: number } {
  if (kind === 'issues') return milestoneIssues(caller, milestone, page)
  return milestoneMergeRequests(caller, milestone, page)
}

/**
 * Burndown events (PREMIUM) of a milestone with a start and a due date (none otherwise), as
 * GitLab's Burndown builds them: for each issue of the milestone the caller can see, created by the
 * chart's end (the due date, or today while it lies ahead), its creation, then its closed/reopened
 * activity events up to that end (a repeat of the same action skipped), and for a closed issue
 * without a closed event a `closed` at the start date's first moment.
 */
export function burndownEvents(caller: Caller, milestone: MilestoneRow): BurndownEvent[] {
  if (milestone.start_date === null || milestone.due_date === null) return []
  const today = todayIso()
  const endOfChart = `${milestone.due_date > today ? today : milestone.due_date}T23:59:59.999Z`
  const issues = milestoneIssueRows(caller, milestone).filter((i) => i.created_at <= endOfChart)
  if (issues.length === 0) return []
  const rows = issueStateEvents(
    caller.db,
    issues.map((i) => i.id),
    endOfChart,
  )
  const byIssue = new Map<number, { action: 'closed' | 'reopened'; created_at: string }[]>()
  for (const r of rows) byIssue.set(r.target_id, [...(byIssue.get(r.target_id) ?? []), r])
  const out: BurndownEvent[] = []
  for (const issue of issues) {
    out.push({ created_at: issue.created_at, weight: issue.weight, action: 'created' })
    const events = byIssue.get(issue.id) ?? []
    let previous: string | null = null
    for (const e of events) {
      // A close by a commit and by its merge request leaves two `closed` events: the state changed once.
      if (e.action === previous) continue
      previous = e.action
      out.push({ created_at: e.created_at, weight: issue.weight, action: e.action })
    }
    if (issue.state === 'closed' && !events.some((e) => e.action === 'closed')) {
      out.push({ created_at: `${milestone.start_date}T00:00:00.000Z`, weight: issue.weight, action: 'closed' })
    }
  }
  return out
}
