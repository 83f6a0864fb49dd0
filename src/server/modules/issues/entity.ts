import type { IssueCounts, IssueProjectPath, IssueRow } from './queries'
import type { LabelRow } from '../labels'
import type { MilestoneRow } from '../milestones'
import type { UserRow } from '../../platform/db/rows'
import { labelBasicEntity } from '../labels'
import type { Issue, IssueEpic } from '../../../shared/api/issue'
import type { Milestone } from '../../../shared/api/milestone'
import { milestoneEntity } from '../milestones'
import { userRef, type UserRef } from '../users'
import { timeStatsOf } from '../time-tracking'

/** Checklist progress of a description. */
export interface TaskCompletion {
  readonly count: number
  readonly completed_count: number
}

// A Markdown task list item: `- [ ]`, `* [x]`, `+ [X]`, `1. [ ]` or `1) [~]` at the start of a line.
const TASK_ITEM = /^[ \t]*(?:[-*+]|\d+[.)])[ \t]+\[([ xX~])\](?=\s|$)/gm

/** Counts task list items and how many are checked (`[x]`/`[X]`; `[~]` is inapplicable, not counted as done). */
export function taskCompletion(description: string | null): TaskCompletion {
  if (!description) return { count: 0, completed_count: 0 }
  let count = 0
  let done = 0
  for (const m of description.matchAll(TASK_ITEM)) {
    if (m[1] === '~') continue
    count += 1
    if (m[1] === 'x' || m[1] === 'X') done += 1
  }
  return { count, completed_count: done }
}

/** GitLab's task_status text: `1 of 3 checklist items completed`, empty without tasks. */
export function taskStatus(t: TaskCompletion): string {
  if (t.count === 0) return ''
  return `${t.completed_count} of ${t.count} checklist item${t.count === 1 ? '' : 's'} completed`
}

/** Where an issue list was requested from, for `references.relative`. */
export type ReferenceOrigin =
  | { readonly kind: 'project'; readonly projectId: number }
  | { readonly kind: 'group'; readonly groupId: number }
  | { readonly kind: 'none' }

/** Everything a page of issues needs beyond the rows, loaded in a fixed number of queries. */
export interface IssuePageData {
  readonly baseUrl: string
  readonly today: string
  readonly origin: ReferenceOrigin
  readonly withLabelsDetails: boolean
  readonly projects: ReadonlyMap<number, IssueProjectPath>
  readonly assignees: ReadonlyMap<number, readonly number[]>
  readonly labels: ReadonlyMap<number, readonly LabelRow[]>
  /** The page's user_refs, each built once and shared by every row that names the user. */
  readonly userRefs: ReadonlyMap<number, UserRef>
  /** The page's milestone entities, each built once. */
  readonly milestones: ReadonlyMap<number, Milestone>
  readonly counts: ReadonlyMap<number, IssueCounts>
  readonly mergeRequestCounts: ReadonlyMap<number, number>
  /** Per issue, the open issues it blocks that the caller may read; absent is none. */
  readonly blockingCounts: ReadonlyMap<number, number>
  /**
   * `epic` per issue of a group project (null when none or not readable); issues absent here
   * (personal projects, epics off) carry no `epic`/`epic_iid` keys, as in GitLab.
   */
  readonly epics: ReadonlyMap<number, IssueEpic | null>
}

/** What a page needs to build its user_refs and milestone entities once each. */
export interface IssuePageSources {
  readonly baseUrl: string
  readonly today: string
  readonly users: ReadonlyMap<number, UserRow>
  readonly milestones: ReadonlyMap<number, MilestoneRow>
  readonly milestonePaths: ReadonlyMap<number, string>
}

/** The user_refs and milestone entities of a page, built once per user and per milestone. */
export function issuePageRefs(s: IssuePageSources): Pick<IssuePageData, 'userRefs' | 'milestones'> {
  const userRefs = new Map<number, UserRef>()
  for (const [id, u] of s.users) userRefs.set(id, userRef(u, s.baseUrl))
  const milestones = new Map<number, Milestone>()
  for (const [id, m] of s.milestones)
    milestones.set(id, milestoneEntity(m, s.baseUrl, s.milestonePaths.get(id) ?? '', s.today))
  return { userRefs, milestones }
}

function relativeReference(issue: IssueRow, project: IssueProjectPath, origin: ReferenceOrigin): string {
  if (origin.kind === 'project' && origin.projectId === issue.project_id) return `#${issue.iid}`
  // Like GitLab's to_reference(from: group): a project directly in the group is named by its path.
  if (origin.kind === 'group' && origin.groupId === project.namespace_id) return `${project.path}#${issue.iid}`
  return `${project.full_path}#${issue.iid}`
}

const NO_COUNTS: IssueCounts = { userNotes: 0, upvotes: 0, downvotes: 0, timeSpent: 0 }

/**
 * GitLab's Issue entity for one row of a page (`subscribed` only for single-issue responses:
 * GitLab leaves it out of lists). One object literal, then the few optional keys, so issues share
 * their shape: a page of 100 is built without dictionary-mode objects (the schema orders the keys
 * on the wire). Users and milestones come ready-made from the page (`issuePageRefs`).
 */
export function issueEntity(issue: IssueRow, d: IssuePageData, subscribed?: boolean): Issue {
  const project = d.projects.get(issue.project_id) as IssueProjectPath
  const projectUrl = `${d.baseUrl}/${project.full_path}`
  const apiProject = `${d.baseUrl}/api/v4/projects/${issue.project_id}`
  const issueApi = `${apiProject}/issues/${issue.iid}`
  const assigneeIds = d.assignees.get(issue.id)
  const assignees: UserRef[] = []
  if (assigneeIds) {
    for (const id of assigneeIds) {
      const ref = d.userRefs.get(id)
      if (ref) assignees.push(ref)
    }
  }
  const labelRows = d.labels.get(issue.id)
  const labels = labelRows
    ? d.withLabelsDetails
      ? labelRows.map(labelBasicEntity)
      : labelRows.map((l) => l.title)
    : []
  const counts = d.counts.get(issue.id) ?? NO_COUNTS
  const tasks = taskCompletion(issue.description)
  const out: Issue = {
    id: issue.id,
    iid: issue.iid,
    project_id: issue.project_id,
    title: issue.title,
    description: issue.description,
    state: issue.state,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.closed_at,
    closed_by:
      issue.state === 'closed' && issue.closed_by_id !== null ? (d.userRefs.get(issue.closed_by_id) ?? null) : null,
    labels,
    milestone: issue.milestone_id !== null ? (d.milestones.get(issue.milestone_id) ?? null) : null,
    assignees,
    author: d.userRefs.get(issue.author_id) ?? null,
    type: issue.issue_type.toUpperCase(),
    assignee: assignees[0] ?? null,
    user_notes_count: counts.userNotes,
    merge_requests_count: d.mergeRequestCounts.get(issue.id) ?? 0,
    upvotes: counts.upvotes,
    downvotes: counts.downvotes,
    due_date: issue.due_date,
    confidential: issue.confidential === 1,
    discussion_locked: issue.discussion_locked === null ? null : issue.discussion_locked === 1,
    issue_type: issue.issue_type,
    web_url: `${projectUrl}/-/issues/${issue.iid}`,
    time_stats: timeStatsOf(issue.time_estimate, counts.timeSpent),
    task_completion_status: tasks,
    weight: issue.weight,
    blocking_issues_count: d.blockingCounts.get(issue.id) ?? 0,
    has_tasks: tasks.count > 0,
    task_status: taskStatus(tasks),
    _links: {
      self: issueApi,
      notes: `${issueApi}/notes`,
      award_emoji: `${issueApi}/award_emoji`,
      project: apiProject,
      closed_as_duplicate_of:
        issue.duplicated_to_id !== null ? `${d.baseUrl}/api/v4/issues/${issue.duplicated_to_id}` : null,
    },
    references: {
      short: `#${issue.iid}`,
      relative: relativeReference(issue, project, d.origin),
      full: `${project.full_path}#${issue.iid}`,
    },
    reference: `#${issue.iid}`,
    moved_to_id: issue.moved_to_id,
    imported: false,
    imported_from: 'none',
    service_desk_reply_to: null,
    iteration: null,
    health_status: issue.health_status,
  }
  if (issue.issue_type === 'incident') out.severity = 'UNKNOWN'
  if (subscribed !== undefined) out.subscribed = subscribed
  if (d.epics.has(issue.id)) {
    const epic = d.epics.get(issue.id) ?? null
    out.epic_iid = epic?.iid ?? null
    out.epic = epic
  }
  return out
}
