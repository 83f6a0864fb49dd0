import { nowIso, type Db } from '../../platform/db/connection'
import { AUTHORIZED_GROUPS_CTE, AUTHORIZED_PROJECTS_CTE } from '../../platform/auth/permissions'
import type { NewEvent } from './service'

/** The target types a comment's activity event is stored under (GitLab's note classes). */
export const NOTE_EVENT_TARGET_TYPES: readonly string[] = ['Note', 'DiffNote', 'DiscussionNote']

/** An `events` row joined with the columns of its author that the API entity embeds. */
export interface EventRow {
  readonly id: number
  readonly project_id: number | null
  readonly group_id: number | null
  readonly author_id: number
  readonly action: string
  readonly target_type: string | null
  readonly target_id: number | null
  readonly target_iid: number | null
  readonly target_title: string | null
  /** JSON text. */
  readonly push_data: string | null
  /** JSON text. */
  readonly note: string | null
  /** JSON text. */
  readonly data: string | null
  readonly created_at: string
  readonly author_username: string
  readonly author_name: string
  readonly author_state: string
  readonly author_avatar_url: string | null
}

/** Who is reading: decides which events are visible (see `visibilityClause`). */
export type EventViewer =
  | { readonly kind: 'admin' }
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'user'; readonly userId: number; readonly external: boolean }

export interface EventFilter {
  readonly viewer: EventViewer
  /** Only events authored by this user. */
  readonly authorId?: number
  /** Only events of this project (the caller has already checked it is readable). */
  readonly projectId?: number
  /** Only events that belong to a project (GitLab's `scope=all`: project events only). */
  readonly projectEventsOnly?: boolean
  readonly actions?: readonly string[]
  readonly targetTypes?: readonly string[]
  /** Exclusive upper bound on created_at (an ISO timestamp). */
  readonly createdBefore?: string
  /** Exclusive lower bound on created_at (an ISO timestamp). */
  readonly createdAfter?: string
  readonly sort: 'asc' | 'desc'
  /** Events left out: those naming what the viewer may not read (see `restrictedEvents`). */
  readonly hiddenIds?: readonly number[]
}

/**
 * Collects bound values and hands out numbered placeholders. For a signed-in viewer `?1` is
 * their user id, which the membership CTEs expect. better-sqlite3 binds `?NNN` placeholders
 * by name, hence the object of values keyed by number.
 */
class Binder {
  private readonly list: unknown[]
  constructor(initial: readonly unknown[]) {
    this.list = [...initial]
  }
  bind(value: unknown): string {
    this.list.push(value)
    return `?${this.list.length}`
  }
  get values(): Record<number, unknown> {
    return Object.fromEntries(this.list.map((v, i) => [i + 1, v]))
  }
}

/**
 * Events the viewer may see: project events when the project is readable (public, internal to
 * non-external users, or authorized through membership), group events (epics) when the group
 * is readable, and events outside any project or group only to their author.
 */
function visibilityClause(viewer: EventViewer, b: Binder): string {
  if (viewer.kind === 'admin') return '1'
  if (viewer.kind === 'anonymous') {
    return `((e.project_id IS NOT NULL AND p.visibility = 'public') OR (e.project_id IS NULL AND e.group_id IS NOT NULL AND g.visibility = 'public'))`
  }
  const internal = viewer.external ? "'public'" : "'public', 'internal'"
  return `(
    (e.project_id IS NOT NULL AND (p.visibility IN (${internal}) OR e.project_id IN (SELECT id FROM authorized_projects)))
    OR (e.project_id IS NULL AND e.group_id IS NOT NULL
        AND (g.visibility IN (${internal}) OR e.group_id IN (SELECT id FROM visible_groups)))
    OR (e.project_id IS NULL AND e.group_id IS NULL AND e.author_id = ?1)
  )`
}

/**
 * `visible_groups(id)`: groups the viewer reaches through membership, plus their ancestors and
 * the ancestors of their projects' groups (members of a subgroup see its parents), as
 * Permissions#canReadGroup decides for one group.
 */
const VISIBLE_GROUPS_CTE = `
  visible_group_seeds(id) AS (
    SELECT id FROM authorized_groups
    UNION SELECT p.namespace_id FROM projects p JOIN authorized_projects a ON a.id = p.id
  ),
  visible_groups(id) AS (
    SELECT id FROM visible_group_seeds
    UNION SELECT n.parent_id FROM namespaces n JOIN visible_groups v ON n.id = v.id WHERE n.parent_id IS NOT NULL
  )`

function whereClause(f: EventFilter, b: Binder): string {
  const where: string[] = [visibilityClause(f.viewer, b)]
  if (f.authorId !== undefined) where.push(`e.author_id = ${b.bind(f.authorId)}`)
  if (f.projectId !== undefined) where.push(`e.project_id = ${b.bind(f.projectId)}`)
  if (f.projectEventsOnly) where.push('e.project_id IS NOT NULL')
  if (f.actions) where.push(`e.action IN (SELECT value FROM json_each(${b.bind(JSON.stringify(f.actions))}))`)
  if (f.targetTypes)
    where.push(`e.target_type IN (SELECT value FROM json_each(${b.bind(JSON.stringify(f.targetTypes))}))`)
  if (f.createdBefore !== undefined) where.push(`e.created_at < ${b.bind(f.createdBefore)}`)
  if (f.createdAfter !== undefined) where.push(`e.created_at > ${b.bind(f.createdAfter)}`)
  if (f.hiddenIds && f.hiddenIds.length > 0)
    where.push(`e.id NOT IN (SELECT value FROM json_each(${b.bind(JSON.stringify(f.hiddenIds))}))`)
  return where.join(' AND ')
}

/** The part of a listing query every read shares: the membership CTEs (signed-in non-admins only) and the FROM … WHERE. */
function listingSql(f: EventFilter): { cte: string; from: string; b: Binder } {
  const b = new Binder(f.viewer.kind === 'user' ? [f.viewer.userId] : [])
  const where = whereClause(f, b)
  const cte =
    f.viewer.kind === 'user'
      ? `WITH RECURSIVE ${AUTHORIZED_GROUPS_CTE}, ${AUTHORIZED_PROJECTS_CTE}, ${VISIBLE_GROUPS_CTE} `
      : ''
  const from = `FROM events e
    LEFT JOIN projects p ON p.id = e.project_id
    LEFT JOIN namespaces g ON g.id = e.group_id
    WHERE ${where}`
  return { cte, from, b }
}

const featureOf = (name: string): string => `COALESCE(json_extract(p.settings, '$.${name}_access_level'), 'enabled')`
const NOTE_TARGET_TYPES = `(${NOTE_EVENT_TARGET_TYPES.map((t) => `'${t}'`).join(', ')})`

// The features whose level can hide a project's events: from everyone when `disabled`, from
// non-members when `private`.
const FEATURES = ['issues', 'merge_requests', 'repository']
const NOTE_ON_SNIPPET = `e.target_type IN ${NOTE_TARGET_TYPES} AND EXISTS (SELECT 1 FROM notes n WHERE n.id = e.target_id AND n.noteable_type = 'Snippet')`

/**
 * Events whose readability the project's or group's does not settle alone, which the item rule
 * (services/readable.ts) must decide one by one: every event of a private project or of one with
 * a feature limited or off, and elsewhere the events of a confidential issue or epic and of a note
 * that is internal, on a confidential issue or epic, or on a snippet. Everything else a reader of
 * the project or group may read. Administrators read all but what a disabled feature (or a snippet's
 * own feature) turns off.
 */
function restrictedSql(forAdministrator: boolean): string {
  if (forAdministrator)
    return `(${FEATURES.map((f) => `${featureOf(f)} = 'disabled'`).join(' OR ')} OR (${NOTE_ON_SNIPPET}))`
  return `(
  p.visibility = 'private'
  OR ${FEATURES.map((f) => `${featureOf(f)} <> 'enabled'`).join(' OR ')}
  OR (e.target_type = 'Issue' AND EXISTS (SELECT 1 FROM issues i WHERE i.id = e.target_id AND i.confidential = 1))
  OR (e.target_type = 'Epic' AND EXISTS (SELECT 1 FROM epics x WHERE x.id = e.target_id AND x.confidential = 1))
  OR (e.target_type IN ${NOTE_TARGET_TYPES} AND EXISTS (
    SELECT 1 FROM notes n WHERE n.id = e.target_id AND (
      n.internal = 1 OR n.noteable_type = 'Snippet'
      OR (n.noteable_type = 'Issue' AND EXISTS (SELECT 1 FROM issues i WHERE i.id = n.noteable_id AND i.confidential = 1))
      OR (n.noteable_type = 'Epic' AND EXISTS (SELECT 1 FROM epics x WHERE x.id = n.noteable_id AND x.confidential = 1)))))
)`
}

/** What the item rule needs of a restricted event. */
export interface RestrictedEventRow {
  readonly id: number
  readonly project_id: number | null
  readonly action: string
  readonly target_type: string | null
  readonly target_id: number | null
}

/**
 * The events matching `f` (whole list, not a page) that the item rule must decide for the caller
 * (see restrictedSql). `callerIsAdmin` is the caller's own standing, which `f.viewer` may not be
 * (a project's events are listed as if by an administrator once the project is known readable).
 */
export function restrictedEvents(db: Db, f: EventFilter, callerIsAdmin: boolean): RestrictedEventRow[] {
  const { cte, from, b } = listingSql(f)
  return db
    .prepare(
      `${cte}SELECT e.id, e.project_id, e.action, e.target_type, e.target_id ${from} AND ${restrictedSql(callerIsAdmin)}`,
    )
    .all(b.values) as RestrictedEventRow[]
}

/** One page of events matching `f`, newest or oldest first by id, with the total count. */
export function listEvents(db: Db, f: EventFilter, limit: number, offset: number): { rows: EventRow[]; total: number } {
  const { cte, from, b } = listingSql(f)
  const total = (db.prepare(`${cte}SELECT COUNT(*) AS n ${from}`).get(b.values) as { n: number }).n
  const order = f.sort === 'asc' ? 'ASC' : 'DESC'
  const limitAt = b.bind(limit)
  const offsetAt = b.bind(offset)
  const rows = db
    .prepare(
      `${cte}SELECT e.*, u.username AS author_username, u.name AS author_name, u.state AS author_state, u.avatar_url AS author_avatar_url
       FROM (SELECT e.* ${from} ORDER BY e.id ${order} LIMIT ${limitAt} OFFSET ${offsetAt}) e
       JOIN users u ON u.id = e.author_id
       ORDER BY e.id ${order}`,
    )
    .all(b.values) as EventRow[]
  return { rows, total }
}

/** Stores one activity event; answers its id. */
export function insertEvent(db: Db, e: NewEvent): number {
  const info = db
    .prepare(
      `INSERT INTO events (project_id, group_id, author_id, action, target_type, target_id, target_iid, target_title, push_data, note, data, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      e.projectId ?? null,
      e.groupId ?? null,
      e.authorId,
      e.action,
      e.targetType ?? null,
      e.targetId ?? null,
      e.targetIid ?? null,
      e.targetTitle ?? null,
      e.pushData ? JSON.stringify(e.pushData) : null,
      e.note ? JSON.stringify(e.note) : null,
      e.data ? JSON.stringify(e.data) : null,
      nowIso(),
    )
  return Number(info.lastInsertRowid)
}

/** Marks a project as active now (its `last_activity_at`), as every event in it does. */
export function touchProjectActivity(db: Db, projectId: number): void {
  db.prepare('UPDATE projects SET last_activity_at = ? WHERE id = ?').run(nowIso(), projectId)
}

/** Deletes the events created before `cutoff` (an ISO timestamp); answers how many. */
export function deleteEventsBefore(db: Db, cutoff: string): number {
  return db.prepare('DELETE FROM events WHERE created_at < ?').run(cutoff).changes
}
