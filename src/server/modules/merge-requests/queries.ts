import { AccessLevel } from '../../platform/auth/access'
import { AUTHORIZED_GROUPS_CTE, AUTHORIZED_PROJECTS_CTE } from '../../platform/auth/permissions'
import type { IssueViewer } from '../../platform/auth/issue-read-queries'
import type { Db } from '../../platform/db/connection'
import { deleteNoteAwardsOf } from '../notes'
import { nowIso, nowIsoAfter } from '../../platform/db/connection'
import { nextIid } from '../../platform/db/internal-ids'
import { cachedStatement } from '../../platform/db/statements'
import { findProjectById } from '../../platform/db/platform-queries'
import type { ProjectRow, UserRow } from '../../platform/db/rows'
import { syncDiffVersion } from './versions-queries'

export type MergeRequestState = 'opened' | 'closed' | 'locked' | 'merged'
export type MergeStatus = 'unchecked' | 'checking' | 'can_be_merged' | 'cannot_be_merged' | 'cannot_be_merged_recheck'

/** A row of `merge_requests` (booleans are SQLite integers). */
export interface MergeRequestRow {
  readonly id: number
  readonly iid: number
  readonly project_id: number
  readonly source_project_id: number | null
  readonly source_branch: string
  readonly target_branch: string
  readonly title: string
  readonly description: string | null
  readonly state: MergeRequestState
  readonly author_id: number
  readonly merged_by_id: number | null
  readonly merged_at: string | null
  readonly closed_by_id: number | null
  readonly closed_at: string | null
  readonly merge_commit_sha: string | null
  readonly squash_commit_sha: string | null
  readonly squash: number
  readonly merge_when_pipeline_succeeds: number
  readonly should_remove_source_branch: number | null
  readonly force_remove_source_branch: number
  readonly allow_collaboration: number
  readonly milestone_id: number | null
  readonly time_estimate: number
  readonly merge_status: MergeStatus
  readonly merge_error: string | null
  readonly rebase_in_progress: number
  readonly head_sha: string | null
  readonly base_sha: string | null
  readonly start_sha: string | null
  readonly discussion_locked: number | null
  readonly approvals_before_merge: number | null
  readonly first_deployed_to_production_at: string | null
  readonly created_at: string
  readonly updated_at: string
}

/** Columns a write may change (everything but identity and timestamps of creation). */
export type MergeRequestChanges = Partial<Omit<MergeRequestRow, 'id' | 'iid' | 'project_id' | 'created_at'>>

export interface NewMergeRequest {
  readonly projectId: number
  readonly sourceProjectId: number
  readonly sourceBranch: string
  readonly targetBranch: string
  readonly title: string
  readonly description: string | null
  readonly authorId: number
  readonly milestoneId: number | null
  readonly shouldRemoveSourceBranch: boolean | null
  readonly allowCollaboration: boolean
  readonly squash: boolean
  readonly approvalsBeforeMerge: number | null
  readonly headSha: string | null
  readonly baseSha: string | null
}

/** Inserts a merge request with the project's next iid; call inside a transaction with the links. */
export function insertMergeRequest(db: Db, m: NewMergeRequest): MergeRequestRow {
  const now = nowIso()
  const iid = nextIid(db, { projectId: m.projectId }, 'merge_requests')
  const info = db
    .prepare(
      `INSERT INTO merge_requests (iid, project_id, source_project_id, source_branch, target_branch, title, description, author_id,
         milestone_id, should_remove_source_branch, allow_collaboration, squash, approvals_before_merge, head_sha, base_sha, start_sha,
         merge_status, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'unchecked', ?, ?)`,
    )
    .run(
      iid,
      m.projectId,
      m.sourceProjectId,
      m.sourceBranch,
      m.targetBranch,
      m.title,
      m.description,
      m.authorId,
      m.milestoneId,
      m.shouldRemoveSourceBranch === null ? null : Number(m.shouldRemoveSourceBranch),
      Number(m.allowCollaboration),
      Number(m.squash),
      m.approvalsBeforeMerge,
      m.headSha,
      m.baseSha,
      m.baseSha,
      now,
      now,
    )
  const row = findMergeRequestById(db, Number(info.lastInsertRowid)) as MergeRequestRow
  syncDiffVersion(db, row.id, row)
  return row
}

/** The merge request with this global id. */
export function findMergeRequestById(db: Db, id: number): MergeRequestRow | undefined {
  return db.prepare('SELECT * FROM merge_requests WHERE id = ?').get(id) as MergeRequestRow | undefined
}

/** The merge request `!iid` of a (target) project. */
export function findMergeRequestByIid(db: Db, projectId: number, iid: number): MergeRequestRow | undefined {
  return db.prepare('SELECT * FROM merge_requests WHERE project_id = ? AND iid = ?').get(projectId, iid) as
    MergeRequestRow | undefined
}

/** The project the merge request comes from; none once that project (a fork) was deleted. */
export function sourceProjectOf(db: Db, mr: MergeRequestRow): ProjectRow | undefined {
  return mr.source_project_id === null ? undefined : findProjectById(db, mr.source_project_id)
}

/**
 * An open merge request from the same source branch into the same target project and branch
 * (GitLab's uniqueness rule); one whose source project was deleted (null) has none.
 */
export function findOpenDuplicate(
  db: Db,
  m: { projectId: number; sourceProjectId: number | null; sourceBranch: string; targetBranch: string },
  exceptId = 0,
): MergeRequestRow | undefined {
  return db
    .prepare(
      `SELECT * FROM merge_requests WHERE project_id = ? AND source_project_id = ? AND source_branch = ? AND target_branch = ?
       AND state IN ('opened', 'locked') AND id != ? LIMIT 1`,
    )
    .get(m.projectId, m.sourceProjectId, m.sourceBranch, m.targetBranch, exceptId) as MergeRequestRow | undefined
}

/** The open merge request of `project` from its own branch `branch` (whatever its target), if any. */
export function openMergeRequestFromBranch(db: Db, projectId: number, branch: string): MergeRequestRow | undefined {
  return db
    .prepare(
      `SELECT * FROM merge_requests WHERE project_id = ? AND source_project_id = ? AND source_branch = ?
       AND state IN ('opened', 'locked') ORDER BY id DESC LIMIT 1`,
    )
    .get(projectId, projectId, branch) as MergeRequestRow | undefined
}

/**
 * Applies `changes`; `touch` (default true) moves updated_at on, always to a later value (two writes
 * in one millisecond included), false for background bookkeeping (mergeability).
 */
export function updateMergeRequestRow(db: Db, id: number, changes: MergeRequestChanges, touch = true): MergeRequestRow {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined)
  if (touch) {
    const stored = cachedStatement(db, 'SELECT updated_at FROM merge_requests WHERE id = ?').get(id) as
      { updated_at: string } | undefined
    entries.push(['updated_at', stored ? nowIsoAfter(stored.updated_at) : nowIso()])
  }
  if (entries.length > 0) {
    db.prepare(`UPDATE merge_requests SET ${entries.map(([k]) => `${k} = ?`).join(', ')} WHERE id = ?`).run(
      ...entries.map(([, v]) => v),
      id,
    )
  }
  const row = findMergeRequestById(db, id) as MergeRequestRow
  // A new head, base or start is a new diff version (GitLab's merge_request_diffs).
  if ('head_sha' in changes || 'base_sha' in changes || 'start_sha' in changes) syncDiffVersion(db, id, row)
  return row
}

/** Deletes a merge request and the polymorphic rows that point at it (labels, votes, notes, to-dos…). */
export function deleteMergeRequestRow(db: Db, id: number): void {
  db.transaction(() => {
    deleteNoteAwardsOf(db, 'MergeRequest', id)
    for (const [table, column] of [
      ['label_links', 'target'],
      ['award_emoji', 'awardable'],
      ['subscriptions', 'subscribable'],
      ['timelogs', 'trackable'],
      ['todos', 'target'],
      ['notes', 'noteable'],
    ]) {
      db.prepare(`DELETE FROM ${table} WHERE ${column}_type = 'MergeRequest' AND ${column}_id = ?`).run(id)
    }
    db.prepare('DELETE FROM merge_requests WHERE id = ?').run(id)
  })()
}

/** Open merge requests of a project whose source (in that project) or target branch is one of `branches`. */
export function openMergeRequestsTouching(db: Db, projectId: number, branches: readonly string[]): MergeRequestRow[] {
  const list = JSON.stringify(branches)
  return db
    .prepare(
      `SELECT * FROM merge_requests WHERE state IN ('opened', 'locked') AND (
         (source_project_id = ? AND source_branch IN (SELECT value FROM json_each(?)))
         OR (project_id = ? AND target_branch IN (SELECT value FROM json_each(?))))`,
    )
    .all(projectId, list, projectId, list) as MergeRequestRow[]
}

/** Open merge requests from `projectId` into any of `others`, or from any of them into it (a fork network's crossings). */
export function openMergeRequestsBetween(db: Db, projectId: number, others: readonly number[]): MergeRequestRow[] {
  const list = JSON.stringify(others)
  return db
    .prepare(
      `SELECT * FROM merge_requests WHERE state IN ('opened', 'locked') AND (
         (source_project_id = ? AND project_id IN (SELECT value FROM json_each(?)))
         OR (project_id = ? AND source_project_id IN (SELECT value FROM json_each(?))))
       ORDER BY id`,
    )
    .all(projectId, list, projectId, list) as MergeRequestRow[]
}

/** Re-points merge requests of the `from` milestones at `to` (milestone promotion merges twins). */
export function moveMergeRequestsToMilestone(db: Db, from: readonly number[], to: number): void {
  db.prepare('UPDATE merge_requests SET milestone_id = ? WHERE milestone_id IN (SELECT value FROM json_each(?))').run(
    to,
    JSON.stringify(from),
  )
}

/** Takes the merge requests of a milestone out of it (the milestone is being deleted), marking them updated. */
export function clearMergeRequestsMilestone(db: Db, milestoneId: number, now: string): number {
  return db
    .prepare('UPDATE merge_requests SET milestone_id = NULL, updated_at = ? WHERE milestone_id = ?')
    .run(now, milestoneId).changes
}

// ---- assignees, reviewers, labels, approvals -------------------------------------------------

type UserLink = 'merge_request_assignees' | 'merge_request_reviewers'

/**
 * Replaces the assignees or reviewers; returns the user ids that were added. Those who stay keep
 * their row (a reviewer's review state and when they were asked).
 */
export function setUserLinks(db: Db, table: UserLink, mrId: number, userIds: readonly number[]): number[] {
  const before = new Set(
    (db.prepare(`SELECT user_id FROM ${table} WHERE merge_request_id = ?`).all(mrId) as { user_id: number }[]).map(
      (r) => r.user_id,
    ),
  )
  db.prepare(`DELETE FROM ${table} WHERE merge_request_id = ? AND user_id NOT IN (SELECT value FROM json_each(?))`).run(
    mrId,
    JSON.stringify(userIds),
  )
  const insert =
    table === 'merge_request_reviewers'
      ? db.prepare(
          `INSERT OR IGNORE INTO merge_request_reviewers (merge_request_id, user_id, created_at) VALUES (?, ?, '${nowIso()}')`,
        )
      : db.prepare('INSERT OR IGNORE INTO merge_request_assignees (merge_request_id, user_id) VALUES (?, ?)')
  for (const id of userIds) insert.run(mrId, id)
  return userIds.filter((id) => !before.has(id))
}

/** GitLab's review states of a reviewer (merge_request_reviewers.state). */
export type ReviewState = 'unreviewed' | 'review_started' | 'reviewed' | 'requested_changes' | 'approved' | 'unapproved'

/** A reviewer of a merge request: the user, their review state and when they were asked. */
export interface ReviewerRow {
  readonly user: UserRow
  readonly state: ReviewState
  readonly requestedAt: string
}

/** The reviewers of a merge request, in the order the merge request shows them (by user id). */
export function reviewersOf(db: Db, mrId: number): ReviewerRow[] {
  const rows = db
    .prepare(
      `SELECT r.state AS review_state, r.created_at AS requested_at, u.* FROM merge_request_reviewers r
       JOIN users u ON u.id = r.user_id WHERE r.merge_request_id = ? ORDER BY u.id`,
    )
    .all(mrId) as (UserRow & { review_state: ReviewState; requested_at: string })[]
  return rows.map(({ review_state, requested_at, ...user }) => ({
    user: user as UserRow,
    state: review_state,
    requestedAt: requested_at,
  }))
}

/** Sets a reviewer's review state; nothing when the user is not a reviewer of the merge request. */
export function setReviewState(db: Db, mrId: number, userId: number, state: ReviewState): void {
  db.prepare('UPDATE merge_request_reviewers SET state = ? WHERE merge_request_id = ? AND user_id = ?').run(
    state,
    mrId,
    userId,
  )
}

/** Users linked to each merge request (assignees or reviewers), in one query for a page. */
export function userLinksOf(db: Db, table: UserLink, mrIds: readonly number[]): Map<number, UserRow[]> {
  const map = new Map<number, UserRow[]>()
  if (mrIds.length === 0) return map
  const rows = db
    .prepare(
      `SELECT l.merge_request_id AS mr_id, u.* FROM ${table} l JOIN users u ON u.id = l.user_id WHERE l.merge_request_id IN (SELECT value FROM json_each(?)) ORDER BY u.id`,
    )
    .all(JSON.stringify(mrIds)) as (UserRow & { mr_id: number })[]
  for (const r of rows) {
    const list = map.get(r.mr_id) ?? []
    list.push(r)
    map.set(r.mr_id, list)
  }
  return map
}

/** Replaces the label links of a merge request with these label ids. */
export function setMergeRequestLabels(db: Db, mrId: number, labelIds: readonly number[]): void {
  db.prepare("DELETE FROM label_links WHERE target_type = 'MergeRequest' AND target_id = ?").run(mrId)
  const insert = db.prepare(
    "INSERT OR IGNORE INTO label_links (label_id, target_type, target_id, created_at) VALUES (?, 'MergeRequest', ?, ?)",
  )
  const now = nowIso()
  for (const id of labelIds) insert.run(id, mrId, now)
}

export interface MrLabelRow {
  readonly mr_id: number
  readonly id: number
  readonly title: string
  readonly color: string
  readonly description: string | null
}

/** Labels of each merge request, ordered by title (GitLab's order), in one query. */
export function labelsOf(db: Db, mrIds: readonly number[]): Map<number, MrLabelRow[]> {
  const map = new Map<number, MrLabelRow[]>()
  if (mrIds.length === 0) return map
  const rows = db
    .prepare(
      `SELECT ll.target_id AS mr_id, l.id, l.title, l.color, l.description FROM label_links ll JOIN labels l ON l.id = ll.label_id
       WHERE ll.target_type = 'MergeRequest' AND ll.target_id IN (SELECT value FROM json_each(?)) ORDER BY l.title COLLATE NOCASE, l.id`,
    )
    .all(JSON.stringify(mrIds)) as MrLabelRow[]
  for (const r of rows) {
    const list = map.get(r.mr_id) ?? []
    list.push(r)
    map.set(r.mr_id, list)
  }
  return map
}

export interface MrCounts {
  readonly upvotes: number
  readonly downvotes: number
  readonly user_notes_count: number
  readonly total_time_spent: number
}

/** Award emoji votes, user note counts and time spent of each merge request, three grouped queries. */
export function countsOf(db: Db, mrIds: readonly number[]): Map<number, MrCounts> {
  const map = new Map<
    number,
    { upvotes: number; downvotes: number; user_notes_count: number; total_time_spent: number }
  >()
  for (const id of mrIds) map.set(id, { upvotes: 0, downvotes: 0, user_notes_count: 0, total_time_spent: 0 })
  if (mrIds.length === 0) return map
  const ids = JSON.stringify(mrIds)
  const votes = db
    .prepare(
      `SELECT awardable_id AS id, SUM(name = 'thumbsup') AS up, SUM(name = 'thumbsdown') AS down FROM award_emoji
       WHERE awardable_type = 'MergeRequest' AND awardable_id IN (SELECT value FROM json_each(?)) GROUP BY awardable_id`,
    )
    .all(ids) as { id: number; up: number; down: number }[]
  for (const v of votes) Object.assign(map.get(v.id) ?? {}, { upvotes: v.up, downvotes: v.down })
  const notes = db
    .prepare(
      `SELECT noteable_id AS id, COUNT(*) AS n FROM notes WHERE noteable_type = 'MergeRequest' AND system = 0
       AND noteable_id IN (SELECT value FROM json_each(?)) GROUP BY noteable_id`,
    )
    .all(ids) as { id: number; n: number }[]
  for (const n of notes) Object.assign(map.get(n.id) ?? {}, { user_notes_count: n.n })
  const spent = db
    .prepare(
      `SELECT trackable_id AS id, SUM(time_spent) AS s FROM timelogs WHERE trackable_type = 'MergeRequest'
       AND trackable_id IN (SELECT value FROM json_each(?)) GROUP BY trackable_id`,
    )
    .all(ids) as { id: number; s: number }[]
  for (const s of spent) Object.assign(map.get(s.id) ?? {}, { total_time_spent: s.s })
  return map
}

/** Users who approved a merge request, in approval order. */
export function approvalsOf(db: Db, mrId: number): (UserRow & { approved_at: string })[] {
  return db
    .prepare(
      'SELECT u.*, a.created_at AS approved_at FROM approvals a JOIN users u ON u.id = a.user_id WHERE a.merge_request_id = ? ORDER BY a.created_at, u.id',
    )
    .all(mrId) as (UserRow & { approved_at: string })[]
}

/** Records an approval; false when this user had already approved. */
export function insertApproval(db: Db, mrId: number, userId: number): boolean {
  return (
    db
      .prepare('INSERT OR IGNORE INTO approvals (merge_request_id, user_id, created_at) VALUES (?, ?, ?)')
      .run(mrId, userId, nowIso()).changes > 0
  )
}

/** Removes an approval; false when there was none. */
export function deleteApproval(db: Db, mrId: number, userId: number): boolean {
  return db.prepare('DELETE FROM approvals WHERE merge_request_id = ? AND user_id = ?').run(mrId, userId).changes > 0
}

// ---- lists ---------------------------------------------------------------------------------

/** A user filter value: a user id, nobody (`None`) or anybody (`Any`). */
export type UserFilter = number | 'None' | 'Any'

/** Filters that may also be negated through `not[...]`. */
export interface NegatableFilter {
  readonly labels?: readonly string[]
  readonly milestone?: string
  readonly authorIds?: readonly number[]
  readonly assignee?: UserFilter
  readonly reviewer?: UserFilter
  readonly myReactionEmoji?: string
}

export interface MergeRequestFilter extends NegatableFilter {
  /** The caller (null when anonymous): decides visibility and `my_reaction_emoji`. */
  readonly viewer: IssueViewer | null
  /** Restrict to these target projects (a project or group list); absent for `/merge_requests`. */
  readonly projectIds?: readonly number[]
  readonly state?: MergeRequestState
  readonly iids?: readonly number[]
  /** Merge requests of this milestone (the milestone's merge_requests endpoint). */
  readonly milestoneId?: number
  readonly sourceBranch?: string
  readonly targetBranch?: string
  readonly createdAfter?: string
  readonly createdBefore?: string
  readonly updatedAfter?: string
  readonly updatedBefore?: string
  readonly search?: string
  readonly searchIn?: readonly ('title' | 'description')[]
  readonly wip?: boolean
  readonly approvedBy?: readonly number[] | 'None' | 'Any'
  readonly approvers?: 'None' | 'Any' | readonly number[]
  /** Leaves out merge requests of archived projects (`non_archived`, default true on cross-project lists). */
  readonly nonArchived?: boolean
  /**
   * Merge requests shipped by a deployment (to the environment of this name, finished before /
   * after these times), through the links `services/deployment-merge-requests.ts` makes.
   */
  readonly deployment?: {
    readonly environment?: string
    readonly before?: string
    readonly after?: string
    readonly deploymentId?: number
  }
  readonly not?: NegatableFilter
  readonly orderBy: 'created_at' | 'updated_at' | 'title' | 'merged_at'
  readonly sort: 'asc' | 'desc'
}

// Title prefixes that make a merge request a draft (GitLab's DRAFT_REGEX), as SQL LIKE patterns
// on the lowercased, left-trimmed title.
const DRAFT_LIKE = ['[draft]%', '(draft)%', 'draft:%', 'draft -%', 'draft']

class Where {
  readonly parts: string[] = []
  readonly args: unknown[] = []
  add(sql: string, ...args: unknown[]): void {
    this.parts.push(sql)
    this.args.push(...args)
  }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

function userLinkSql(table: UserLink, value: UserFilter): { sql: string; args: unknown[] } {
  if (value === 'None')
    return { sql: `NOT EXISTS (SELECT 1 FROM ${table} x WHERE x.merge_request_id = mr.id)`, args: [] }
  if (value === 'Any') return { sql: `EXISTS (SELECT 1 FROM ${table} x WHERE x.merge_request_id = mr.id)`, args: [] }
  return { sql: `EXISTS (SELECT 1 FROM ${table} x WHERE x.merge_request_id = mr.id AND x.user_id = ?)`, args: [value] }
}

function negatableSql(f: NegatableFilter, viewerId: number | null): { sql: string; args: unknown[] }[] {
  const out: { sql: string; args: unknown[] }[] = []
  if (f.labels !== undefined) {
    const [first] = f.labels
    if (f.labels.length === 1 && (first.toLowerCase() === 'none' || first.toLowerCase() === 'no label')) {
      out.push({
        sql: "NOT EXISTS (SELECT 1 FROM label_links ll WHERE ll.target_type = 'MergeRequest' AND ll.target_id = mr.id)",
        args: [],
      })
    } else if (f.labels.length === 1 && first.toLowerCase() === 'any') {
      out.push({
        sql: "EXISTS (SELECT 1 FROM label_links ll WHERE ll.target_type = 'MergeRequest' AND ll.target_id = mr.id)",
        args: [],
      })
    } else {
      for (const title of f.labels) {
        out.push({
          sql: `EXISTS (SELECT 1 FROM label_links ll JOIN labels l ON l.id = ll.label_id
                WHERE ll.target_type = 'MergeRequest' AND ll.target_id = mr.id AND l.title = ? COLLATE NOCASE)`,
          args: [title],
        })
      }
    }
  }
  if (f.milestone !== undefined) {
    const m = f.milestone
    if (m === 'None' || m === 'No Milestone') out.push({ sql: 'mr.milestone_id IS NULL', args: [] })
    else if (m === 'Any') out.push({ sql: 'mr.milestone_id IS NOT NULL', args: [] })
    else
      out.push({
        sql: 'EXISTS (SELECT 1 FROM milestones ms WHERE ms.id = mr.milestone_id AND ms.title = ?)',
        args: [m],
      })
  }
  if (f.authorIds !== undefined)
    out.push({ sql: 'mr.author_id IN (SELECT value FROM json_each(?))', args: [JSON.stringify(f.authorIds)] })
  if (f.assignee !== undefined) out.push(userLinkSql('merge_request_assignees', f.assignee))
  if (f.reviewer !== undefined) out.push(userLinkSql('merge_request_reviewers', f.reviewer))
  if (f.myReactionEmoji !== undefined) {
    const e = f.myReactionEmoji
    const base =
      "SELECT 1 FROM award_emoji ae WHERE ae.awardable_type = 'MergeRequest' AND ae.awardable_id = mr.id AND ae.user_id = ?"
    if (e === 'None') out.push({ sql: `NOT EXISTS (${base})`, args: [viewerId ?? 0] })
    else if (e === 'Any') out.push({ sql: `EXISTS (${base})`, args: [viewerId ?? 0] })
    else out.push({ sql: `EXISTS (${base} AND ae.name = ?)`, args: [viewerId ?? 0, e] })
  }
  return out
}

function whereOf(f: MergeRequestFilter): Where {
  const w = new Where()
  if (f.projectIds !== undefined)
    w.add('mr.project_id IN (SELECT value FROM json_each(?))', JSON.stringify(f.projectIds))
  if (!f.viewer?.isAdmin) {
    // Merge requests follow the project's merge_requests_access_level: 'enabled' lets everyone who
    // can read the project see them; 'private' only members (Reporter+); 'disabled' nobody.
    w.add(
      `mr.project_id IN (
         SELECT p.id FROM projects p LEFT JOIN authorized_projects ap ON ap.id = p.id
         WHERE COALESCE(json_extract(p.settings, '$.merge_requests_access_level'), 'enabled') != 'disabled'
           AND (COALESCE(ap.lvl, 0) >= ${AccessLevel.REPORTER}
                OR (COALESCE(json_extract(p.settings, '$.merge_requests_access_level'), 'enabled') = 'enabled'
                    AND (p.visibility = 'public' OR (p.visibility = 'internal' AND ?2 = 0)))))`,
    )
  } else {
    w.add(
      `mr.project_id IN (SELECT id FROM projects WHERE COALESCE(json_extract(settings, '$.merge_requests_access_level'), 'enabled') != 'disabled')`,
    )
  }
  if (f.state !== undefined) w.add('mr.state = ?', f.state)
  if (f.iids !== undefined) w.add('mr.iid IN (SELECT value FROM json_each(?))', JSON.stringify(f.iids))
  if (f.milestoneId !== undefined) w.add('mr.milestone_id = ?', f.milestoneId)
  if (f.nonArchived) w.add('mr.project_id IN (SELECT id FROM projects WHERE archived = 0)')
  if (f.sourceBranch !== undefined) w.add('mr.source_branch = ?', f.sourceBranch)
  if (f.targetBranch !== undefined) w.add('mr.target_branch = ?', f.targetBranch)
  if (f.createdAfter !== undefined) w.add('mr.created_at >= ?', f.createdAfter)
  if (f.createdBefore !== undefined) w.add('mr.created_at <= ?', f.createdBefore)
  if (f.updatedAfter !== undefined) w.add('mr.updated_at >= ?', f.updatedAfter)
  if (f.updatedBefore !== undefined) w.add('mr.updated_at <= ?', f.updatedBefore)
  if (f.search) {
    const fields = f.searchIn && f.searchIn.length > 0 ? f.searchIn : ['title', 'description']
    const pattern = `%${escapeLike(f.search)}%`
    w.add(
      `(${fields.map((c) => `COALESCE(mr.${c}, '') LIKE ? ESCAPE '\\'`).join(' OR ')})`,
      ...fields.map(() => pattern),
    )
  }
  if (f.wip !== undefined) {
    const draft = `(${DRAFT_LIKE.map(() => `LOWER(LTRIM(mr.title)) LIKE ?`).join(' OR ')})`
    w.add(f.wip ? draft : `NOT ${draft}`, ...DRAFT_LIKE)
  }
  if (f.approvedBy !== undefined) {
    const base = 'SELECT 1 FROM approvals a WHERE a.merge_request_id = mr.id'
    if (f.approvedBy === 'None') w.add(`NOT EXISTS (${base})`)
    else if (f.approvedBy === 'Any') w.add(`EXISTS (${base})`)
    else for (const id of f.approvedBy) w.add(`EXISTS (${base} AND a.user_id = ?)`, id)
  }
  // Without approval rules nobody is an eligible approver: `None` keeps every merge request, anything else none.
  if (f.approvers !== undefined && f.approvers !== 'None') w.add('0')
  if (f.deployment) {
    const d = f.deployment
    const terms = ['dm.merge_request_id = mr.id']
    const args: unknown[] = []
    if (d.environment !== undefined) {
      terms.push('d.environment_id IN (SELECT id FROM environments WHERE name = ? AND project_id = d.project_id)')
      args.push(d.environment)
    }
    if (d.before !== undefined) {
      terms.push('d.finished_at < ?')
      args.push(d.before)
    }
    if (d.after !== undefined) {
      terms.push('d.finished_at > ?')
      args.push(d.after)
    }
    if (d.deploymentId !== undefined) {
      terms.push('d.id = ?')
      args.push(d.deploymentId)
    }
    w.add(
      `EXISTS (SELECT 1 FROM deployment_merge_requests dm JOIN deployments d ON d.id = dm.deployment_id WHERE ${terms.join(' AND ')})`,
      ...args,
    )
  }
  const viewerId = f.viewer?.id ?? null
  for (const c of negatableSql(f, viewerId)) w.add(c.sql, ...c.args)
  if (f.not) for (const c of negatableSql(f.not, viewerId)) w.add(`NOT (${c.sql})`, ...c.args)
  return w
}

/**
 * One page of merge requests matching the filter, newest first by default, with the total.
 * Visibility is decided in SQL (authorized projects CTE), so paging stays in the database.
 */
export function listMergeRequests(
  db: Db,
  f: MergeRequestFilter,
  page: { readonly limit: number; readonly offset: number },
): { rows: MergeRequestRow[]; total: number } {
  const w = whereOf(f)
  const where = w.parts.length > 0 ? w.parts.join(' AND ') : '1'
  const viewer = f.viewer
  // Non-administrators see merge requests through the authorized projects CTE, whose parameters are
  // ?1 (user id) and ?2 (external flag); the filters' own `?` placeholders are numbered after them.
  const withCte = !viewer?.isAdmin
  const cte = withCte ? `WITH RECURSIVE ${AUTHORIZED_GROUPS_CTE}, ${AUTHORIZED_PROJECTS_CTE}` : ''
  const head = withCte ? [viewer?.id ?? 0, viewer && !viewer.external ? 0 : 1] : []
  const dir = f.sort === 'asc' ? 'ASC' : 'DESC'
  const order = `mr.${f.orderBy} ${dir}, mr.id ${dir}`
  const sql = (select: string, tail: string): string => {
    let n = head.length
    const body = `SELECT ${select} FROM merge_requests mr WHERE ${where} ${tail}`.replace(/\?(?!\d)/g, () => `?${++n}`)
    return `${cte} ${body}`
  }
  const values = [...head, ...w.args]
  const args: Record<number, unknown>[] =
    values.length > 0 ? [Object.fromEntries(values.map((v, i) => [i + 1, v]))] : []
  const total = (db.prepare(sql('COUNT(*) AS n', '')).get(...args) as { n: number }).n
  const rows = db
    .prepare(sql('mr.*', `ORDER BY ${order} LIMIT ${Math.trunc(page.limit)} OFFSET ${Math.trunc(page.offset)}`))
    .all(...args) as MergeRequestRow[]
  return { rows, total }
}

// ---------------------------------------------------------------------------------------------
// Participants, mentions and closing references.

/** Who takes part: author, assignees, reviewers and commenters (subscription default, participants endpoint). */
export function participantIds(db: Db, mr: MergeRequestRow): number[] {
  const rows = db
    .prepare(
      `SELECT user_id AS id FROM merge_request_assignees WHERE merge_request_id = ?1
       UNION SELECT user_id FROM merge_request_reviewers WHERE merge_request_id = ?1
       UNION SELECT author_id FROM notes WHERE noteable_type = 'MergeRequest' AND noteable_id = ?1 AND system = 0`,
    )
    .all({ 1: mr.id }) as { id: number }[]
  return [...new Set([mr.author_id, ...rows.map((r) => r.id)])]
}

/** `group/project` of each project id. */
export function projectPaths(db: Db, ids: readonly number[]): Map<number, string> {
  const unique = [...new Set(ids)]
  const rows = db
    .prepare(
      "SELECT p.id, n.full_path || '/' || p.path AS path FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE p.id IN (SELECT value FROM json_each(?))",
    )
    .all(JSON.stringify(unique)) as { id: number; path: string }[]
  return new Map(rows.map((r) => [r.id, r.path]))
}

/** Ids of the project's merge requests whose description names `#<iid>` somewhere, newest first (a coarse filter). */
export function mergeRequestIdsMentioning(db: Db, projectId: number, issueIid: number): number[] {
  const rows = db
    .prepare('SELECT id FROM merge_requests WHERE project_id = ? AND description LIKE ? ORDER BY id DESC')
    .all(projectId, `%#${issueIid}%`) as { id: number }[]
  return rows.map((r) => r.id)
}

/** Descriptions of the projects' merge requests that may reference an issue (they contain `#`). */
export function referencingDescriptions(
  db: Db,
  projectIds: readonly number[],
): { readonly project_id: number; readonly description: string | null }[] {
  return cachedStatement(
    db,
    "SELECT project_id, description FROM merge_requests WHERE project_id IN (SELECT value FROM json_each(?)) AND description LIKE '%#%'",
  ).all(JSON.stringify(projectIds)) as { project_id: number; description: string | null }[]
}

/** Whether the project has this deployment (the merge requests it deployed are listed only then). */
export function hasDeployment(db: Db, projectId: number, deploymentId: number): boolean {
  return (
    db.prepare('SELECT 1 FROM deployments WHERE id = ? AND project_id = ?').get(deploymentId, projectId) !== undefined
  )
}

// ---------------------------------------------------------------------------------------------
// Auto-merge (merge when the head pipeline succeeds).

/** Who asked for an auto-merge and with which merge options (JSON). */
export interface PendingAutoMerge {
  readonly user_id: number
  readonly params: string
}

/** Remembers who set the merge request to merge when its pipeline succeeds, and how. */
export function saveAutoMerge(db: Db, mrId: number, userId: number, paramsJson: string): void {
  db.prepare(
    `INSERT INTO merge_request_auto_merges (merge_request_id, user_id, params, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (merge_request_id) DO UPDATE SET user_id = excluded.user_id, params = excluded.params, created_at = excluded.created_at`,
  ).run(mrId, userId, paramsJson, nowIso())
}

/** Forgets the merge request's pending auto-merge. */
export function deleteAutoMerge(db: Db, mrId: number): void {
  db.prepare('DELETE FROM merge_request_auto_merges WHERE merge_request_id = ?').run(mrId)
}

/** The merge request's pending auto-merge, if any. */
export function findAutoMerge(db: Db, mrId: number): PendingAutoMerge | undefined {
  return db.prepare('SELECT user_id, params FROM merge_request_auto_merges WHERE merge_request_id = ?').get(mrId) as
    PendingAutoMerge | undefined
}

/** Ids of the open merge requests set to merge when a pipeline on this branch head succeeds. */
export function autoMergeIdsAt(db: Db, projectId: number, branch: string, sha: string): number[] {
  const rows = db
    .prepare(
      `SELECT id FROM merge_requests WHERE source_project_id = ? AND source_branch = ? AND head_sha = ? AND state = 'opened'
       AND merge_when_pipeline_succeeds = 1`,
    )
    .all(projectId, branch, sha) as { id: number }[]
  return rows.map((r) => r.id)
}

/**
 * The project's merge requests that may hold commit `sha`, newest first: those whose head ref
 * contains it (`iids`), whose recorded head is it, or that it merged or squashed. The caller
 * still drops those whose base already had it.
 */
export function mergeRequestsNamingCommit(
  db: Db,
  projectId: number,
  sha: string,
  iids: readonly number[],
): MergeRequestRow[] {
  return db
    .prepare(
      `SELECT * FROM merge_requests
       WHERE project_id = @project AND (iid IN (SELECT value FROM json_each(@iids))
         OR head_sha = @sha OR merge_commit_sha = @sha OR squash_commit_sha = @sha)
       ORDER BY created_at DESC, id DESC`,
    )
    .all({ project: projectId, iids: JSON.stringify(iids), sha }) as MergeRequestRow[]
}
