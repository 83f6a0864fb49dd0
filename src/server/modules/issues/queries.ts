import { confidentialReadersSql, HAS_ASSIGNEE } from '../../platform/auth/issue-read-queries'
import type { Db } from '../../platform/db/connection'
import { deleteNoteAwardsOf, deleteNoteEventsOf } from '../notes'
import { nowIso } from '../../platform/db/connection'
import { nextIid } from '../../platform/db/internal-ids'
import { allRows, cachedStatement, memoizedGet } from '../../platform/db/statements'
import type { LabelRow } from '../labels'
import type { MilestoneRow } from '../milestones'

export type IssueState = 'opened' | 'closed'
export type IssueType = 'issue' | 'incident' | 'test_case'

/** A row of `issues`. */
export interface IssueRow {
  readonly id: number
  readonly iid: number
  readonly project_id: number
  readonly author_id: number
  readonly title: string
  readonly description: string | null
  readonly state: IssueState
  readonly confidential: number
  readonly discussion_locked: number | null
  readonly issue_type: IssueType
  readonly milestone_id: number | null
  readonly due_date: string | null
  readonly weight: number | null
  readonly health_status: string | null
  readonly time_estimate: number
  readonly closed_at: string | null
  readonly closed_by_id: number | null
  readonly moved_to_id: number | null
  readonly duplicated_to_id: number | null
  readonly relative_position: number | null
  readonly last_edited_at: string | null
  readonly last_edited_by_id: number | null
  readonly created_at: string
  readonly updated_at: string
  /** The epic this issue was promoted to (`/promote`). */
  readonly promoted_to_epic_id: number | null
}

/** An issue of this project by iid. */
export function findIssueByIid(db: Db, projectId: number, iid: number): IssueRow | undefined {
  return db.prepare('SELECT * FROM issues WHERE project_id = ? AND iid = ?').get(projectId, iid) as IssueRow | undefined
}

/** An issue by global id. */
export function findIssueById(db: Db, id: number): IssueRow | undefined {
  return db.prepare('SELECT * FROM issues WHERE id = ?').get(id) as IssueRow | undefined
}

/** Columns of a new issue. */
export interface NewIssueRow {
  readonly projectId: number
  readonly authorId: number
  readonly title: string
  readonly description: string | null
  readonly confidential: boolean
  readonly issueType: IssueType
  readonly milestoneId: number | null
  readonly dueDate: string | null
  readonly weight: number | null
  readonly discussionLocked: boolean | null
  /** An explicit iid (administrators and owners may choose one); otherwise the next one. */
  readonly iid?: number
  readonly createdAt?: string
}

/**
 * Inserts an issue with the next iid of its project. Must run inside the caller's transaction so
 * that the counter and the row commit together: no gap, no duplicate.
 */
export function insertIssueRow(db: Db, n: NewIssueRow): IssueRow {
  // An explicit iid leaves the counter alone: the next allocation starts above MAX(iid) anyway.
  let iid = n.iid
  if (iid === undefined) {
    const floor = (
      db.prepare('SELECT COALESCE(MAX(iid), 0) AS iid FROM issues WHERE project_id = ?').get(n.projectId) as {
        iid: number
      }
    ).iid
    iid = nextIid(db, { projectId: n.projectId }, 'issues', floor)
  }
  const created = n.createdAt ?? nowIso()
  const info = db
    .prepare(
      `INSERT INTO issues (iid, project_id, author_id, title, description, confidential, discussion_locked, issue_type, milestone_id, due_date, weight, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      iid,
      n.projectId,
      n.authorId,
      n.title,
      n.description,
      n.confidential ? 1 : 0,
      n.discussionLocked === null ? null : n.discussionLocked ? 1 : 0,
      n.issueType,
      n.milestoneId,
      n.dueDate,
      n.weight,
      created,
      created,
    )
  return findIssueById(db, Number(info.lastInsertRowid)) as IssueRow
}

/** Columns an update may change. */
export type IssueColumnChanges = Partial<
  Pick<
    IssueRow,
    | 'title'
    | 'description'
    | 'state'
    | 'confidential'
    | 'discussion_locked'
    | 'issue_type'
    | 'milestone_id'
    | 'due_date'
    | 'weight'
    | 'relative_position'
    | 'time_estimate'
    | 'closed_at'
    | 'closed_by_id'
    | 'moved_to_id'
    | 'last_edited_at'
    | 'last_edited_by_id'
    | 'updated_at'
    | 'promoted_to_epic_id'
    | 'health_status'
    | 'duplicated_to_id'
  >
>

/** GitLab's issue health statuses (Ultimate), as the API spells them. */
export const HEALTH_STATUSES = ['on_track', 'needs_attention', 'at_risk'] as const
export type HealthStatus = (typeof HEALTH_STATUSES)[number]

/** Changes the given columns (undefined ones are left alone) and bumps updated_at unless given. */
export function updateIssueRow(db: Db, id: number, changes: IssueColumnChanges): IssueRow {
  const entries = Object.entries({ updated_at: nowIso(), ...changes }).filter(([, v]) => v !== undefined)
  db.prepare(`UPDATE issues SET ${entries.map(([k]) => `${k} = ?`).join(', ')} WHERE id = ?`).run(
    ...entries.map(([, v]) => v),
    id,
  )
  return findIssueById(db, id) as IssueRow
}

/** Room left between neighbouring manual positions. */
export const POSITION_GAP = 1024

// Both renumberings read the order first and then write it: an UPDATE whose subquery reads the
// rows being updated would see its own earlier writes.

/** Gives every unpositioned issue of the project a position after the positioned ones, in creation order. */
export function ensurePositions(db: Db, projectId: number): void {
  const max = (
    db.prepare('SELECT COALESCE(MAX(relative_position), 0) AS m FROM issues WHERE project_id = ?').get(projectId) as {
      m: number
    }
  ).m
  const ids = db
    .prepare('SELECT id FROM issues WHERE project_id = ? AND relative_position IS NULL ORDER BY id')
    .pluck()
    .all(projectId) as number[]
  const set = db.prepare('UPDATE issues SET relative_position = ? WHERE id = ?')
  ids.forEach((id, n) => set.run(max + (n + 1) * POSITION_GAP, id))
}

/** Re-spaces the project's positions POSITION_GAP apart, keeping their order. */
export function renumberPositions(db: Db, projectId: number): void {
  const ids = db
    .prepare(
      'SELECT id FROM issues WHERE project_id = ? AND relative_position IS NOT NULL ORDER BY relative_position, id',
    )
    .pluck()
    .all(projectId) as number[]
  const set = db.prepare('UPDATE issues SET relative_position = ? WHERE id = ?')
  ids.forEach((id, n) => set.run((n + 1) * POSITION_GAP, id))
}

/** Points every issue of the `from` milestones at milestone `to` (milestone promotion). */
export function moveIssuesToMilestone(db: Db, from: readonly number[], to: number): void {
  if (from.length === 0) return
  db.prepare('UPDATE issues SET milestone_id = ? WHERE milestone_id IN (SELECT value FROM json_each(?))').run(
    to,
    JSON.stringify(from),
  )
}

/** Takes the issues of a milestone out of it (the milestone is being deleted), marking them updated. */
export function clearIssuesMilestone(db: Db, milestoneId: number, now: string): number {
  return db
    .prepare('UPDATE issues SET milestone_id = NULL, updated_at = ? WHERE milestone_id = ?')
    .run(now, milestoneId).changes
}

/** Authors of an issue's user notes (internal ones only when asked), in order of first note. */
export function noteAuthorIds(db: Db, issueId: number, includeInternal: boolean): number[] {
  return db
    .prepare(
      `SELECT author_id FROM notes WHERE noteable_type = 'Issue' AND noteable_id = ? AND system = 0 ${includeInternal ? '' : 'AND internal = 0'}
       GROUP BY author_id ORDER BY MIN(id)`,
    )
    .pluck()
    .all(issueId) as number[]
}

/** The id of the project's own milestone with this title. */
export function findProjectMilestoneIdByTitle(db: Db, projectId: number, title: string): number | undefined {
  return db.prepare('SELECT id FROM milestones WHERE title = ? AND project_id = ?').pluck().get(title, projectId) as
    number | undefined
}

/**
 * The tables whose rows point at an issue or epic polymorphically (`<column>_type` and
 * `<column>_id`, no foreign key): label links, notes, reactions, subscriptions and to-dos.
 */
// Activity events go with their target, as GitLab's (`has_many :events, as: :target, dependent: :delete_all`):
// a deleted confidential issue's title must not stay readable in them.
export const POLYMORPHIC_REFERENCES: readonly (readonly [table: string, column: string])[] = [
  ['label_links', 'target'],
  ['notes', 'noteable'],
  ['award_emoji', 'awardable'],
  ['subscriptions', 'subscribable'],
  ['todos', 'target'],
  ['events', 'target'],
]

/** Deletes the polymorphic rows that point at an issue or epic, and the reactions to its notes and their activity events. */
export function deletePolymorphicReferences(db: Db, type: 'Issue' | 'Epic', id: number): void {
  deleteNoteAwardsOf(db, type, id)
  deleteNoteEventsOf(db, type, id)
  for (const [table, column] of POLYMORPHIC_REFERENCES) {
    db.prepare(`DELETE FROM ${table} WHERE ${column}_type = ? AND ${column}_id = ?`).run(type, id)
  }
}

/** Deletes an issue and the polymorphic rows that point at it (its time logs too). */
export function deleteIssueRow(db: Db, id: number): void {
  deletePolymorphicReferences(db, 'Issue', id)
  db.prepare("DELETE FROM timelogs WHERE trackable_type = 'Issue' AND trackable_id = ?").run(id)
  db.prepare('DELETE FROM issues WHERE id = ?').run(id)
}

/** Replaces an issue's assignees. */
export function setAssignees(db: Db, issueId: number, userIds: readonly number[]): void {
  db.prepare('DELETE FROM issue_assignees WHERE issue_id = ?').run(issueId)
  const insert = db.prepare('INSERT OR IGNORE INTO issue_assignees (issue_id, user_id) VALUES (?, ?)')
  for (const u of userIds) insert.run(issueId, u)
}

/** Replaces an issue's labels. */
export function setIssueLabels(db: Db, issueId: number, labelIds: readonly number[]): void {
  db.prepare("DELETE FROM label_links WHERE target_type = 'Issue' AND target_id = ?").run(issueId)
  const insert = db.prepare(
    "INSERT OR IGNORE INTO label_links (label_id, target_type, target_id, created_at) VALUES (?, 'Issue', ?, ?)",
  )
  const now = nowIso()
  for (const l of labelIds) insert.run(l, issueId, now)
}

// ---------------------------------------------------------------------------------------------
// Batch loaders: what a page of issues needs, a fixed number of queries whatever the page size.

function idsJson(ids: readonly number[]): string {
  return JSON.stringify([...new Set(ids)])
}

/** Assignee user ids per issue, in assignment order. */
export function assigneeIdsOf(db: Db, issueIds: readonly number[]): Map<number, number[]> {
  const out = new Map<number, number[]>()
  if (issueIds.length === 0) return out
  const rows = cachedStatement(
    db,
    'SELECT issue_id, user_id FROM issue_assignees WHERE issue_id IN (SELECT value FROM json_each(?)) ORDER BY rowid',
  ).all(idsJson(issueIds)) as { issue_id: number; user_id: number }[]
  for (const r of rows) {
    const list = out.get(r.issue_id)
    if (list) list.push(r.user_id)
    else out.set(r.issue_id, [r.user_id])
  }
  return out
}

/** Labels per issue, ordered by title. */
export function labelsOf(db: Db, issueIds: readonly number[]): Map<number, LabelRow[]> {
  const out = new Map<number, LabelRow[]>()
  if (issueIds.length === 0) return out
  // The pair (issue, label) comes back as two rows of fixed shape: the link, then the label itself.
  const links = cachedStatement(
    db,
    `SELECT ll.target_id AS issue_id, ll.label_id FROM label_links ll JOIN labels l ON l.id = ll.label_id
     WHERE ll.target_type = 'Issue' AND ll.target_id IN (SELECT value FROM json_each(?)) ORDER BY l.title, l.id`,
  ).all(idsJson(issueIds)) as { issue_id: number; label_id: number }[]
  if (links.length === 0) return out
  const labels = new Map(
    allRows<LabelRow>(db, 'SELECT * FROM labels WHERE id IN (SELECT value FROM json_each(?))', [
      idsJson(links.map((l) => l.label_id)),
    ]).map((l) => [l.id, l]),
  )
  for (const link of links) {
    const label = labels.get(link.label_id) as LabelRow
    const list = out.get(link.issue_id)
    if (list) list.push(label)
    else out.set(link.issue_id, [label])
  }
  return out
}

/** Milestones by id. */
export function milestonesById(db: Db, ids: readonly number[]): Map<number, MilestoneRow> {
  if (ids.length === 0) return new Map()
  const rows = cachedStatement(db, 'SELECT * FROM milestones WHERE id IN (SELECT value FROM json_each(?))').all(
    idsJson(ids),
  ) as MilestoneRow[]
  return new Map(rows.map((r) => [r.id, r]))
}

/** Counts shown on every issue: user notes, thumbs up/down, time spent. */
export interface IssueCounts {
  readonly userNotes: number
  readonly upvotes: number
  readonly downvotes: number
  readonly timeSpent: number
}

/** Per-issue counts in three grouped queries. */
export function issueCounts(db: Db, issueIds: readonly number[]): Map<number, IssueCounts> {
  const out = new Map<number, IssueCounts>()
  for (const id of issueIds) out.set(id, { userNotes: 0, upvotes: 0, downvotes: 0, timeSpent: 0 })
  if (issueIds.length === 0) return out
  const json = idsJson(issueIds)
  const patch = (id: number, c: Partial<IssueCounts>): void => {
    out.set(id, { ...(out.get(id) as IssueCounts), ...c })
  }
  const notes = cachedStatement(
    db,
    "SELECT noteable_id AS id, COUNT(*) AS n FROM notes WHERE noteable_type = 'Issue' AND system = 0 AND noteable_id IN (SELECT value FROM json_each(?)) GROUP BY noteable_id",
  ).all(json) as { id: number; n: number }[]
  for (const r of notes) patch(r.id, { userNotes: r.n })
  const awards = cachedStatement(
    db,
    `SELECT awardable_id AS id, SUM(name = 'thumbsup') AS up, SUM(name = 'thumbsdown') AS down FROM award_emoji
     WHERE awardable_type = 'Issue' AND awardable_id IN (SELECT value FROM json_each(?)) GROUP BY awardable_id`,
  ).all(json) as { id: number; up: number; down: number }[]
  for (const r of awards) patch(r.id, { upvotes: r.up, downvotes: r.down })
  const spent = cachedStatement(
    db,
    "SELECT trackable_id AS id, SUM(time_spent) AS s FROM timelogs WHERE trackable_type = 'Issue' AND trackable_id IN (SELECT value FROM json_each(?)) GROUP BY trackable_id",
  ).all(json) as { id: number; s: number }[]
  for (const r of spent) patch(r.id, { timeSpent: r.s })
  return out
}

/** Projects of a page of issues with the paths references and web URLs need. */
export interface IssueProjectPath {
  readonly id: number
  readonly path: string
  readonly namespace_id: number
  readonly namespace_kind: 'user' | 'group'
  readonly full_path: string
}

/** Project paths by project id, one query. */
export function projectPathsOf(db: Db, projectIds: readonly number[]): Map<number, IssueProjectPath> {
  if (projectIds.length === 0) return new Map()
  const rows = cachedStatement(
    db,
    `SELECT p.id, p.path, p.namespace_id, n.kind AS namespace_kind, n.full_path || '/' || p.path AS full_path FROM projects p JOIN namespaces n ON n.id = p.namespace_id
     WHERE p.id IN (SELECT value FROM json_each(?))`,
  ).all(idsJson(projectIds)) as IssueProjectPath[]
  return new Map(rows.map((r) => [r.id, r]))
}

// ---------------------------------------------------------------------------------------------
// Lists.

/** `None` / `Any` / a value, as the list filters take them. */
export type Wildcard<T> =
  { readonly kind: 'none' } | { readonly kind: 'any' } | { readonly kind: 'value'; readonly value: T }

/** Negated filters (`not[...]`). */
export interface IssueNotFilter {
  readonly assigneeIds?: readonly number[]
  readonly authorIds?: readonly number[]
  readonly iids?: readonly number[]
  readonly labels?: readonly string[]
  readonly milestoneTitles?: readonly string[]
  readonly milestoneId?: Wildcard<string>
  readonly weight?: number
  /** not[iteration_*]: no iterations exist, so a negated iteration filter matches everything. */
}

export type IssueOrder =
  | 'created_at'
  | 'updated_at'
  | 'due_date'
  | 'title'
  | 'relative_position'
  | 'weight'
  | 'milestone_due'
  | 'label_priority'
  | 'popularity'
  | 'priority'
  /** An epic's own order of its issues (with `epicId`). */
  | 'epic_position'

/** A normalized issue list filter: the routes parse parameters into this. */
export interface IssueFilter {
  /** Projects to look in: one project (its page is an index range scan) or a readable set. */
  readonly projectIds: readonly number[]
  /** Confidential issues show only to the viewer's own/assigned ones and in these projects (Reporter+); null = everywhere (admin). */
  readonly confidentialProjectIds: readonly number[] | null
  readonly viewerId: number | null
  readonly state?: IssueState
  readonly iids?: readonly number[]
  readonly authorId?: number
  readonly assignee?: Wildcard<number>
  readonly labels?: Wildcard<readonly string[]>
  readonly milestone?: Wildcard<string>
  /** Issues of exactly this milestone (the milestone issue lists). */
  readonly milestoneId?: number
  /** Issues held by this epic (the epic issue list). */
  readonly epicId?: number
  /** Milestone wildcards that only milestone_id takes (and milestone for compatibility). */
  readonly milestoneSpecial?: 'upcoming' | 'started'
  readonly myReactionEmoji?: Wildcard<string>
  readonly weight?: Wildcard<number>
  readonly healthStatus?: Wildcard<HealthStatus>
  readonly iterationMatchesNothing?: boolean
  readonly confidential?: boolean
  readonly issueType?: IssueType
  readonly createdAfter?: string
  readonly createdBefore?: string
  readonly updatedAfter?: string
  readonly updatedBefore?: string
  /** [from, to] inclusive dates, or 'none' for issues without a due date, or 'any'. */
  readonly dueDate?: { readonly from?: string; readonly to?: string } | 'none' | 'any'
  readonly search?: { readonly text: string; readonly inTitle: boolean; readonly inDescription: boolean }
  readonly not?: IssueNotFilter
  readonly orderBy: IssueOrder
  readonly sort: 'asc' | 'desc'
  /** Today (`YYYY-MM-DD`), for milestone wildcards. */
  readonly today: string
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

// Driven from the label side: the labelled ids form one set, probed per issue, instead of a
// correlated lookup per issue (a label carried by 10% of 100k issues costs one index range).
const HAS_LABEL = `i.id IN (SELECT ll.target_id FROM label_links ll JOIN labels l ON l.id = ll.label_id
  WHERE ll.target_type = 'Issue' AND l.title = ? COLLATE NOCASE)`
const ANY_LABEL = "EXISTS (SELECT 1 FROM label_links ll WHERE ll.target_type = 'Issue' AND ll.target_id = i.id)"
const ANY_ASSIGNEE = 'EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id)'
const MILESTONE_TITLE = 'i.milestone_id IN (SELECT id FROM milestones WHERE title = ?)'
// GitLab's Milestone.upcoming_ids: per project and per group, the active milestone due soonest
// after today (ties by id), not every future one. Takes today twice.
const UPCOMING_MILESTONES = `i.milestone_id IN (SELECT m.id FROM milestones m WHERE m.state = 'active' AND m.due_date > ? AND NOT EXISTS (
  SELECT 1 FROM milestones o WHERE o.state = 'active' AND o.due_date > ? AND o.project_id IS m.project_id AND o.group_id IS m.group_id
    AND (o.due_date < m.due_date OR (o.due_date = m.due_date AND o.id < m.id))))`

/**
 * Whether the confidentiality rule narrows this list: not for administrators, nor when the viewer
 * is a Reporter of every listed project (then it would only cost a test per row).
 */
function confidentialityApplies(f: IssueFilter): boolean {
  if (f.confidentialProjectIds === null) return false
  const seeing = new Set(f.confidentialProjectIds)
  return !f.projectIds.every((id) => seeing.has(id))
}

/** How a WHERE clause treats confidential issues: those the viewer may see, those hidden from them, or no rule. */
type Confidentiality = 'visible' | 'hidden' | 'none'

/**
 * The WHERE clause of a filter, with its arguments. `withProjects: false` leaves out the project
 * condition for queries that drive from the project list themselves (multi-project counts).
 */
function whereOf(
  f: IssueFilter,
  confidentiality: Confidentiality = confidentialityApplies(f) ? 'visible' : 'none',
  withProjects = true,
): { sql: string; args: unknown[] } {
  const where: string[] = []
  const args: unknown[] = []
  const add = (sql: string, ...a: unknown[]): void => {
    where.push(sql)
    args.push(...a)
  }
  if (withProjects) {
    if (f.projectIds.length === 1) add('i.project_id = ?', f.projectIds[0])
    else add('i.project_id IN (SELECT value FROM json_each(?))', JSON.stringify(f.projectIds))
  }
  if (confidentiality !== 'none') {
    const readers = confidentialReadersSql(f.viewerId, f.confidentialProjectIds ?? [])
    if (confidentiality === 'visible') add(`(i.confidential = 0 OR ${readers.sql})`, ...readers.args)
    else add(`i.confidential = 1 AND NOT ${readers.sql}`, ...readers.args)
  }
  if (f.state) add('i.state = ?', f.state)
  if (f.iids) add('i.iid IN (SELECT value FROM json_each(?))', JSON.stringify(f.iids))
  if (f.authorId !== undefined) add('i.author_id = ?', f.authorId)
  if (f.assignee) {
    if (f.assignee.kind === 'none') add(`NOT ${ANY_ASSIGNEE}`)
    else if (f.assignee.kind === 'any') add(ANY_ASSIGNEE)
    else add(HAS_ASSIGNEE, f.assignee.value)
  }
  if (f.labels) {
    if (f.labels.kind === 'none') add(`NOT ${ANY_LABEL}`)
    else if (f.labels.kind === 'any') add(ANY_LABEL)
    else for (const title of f.labels.value) add(HAS_LABEL, title)
  }
  if (f.milestone) {
    if (f.milestone.kind === 'none') add('i.milestone_id IS NULL')
    else if (f.milestone.kind === 'any') add('i.milestone_id IS NOT NULL')
    else add(MILESTONE_TITLE, f.milestone.value)
  }
  if (f.milestoneId !== undefined) add('i.milestone_id = ?', f.milestoneId)
  if (f.epicId !== undefined) add('i.id IN (SELECT issue_id FROM epic_issues WHERE epic_id = ?)', f.epicId)
  if (f.milestoneSpecial === 'upcoming') {
    add(UPCOMING_MILESTONES, f.today, f.today)
  } else if (f.milestoneSpecial === 'started') {
    add("i.milestone_id IN (SELECT id FROM milestones WHERE state = 'active' AND start_date <= ?)", f.today)
  }
  // Anonymous callers have no reactions to filter by: GitLab ignores the filter for them.
  if (f.myReactionEmoji && f.viewerId !== null) {
    const mine =
      "EXISTS (SELECT 1 FROM award_emoji e WHERE e.awardable_type = 'Issue' AND e.awardable_id = i.id AND e.user_id = ?"
    if (f.myReactionEmoji.kind === 'none') add(`NOT ${mine})`, f.viewerId ?? -1)
    else if (f.myReactionEmoji.kind === 'any') add(`${mine})`, f.viewerId ?? -1)
    else add(`${mine} AND e.name = ?)`, f.viewerId ?? -1, f.myReactionEmoji.value)
  }
  if (f.weight) {
    if (f.weight.kind === 'none') add('i.weight IS NULL')
    else if (f.weight.kind === 'any') add('i.weight IS NOT NULL')
    else add('i.weight = ?', f.weight.value)
  }
  if (f.healthStatus) {
    if (f.healthStatus.kind === 'none') add('i.health_status IS NULL')
    else if (f.healthStatus.kind === 'any') add('i.health_status IS NOT NULL')
    else add('i.health_status = ?', f.healthStatus.value)
  }
  if (f.iterationMatchesNothing) add('0')
  if (f.confidential !== undefined) add('i.confidential = ?', f.confidential ? 1 : 0)
  if (f.issueType) add('i.issue_type = ?', f.issueType)
  if (f.createdAfter) add('i.created_at >= ?', f.createdAfter)
  if (f.createdBefore) add('i.created_at <= ?', f.createdBefore)
  if (f.updatedAfter) add('i.updated_at >= ?', f.updatedAfter)
  if (f.updatedBefore) add('i.updated_at <= ?', f.updatedBefore)
  if (f.dueDate === 'none') add('i.due_date IS NULL')
  else if (f.dueDate === 'any') add('i.due_date IS NOT NULL')
  else if (f.dueDate) {
    add('i.due_date IS NOT NULL')
    if (f.dueDate.from) add('i.due_date >= ?', f.dueDate.from)
    if (f.dueDate.to) add('i.due_date <= ?', f.dueDate.to)
  }
  if (f.search) {
    const pattern = `%${escapeLike(f.search.text)}%`
    const parts: string[] = []
    if (f.search.inTitle) parts.push("i.title LIKE ? ESCAPE '\\'")
    if (f.search.inDescription) parts.push("i.description LIKE ? ESCAPE '\\'")
    add(`(${parts.join(' OR ')})`, ...parts.map(() => pattern))
  }
  const n = f.not
  if (n) {
    for (const id of n.assigneeIds ?? []) add(`NOT ${HAS_ASSIGNEE}`, id)
    if (n.authorIds?.length) add('i.author_id NOT IN (SELECT value FROM json_each(?))', JSON.stringify(n.authorIds))
    if (n.iids?.length) add('i.iid NOT IN (SELECT value FROM json_each(?))', JSON.stringify(n.iids))
    for (const title of n.labels ?? []) add(`NOT ${HAS_LABEL}`, title)
    for (const title of n.milestoneTitles ?? []) add(`(i.milestone_id IS NULL OR NOT ${MILESTONE_TITLE})`, title)
    if (n.milestoneId?.kind === 'none') add('i.milestone_id IS NOT NULL')
    else if (n.milestoneId?.kind === 'any') add('i.milestone_id IS NULL')
    else if (n.milestoneId?.kind === 'value') {
      // GitLab's negations keep issues of an active milestone only: one already due (not
      // upcoming) or one not started yet.
      const v = n.milestoneId.value.toLowerCase()
      if (v === 'upcoming')
        add("i.milestone_id IN (SELECT id FROM milestones WHERE state = 'active' AND due_date <= ?)", f.today)
      else if (v === 'started')
        add("i.milestone_id IN (SELECT id FROM milestones WHERE state = 'active' AND start_date > ?)", f.today)
    }
    if (n.weight !== undefined) add('(i.weight IS NULL OR i.weight <> ?)', n.weight)
  }
  return { sql: where.join(' AND '), args }
}

/** ORDER BY terms: nullable keys sort their nulls last whatever the direction, ties by id. */
function orderOf(f: IssueFilter): string {
  const dir = f.sort === 'asc' ? 'ASC' : 'DESC'
  const milestoneDue = '(SELECT m.due_date FROM milestones m WHERE m.id = i.milestone_id)'
  const labelPriority = `(SELECT MIN(l.priority) FROM label_links ll JOIN labels l ON l.id = ll.label_id WHERE ll.target_type = 'Issue' AND ll.target_id = i.id)`
  const nullsLast = (expr: string): string => `${expr} IS NULL, ${expr} ${dir}`
  switch (f.orderBy) {
    case 'updated_at':
      return `i.updated_at ${dir}, i.id ${dir}`
    case 'due_date':
      return `${nullsLast('i.due_date')}, i.id ${dir}`
    case 'title':
      return `i.title COLLATE NOCASE ${dir}, i.id ${dir}`
    case 'relative_position':
      return `${nullsLast('i.relative_position')}, i.id ${dir}`
    case 'weight':
      return `${nullsLast('i.weight')}, i.id ${dir}`
    case 'milestone_due':
      return `${nullsLast(milestoneDue)}, i.id ${dir}`
    case 'label_priority':
      return `${nullsLast(labelPriority)}, i.id ${dir}`
    case 'popularity':
      return `(SELECT COUNT(*) FROM award_emoji e WHERE e.awardable_type = 'Issue' AND e.awardable_id = i.id AND e.name = 'thumbsup') ${dir}, i.id ${dir}`
    // GitLab's priority: soonest milestone due date first, then the best label priority.
    case 'priority':
      return `${milestoneDue} IS NULL, ${milestoneDue} ${dir}, ${labelPriority} IS NULL, ${labelPriority} ${dir}, i.id ${dir}`
    case 'epic_position': {
      const position = '(SELECT ei.relative_position FROM epic_issues ei WHERE ei.issue_id = i.id)'
      return `${position} IS NULL, ${position} ASC, (SELECT ei.id FROM epic_issues ei WHERE ei.issue_id = i.id) ASC`
    }
    default:
      return `i.created_at ${dir}, i.id ${dir}`
  }
}

/**
 * `SELECT <columns> FROM` the filter's issues with the given confidentiality rule. Over several
 * projects the query is driven from the project list (an index range per project) rather than
 * testing each issue of the instance against the list. Totals are memoised until the next write
 * (`memoizedGet`): each page of a list and each poll asks for the same one.
 */
function aggregate(db: Db, f: IssueFilter, columns: string, confidentiality: Confidentiality): Record<string, number> {
  if (f.projectIds.length === 1) {
    const { sql, args } = whereOf(f, confidentiality)
    return memoizedGet(db, `SELECT ${columns} FROM issues i WHERE ${sql}`, args)
  }
  const { sql, args } = whereOf(f, confidentiality, false)
  return memoizedGet(
    db,
    `SELECT ${columns} FROM json_each(?) p CROSS JOIN issues i ON i.project_id = p.value${sql ? ` WHERE ${sql}` : ''}`,
    [JSON.stringify(f.projectIds), ...args],
  )
}

/**
 * Sums over the filter's issues the viewer may see. With the confidentiality rule, the hidden
 * confidential issues are counted on their own and subtracted: the whole count then stays an
 * index-only range count, and only the few confidential rows are ever tested.
 */
function visibleAggregate(db: Db, f: IssueFilter, columns: string): Record<string, number> {
  const all = aggregate(db, f, columns, 'none')
  if (!confidentialityApplies(f)) return all
  const hidden = aggregate(db, f, columns, 'hidden')
  return Object.fromEntries(Object.entries(all).map(([k, v]) => [k, v - (hidden[k] ?? 0)]))
}

/** One page of issues matching the filter, and how many match in all. */
export function listIssues(
  db: Db,
  f: IssueFilter,
  page: { readonly limit: number; readonly offset: number },
): { rows: IssueRow[]; total: number } {
  const total = visibleAggregate(db, f, 'COUNT(*) AS n').n
  const { sql, args } = whereOf(f)
  const rows = allRows<IssueRow>(db, `SELECT i.* FROM issues i WHERE ${sql} ORDER BY ${orderOf(f)} LIMIT ? OFFSET ?`, [
    ...args,
    page.limit,
    page.offset,
  ])
  return { rows, total }
}

/** Counts of matching issues by state (the issues_statistics endpoints), ignoring the filter's own state. */
export function issueStateCounts(db: Db, f: IssueFilter): { all: number; opened: number; closed: number } {
  const row = visibleAggregate(
    db,
    { ...f, state: undefined },
    "COUNT(*) AS all_count, COALESCE(SUM(i.state = 'opened'), 0) AS opened, COALESCE(SUM(i.state = 'closed'), 0) AS closed",
  )
  return { all: row.all_count, opened: row.opened, closed: row.closed }
}
