import type { Db } from '../../platform/db/connection'
import { nextIid } from '../../platform/db/internal-ids'
import { nowIso } from '../../platform/db/connection'
import { cachedStatement } from '../../platform/db/statements'

/** A row of `milestones`: a project milestone (project_id set) or a group milestone (group_id set). */
export interface MilestoneRow {
  readonly id: number
  readonly iid: number
  readonly project_id: number | null
  readonly group_id: number | null
  readonly title: string
  readonly description: string | null
  readonly state: 'active' | 'closed'
  readonly due_date: string | null
  readonly start_date: string | null
  readonly created_at: string
  readonly updated_at: string
}

/** Which milestones a list shows: those of these projects and groups, narrowed by the filters. */
export interface MilestoneFilter {
  readonly projectIds: readonly number[]
  readonly groupIds: readonly number[]
  readonly iids?: readonly number[]
  readonly state?: 'active' | 'closed'
  /** Exact title. */
  readonly title?: string
  /** Substring of the title or the description. */
  readonly search?: string
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/** One page of milestones, soonest due first (undated last), then by title and id. */
export function listMilestones(
  db: Db,
  f: MilestoneFilter,
  page: { readonly limit: number; readonly offset: number },
): { rows: MilestoneRow[]; total: number } {
  const where = ['(project_id IN (SELECT value FROM json_each(?)) OR group_id IN (SELECT value FROM json_each(?)))']
  const args: unknown[] = [JSON.stringify(f.projectIds), JSON.stringify(f.groupIds)]
  if (f.iids !== undefined) {
    where.push('iid IN (SELECT value FROM json_each(?))')
    args.push(JSON.stringify(f.iids))
  }
  if (f.state) {
    where.push('state = ?')
    args.push(f.state)
  }
  if (f.title !== undefined) {
    where.push('title = ?')
    args.push(f.title)
  }
  if (f.search) {
    where.push(`(title LIKE ? ESCAPE '\\' OR description LIKE ? ESCAPE '\\')`)
    const pattern = `%${escapeLike(f.search)}%`
    args.push(pattern, pattern)
  }
  const sql = where.join(' AND ')
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM milestones WHERE ${sql}`).get(...args) as { n: number }).n
  const rows = db
    .prepare(`SELECT * FROM milestones WHERE ${sql} ORDER BY due_date IS NULL, due_date, title, id LIMIT ? OFFSET ?`)
    .all(...args, page.limit, page.offset) as MilestoneRow[]
  return { rows, total }
}

export function findMilestoneById(db: Db, id: number): MilestoneRow | undefined {
  return db.prepare('SELECT * FROM milestones WHERE id = ?').get(id) as MilestoneRow | undefined
}

/** A milestone with this title among those of the given projects and groups (the uniqueness rule). */
export function findMilestoneTitle(
  db: Db,
  title: string,
  projectIds: readonly number[],
  groupIds: readonly number[],
  exceptId = -1,
): MilestoneRow | undefined {
  return db
    .prepare(
      `SELECT * FROM milestones WHERE title = ? AND id <> ?
       AND (project_id IN (SELECT value FROM json_each(?)) OR group_id IN (SELECT value FROM json_each(?))) LIMIT 1`,
    )
    .get(title, exceptId, JSON.stringify(projectIds), JSON.stringify(groupIds)) as MilestoneRow | undefined
}

/** Fields of a new milestone. */
export interface NewMilestone {
  readonly projectId?: number | null
  readonly groupId?: number | null
  readonly title: string
  readonly description: string | null
  readonly state?: 'active' | 'closed'
  readonly dueDate: string | null
  readonly startDate: string | null
}

/** Milestones of these projects titled exactly `title`: the twins a promoted milestone absorbs. */
export function projectMilestonesTitled(db: Db, title: string, projectIds: readonly number[]): MilestoneRow[] {
  return db
    .prepare('SELECT * FROM milestones WHERE title = ? AND project_id IN (SELECT value FROM json_each(?))')
    .all(title, JSON.stringify(projectIds)) as MilestoneRow[]
}

/** A closing or reopening of an issue, as its activity event recorded it. */
export interface IssueStateEvent {
  readonly target_id: number
  readonly action: 'closed' | 'reopened'
  readonly created_at: string
}

/** The `closed`/`reopened` events of these issues up to `until` (inclusive), oldest first: a burndown chart's. */
export function issueStateEvents(db: Db, issueIds: readonly number[], until: string): IssueStateEvent[] {
  return db
    .prepare(
      `SELECT target_id, action, created_at FROM events
       WHERE target_type = 'Issue' AND target_id IN (SELECT value FROM json_each(?)) AND action IN ('closed', 'reopened') AND created_at <= ?
       ORDER BY created_at, id`,
    )
    .all(JSON.stringify(issueIds), until) as IssueStateEvent[]
}

/** Inserts a milestone with the next iid of its project or group (never reused after deletes). */
export function insertMilestone(db: Db, m: NewMilestone): MilestoneRow {
  return db.transaction(() => {
    const owner =
      m.projectId != null ? { col: 'project_id', id: m.projectId } : { col: 'group_id', id: m.groupId as number }
    // Seed the counter from rows made before it existed (the promote path inserts explicit iids too).
    const floor = (
      db.prepare(`SELECT COALESCE(MAX(iid), 0) AS iid FROM milestones WHERE ${owner.col} = ?`).get(owner.id) as {
        iid: number
      }
    ).iid
    const next = nextIid(
      db,
      m.projectId != null ? { projectId: m.projectId } : { groupId: m.groupId as number },
      'milestones',
      floor,
    )
    const now = nowIso()
    const info = db
      .prepare(
        `INSERT INTO milestones (iid, project_id, group_id, title, description, state, due_date, start_date, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        next,
        m.projectId ?? null,
        m.groupId ?? null,
        m.title,
        m.description,
        m.state ?? 'active',
        m.dueDate,
        m.startDate,
        now,
        now,
      )
    return findMilestoneById(db, Number(info.lastInsertRowid)) as MilestoneRow
  })()
}

/** Changes the given columns of a milestone and bumps updated_at. */
export function updateMilestoneRow(
  db: Db,
  id: number,
  changes: Partial<Pick<MilestoneRow, 'title' | 'description' | 'state' | 'due_date' | 'start_date'>>,
): MilestoneRow {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined)
  const sets = [...entries.map(([k]) => `${k} = ?`), 'updated_at = ?']
  db.prepare(`UPDATE milestones SET ${sets.join(', ')} WHERE id = ?`).run(...entries.map(([, v]) => v), nowIso(), id)
  return findMilestoneById(db, id) as MilestoneRow
}

export function deleteMilestoneRow(db: Db, id: number): void {
  db.prepare('DELETE FROM milestones WHERE id = ?').run(id)
}

/** Full paths of the given projects (`group/sub/project`) and groups, for web URLs, in two queries. */
export function ownerPaths(
  db: Db,
  projectIds: readonly number[],
  groupIds: readonly number[],
): { projects: Map<number, string>; groups: Map<number, string> } {
  const projects = new Map<number, string>()
  const groups = new Map<number, string>()
  if (projectIds.length > 0) {
    const rows = cachedStatement(
      db,
      `SELECT p.id, n.full_path || '/' || p.path AS path FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE p.id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(projectIds)) as { id: number; path: string }[]
    for (const r of rows) projects.set(r.id, r.path)
  }
  if (groupIds.length > 0) {
    const rows = cachedStatement(
      db,
      'SELECT id, full_path FROM namespaces WHERE id IN (SELECT value FROM json_each(?))',
    ).all(JSON.stringify(groupIds)) as { id: number; full_path: string }[]
    for (const r of rows) groups.set(r.id, r.full_path)
  }
  return { projects, groups }
}
