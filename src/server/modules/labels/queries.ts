import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'
import { confidentialReadersSql } from '../../platform/auth/issue-read-queries'

/** A row of `labels`: a group label (group_id set) or a project label (project_id set). */
export interface LabelRow {
  readonly id: number
  readonly title: string
  readonly color: string
  readonly description: string | null
  readonly group_id: number | null
  readonly project_id: number | null
  readonly priority: number | null
  readonly created_at: string
  readonly updated_at: string
}

/** Where labels are looked up: labels of any of these groups or projects. */
export interface LabelScope {
  readonly groupIds: readonly number[]
  readonly projectIds: readonly number[]
}

/** Issue and merge request counts of one label, as `with_counts` shows them. */
export interface LabelCounts {
  readonly open_issues_count: number
  readonly closed_issues_count: number
  readonly open_merge_requests_count: number
}

const ZERO_COUNTS: LabelCounts = { open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 }

function scopeSql(scope: LabelScope): { sql: string; args: string[] } {
  return {
    sql: '(group_id IN (SELECT value FROM json_each(?)) OR project_id IN (SELECT value FROM json_each(?)))',
    args: [JSON.stringify(scope.groupIds), JSON.stringify(scope.projectIds)],
  }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/** One page of labels in the scope, ordered by title, optionally filtered by a title/description search. */
export function listLabels(
  db: Db,
  scope: LabelScope,
  search: string | undefined,
  page: { readonly limit: number; readonly offset: number },
): { rows: LabelRow[]; total: number } {
  const where = scopeSql(scope)
  const args: unknown[] = [...where.args]
  let sql = where.sql
  if (search) {
    sql += ` AND (title LIKE ? ESCAPE '\\' OR description LIKE ? ESCAPE '\\')`
    const pattern = `%${escapeLike(search)}%`
    args.push(pattern, pattern)
  }
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM labels WHERE ${sql}`).get(...args) as { n: number }).n
  const rows = db
    .prepare(`SELECT * FROM labels WHERE ${sql} ORDER BY title, id LIMIT ? OFFSET ?`)
    .all(...args, page.limit, page.offset) as LabelRow[]
  return { rows, total }
}

/**
 * A label in the scope by id or, failing that, by exact title (GitLab's `find_label`). Within a
 * scope the nearest owner wins for a title: the project's own label, then the closest group.
 */
export function findLabelInScope(
  db: Db,
  scope: LabelScope,
  idOrTitle: string,
  ownerOrder: readonly number[] = [],
): LabelRow | undefined {
  const where = scopeSql(scope)
  if (/^\d+$/.test(idOrTitle)) {
    const byId = db
      .prepare(`SELECT * FROM labels WHERE id = ? AND ${where.sql}`)
      .get(Number(idOrTitle), ...where.args) as LabelRow | undefined
    if (byId) return byId
  }
  const rows = db
    .prepare(`SELECT * FROM labels WHERE title = ? AND ${where.sql} ORDER BY id`)
    .all(idOrTitle, ...where.args) as LabelRow[]
  if (rows.length <= 1) return rows[0]
  const rank = (r: LabelRow): number =>
    r.project_id !== null
      ? -1
      : ownerOrder.indexOf(r.group_id as number) === -1
        ? 1e9
        : ownerOrder.indexOf(r.group_id as number)
  return [...rows].sort((a, b) => rank(a) - rank(b))[0]
}

/** A label in the scope whose title matches case-insensitively (the duplicate check). */
export function findLabelTitleInScope(db: Db, scope: LabelScope, title: string): LabelRow | undefined {
  const where = scopeSql(scope)
  return db
    .prepare(`SELECT * FROM labels WHERE title = ? COLLATE NOCASE AND ${where.sql} LIMIT 1`)
    .get(title, ...where.args) as LabelRow | undefined
}

export function findLabelById(db: Db, id: number): LabelRow | undefined {
  return db.prepare('SELECT * FROM labels WHERE id = ?').get(id) as LabelRow | undefined
}

/** Titles of the given labels by id, in one query. */
export function labelTitlesById(db: Db, ids: readonly number[]): Map<number, string> {
  const rows = db
    .prepare('SELECT id, title FROM labels WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(ids)) as { id: number; title: string }[]
  return new Map(rows.map((r) => [r.id, r.title]))
}

/** Inserts a label owned by a group or a project. */
export function insertLabel(
  db: Db,
  attrs: {
    readonly title: string
    readonly color: string
    readonly description: string | null
    readonly groupId?: number | null
    readonly projectId?: number | null
    readonly priority?: number | null
  },
): LabelRow {
  const now = nowIso()
  const info = db
    .prepare(
      'INSERT INTO labels (title, color, description, group_id, project_id, priority, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    )
    .run(
      attrs.title,
      attrs.color,
      attrs.description,
      attrs.groupId ?? null,
      attrs.projectId ?? null,
      attrs.priority ?? null,
      now,
      now,
    )
  return findLabelById(db, Number(info.lastInsertRowid)) as LabelRow
}

/** Changes the given columns of a label and bumps updated_at. */
export function updateLabelRow(
  db: Db,
  id: number,
  changes: Partial<Pick<LabelRow, 'title' | 'color' | 'description' | 'priority' | 'group_id' | 'project_id'>>,
): LabelRow {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined)
  const sets = [...entries.map(([k]) => `${k} = ?`), 'updated_at = ?']
  db.prepare(`UPDATE labels SET ${sets.join(', ')} WHERE id = ?`).run(...entries.map(([, v]) => v), nowIso(), id)
  return findLabelById(db, id) as LabelRow
}

export function deleteLabelRow(db: Db, id: number): void {
  db.prepare('DELETE FROM labels WHERE id = ?').run(id)
}

/** Labels of these projects titled `title` (any case) other than `exceptId`: the twins a promoted label absorbs. */
export function sameTitledProjectLabels(
  db: Db,
  title: string,
  exceptId: number,
  projectIds: readonly number[],
): LabelRow[] {
  return db
    .prepare(
      'SELECT * FROM labels WHERE title = ? COLLATE NOCASE AND id <> ? AND project_id IN (SELECT value FROM json_each(?))',
    )
    .all(title, exceptId, JSON.stringify(projectIds)) as LabelRow[]
}

/** Gives label `intoId` the items and subscribers of label `fromId` (those it has already are kept once). */
export function mergeLabelInto(db: Db, fromId: number, intoId: number): void {
  db.prepare(
    'INSERT OR IGNORE INTO label_links (label_id, target_type, target_id, created_at) SELECT ?, target_type, target_id, created_at FROM label_links WHERE label_id = ?',
  ).run(intoId, fromId)
  db.prepare(
    'INSERT OR IGNORE INTO label_subscriptions (label_id, user_id, created_at) SELECT ?, user_id, created_at FROM label_subscriptions WHERE label_id = ?',
  ).run(intoId, fromId)
}

/** Of the given labels, those `userId` is subscribed to. */
export function subscribedLabelIds(db: Db, userId: number | null, labelIds: readonly number[]): Set<number> {
  if (userId === null || labelIds.length === 0) return new Set()
  const rows = db
    .prepare(
      'SELECT label_id FROM label_subscriptions WHERE user_id = ? AND label_id IN (SELECT value FROM json_each(?))',
    )
    .all(userId, JSON.stringify(labelIds)) as { label_id: number }[]
  return new Set(rows.map((r) => r.label_id))
}

/** Subscribes a user to a label; false when already subscribed. */
export function subscribe(db: Db, labelId: number, userId: number): boolean {
  return (
    db
      .prepare('INSERT OR IGNORE INTO label_subscriptions (label_id, user_id, created_at) VALUES (?, ?, ?)')
      .run(labelId, userId, nowIso()).changes > 0
  )
}

/** Unsubscribes a user from a label; false when not subscribed. */
export function unsubscribe(db: Db, labelId: number, userId: number): boolean {
  return (
    db.prepare('DELETE FROM label_subscriptions WHERE label_id = ? AND user_id = ?').run(labelId, userId).changes > 0
  )
}

/** The issues a count may include: those of these projects (issues feature readable) the confidential rule shows. */
export interface IssueReader {
  readonly projectIds: readonly number[]
  readonly viewerId: number | null
  /** Projects where the viewer reads every confidential issue (Reporter and above). */
  readonly reporterProjectIds: readonly number[]
}

/**
 * Issue and merge request counts for a page of labels, in one grouped query over label_links;
 * labels with no links are absent from the result and count 0. Issues count only when `reader`
 * may read them (all for administrators, `null`), as GitLab counts through its IssuesFinder.
 */
export function labelCounts(db: Db, labelIds: readonly number[], reader: IssueReader | null): Map<number, LabelCounts> {
  const counts = new Map<number, LabelCounts>()
  for (const id of labelIds) counts.set(id, ZERO_COUNTS)
  if (labelIds.length === 0) return counts
  const readers = reader ? confidentialReadersSql(reader.viewerId, reader.reporterProjectIds) : null
  const readable =
    reader && readers
      ? `AND i.project_id IN (SELECT value FROM json_each(?)) AND (i.confidential = 0 OR ${readers.sql})`
      : ''
  const rows = db
    .prepare(
      `SELECT ll.label_id,
              COALESCE(SUM(i.state = 'opened'), 0) AS open_issues_count,
              COALESCE(SUM(i.state = 'closed'), 0) AS closed_issues_count,
              COALESCE(SUM(mr.state = 'opened'), 0) AS open_merge_requests_count
       FROM label_links ll
       LEFT JOIN issues i ON ll.target_type = 'Issue' AND i.id = ll.target_id ${readable}
       LEFT JOIN merge_requests mr ON ll.target_type = 'MergeRequest' AND mr.id = ll.target_id
       WHERE ll.label_id IN (SELECT value FROM json_each(?))
       GROUP BY ll.label_id`,
    )
    .all(
      ...(reader && readers ? [JSON.stringify(reader.projectIds), ...readers.args] : []),
      JSON.stringify(labelIds),
    ) as (LabelCounts & { label_id: number })[]
  for (const { label_id, ...c } of rows) counts.set(label_id, c)
  return counts
}
