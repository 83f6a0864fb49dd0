import type { Issue } from '../../../shared/api/issue'
import type { MergeRequest } from '../../../shared/api/merge-request'
import type { Caller } from '../../platform/caller'
import { AccessLevel } from '../../platform/auth/access'
import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'
import { issueViewerOf, readableProjects } from '../../platform/auth/issue-read-queries'
import {
  assigneeIdsOf,
  deleteIssueRow,
  findProjectMilestoneIdByTitle,
  noteAuthorIds,
  ensurePositions,
  findIssueById,
  findIssueByIid,
  POSITION_GAP,
  renumberPositions,
  insertIssueRow,
  issueCounts,
  labelsOf,
  listIssues,
  milestonesById,
  projectPathsOf,
  setAssignees,
  setIssueLabels,
  updateIssueRow,
  type IssueColumnChanges,
  type IssueRow,
  type IssueType,
} from './queries'
import { findLabelTitleInScope, insertLabel, type LabelRow } from '../labels'
import { findMilestoneById, ownerPaths, type MilestoneRow } from '../milestones'
import { findNamespaceById, findProjectById, groupAndDescendantIds, namespaceAncestors } from '../namespaces'
import { usersByIds } from '../users'
import type { ProjectRow } from '../../platform/db/rows'
import { issueEntity, issuePageRefs, type IssuePageData, type ReferenceOrigin } from './entity'
import { todayIso } from '../milestones'
import {
  apiMessage,
  forbidden,
  invalidParam,
  missingParam,
  noneGiven,
  notFound,
  validationFailed,
} from '../../platform/http/errors'
import { recordEvent } from '../events'
import { copyAwards } from '../award-emoji'
import { keepOneLabelPerScope, projectLabelScope } from '../labels'
import { isSubscribed } from '../subscriptions'
import { createTodo } from '../todos'
import { resolveTodosForTarget } from '../todos'
import type { EpicRow } from '../epics'
import { issueEpics, issueMergeRequests } from './extensions'
import { copyIssueResourceEvents, type StateSource } from '../resource-events'
import { issueSnapshot, noteIssueCopied } from './system-notes'
import { copyNotes, issueTarget, recordCreation, recordStateEvent, recordUpdate } from '../notes'
import { canReadIssuesWith, canUserReadIssue } from './policy'
import { openIssuesBlockedBy } from './links-queries'
import { ReadableItems } from '../../platform/auth/readable'
import {
  boolOf,
  dateParam,
  datetimeOf,
  descriptionOf,
  intOf,
  labelList,
  titleOf,
} from '../../platform/http/loose-params'

// GitLab's default colour for labels created on the fly from an issue's `labels`.
const NEW_LABEL_COLOR = '#6699cc'
const ISSUE_TYPES: readonly IssueType[] = ['issue', 'incident', 'test_case']

// ---------------------------------------------------------------------------------------------
// Permissions.

/** Reporter (GitLab's Planner/Reporter) may set metadata and edit anyone's issue. */
export function canAdminIssues(caller: Caller, project: ProjectRow): boolean {
  return caller.perms.canInProject(project, AccessLevel.REPORTER)
}

/** The issue read rule (canUserReadIssue) for the caller: project, issues feature and confidentiality. */
export function canReadIssue(caller: Caller, project: ProjectRow, issue: IssueRow): boolean {
  const assignees = issue.confidential === 0 ? [] : (assigneeIdsOf(caller.db, [issue.id]).get(issue.id) ?? [])
  return canUserReadIssue(caller.perms, project, issue, assignees)
}

/**
 * The project's issues feature as the caller meets it: `disabled` hides issues from everyone,
 * `private` from non-members (administrators excepted). Answers 403 like GitLab's feature checks.
 */
export function requireIssuesFeature(caller: Caller, project: ProjectRow): void {
  if (!canReadIssuesWith(caller.perms, project)) throw forbidden()
}

/** The project's issue `iid` the caller may read, or 404 `Issue Not Found`. */
export function loadIssue(caller: Caller, project: ProjectRow, iid: number): IssueRow {
  requireIssuesFeature(caller, project)
  const issue = findIssueByIid(caller.db, project.id, iid)
  if (!issue || !canReadIssue(caller, project, issue)) throw notFound('Issue')
  return issue
}

/** Authors may edit their own issues; editing others' needs Reporter. */
export function requireEditIssue(caller: Caller, project: ProjectRow, issue: IssueRow): void {
  const user = caller.user
  if (!user) throw apiMessage(401, '401 Unauthorized')
  if (user.id !== issue.author_id && !canAdminIssues(caller, project)) throw forbidden()
}

// ---------------------------------------------------------------------------------------------
// Presentation.

/** Options of a page presentation. */
export interface PresentOptions {
  readonly origin: ReferenceOrigin
  readonly withLabelsDetails?: boolean
  /** Adds `subscribed` for the caller (single-issue responses). */
  readonly withSubscribed?: boolean
}

/**
 * Serializes a page of issues. Whatever the page size this runs a fixed number of queries:
 * projects, users, assignees, labels, milestones (+ their owners' paths) and counts.
 */
export function presentIssues(caller: Caller, rows: readonly IssueRow[], options: PresentOptions): Issue[] {
  const db = caller.db
  const ids = rows.map((r) => r.id)
  const assignees = assigneeIdsOf(db, ids)
  const userIds = rows.flatMap((r) => [
    r.author_id,
    ...(r.closed_by_id !== null ? [r.closed_by_id] : []),
    ...(assignees.get(r.id) ?? []),
  ])
  const milestones = milestonesById(
    db,
    rows.filter((r) => r.milestone_id !== null).map((r) => r.milestone_id as number),
  )
  const paths = ownerPaths(
    db,
    [...new Set([...milestones.values()].filter((m) => m.project_id !== null).map((m) => m.project_id as number))],
    [...new Set([...milestones.values()].filter((m) => m.group_id !== null).map((m) => m.group_id as number))],
  )
  const milestonePaths = new Map<number, string>()
  for (const m of milestones.values())
    milestonePaths.set(
      m.id,
      (m.project_id !== null ? paths.projects.get(m.project_id) : paths.groups.get(m.group_id as number)) ?? '',
    )
  const projects = projectPathsOf(
    db,
    rows.map((r) => r.project_id),
  )
  const groupProjectIds = new Set([...projects.values()].filter((p) => p.namespace_kind === 'group').map((p) => p.id))
  const baseUrl = caller.baseUrl
  const today = todayIso()
  const page: IssuePageData = {
    baseUrl,
    today,
    origin: options.origin,
    withLabelsDetails: options.withLabelsDetails ?? false,
    projects,
    ...issuePageRefs({ baseUrl, today, users: usersByIds(db, userIds), milestones, milestonePaths }),
    assignees,
    labels: labelsOf(db, ids),
    counts: issueCounts(db, ids),
    mergeRequestCounts: issueMergeRequests().closingCounts(db, rows),
    epics: issueEpics().fields(caller, rows, groupProjectIds),
    blockingCounts: blockingIssuesCounts(caller, ids),
  }
  if (!options.withSubscribed) return rows.map((r) => issueEntity(r, page))
  const viewerId = caller.user?.id ?? null
  return rows.map((r) =>
    issueEntity(r, page, isSubscribed(db, 'Issue', r.id, viewerId, [r.author_id, ...(assignees.get(r.id) ?? [])])),
  )
}

/**
 * GitLab's blocking_issues_count per issue: the open issues it blocks that the caller may read (a
 * confidential or private one is not counted for whom it is hidden). One query for the page's
 * links, one for the confidential ones' assignees; projects are read once each.
 */
function blockingIssuesCounts(caller: Caller, issueIds: readonly number[]): ReadonlyMap<number, number> {
  const blocked = openIssuesBlockedBy(caller.db, issueIds)
  const counts = new Map<number, number>()
  if (blocked.length === 0) return counts
  const readable = new ReadableItems(caller.db, caller.perms)
  const assignees = assigneeIdsOf(
    caller.db,
    blocked.filter((b) => b.confidential === 1).map((b) => b.id),
  )
  for (const b of blocked) {
    const project = readable.projectRow(b.project_id)
    if (project && canUserReadIssue(caller.perms, project, b, assignees.get(b.id) ?? []))
      counts.set(b.blocking_id, (counts.get(b.blocking_id) ?? 0) + 1)
  }
  return counts
}

/** One issue as a single-resource response (with `subscribed`). */
export function presentIssue(caller: Caller, issue: IssueRow, origin: ReferenceOrigin): Issue {
  return presentIssues(caller, [issue], { origin, withSubscribed: true })[0]
}

/** Merge requests of the issue's project that mention it (`related`) or would close it (`closed_by`). */
export function relatedMergeRequests(caller: Caller, issue: IssueRow, kind: 'related' | 'closed_by'): MergeRequest[] {
  return issueMergeRequests().referencing(caller, issue.project_id, issue.iid, kind)
}

// ---------------------------------------------------------------------------------------------
// Parameter normalization shared by create and update.

function intParam(name: string, raw: unknown, min = 0): number | null | undefined {
  if (raw === undefined) return undefined
  if (raw === null || raw === '') return null
  const n = intOf(name, raw)
  if (n < min) throw validationFailed({ [name]: [`must be greater than or equal to ${min}`] })
  return n
}

function issueTypeParam(raw: unknown): IssueType | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined
  if (!ISSUE_TYPES.includes(raw as IssueType)) throw invalidParam('issue_type', 'does not have a valid value')
  return raw as IssueType
}

/** assignee_ids (array, or 0/'' for none) or the deprecated single assignee_id → user ids. */
function assigneeList(db: Db, ids: unknown, single: unknown): number[] | undefined {
  let raw: unknown[] | undefined
  if (ids !== undefined) raw = ids === null || ids === '' ? [] : Array.isArray(ids) ? ids : String(ids).split(',')
  else if (single !== undefined) raw = single === null || single === '' ? [] : [single]
  if (raw === undefined) return undefined
  const numbers = raw.map((v) => Number(v)).filter((n) => Number.isInteger(n) && n > 0)
  if (numbers.length === 0) return []
  // Unknown users are dropped silently, as GitLab's assignee filtering does.
  return [...usersByIds(db, numbers).keys()].sort((a, b) => numbers.indexOf(a) - numbers.indexOf(b))
}

/** A milestone id the project may use (its own or its groups'), or null when absent/invalid (GitLab ignores it). */
function milestoneFor(caller: Caller, project: ProjectRow, raw: unknown): number | null | undefined {
  if (raw === undefined) return undefined
  if (raw === null || raw === '') return null
  const id = intOf('milestone_id', raw)
  if (id === 0) return null
  const milestone = findMilestoneById(caller.db, id)
  if (!milestone) return null
  if (milestone.project_id === project.id) return milestone.id
  const db = caller.db
  const ns = findNamespaceById(db, project.namespace_id)
  const groups = ns && ns.kind === 'group' ? [ns.id, ...namespaceAncestors(db, ns.id).map((g) => g.id)] : []
  return milestone.group_id !== null && groups.includes(milestone.group_id) ? milestone.id : null
}

/**
 * Label ids for titles: existing labels the project sees (case-insensitive), and new project
 * labels for unknown titles, as GitLab's find-or-create does for members who may admin labels.
 */
function resolveLabels(caller: Caller, project: ProjectRow, titles: readonly string[]): LabelRow[] {
  const db = caller.db
  const scope = projectLabelScope(caller, project)
  const out: LabelRow[] = []
  for (const title of titles) {
    const found = findLabelTitleInScope(db, scope, title)
    if (found) out.push(found)
    else if (!title.includes(','))
      out.push(insertLabel(db, { title, color: NEW_LABEL_COLOR, description: null, projectId: project.id }))
  }
  return out
}

function mayChooseIidAndDates(caller: Caller, project: ProjectRow): boolean {
  return caller.perms.canInProject(project, AccessLevel.OWNER)
}

// ---------------------------------------------------------------------------------------------
// Create, update, delete.

/** Parameters of issue creation as received. */
export interface IssueInput {
  readonly title?: unknown
  readonly description?: unknown
  readonly confidential?: unknown
  readonly assignee_ids?: unknown
  readonly assignee_id?: unknown
  readonly milestone_id?: unknown
  readonly labels?: unknown
  readonly created_at?: unknown
  readonly due_date?: unknown
  readonly issue_type?: unknown
  readonly weight?: unknown
  readonly iid?: unknown
  readonly discussion_locked?: unknown
  readonly epic_id?: unknown
  readonly epic_iid?: unknown
}

function assignedTodos(
  db: Db,
  project: ProjectRow,
  issue: IssueRow,
  authorId: number,
  userIds: readonly number[],
): void {
  for (const userId of userIds) {
    if (userId === authorId) continue
    createTodo(db, {
      userId,
      authorId,
      projectId: project.id,
      targetType: 'Issue',
      targetId: issue.id,
      action: 'assigned',
      body: issue.title,
    })
  }
}

/**
 * Creates an issue (iid from the project's counter in the same transaction), its labels and
 * assignees, the `created` event and `assigned` to-dos. Metadata (labels, milestone, assignees,
 * due date, weight) is kept only for callers who may set it (Reporter+), as GitLab does.
 */
export function createIssue(caller: Caller, project: ProjectRow, input: IssueInput): IssueRow {
  const user = caller.user
  if (!user) throw apiMessage(401, '401 Unauthorized')
  if (input.title === undefined || input.title === null) throw missingParam('title')
  const title = titleOf(input.title)
  const db = caller.db
  const admin = canAdminIssues(caller, project)
  const privileged = mayChooseIidAndDates(caller, project)
  const dueDate = dateParam('due_date', input.due_date) ?? null
  const weight = intParam('weight', input.weight) ?? null
  const issueType = issueTypeParam(input.issue_type) ?? 'issue'
  const iidRaw = intParam('iid', input.iid, 1)
  const createdAt = datetimeOf('created_at', input.created_at)
  const labels = labelList(input.labels) ?? []
  const assignees = assigneeList(db, input.assignee_ids, input.assignee_id) ?? []
  const milestoneId = milestoneFor(caller, project, input.milestone_id) ?? null
  const description = descriptionOf(input.description) ?? null
  const epic = issueEpics().param(caller, project, input as Readonly<Record<string, unknown>>)
  return db.transaction(() => {
    if (privileged && iidRaw != null && findIssueByIid(db, project.id, iidRaw))
      throw apiMessage(409, 'Duplicated issue')
    const issue = insertIssueRow(db, {
      projectId: project.id,
      authorId: user.id,
      title,
      description,
      confidential: boolOf('confidential', input.confidential) ?? false,
      issueType,
      milestoneId: admin ? milestoneId : null,
      dueDate: admin ? dueDate : null,
      weight: admin ? weight : null,
      discussionLocked: admin ? (boolOf('discussion_locked', input.discussion_locked) ?? null) : null,
      iid: privileged && iidRaw != null ? iidRaw : undefined,
      createdAt: privileged ? createdAt : undefined,
    })
    if (admin) {
      setIssueLabels(
        db,
        issue.id,
        keepOneLabelPerScope(
          db,
          [],
          resolveLabels(caller, project, labels).map((l) => l.id),
        ),
      )
      setAssignees(db, issue.id, assignees)
      assignedTodos(db, project, issue, user.id, assignees)
      if (epic) issueEpics().set(db, issue, epic, user.id)
    }
    recordCreation(db, issueTarget(issue), user.id, issueSnapshot(db, issue.id))
    recordEvent(db, {
      authorId: user.id,
      action: 'created',
      projectId: project.id,
      targetType: 'Issue',
      targetId: issue.id,
      targetIid: issue.iid,
      targetTitle: issue.title,
    })
    return issue
  })()
}

/** What an update may change (the contract other families call, e.g. quick actions). */
export interface IssueChanges {
  readonly title?: string
  readonly description?: string | null
  readonly state_event?: 'close' | 'reopen'
  readonly labels?: readonly string[]
  readonly add_labels?: readonly string[]
  readonly remove_labels?: readonly string[]
  readonly assignee_ids?: readonly number[]
  readonly milestone_id?: number | null
  readonly due_date?: string | null
  readonly confidential?: boolean
  readonly discussion_locked?: boolean
  readonly weight?: number | null
  readonly issue_type?: IssueType
  /** The epic to put the issue in, or null to take it out of its epic (`epic_id`/`epic_iid`). */
  readonly epic?: EpicRow | null
  /** Administrators and owners may backdate an update (GitLab's `updated_at`). */
  readonly updated_at?: string
  /** What closed or reopened the issue (a merged merge request), for its state event. */
  readonly state_source?: StateSource
}

/** The parameters PUT accepts; at least one must be present. */
export const UPDATE_PARAMS = [
  'title',
  'description',
  'assignee_ids',
  'assignee_id',
  'confidential',
  'discussion_locked',
  'due_date',
  'labels',
  'add_labels',
  'remove_labels',
  'milestone_id',
  'state_event',
  'issue_type',
  'weight',
  'epic_id',
  'epic_iid',
  'updated_at',
] as const

/** Normalizes PUT parameters into IssueChanges (400 on malformed values). */
export function changesFromParams(
  caller: Caller,
  project: ProjectRow,
  p: Readonly<Record<string, unknown>>,
): IssueChanges {
  if (UPDATE_PARAMS.every((k) => p[k] === undefined)) throw noneGiven(UPDATE_PARAMS)
  const db = caller.db
  if (p.state_event !== undefined && p.state_event !== 'close' && p.state_event !== 'reopen')
    throw invalidParam('state_event', 'does not have a valid value')
  const milestoneRaw = p.milestone_id
  return {
    title: p.title !== undefined && p.title !== null ? titleOf(p.title) : undefined,
    description: descriptionOf(p.description),
    state_event: p.state_event as 'close' | 'reopen' | undefined,
    labels: labelList(p.labels),
    add_labels: labelList(p.add_labels),
    remove_labels: labelList(p.remove_labels),
    assignee_ids: assigneeList(db, p.assignee_ids, p.assignee_id),
    milestone_id: milestoneRaw === undefined ? undefined : (milestoneFor(caller, project, milestoneRaw) ?? null),
    due_date: dateParam('due_date', p.due_date),
    confidential: boolOf('confidential', p.confidential),
    discussion_locked: boolOf('discussion_locked', p.discussion_locked),
    weight: intParam('weight', p.weight),
    issue_type: issueTypeParam(p.issue_type),
    epic: issueEpics().param(caller, project, p),
    updated_at: mayChooseIidAndDates(caller, project) ? datetimeOf('updated_at', p.updated_at) : undefined,
  }
}

/** The columns of an issue or epic that an edit of its title, description or state sets. */
export interface EditColumns {
  title?: string
  description?: string | null
  last_edited_at?: string
  last_edited_by_id?: number
  state?: 'opened' | 'closed'
  closed_at?: string | null
  closed_by_id?: number | null
}

/**
 * What an edit of an issue's or epic's title, description or state writes, as GitLab writes it:
 * the item is marked last edited (by whom, when) only when its title or description changes, and
 * closing records who closed it. `transition` names the state event to record, if any.
 */
export function editColumns(
  row: { readonly title: string; readonly description: string | null; readonly state: string },
  changes: { readonly title?: string; readonly description?: string | null; readonly stateEvent?: 'close' | 'reopen' },
  actorId: number,
  now: string,
): { readonly columns: EditColumns; readonly transition: 'closed' | 'reopened' | null } {
  const columns: EditColumns = {}
  if (changes.title !== undefined && changes.title !== row.title) columns.title = changes.title
  if (changes.description !== undefined && changes.description !== row.description)
    columns.description = changes.description
  if (columns.title !== undefined || columns.description !== undefined) {
    columns.last_edited_at = now
    columns.last_edited_by_id = actorId
  }
  if (changes.stateEvent === 'close' && row.state === 'opened')
    return { columns: { ...columns, state: 'closed', closed_at: now, closed_by_id: actorId }, transition: 'closed' }
  if (changes.stateEvent === 'reopen' && row.state === 'closed')
    return { columns: { ...columns, state: 'opened', closed_at: null, closed_by_id: null }, transition: 'reopened' }
  return { columns, transition: null }
}

/**
 * Applies changes to an issue: state transitions record `closed`/`reopened` events, new assignees
 * get `assigned` to-dos, unknown label titles become project labels. Metadata changes by callers
 * below Reporter are ignored, as GitLab ignores them for authors who are Guests.
 */
export function updateIssue(caller: Caller, project: ProjectRow, issue: IssueRow, changes: IssueChanges): IssueRow {
  const user = caller.user
  if (!user) throw apiMessage(401, '401 Unauthorized')
  const db = caller.db
  const admin = canAdminIssues(caller, project)
  return db.transaction(() => {
    resolveTodosForTarget(db, user.id, 'Issue', issue.id)
    const before = issueSnapshot(db, issue.id)
    const now = nowIso()
    const { columns, transition } = editColumns(
      issue,
      { title: changes.title, description: changes.description, stateEvent: changes.state_event },
      user.id,
      now,
    )
    const cols: { -readonly [K in keyof IssueColumnChanges]: IssueColumnChanges[K] } = {
      updated_at: changes.updated_at ?? now,
      ...columns,
    }
    if (changes.confidential !== undefined) cols.confidential = changes.confidential ? 1 : 0
    if (changes.issue_type !== undefined) cols.issue_type = changes.issue_type
    if (admin) {
      if (changes.milestone_id !== undefined) cols.milestone_id = changes.milestone_id
      if (changes.due_date !== undefined) cols.due_date = changes.due_date
      if (changes.weight !== undefined) cols.weight = changes.weight
      if (changes.discussion_locked !== undefined) cols.discussion_locked = changes.discussion_locked ? 1 : 0
      if (changes.labels !== undefined || changes.add_labels !== undefined || changes.remove_labels !== undefined) {
        const current = labelsOf(db, [issue.id]).get(issue.id) ?? []
        let ids =
          changes.labels !== undefined
            ? resolveLabels(caller, project, changes.labels).map((l) => l.id)
            : current.map((l) => l.id)
        if (changes.add_labels) ids = [...ids, ...resolveLabels(caller, project, changes.add_labels).map((l) => l.id)]
        if (changes.remove_labels) {
          const remove = new Set(changes.remove_labels.map((t) => t.toLowerCase()))
          const titles = new Map(
            [...current, ...(labelsOf(db, [issue.id]).get(issue.id) ?? [])].map((l) => [l.id, l.title.toLowerCase()]),
          )
          const scope = projectLabelScope(caller, project)
          for (const t of changes.remove_labels) {
            const l = findLabelTitleInScope(db, scope, t)
            if (l) titles.set(l.id, l.title.toLowerCase())
          }
          ids = ids.filter((id) => !remove.has(titles.get(id) ?? ''))
        }
        setIssueLabels(
          db,
          issue.id,
          keepOneLabelPerScope(
            db,
            current.map((l) => l.id),
            ids,
          ),
        )
      }
      if (changes.assignee_ids !== undefined) {
        const before = assigneeIdsOf(db, [issue.id]).get(issue.id) ?? []
        setAssignees(db, issue.id, changes.assignee_ids)
        assignedTodos(
          db,
          project,
          issue,
          user.id,
          changes.assignee_ids.filter((id) => !before.includes(id)),
        )
      }
    }
    const row = updateIssueRow(db, issue.id, cols)
    if (admin && changes.epic !== undefined) issueEpics().set(db, row, changes.epic, user.id)
    recordUpdate(db, issueTarget(row), user.id, before, issueSnapshot(db, row.id), {
      stateSource: changes.state_source,
    })
    if (transition) {
      recordEvent(db, {
        authorId: user.id,
        action: transition,
        projectId: project.id,
        targetType: 'Issue',
        targetId: row.id,
        targetIid: row.iid,
        targetTitle: row.title,
      })
    }
    return row
  })()
}

interface CopyOptions {
  readonly authorId: number
  readonly createdAt?: string
  readonly withNotes: boolean
  readonly withAwards: boolean
}

/**
 * A copy of an issue in `target` with the next iid there: text, confidentiality, dates, weight
 * and assignees; the target's labels and milestone of the same titles; optionally the notes and
 * award emoji. Runs inside the caller's transaction.
 */
function copyIssue(caller: Caller, issue: IssueRow, target: ProjectRow, o: CopyOptions): IssueRow {
  const db = caller.db
  // The same milestone when the target may use it (its own or its groups'), else one of the same title there.
  const milestone = issue.milestone_id !== null ? findMilestoneById(db, issue.milestone_id) : undefined
  const milestoneId = milestone
    ? (milestoneFor(caller, target, milestone.id) ??
      findProjectMilestoneIdByTitle(db, target.id, milestone.title) ??
      null)
    : null
  const copy = insertIssueRow(db, {
    projectId: target.id,
    authorId: o.authorId,
    title: issue.title,
    description: issue.description,
    confidential: issue.confidential === 1,
    issueType: issue.issue_type,
    milestoneId,
    dueDate: issue.due_date,
    weight: issue.weight,
    discussionLocked: issue.discussion_locked === null ? null : issue.discussion_locked === 1,
    createdAt: o.createdAt,
  })
  const scope = projectLabelScope(caller, target)
  const labelIds = (labelsOf(db, [issue.id]).get(issue.id) ?? [])
    .map((l) => findLabelTitleInScope(db, scope, l.title)?.id)
    .filter((id): id is number => id !== undefined)
  setIssueLabels(db, copy.id, labelIds)
  setAssignees(db, copy.id, assigneeIdsOf(db, [issue.id]).get(issue.id) ?? [])
  if (o.withNotes) {
    copyNotes(db, issueTarget(issue), issueTarget(copy), caller.perms)
    copyIssueResourceEvents(db, issue.id, copy.id)
  }
  if (o.withAwards) copyAwards(db, { type: 'Issue', id: issue.id }, { type: 'Issue', id: copy.id })
  return copy
}

/**
 * Moves an issue to another project (GitLab's move): the copy keeps author, creation time, notes
 * and award emoji; the original is closed with `moved_to_id`. Needs Reporter in both projects.
 */
export function moveIssue(caller: Caller, project: ProjectRow, issue: IssueRow, target: ProjectRow): IssueRow {
  const user = caller.user
  if (!user) throw apiMessage(401, '401 Unauthorized')
  if (target.id === project.id) throw apiMessage(400, 'Cannot move issue to project it originates from!')
  if (issue.moved_to_id !== null) throw apiMessage(400, 'Cannot move issue which already has been moved!')
  if (!canAdminIssues(caller, project) || !canAdminIssues(caller, target))
    throw apiMessage(400, 'Cannot move issue due to insufficient permissions!')
  const db = caller.db
  return db.transaction(() => {
    const moved = copyIssue(caller, issue, target, {
      authorId: issue.author_id,
      createdAt: issue.created_at,
      withNotes: true,
      withAwards: true,
    })
    issueEpics().carry(caller, issue, moved, 'move')
    noteIssueCopied(db, issue, moved, user.id, 'moved')
    const now = nowIso()
    updateIssueRow(db, issue.id, {
      state: 'closed',
      closed_at: issue.closed_at ?? now,
      closed_by_id: issue.closed_by_id ?? user.id,
      moved_to_id: moved.id,
    })
    recordEvent(db, {
      authorId: user.id,
      action: 'created',
      projectId: target.id,
      targetType: 'Issue',
      targetId: moved.id,
      targetIid: moved.iid,
      targetTitle: moved.title,
    })
    if (issue.state === 'opened') {
      recordStateEvent(db, issueTarget(issue), user.id, 'closed')
      recordEvent(db, {
        authorId: user.id,
        action: 'closed',
        projectId: project.id,
        targetType: 'Issue',
        targetId: issue.id,
        targetIid: issue.iid,
        targetTitle: issue.title,
      })
    } else {
      updateIssueRow(db, moved.id, { state: 'closed', closed_at: issue.closed_at, closed_by_id: issue.closed_by_id })
    }
    return findIssueById(db, moved.id) as IssueRow
  })()
}

/**
 * Clones an issue into a project (the same one allowed): an open copy authored by the caller,
 * with the notes when `withNotes`. Needs Reporter in both projects.
 */
export function cloneIssue(
  caller: Caller,
  project: ProjectRow,
  issue: IssueRow,
  target: ProjectRow,
  withNotes: boolean,
): IssueRow {
  const user = caller.user
  if (!user) throw apiMessage(401, '401 Unauthorized')
  if (!canAdminIssues(caller, project) || !canAdminIssues(caller, target))
    throw apiMessage(400, 'Cannot clone issue due to insufficient permissions!')
  const db = caller.db
  return db.transaction(() => {
    const clone = copyIssue(caller, issue, target, { authorId: user.id, withNotes, withAwards: false })
    issueEpics().carry(caller, issue, clone, 'clone')
    noteIssueCopied(db, issue, clone, user.id, 'cloned')
    recordEvent(db, {
      authorId: user.id,
      action: 'created',
      projectId: target.id,
      targetType: 'Issue',
      targetId: clone.id,
      targetIid: clone.iid,
      targetTitle: clone.title,
    })
    return clone
  })()
}

/**
 * Places an issue between two others of its project in manual order (`relative_position`):
 * after `beforeId`'s issue and before `afterId`'s, renumbering the project's positions with
 * room between them when no gap is left.
 */
export function reorderIssue(
  caller: Caller,
  issue: IssueRow,
  moveAfterId: number | undefined,
  moveBeforeId: number | undefined,
): IssueRow {
  const db = caller.db
  return db.transaction(() => {
    const neighbour = (id: number | undefined): IssueRow | undefined => {
      if (id === undefined) return undefined
      const n = findIssueById(db, id)
      if (!n || n.project_id !== issue.project_id) throw notFound('Issue')
      return n
    }
    ensurePositions(db, issue.project_id)
    const positionOf = (id: number | undefined): number | undefined =>
      id === undefined ? undefined : ((findIssueById(db, id) as IssueRow).relative_position ?? undefined)
    neighbour(moveAfterId)
    neighbour(moveBeforeId)
    const place = (): number | null => {
      // move_after_id names the issue that comes after this one, move_before_id the one before.
      const hi = positionOf(moveAfterId)
      const lo = positionOf(moveBeforeId)
      if (lo !== undefined && hi !== undefined) return hi - lo > 1 ? Math.floor((lo + hi) / 2) : null
      if (hi !== undefined) return hi - POSITION_GAP
      if (lo !== undefined) return lo + POSITION_GAP
      return issue.relative_position
    }
    let position = place()
    if (position === null) {
      renumberPositions(db, issue.project_id)
      position = place()
    }
    return updateIssueRow(db, issue.id, { relative_position: position })
  })()
}

/** Deletes an issue (Owner or administrator; the route checks) with its links, notes and awards. */
export function deleteIssue(caller: Caller, issue: IssueRow): void {
  const db = caller.db
  db.transaction(() => deleteIssueRow(db, issue.id))()
}

/** Participants of an issue: author, assignees and authors of notes the caller may see, in that order. */
export function issueParticipantIds(db: Db, issue: IssueRow, includeInternal: boolean): number[] {
  return [
    ...new Set([
      issue.author_id,
      ...(assigneeIdsOf(db, [issue.id]).get(issue.id) ?? []),
      ...noteAuthorIds(db, issue.id, includeInternal),
    ]),
  ]
}

/**
 * A page of a milestone's issues: a project milestone's issues in its project, a group
 * milestone's in the readable projects of the group and its subgroups; the issues feature and
 * the confidential rule applied.
 */
export function milestoneIssues(
  caller: Caller,
  milestone: MilestoneRow,
  page: { readonly limit: number; readonly offset: number },
): { rows: Issue[]; total: number } {
  const { rows, total } = milestoneIssuePage(caller, milestone, page)
  const origin: ReferenceOrigin =
    milestone.project_id !== null
      ? { kind: 'project', projectId: milestone.project_id }
      : { kind: 'group', groupId: milestone.group_id as number }
  return { rows: presentIssues(caller, rows, { origin }), total }
}

/** Every issue of a milestone the caller can see (burndown charts), in manual order. */
export function milestoneIssueRows(caller: Caller, milestone: MilestoneRow): IssueRow[] {
  return milestoneIssuePage(caller, milestone, { limit: -1, offset: 0 }).rows
}

function milestoneIssuePage(
  caller: Caller,
  milestone: MilestoneRow,
  page: { readonly limit: number; readonly offset: number },
): { rows: IssueRow[]; total: number } {
  const db = caller.db
  const viewer = issueViewerOf(caller.user)
  let projectIds: number[]
  let reporterIds: number[]
  if (milestone.project_id !== null) {
    const project = findProjectById(db, milestone.project_id) as ProjectRow
    // As in the lists across projects (readableProjects): an issues feature the caller may not use
    // (private to members, or disabled) leaves the milestone with no issues to show.
    projectIds = canReadIssuesWith(caller.perms, project) ? [project.id] : []
    reporterIds = canAdminIssues(caller, project) ? [project.id] : []
  } else {
    ;({ ids: projectIds, reporterIds } = readableProjects(db, viewer, {
      namespaceIds: groupAndDescendantIds(db, milestone.group_id as number),
      nonArchived: false,
    }))
  }
  return listIssues(
    db,
    {
      projectIds,
      confidentialProjectIds: viewer?.isAdmin ? null : reporterIds,
      viewerId: viewer?.id ?? null,
      milestoneId: milestone.id,
      orderBy: 'relative_position',
      sort: 'asc',
      today: todayIso(),
    },
    page,
  )
}
