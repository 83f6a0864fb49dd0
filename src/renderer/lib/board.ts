/**
 * Issue boards as GitLab shows them: the Open list, one list per label in position order, the
 * Closed list; which issues each shows; and what moving a card between lists changes on the issue
 * (GitLab's Boards::Issues::MoveService, as labels and state). Pure: the board view and its tests
 * use it.
 */
import type { Board } from '../../shared/api/board'
import type { IssueListParams } from '../../shared/ipc/cache'
import type { ItemChanges } from '../../shared/ipc/outbox'
import type { Issue } from './items'

/** A list's label as the board carries it. */
export type BoardLabel = Board['lists'][number]['label']

/** One column of the board. */
export type BoardColumn =
  | { readonly key: 'backlog'; readonly kind: 'backlog'; readonly title: 'Open' }
  | {
      readonly key: string
      readonly kind: 'label'
      readonly title: string
      readonly label: BoardLabel
      readonly listId: number
      /** From 0, among the label lists. */
      readonly position: number
    }
  | { readonly key: 'closed'; readonly kind: 'closed'; readonly title: 'Closed' }

/** The board's columns in order, without the Open and Closed lists it hides. */
export function boardColumns(board: Board): BoardColumn[] {
  const lists = [...board.lists]
    .sort((a, b) => a.position - b.position)
    .map((l): BoardColumn => ({
      key: `list-${l.id}`,
      kind: 'label',
      title: l.label.name,
      label: l.label,
      listId: l.id,
      position: l.position,
    }))
  return [
    ...(board.hide_backlog_list ? [] : [{ key: 'backlog', kind: 'backlog', title: 'Open' } as const]),
    ...lists,
    ...(board.hide_closed_list ? [] : [{ key: 'closed', kind: 'closed', title: 'Closed' } as const]),
  ]
}

/** The label titles of the board's label lists. */
export function listLabels(columns: readonly BoardColumn[]): string[] {
  return columns.flatMap((c) => (c.kind === 'label' ? [c.label.name] : []))
}

/**
 * The issues a column shows: Open shows open issues carrying none of the lists' labels, a label
 * list its label's open issues (an issue with two list labels is in both, as in GitLab), Closed
 * the closed issues.
 */
export function columnIssues(column: BoardColumn, columns: readonly BoardColumn[], issues: readonly Issue[]): Issue[] {
  if (column.kind === 'closed') return issues.filter((i) => i.state === 'closed')
  const open = issues.filter((i) => i.state === 'opened')
  if (column.kind === 'label') return open.filter((i) => i.labels.includes(column.label.name))
  const labels = listLabels(columns)
  return open.filter((i) => !i.labels.some((l) => labels.includes(l)))
}

/**
 * What moving `issue` from one column to another changes: into a label list its label is added
 * and, coming from another label list, that one's removed; into Open or Closed every list label it
 * carries is removed; into Closed it closes, out of Closed it reopens. Null when nothing moves.
 */
export function moveChanges(
  issue: Issue,
  from: BoardColumn,
  to: BoardColumn,
  columns: readonly BoardColumn[],
): ItemChanges | null {
  if (from.key === to.key) return null
  const remove =
    to.kind === 'label'
      ? from.kind === 'label'
        ? [from.label.name]
        : []
      : issue.labels.filter((l) => listLabels(columns).includes(l))
  const state = to.kind === 'closed' ? 'close' : from.kind === 'closed' ? 'reopen' : undefined
  return {
    ...(to.kind === 'label' ? { add_labels: [to.label.name] } : {}),
    ...(remove.length > 0 ? { remove_labels: remove } : {}),
    ...(state ? { state_event: state } : {}),
  }
}

/**
 * The cache query of the issues a board can show, open or closed: the project's, narrowed to the
 * board's scope (milestone, assignee, labels, weight).
 */
export function boardIssueQuery(board: Board, projectId: number, state: 'opened' | 'closed'): IssueListParams {
  return {
    project_id: projectId,
    state,
    ...(board.milestone ? { milestone: board.milestone.title } : {}),
    ...(board.assignee ? { assignee_id: board.assignee.id } : {}),
    ...(board.labels.length > 0 ? { labels: board.labels.map((l) => l.name) } : {}),
    ...(board.weight !== null ? { weight: board.weight } : {}),
    ...(state === 'closed' ? { order_by: 'updated_at', sort: 'desc', limit: 50 } : { limit: 500 }),
  }
}
