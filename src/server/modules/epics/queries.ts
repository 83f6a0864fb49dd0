import { AUTHORIZED_GROUPS_CTE } from '../../platform/auth/permissions'
import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'
import { nextIid } from '../../platform/db/internal-ids'
import { cachedStatement } from '../../platform/db/statements'
import { deletePolymorphicReferences, POLYMORPHIC_REFERENCES, type Wildcard } from '../issues'
import type { LabelRow } from '../labels'
import type { NamespaceRow } from '../../platform/db/rows'

export type EpicState = 'opened' | 'closed'

/** A row of `epics`. */
export interface EpicRow {
  readonly id: number
  readonly iid: number
  readonly group_id: number
  readonly author_id: number
  readonly parent_id: number | null
  readonly relative_position: number | null
  readonly title: string
  readonly description: string | null
  readonly state: EpicState
  readonly confidential: number
  readonly start_date_is_fixed: number
  readonly start_date_fixed: string | null
  readonly due_date_is_fixed: number
  readonly due_date_fixed: string | null
  readonly closed_at: string | null
  readonly closed_by_id: number | null
  readonly last_edited_at: string | null
  readonly last_edited_by_id: number | null
  readonly created_at: string
  readonly updated_at: string
}

/** A row of `epic_issues`: which epic holds an issue, and where in the epic's order. */
export interface EpicIssueRow {
  readonly id: number
  readonly epic_id: number
  readonly issue_id: number
  readonly relative_position: number | null
  readonly created_at: string
  readonly updated_at: string
}

function idsJson(ids: readonly number[]): string {
  return JSON.stringify([...new Set(ids)])
}

export function findEpicById(db: Db, id: number): EpicRow | undefined {
  return db.prepare('SELECT * FROM epics WHERE id = ?').get(id) as EpicRow | undefined
}

/** A group's epic by iid. */
export function findEpicByIid(db: Db, groupId: number, iid: number): EpicRow | undefined {
  return db.prepare('SELECT * FROM epics WHERE group_id = ? AND iid = ?').get(groupId, iid) as EpicRow | undefined
}

/** Epics by id, one query. */
export function epicsById(db: Db, ids: readonly number[]): Map<number, EpicRow> {
  if (ids.length === 0) return new Map()
  const rows = cachedStatement(db, 'SELECT * FROM epics WHERE id IN (SELECT value FROM json_each(?))').all(
    idsJson(ids),
  ) as EpicRow[]
  return new Map(rows.map((r) => [r.id, r]))
}

/** Columns of a new epic. */
export interface NewEpicRow {
  readonly groupId: number
  readonly authorId: number
  readonly title: string
  readonly description: string | null
  readonly confidential: boolean
  readonly parentId: number | null
  readonly startDateIsFixed: boolean
  readonly startDateFixed: string | null
  readonly dueDateIsFixed: boolean
  readonly dueDateFixed: string | null
  readonly createdAt?: string
}

/**
 * Inserts an epic with the next iid of its group. Must run inside the caller's transaction so the
 * counter and the row commit together: concurrent creations never share or skip an iid.
 */
export function insertEpicRow(db: Db, n: NewEpicRow): EpicRow {
  const floor = (
    db.prepare('SELECT COALESCE(MAX(iid), 0) AS iid FROM epics WHERE group_id = ?').get(n.groupId) as { iid: number }
  ).iid
  const iid = nextIid(db, { groupId: n.groupId }, 'epics', floor)
  const created = n.createdAt ?? nowIso()
  const position = n.parentId !== null ? nextChildPosition(db, n.parentId) : null
  const info = db
    .prepare(
      `INSERT INTO epics (iid, group_id, author_id, parent_id, relative_position, title, description, confidential,
         start_date_is_fixed, start_date_fixed, due_date_is_fixed, due_date_fixed, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      iid,
      n.groupId,
      n.authorId,
      n.parentId,
      position,
      n.title,
      n.description,
      n.confidential ? 1 : 0,
      n.startDateIsFixed ? 1 : 0,
      n.startDateFixed,
      n.dueDateIsFixed ? 1 : 0,
      n.dueDateFixed,
      created,
      created,
    )
  return findEpicById(db, Number(info.lastInsertRowid)) as EpicRow
}

/** Columns an update may change. */
export type EpicColumnChanges = Partial<
  Pick<
    EpicRow,
    | 'title'
    | 'description'
    | 'state'
    | 'confidential'
    | 'parent_id'
    | 'relative_position'
    | 'start_date_is_fixed'
    | 'start_date_fixed'
    | 'due_date_is_fixed'
    | 'due_date_fixed'
    | 'closed_at'
    | 'closed_by_id'
    | 'last_edited_at'
    | 'last_edited_by_id'
    | 'updated_at'
  >
>

/** Changes the given columns (undefined ones are left alone) and bumps updated_at unless given. */
export function updateEpicRow(db: Db, id: number, changes: EpicColumnChanges): EpicRow {
  const entries = Object.entries({ updated_at: nowIso(), ...changes }).filter(([, v]) => v !== undefined)
  db.prepare(`UPDATE epics SET ${entries.map(([k]) => `${k} = ?`).join(', ')} WHERE id = ?`).run(
    ...entries.map(([, v]) => v),
    id,
  )
  return findEpicById(db, id) as EpicRow
}

/**
 * Deletes the polymorphic rows of every epic of these groups (a group tree being deleted): the
 * epics themselves go with their group through the foreign key, but label links, notes and their
 * award emoji, award emoji, subscriptions and to-dos name them by type and id only.
 */
export function deleteEpicRowsOfGroups(db: Db, groupIds: readonly number[]): void {
  const epics = 'SELECT id FROM epics WHERE group_id IN (SELECT value FROM json_each(@groups))'
  const groups = JSON.stringify(groupIds)
  db.prepare(
    `DELETE FROM award_emoji WHERE awardable_type = 'Note' AND awardable_id IN (SELECT id FROM notes WHERE noteable_type = 'Epic' AND noteable_id IN (${epics}))`,
  ).run({ groups })
  for (const [table, column] of POLYMORPHIC_REFERENCES) {
    db.prepare(`DELETE FROM ${table} WHERE ${column}_type = 'Epic' AND ${column}_id IN (${epics})`).run({ groups })
  }
}

/**
 * Deletes an epic with the polymorphic rows that point at it. Its issue links go with it (foreign
 * key), its children become top-level epics and promoted issues forget it (ON DELETE SET NULL).
 */
export function deleteEpicRow(db: Db, id: number): void {
  deletePolymorphicReferences(db, 'Epic', id)
  db.prepare('DELETE FROM epics WHERE id = ?').run(id)
}

/** Replaces an epic's labels. */
export function setEpicLabels(db: Db, epicId: number, labelIds: readonly number[]): void {
  db.prepare("DELETE FROM label_links WHERE target_type = 'Epic' AND target_id = ?").run(epicId)
  const insert = db.prepare(
    "INSERT OR IGNORE INTO label_links (label_id, target_type, target_id, created_at) VALUES (?, 'Epic', ?, ?)",
  )
  const now = nowIso()
  for (const l of labelIds) insert.run(l, epicId, now)
}

// ---------------------------------------------------------------------------------------------
// Batch loaders: what a page of epics needs, in a fixed number of queries.

/** Labels per epic, ordered by title. */
export function epicLabelsOf(db: Db, epicIds: readonly number[]): Map<number, LabelRow[]> {
  const out = new Map<number, LabelRow[]>()
  if (epicIds.length === 0) return out
  const rows = db
    .prepare(
      `SELECT ll.target_id AS epic_id, l.* FROM label_links ll JOIN labels l ON l.id = ll.label_id
       WHERE ll.target_type = 'Epic' AND ll.target_id IN (SELECT value FROM json_each(?)) ORDER BY l.title, l.id`,
    )
    .all(idsJson(epicIds)) as (LabelRow & { epic_id: number })[]
  for (const { epic_id, ...label } of rows) out.set(epic_id, [...(out.get(epic_id) ?? []), label])
  return out
}

/** Thumbs up and down per epic. */
export function epicVotes(db: Db, epicIds: readonly number[]): Map<number, { upvotes: number; downvotes: number }> {
  const out = new Map<number, { upvotes: number; downvotes: number }>()
  if (epicIds.length === 0) return out
  const rows = db
    .prepare(
      `SELECT awardable_id AS id, SUM(name = 'thumbsup') AS up, SUM(name = 'thumbsdown') AS down FROM award_emoji
       WHERE awardable_type = 'Epic' AND awardable_id IN (SELECT value FROM json_each(?)) GROUP BY awardable_id`,
    )
    .all(idsJson(epicIds)) as { id: number; up: number; down: number }[]
  for (const r of rows) out.set(r.id, { upvotes: r.up, downvotes: r.down })
  return out
}

/** Dates an epic inherits: the earliest start and latest due date of its sources. */
export interface InheritedDates {
  readonly start: string | null
  readonly due: string | null
}

function earliest(a: string | null, b: string | null): string | null {
  return a === null ? b : b === null ? a : a < b ? a : b
}

function latest(a: string | null, b: string | null): string | null {
  return a === null ? b : b === null ? a : a > b ? a : b
}

/**
 * Inherited dates of the given epics, as GitLab's date rollup defines them: the milestones of the
 * epic's issues, and each child epic's own start/due date (fixed when the child fixes it, else
 * inherited the same way). Two queries for the whole subtree below the given epics.
 */
export function inheritedDates(db: Db, epicIds: readonly number[]): Map<number, InheritedDates> {
  const out = new Map<number, InheritedDates>()
  if (epicIds.length === 0) return out
  const tree = db
    .prepare(
      `WITH RECURSIVE tree(id) AS (
         SELECT value FROM json_each(?) UNION SELECT e.id FROM epics e JOIN tree t ON e.parent_id = t.id
       )
       SELECT e.id, e.parent_id, e.start_date_is_fixed, e.start_date_fixed, e.due_date_is_fixed, e.due_date_fixed,
         (SELECT MIN(m.start_date) FROM epic_issues ei JOIN issues i ON i.id = ei.issue_id JOIN milestones m ON m.id = i.milestone_id WHERE ei.epic_id = e.id) AS ms_start,
         (SELECT MAX(m.due_date) FROM epic_issues ei JOIN issues i ON i.id = ei.issue_id JOIN milestones m ON m.id = i.milestone_id WHERE ei.epic_id = e.id) AS ms_due
       FROM tree JOIN epics e ON e.id = tree.id`,
    )
    .all(idsJson(epicIds)) as {
    id: number
    parent_id: number | null
    start_date_is_fixed: number
    start_date_fixed: string | null
    due_date_is_fixed: number
    due_date_fixed: string | null
    ms_start: string | null
    ms_due: string | null
  }[]
  const byId = new Map(tree.map((r) => [r.id, r]))
  const children = new Map<number, number[]>()
  for (const r of tree)
    if (r.parent_id !== null && byId.has(r.parent_id))
      children.set(r.parent_id, [...(children.get(r.parent_id) ?? []), r.id])
  const memo = new Map<number, InheritedDates>()
  // Depth is bounded (GitLab allows 7 levels), but a guard keeps a corrupt cycle from recursing forever.
  const visit = (id: number, seen: Set<number>): InheritedDates => {
    const cached = memo.get(id)
    if (cached) return cached
    const row = byId.get(id)
    let start = row?.ms_start ?? null
    let due = row?.ms_due ?? null
    for (const childId of children.get(id) ?? []) {
      if (seen.has(childId)) continue
      const child = byId.get(childId)
      if (!child) continue
      const inherited = visit(childId, new Set([...seen, childId]))
      start = earliest(start, child.start_date_is_fixed ? child.start_date_fixed : inherited.start)
      due = latest(due, child.due_date_is_fixed ? child.due_date_fixed : inherited.due)
    }
    const dates = { start, due }
    memo.set(id, dates)
    return dates
  }
  for (const id of epicIds) out.set(id, visit(id, new Set([id])))
  return out
}

/** Group paths by group id (references, web URLs). */
export function groupPathsOf(
  db: Db,
  groupIds: readonly number[],
): Map<number, { readonly full_path: string; readonly path: string; readonly parent_id: number | null }> {
  if (groupIds.length === 0) return new Map()
  const rows = db
    .prepare('SELECT id, full_path, path, parent_id FROM namespaces WHERE id IN (SELECT value FROM json_each(?))')
    .all(idsJson(groupIds)) as { id: number; full_path: string; path: string; parent_id: number | null }[]
  return new Map(rows.map((r) => [r.id, r]))
}

/** Namespaces (the groups of a page of epics) by id, one query. */
export function namespacesById(db: Db, ids: readonly number[]): Map<number, NamespaceRow> {
  if (ids.length === 0) return new Map()
  const rows = cachedStatement(db, 'SELECT * FROM namespaces WHERE id IN (SELECT value FROM json_each(?))').all(
    idsJson(ids),
  ) as NamespaceRow[]
  return new Map(rows.map((r) => [r.id, r]))
}

/** Authors of an epic's user notes, in order of first note. */
export function epicNoteAuthorIds(db: Db, epicId: number): number[] {
  return db
    .prepare(
      "SELECT author_id FROM notes WHERE noteable_type = 'Epic' AND noteable_id = ? AND system = 0 GROUP BY author_id ORDER BY MIN(id)",
    )
    .pluck()
    .all(epicId) as number[]
}

/** The caller's access level in each of the given groups (absent = none), one query. */
export function groupAccessLevels(db: Db, userId: number, groupIds: readonly number[]): Map<number, number> {
  if (groupIds.length === 0) return new Map()
  const rows = db
    .prepare(
      `WITH RECURSIVE ${AUTHORIZED_GROUPS_CTE} SELECT id, lvl FROM authorized_groups WHERE id IN (SELECT value FROM json_each(?2))`,
    )
    .all({ 1: userId, 2: idsJson(groupIds) }) as { id: number; lvl: number }[]
  return new Map(rows.map((r) => [r.id, r.lvl]))
}

// ---------------------------------------------------------------------------------------------
// Lists.

export type EpicOrder = 'created_at' | 'updated_at' | 'title' | 'relative_position'

/** A normalized epic list filter: the routes parse parameters into this. */
export interface EpicFilter {
  /** Groups whose epics are listed. */
  readonly groupIds: readonly number[]
  /** Groups whose confidential epics the viewer sees (Reporter+); null = all (administrators). */
  readonly confidentialGroupIds: readonly number[] | null
  readonly viewerId: number | null
  readonly parentId?: number
  readonly state?: EpicState
  readonly authorId?: number
  readonly labels?: Wildcard<readonly string[]>
  readonly confidential?: boolean
  readonly myReactionEmoji?: Wildcard<string>
  readonly createdAfter?: string
  readonly createdBefore?: string
  readonly updatedAfter?: string
  readonly updatedBefore?: string
  readonly search?: string
  readonly iids?: readonly number[]
  readonly not?: { readonly authorIds?: readonly number[]; readonly labels?: readonly string[] }
  readonly orderBy: EpicOrder
  readonly sort: 'asc' | 'desc'
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

const HAS_LABEL = `e.id IN (SELECT ll.target_id FROM label_links ll JOIN labels l ON l.id = ll.label_id
  WHERE ll.target_type = 'Epic' AND l.title = ? COLLATE NOCASE)`
const ANY_LABEL = "EXISTS (SELECT 1 FROM label_links ll WHERE ll.target_type = 'Epic' AND ll.target_id = e.id)"

function whereOf(f: EpicFilter): { sql: string; args: unknown[] } {
  const where: string[] = []
  const args: unknown[] = []
  const add = (sql: string, ...a: unknown[]): void => {
    where.push(sql)
    args.push(...a)
  }
  if (f.groupIds.length === 1) add('e.group_id = ?', f.groupIds[0])
  else add('e.group_id IN (SELECT value FROM json_each(?))', idsJson(f.groupIds))
  if (f.confidentialGroupIds !== null)
    add('(e.confidential = 0 OR e.group_id IN (SELECT value FROM json_each(?)))', idsJson(f.confidentialGroupIds))
  if (f.parentId !== undefined) add('e.parent_id = ?', f.parentId)
  if (f.state) add('e.state = ?', f.state)
  if (f.authorId !== undefined) add('e.author_id = ?', f.authorId)
  if (f.labels) {
    if (f.labels.kind === 'none') add(`NOT ${ANY_LABEL}`)
    else if (f.labels.kind === 'any') add(ANY_LABEL)
    else for (const title of f.labels.value) add(HAS_LABEL, title)
  }
  if (f.confidential !== undefined) add('e.confidential = ?', f.confidential ? 1 : 0)
  if (f.myReactionEmoji) {
    const mine =
      "EXISTS (SELECT 1 FROM award_emoji a WHERE a.awardable_type = 'Epic' AND a.awardable_id = e.id AND a.user_id = ?"
    if (f.myReactionEmoji.kind === 'none') add(`NOT ${mine})`, f.viewerId ?? -1)
    else if (f.myReactionEmoji.kind === 'any') add(`${mine})`, f.viewerId ?? -1)
    else add(`${mine} AND a.name = ?)`, f.viewerId ?? -1, f.myReactionEmoji.value)
  }
  if (f.createdAfter) add('e.created_at >= ?', f.createdAfter)
  if (f.createdBefore) add('e.created_at <= ?', f.createdBefore)
  if (f.updatedAfter) add('e.updated_at >= ?', f.updatedAfter)
  if (f.updatedBefore) add('e.updated_at <= ?', f.updatedBefore)
  if (f.search) {
    const pattern = `%${escapeLike(f.search)}%`
    add("(e.title LIKE ? ESCAPE '\\' OR e.description LIKE ? ESCAPE '\\')", pattern, pattern)
  }
  if (f.iids) add('e.iid IN (SELECT value FROM json_each(?))', JSON.stringify(f.iids))
  if (f.not?.authorIds?.length)
    add('e.author_id NOT IN (SELECT value FROM json_each(?))', JSON.stringify(f.not.authorIds))
  for (const title of f.not?.labels ?? []) add(`NOT ${HAS_LABEL}`, title)
  return { sql: where.join(' AND '), args }
}

function orderOf(f: EpicFilter): string {
  const dir = f.sort === 'asc' ? 'ASC' : 'DESC'
  switch (f.orderBy) {
    case 'updated_at':
      return `e.updated_at ${dir}, e.id ${dir}`
    case 'title':
      return `e.title COLLATE NOCASE ${dir}, e.id ${dir}`
    // Children in their manual order; unpositioned ones after, newest first, as GitLab orders them.
    case 'relative_position':
      return 'e.relative_position IS NULL, e.relative_position ASC, e.id DESC'
    default:
      return `e.created_at ${dir}, e.id ${dir}`
  }
}

/** One page of epics matching the filter, and how many match in all. */
export function listEpics(
  db: Db,
  f: EpicFilter,
  page: { readonly limit: number; readonly offset: number },
): { rows: EpicRow[]; total: number } {
  const { sql, args } = whereOf(f)
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM epics e WHERE ${sql}`).get(...args) as { n: number }).n
  const rows = db
    .prepare(`SELECT e.* FROM epics e WHERE ${sql} ORDER BY ${orderOf(f)} LIMIT ? OFFSET ?`)
    .all(...args, page.limit, page.offset) as EpicRow[]
  return { rows, total }
}

// ---------------------------------------------------------------------------------------------
// Hierarchy.

/** Ids of an epic's ancestors, nearest first. */
export function epicAncestorIds(db: Db, epicId: number): number[] {
  return db
    .prepare(
      `WITH RECURSIVE up(id, depth) AS (
         SELECT parent_id, 1 FROM epics WHERE id = ? AND parent_id IS NOT NULL
         UNION ALL SELECT e.parent_id, up.depth + 1 FROM epics e JOIN up ON e.id = up.id WHERE e.parent_id IS NOT NULL AND up.depth < 64
       ) SELECT id FROM up ORDER BY depth`,
    )
    .pluck()
    .all(epicId) as number[]
}

/** How many levels hang below an epic (0 for a leaf). */
export function epicSubtreeDepth(db: Db, epicId: number): number {
  return (
    db
      .prepare(
        `WITH RECURSIVE down(id, depth) AS (
         SELECT ?, 0 UNION ALL SELECT e.id, down.depth + 1 FROM epics e JOIN down ON e.parent_id = down.id WHERE down.depth < 64
       ) SELECT MAX(depth) AS d FROM down`,
      )
      .get(epicId) as { d: number }
  ).d
}

/** A position after every current child of `parentId`. */
export function nextChildPosition(db: Db, parentId: number): number {
  return (
    db
      .prepare('SELECT COALESCE(MAX(relative_position), 0) + 1024 AS p FROM epics WHERE parent_id = ?')
      .get(parentId) as { p: number }
  ).p
}

/** Whether an epic has children / issues (the LinkedEpic entity). */
export function epicHasChildrenAndIssues(db: Db, epicId: number): { hasChildren: boolean; hasIssues: boolean } {
  const row = db
    .prepare(
      'SELECT EXISTS (SELECT 1 FROM epics WHERE parent_id = ?) AS c, EXISTS (SELECT 1 FROM epic_issues WHERE epic_id = ?) AS i',
    )
    .get(epicId, epicId) as { c: number; i: number }
  return { hasChildren: row.c === 1, hasIssues: row.i === 1 }
}

// ---------------------------------------------------------------------------------------------
// Epic issues.

export function findEpicIssueById(db: Db, id: number): EpicIssueRow | undefined {
  return db.prepare('SELECT * FROM epic_issues WHERE id = ?').get(id) as EpicIssueRow | undefined
}

/** The link holding an issue, if any. */
export function findEpicIssueByIssue(db: Db, issueId: number): EpicIssueRow | undefined {
  return db.prepare('SELECT * FROM epic_issues WHERE issue_id = ?').get(issueId) as EpicIssueRow | undefined
}

/** Points an epic's issue link at another issue (a moved issue's copy takes its place). */
export function repointEpicIssue(db: Db, linkId: number, issueId: number): void {
  db.prepare('UPDATE epic_issues SET issue_id = ?, updated_at = ? WHERE id = ?').run(issueId, nowIso(), linkId)
}

/**
 * Puts an issue in an epic, at the end of its order. An issue is in one epic at most, so an issue
 * already held by another epic moves: its link row is kept and points at the new epic, as
 * GitLab reuses the issue's link.
 */
export function upsertEpicIssue(db: Db, epicId: number, issueId: number): EpicIssueRow {
  const now = nowIso()
  const existing = findEpicIssueByIssue(db, issueId)
  if (existing?.epic_id === epicId) return existing
  const position = (
    db
      .prepare('SELECT COALESCE(MAX(relative_position), 0) + 1024 AS p FROM epic_issues WHERE epic_id = ?')
      .get(epicId) as { p: number }
  ).p
  if (existing) {
    db.prepare('UPDATE epic_issues SET epic_id = ?, relative_position = ?, updated_at = ? WHERE id = ?').run(
      epicId,
      position,
      now,
      existing.id,
    )
  } else {
    db.prepare(
      'INSERT INTO epic_issues (epic_id, issue_id, relative_position, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    ).run(epicId, issueId, position, now, now)
  }
  return findEpicIssueByIssue(db, issueId) as EpicIssueRow
}

export function deleteEpicIssue(db: Db, id: number): void {
  db.prepare('DELETE FROM epic_issues WHERE id = ?').run(id)
}

/** An epic's links in their order (position, then id). */
export function epicIssueLinks(db: Db, epicId: number): EpicIssueRow[] {
  return db
    .prepare('SELECT * FROM epic_issues WHERE epic_id = ? ORDER BY relative_position IS NULL, relative_position, id')
    .all(epicId) as EpicIssueRow[]
}

/** Links by issue id for a page of issues. */
export function epicIssuesOfIssues(db: Db, issueIds: readonly number[]): Map<number, EpicIssueRow> {
  if (issueIds.length === 0) return new Map()
  const rows = cachedStatement(db, 'SELECT * FROM epic_issues WHERE issue_id IN (SELECT value FROM json_each(?))').all(
    idsJson(issueIds),
  ) as EpicIssueRow[]
  return new Map(rows.map((r) => [r.issue_id, r]))
}

/** Rewrites positions (1024 apart) in the given order. */
export function renumberEpicIssues(db: Db, orderedIds: readonly number[]): void {
  const set = db.prepare('UPDATE epic_issues SET relative_position = ?, updated_at = ? WHERE id = ?')
  const now = nowIso()
  orderedIds.forEach((id, n) => set.run((n + 1) * 1024, now, id))
}

/** An epic's children in their order (position, unpositioned ones newest first). */
export function childEpicIds(db: Db, parentId: number): number[] {
  return (
    db
      .prepare(
        'SELECT id FROM epics WHERE parent_id = ? ORDER BY relative_position IS NULL, relative_position, id DESC',
      )
      .all(parentId) as { id: number }[]
  ).map((r) => r.id)
}

/** Whether an epic holds a non-confidential issue / child epic (it may not become confidential then). */
export function publicContentsOf(db: Db, epicId: number): { publicIssue: boolean; publicChild: boolean } {
  const row = db
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM epic_issues ei JOIN issues i ON i.id = ei.issue_id WHERE ei.epic_id = ? AND i.confidential = 0) AS issue,
              EXISTS (SELECT 1 FROM epics WHERE parent_id = ? AND confidential = 0) AS child`,
    )
    .get(epicId, epicId) as { issue: number; child: number }
  return { publicIssue: row.issue === 1, publicChild: row.child === 1 }
}

/** Rewrites child epic positions (1024 apart) in the given order. */
export function renumberChildEpics(db: Db, orderedIds: readonly number[]): void {
  const set = db.prepare('UPDATE epics SET relative_position = ? WHERE id = ?')
  orderedIds.forEach((id, n) => set.run((n + 1) * 1024, id))
}

/** Whether any epic has `epicId` as its parent. */
export function hasChildEpics(db: Db, epicId: number): boolean {
  return cachedStatement(db, 'SELECT 1 FROM epics WHERE parent_id = ? LIMIT 1').get(epicId) !== undefined
}
