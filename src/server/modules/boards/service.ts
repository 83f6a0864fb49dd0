import type { Board, BoardList } from '../../../shared/api/board'
import type { ProjectSimple } from '../../../shared/api/project'
import type { Caller } from '../../platform/caller'
import { apiMessage, forbidden, paramError, validationFailed } from '../../platform/http/errors'
import { exceeds, tooLong } from '../../platform/text/limits'
import { findLabelById } from '../labels'
import { projectSimple } from '../projects'
import type { ProjectWithNamespaceRow } from '../projects'
import { userRef, usersByIds } from '../users'
import { boardEntity, boardListEntity } from './entity'
import { canAdminBoards } from './policy'
import {
  availableLabel,
  availableLabelIds,
  availableMilestone,
  countBoards,
  deleteBoardRow,
  deleteListRow,
  findBoard,
  insertBoard,
  insertList,
  listOfLabel,
  listOrder,
  listsOfBoards,
  milestonesById,
  renumberLists,
  scopeLabelsOfBoards,
  setBoardLabels,
  updateBoardRow,
  type BoardListRow,
  type BoardRow,
} from './queries'

/** A board name's length limit (a title's). */
const NAME_LIMIT = 255

/** What an update of a board changes; absent fields stay as they are. */
export interface BoardUpdateParams {
  readonly name?: string
  readonly hideBacklogList?: boolean
  readonly hideClosedList?: boolean
  /** The user the board shows issues of; a user that does not exist scopes to nobody. */
  readonly assigneeId?: number | null
  /** The milestone the board shows issues of: the project's or one of its groups', else none. */
  readonly milestoneId?: number | null
  /** Titles of the labels the board shows issues with; titles the project has no label of are dropped. */
  readonly labels?: readonly string[]
  readonly weight?: number | null
}

/** GitLab's Board entities for a page of one project's boards (one query per kind of part). */
export function presentBoards(caller: Caller, project: ProjectWithNamespaceRow, rows: readonly BoardRow[]): Board[] {
  const ids = rows.map((r) => r.id)
  const lists = listsOfBoards(caller.db, ids)
  const labels = scopeLabelsOfBoards(caller.db, ids)
  const milestones = milestonesById(
    caller.db,
    rows.map((r) => r.milestone_id).filter((id): id is number => id !== null),
  )
  const assignees = usersByIds(
    caller.db,
    rows.map((r) => r.assignee_id).filter((id): id is number => id !== null),
  )
  const simple = projectSimple(project, caller.baseUrl) as ProjectSimple
  const today = caller.clock().toISOString().slice(0, 10)
  return rows.map((row) => {
    const assignee = row.assignee_id !== null ? assignees.get(row.assignee_id) : undefined
    return boardEntity(
      row,
      {
        project: simple,
        milestone: row.milestone_id !== null ? milestones.get(row.milestone_id) : undefined,
        assignee: assignee ? userRef(assignee, caller.baseUrl) : undefined,
        labels: labels.get(row.id) ?? [],
        lists: lists.get(row.id) ?? [],
      },
      caller.baseUrl,
      today,
    )
  })
}

/** GitLab's List entity of a board list. */
export function presentList(caller: Caller, list: BoardListRow): BoardList {
  const label = findLabelById(caller.db, list.label_id)
  if (!label) throw apiMessage(404, '404 List Not Found')
  return boardListEntity(list, label)
}

function requireAdmin(caller: Caller, project: ProjectWithNamespaceRow): void {
  if (!canAdminBoards(caller.perms, project)) throw forbidden()
}

/** A board name as Rails validates it: present, at most 255 characters. */
function checkName(name: string): void {
  if (name.trim() === '') throw validationFailed({ name: ["can't be blank"] })
  if (exceeds(name, NAME_LIMIT)) throw validationFailed({ name: [tooLong(NAME_LIMIT)] })
}

/** Creates a board (Reporters). Its Open and Closed lists are implied; label lists are added later. */
export function createBoard(caller: Caller, project: ProjectWithNamespaceRow, name: string): BoardRow {
  requireAdmin(caller, project)
  checkName(name)
  return insertBoard(caller.db, project.id, name, caller.clock().toISOString())
}

/**
 * Changes a board's name, hidden lists and scope (GitLab's Boards::UpdateService): a milestone or
 * assignee that cannot scope the board scopes to none, label titles the project has no label of
 * are left out, as GitLab filters them.
 */
export function updateBoard(
  caller: Caller,
  project: ProjectWithNamespaceRow,
  board: BoardRow,
  params: BoardUpdateParams,
): BoardRow {
  requireAdmin(caller, project)
  if (params.name !== undefined) checkName(params.name)
  const milestoneId =
    params.milestoneId === undefined
      ? board.milestone_id
      : params.milestoneId !== null && availableMilestone(caller.db, project.id, params.milestoneId)
        ? params.milestoneId
        : null
  const assigneeId =
    params.assigneeId === undefined
      ? board.assignee_id
      : params.assigneeId !== null && usersByIds(caller.db, [params.assigneeId]).size > 0
        ? params.assigneeId
        : null
  const labelIds = params.labels === undefined ? undefined : availableLabelIds(caller.db, project.id, params.labels)
  const now = caller.clock().toISOString()
  caller.db.transaction(() => {
    updateBoardRow(
      caller.db,
      board.id,
      {
        name: params.name ?? board.name,
        hideBacklogList: params.hideBacklogList ?? board.hide_backlog_list === 1,
        hideClosedList: params.hideClosedList ?? board.hide_closed_list === 1,
        milestoneId,
        assigneeId,
        weight: params.weight === undefined ? board.weight : params.weight,
      },
      now,
    )
    if (labelIds !== undefined) setBoardLabels(caller.db, board.id, labelIds)
  })()
  return findBoard(caller.db, project.id, board.id) as BoardRow
}

/**
 * Deletes a board with its lists (Reporters). A project keeps at least one board: deleting the
 * last answers 400 with GitLab's reason (GitLab's API answers 204 and keeps it).
 */
export function deleteBoard(caller: Caller, project: ProjectWithNamespaceRow, board: BoardRow): void {
  requireAdmin(caller, project)
  if (countBoards(caller.db, project.id) <= 1)
    throw apiMessage(400, "The board could not be deleted, because the parent doesn't have any other boards.")
  deleteBoardRow(caller.db, board.id)
}

/**
 * Adds a label list at the end of the board (GitLab's Boards::Lists::CreateService): 400 `Label not
 * found!` for a label the project cannot use, and `has already been taken` when the board has it.
 */
export function createList(
  caller: Caller,
  project: ProjectWithNamespaceRow,
  board: BoardRow,
  labelId: number,
): BoardListRow {
  requireAdmin(caller, project)
  if (!availableLabel(caller.db, project.id, labelId)) throw paramError('Label not found!')
  if (listOfLabel(caller.db, board.id, labelId)) throw validationFailed({ label: ['has already been taken'] })
  const now = caller.clock().toISOString()
  return caller.db.transaction(() => {
    const order = listOrder(caller.db, board.id)
    renumberLists(caller.db, order, null, now)
    return insertList(caller.db, board.id, labelId, order.length, now)
  })()
}

/**
 * Moves a list to `position` (from 0), the others shifting to make room (GitLab's
 * Boards::Lists::MoveService): 400 `List could not be moved!` for its own position or one
 * outside the board.
 */
export function moveList(
  caller: Caller,
  project: ProjectWithNamespaceRow,
  board: BoardRow,
  list: BoardListRow,
  position: number,
): BoardListRow {
  requireAdmin(caller, project)
  const order = listOrder(caller.db, board.id)
  const from = order.indexOf(list.id)
  if (position === from || position < 0 || position >= order.length) throw paramError('List could not be moved!')
  const moved = [...order.slice(0, from), ...order.slice(from + 1)]
  moved.splice(position, 0, list.id)
  const now = caller.clock().toISOString()
  caller.db.transaction(() => renumberLists(caller.db, moved, list.id, now))()
  return { ...list, position, updated_at: now }
}

/** Removes a list from the board; the lists after it move up. Its issues keep their label. */
export function deleteList(
  caller: Caller,
  project: ProjectWithNamespaceRow,
  board: BoardRow,
  list: BoardListRow,
): void {
  requireAdmin(caller, project)
  const now = caller.clock().toISOString()
  caller.db.transaction(() => {
    deleteListRow(caller.db, list.id)
    renumberLists(caller.db, listOrder(caller.db, board.id), null, now)
  })()
}
