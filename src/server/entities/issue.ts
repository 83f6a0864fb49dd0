import type { IssueCounts, IssueProjectPath, IssueRow } from '../db/issues'
import type { LabelRow } from '../db/labels'
import type { MilestoneRow } from '../db/milestones'
import type { UserRow } from '../db/rows'
import { textColorFor } from '../services/colors'
import { renderSingleLine } from '../services/markdown'
import { timeStatsOf } from '../services/time-tracking'
import { milestoneEntity } from './milestone'
import { userRef, userRefOrNull } from './user'

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
export type ReferenceOrigin = { readonly kind: 'project'; readonly projectId: number } | { readonly kind: 'group'; readonly groupId: number } | { readonly kind: 'none' }

/** Everything a page of issues needs beyond the rows, loaded in a fixed number of queries. */
export interface IssuePageData {
  readonly baseUrl: string
  readonly today: string
  readonly origin: ReferenceOrigin
  readonly withLabelsDetails: boolean
  readonly projects: ReadonlyMap<number, IssueProjectPath>
  readonly users: ReadonlyMap<number, UserRow>
  readonly assignees: ReadonlyMap<number, readonly number[]>
  readonly labels: ReadonlyMap<number, readonly LabelRow[]>
  readonly milestones: ReadonlyMap<number, MilestoneRow>
  readonly milestonePaths: ReadonlyMap<number, string>
  readonly counts: ReadonlyMap<number, IssueCounts>
  readonly mergeRequestCounts: ReadonlyMap<number, number>
  /**
   * `epic` per issue of a group project (null when none or not readable); issues absent here
   * (personal projects, epics off) carry no `epic`/`epic_iid` keys, as in GitLab.
   */
  readonly epics: ReadonlyMap<number, Readonly<Record<string, unknown>> | null>
  /** Only for single-issue responses (GitLab leaves `subscribed` out of lists). */
  readonly subscribed?: boolean
}

function relativeReference(issue: IssueRow, project: IssueProjectPath, origin: ReferenceOrigin): string {
  if (origin.kind === 'project' && origin.projectId === issue.project_id) return `#${issue.iid}`
  // Like GitLab's to_reference(from: group): a project directly in the group is named by its path.
  if (origin.kind === 'group' && origin.groupId === project.namespace_id) return `${project.path}#${issue.iid}`
  return `${project.full_path}#${issue.iid}`
}

/** A label as `with_labels_details` shows it (GitLab's LabelBasic). */
export function labelDetails(l: LabelRow): Readonly<Record<string, unknown>> {
  return { id: l.id, name: l.title, color: l.color, description: l.description, description_html: renderSingleLine(l.description), text_color: textColorFor(l.color) }
}

/** GitLab's Issue entity for one row of a page. */
export function issueEntity(issue: IssueRow, d: IssuePageData): Readonly<Record<string, unknown>> {
  const project = d.projects.get(issue.project_id) as IssueProjectPath
  const projectUrl = `${d.baseUrl}/${project.full_path}`
  const apiProject = `${d.baseUrl}/api/v4/projects/${issue.project_id}`
  const assignees = (d.assignees.get(issue.id) ?? []).map((id) => d.users.get(id)).filter((u): u is UserRow => u !== undefined).map((u) => userRef(u, d.baseUrl))
  const labels = d.labels.get(issue.id) ?? []
  const milestone = issue.milestone_id !== null ? d.milestones.get(issue.milestone_id) : undefined
  const counts = d.counts.get(issue.id) ?? { userNotes: 0, upvotes: 0, downvotes: 0, timeSpent: 0 }
  const tasks = taskCompletion(issue.description)
  const author = d.users.get(issue.author_id)
  return {
    id: issue.id,
    iid: issue.iid,
    project_id: issue.project_id,
    title: issue.title,
    description: issue.description,
    state: issue.state,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.closed_at,
    closed_by: issue.state === 'closed' && issue.closed_by_id !== null ? userRefOrNull(d.users.get(issue.closed_by_id), d.baseUrl) : null,
    labels: d.withLabelsDetails ? labels.map(labelDetails) : labels.map((l) => l.title),
    milestone: milestone ? milestoneEntity(milestone, d.baseUrl, d.milestonePaths.get(milestone.id) ?? '', d.today) : null,
    assignees,
    author: author ? userRef(author, d.baseUrl) : null,
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
    blocking_issues_count: 0,
    has_tasks: tasks.count > 0,
    task_status: taskStatus(tasks),
    _links: {
      self: `${apiProject}/issues/${issue.iid}`,
      notes: `${apiProject}/issues/${issue.iid}/notes`,
      award_emoji: `${apiProject}/issues/${issue.iid}/award_emoji`,
      project: apiProject,
      closed_as_duplicate_of: issue.duplicated_to_id !== null ? `${d.baseUrl}/api/v4/issues/${issue.duplicated_to_id}` : null,
    },
    references: { short: `#${issue.iid}`, relative: relativeReference(issue, project, d.origin), full: `${project.full_path}#${issue.iid}` },
    reference: `#${issue.iid}`,
    severity: issue.issue_type === 'incident' ? 'UNKNOWN' : undefined,
    ...(d.subscribed !== undefined ? { subscribed: d.subscribed } : {}),
    moved_to_id: issue.moved_to_id,
    imported: false,
    imported_from: 'none',
    service_desk_reply_to: null,
    ...(d.epics.has(issue.id) ? { epic_iid: (d.epics.get(issue.id)?.iid as number | undefined) ?? null, epic: d.epics.get(issue.id) ?? null } : {}),
    iteration: null,
    health_status: issue.health_status,
  }
}
