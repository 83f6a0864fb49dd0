import type { Db } from '../../platform/db/connection'
import { cachedStatement } from '../../platform/db/statements'
import type { LabelRow } from '../labels'
import type { MilestoneRow } from '../milestones'

/** A row of `boards` (project boards only are served). */
export interface BoardRow {
  readonly id: number
  readonly project_id: number | null
  readonly group_id: number | null
  readonly name: string
  readonly hide_backlog_list: number
  readonly hide_closed_list: number
  readonly milestone_id: number | null
  readonly assignee_id: number | null
  readonly weight: number | null
  readonly created_at: string
  readonly updated_at: string
}

/** A row of `board_lists`. */
export interface BoardListRow {
  readonly id: number
  readonly board_id: number
  readonly label_id: number
  readonly position: number
  readonly created_at: string
  readonly updated_at: string
}

/**
 * The group chain a project sees labels and milestones of: its namespace and that namespace's
 * ancestors (a user namespace owns none, so it matches nothing).
 */
const PROJECT_GROUPS = `WITH RECURSIVE chain(id) AS (
  SELECT namespace_id FROM projects WHERE id = :project
  UNION SELECT n.parent_id FROM namespaces n JOIN chain c ON n.id = c.id WHERE n.parent_id IS NOT NULL
)`

/** One page of a project's boards, oldest first, and how many there are. */
export function listBoards(
  db: Db,
  projectId: number,
  page: { readonly limit: number; readonly offset: number },
): { readonly rows: BoardRow[]; readonly total: number } {
  const rows = cachedStatement(db, 'SELECT * FROM boards WHERE project_id = ? ORDER BY id LIMIT ? OFFSET ?').all(
    projectId,
    page.limit,
    page.offset,
  ) as BoardRow[]
  const total = (
    cachedStatement(db, 'SELECT COUNT(*) AS n FROM boards WHERE project_id = ?').get(projectId) as { n: number }
  ).n
  return { rows, total }
}

export function findBoard(db: Db, projectId: number, id: number): BoardRow | undefined {
  return cachedStatement(db, 'SELECT * FROM boards WHERE project_id = ? AND id = ?').get(projectId, id) as
    BoardRow | undefined
}

export function countBoards(db: Db, projectId: number): number {
  return (cachedStatement(db, 'SELECT COUNT(*) AS n FROM boards WHERE project_id = ?').get(projectId) as { n: number })
    .n
}

export function insertBoard(db: Db, projectId: number, name: string, now: string): BoardRow {
  return db
    .prepare('INSERT INTO boards (project_id, name, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING *')
    .get(projectId, name, now, now) as BoardRow
}

/** A board's settings and scope as stored. */
export interface BoardFields {
  readonly name: string
  readonly hideBacklogList: boolean
  readonly hideClosedList: boolean
  readonly milestoneId: number | null
  readonly assigneeId: number | null
  readonly weight: number | null
}

export function updateBoardRow(db: Db, id: number, f: BoardFields, now: string): void {
  db.prepare(
    `UPDATE boards SET name = ?, hide_backlog_list = ?, hide_closed_list = ?, milestone_id = ?, assignee_id = ?,
       weight = ?, updated_at = ? WHERE id = ?`,
  ).run(f.name, f.hideBacklogList ? 1 : 0, f.hideClosedList ? 1 : 0, f.milestoneId, f.assigneeId, f.weight, now, id)
}

export function deleteBoardRow(db: Db, id: number): void {
  db.prepare('DELETE FROM boards WHERE id = ?').run(id)
}

/** Makes `labelIds` the labels a board is scoped to. */
export function setBoardLabels(db: Db, boardId: number, labelIds: readonly number[]): void {
  db.prepare('DELETE FROM board_labels WHERE board_id = ?').run(boardId)
  const insert = db.prepare('INSERT INTO board_labels (board_id, label_id) VALUES (?, ?)')
  for (const id of labelIds) insert.run(boardId, id)
}

/** The labels boards are scoped to, by board, in title order. */
export function scopeLabelsOfBoards(db: Db, boardIds: readonly number[]): Map<number, LabelRow[]> {
  const byBoard = new Map<number, LabelRow[]>()
  const rows = cachedStatement(
    db,
    `SELECT bl.board_id, l.* FROM board_labels bl JOIN labels l ON l.id = bl.label_id
     WHERE bl.board_id IN (SELECT value FROM json_each(?)) ORDER BY l.title, l.id`,
  ).all(JSON.stringify(boardIds)) as (LabelRow & { board_id: number })[]
  for (const { board_id: boardId, ...label } of rows) byBoard.set(boardId, [...(byBoard.get(boardId) ?? []), label])
  return byBoard
}

/** The label lists of these boards with their labels, by board, in position order. */
export function listsOfBoards(
  db: Db,
  boardIds: readonly number[],
): Map<number, { readonly list: BoardListRow; readonly label: LabelRow }[]> {
  const byBoard = new Map<number, { readonly list: BoardListRow; readonly label: LabelRow }[]>()
  const rows = cachedStatement(
    db,
    `SELECT bl.id AS list_id, bl.board_id, bl.label_id, bl.position, bl.created_at AS list_created_at,
       bl.updated_at AS list_updated_at, l.*
     FROM board_lists bl JOIN labels l ON l.id = bl.label_id
     WHERE bl.board_id IN (SELECT value FROM json_each(?)) ORDER BY bl.position, bl.id`,
  ).all(JSON.stringify(boardIds)) as (LabelRow & {
    list_id: number
    board_id: number
    label_id: number
    position: number
    list_created_at: string
    list_updated_at: string
  })[]
  for (const r of rows) {
    const list: BoardListRow = {
      id: r.list_id,
      board_id: r.board_id,
      label_id: r.label_id,
      position: r.position,
      created_at: r.list_created_at,
      updated_at: r.list_updated_at,
    }
    const label: LabelRow = {
      id: r.id,
      title: r.title,
      color: r.color,
      description: r.description,
      group_id: r.group_id,
      project_id: r.project_id,
      priority: r.priority,
      created_at: r.created_at,
      updated_at: r.updated_at,
    }
    byBoard.set(r.board_id, [...(byBoard.get(r.board_id) ?? []), { list, label }])
  }
  return byBoard
}

export function findList(db: Db, boardId: number, id: number): BoardListRow | undefined {
  return cachedStatement(db, 'SELECT * FROM board_lists WHERE board_id = ? AND id = ?').get(boardId, id) as
    BoardListRow | undefined
}

export function listOfLabel(db: Db, boardId: number, labelId: number): BoardListRow | undefined {
  return cachedStatement(db, 'SELECT * FROM board_lists WHERE board_id = ? AND label_id = ?').get(boardId, labelId) as
    BoardListRow | undefined
}

/** The board's list ids in position order. */
export function listOrder(db: Db, boardId: number): number[] {
  const rows = cachedStatement(db, 'SELECT id FROM board_lists WHERE board_id = ? ORDER BY position, id').all(
    boardId,
  ) as { id: number }[]
  return rows.map((r) => r.id)
}

export function insertList(db: Db, boardId: number, labelId: number, position: number, now: string): BoardListRow {
  return db
    .prepare(
      'INSERT INTO board_lists (board_id, label_id, position, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING *',
    )
    .get(boardId, labelId, position, now, now) as BoardListRow
}

/** Gives each list of `order` its index as position; `moved` also gets a new updated_at. */
export function renumberLists(db: Db, order: readonly number[], moved: number | null, now: string): void {
  const update = db.prepare(
    'UPDATE board_lists SET position = ?, updated_at = CASE WHEN id = ? THEN ? ELSE updated_at END WHERE id = ?',
  )
  order.forEach((id, position) => update.run(position, moved ?? -1, now, id))
}

export function deleteListRow(db: Db, id: number): void {
  db.prepare('DELETE FROM board_lists WHERE id = ?').run(id)
}

/** The label with this id if the project may use it: its own, or one of its groups' up the tree. */
export function availableLabel(db: Db, projectId: number, labelId: number): LabelRow | undefined {
  return cachedStatement(
    db,
    `${PROJECT_GROUPS} SELECT * FROM labels WHERE id = :label
     AND (project_id = :project OR group_id IN (SELECT id FROM chain))`,
  ).get({ project: projectId, label: labelId }) as LabelRow | undefined
}

/** The ids of the labels with these titles the project may use, the project's own first for a title shared with a group. */
export function availableLabelIds(db: Db, projectId: number, titles: readonly string[]): number[] {
  const rows = cachedStatement(
    db,
    `${PROJECT_GROUPS} SELECT id, title FROM labels WHERE title IN (SELECT value FROM json_each(:titles))
     AND (project_id = :project OR group_id IN (SELECT id FROM chain)) ORDER BY project_id IS NULL, id`,
  ).all({ project: projectId, titles: JSON.stringify(titles) }) as { id: number; title: string }[]
  const byTitle = new Map<string, number>()
  for (const row of rows) if (!byTitle.has(row.title)) byTitle.set(row.title, row.id)
  return [...byTitle.values()]
}

/** The milestone with this id if it is the project's or one of its groups'. */
export function availableMilestone(db: Db, projectId: number, milestoneId: number): MilestoneRow | undefined {
  return cachedStatement(
    db,
    `${PROJECT_GROUPS} SELECT * FROM milestones WHERE id = :milestone
     AND (project_id = :project OR group_id IN (SELECT id FROM chain))`,
  ).get({ project: projectId, milestone: milestoneId }) as MilestoneRow | undefined
}

/** A milestone with the full path of its project or group (its web URL is built from it). */
export type OwnedMilestoneRow = MilestoneRow & { readonly owner_path: string }

/** The milestones of these ids, by id, with their owners' paths. */
export function milestonesById(db: Db, ids: readonly number[]): Map<number, OwnedMilestoneRow> {
  const rows = cachedStatement(
    db,
    `SELECT m.*, coalesce(pn.full_path || '/' || p.path, g.full_path) AS owner_path FROM milestones m
     LEFT JOIN projects p ON p.id = m.project_id LEFT JOIN namespaces pn ON pn.id = p.namespace_id
     LEFT JOIN namespaces g ON g.id = m.group_id
     WHERE m.id IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(ids)) as OwnedMilestoneRow[]
  return new Map(rows.map((r) => [r.id, r]))
}
