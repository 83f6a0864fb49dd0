import { defineStore } from 'pinia'
import type { Board } from '../../shared/api/board'
import { useBridge } from '../bridge'
import { boardColumns, boardIssueQuery, moveChanges, type BoardColumn } from '../lib/board'
import { asIssue, type Issue, type Label } from '../lib/items'
import { useItemStore, type ItemWrite } from './items'

/** A project's boards as read: from the server, or its saved copy when offline (`stale`). */
export interface ProjectBoards {
  readonly boards: readonly Board[]
  readonly stale: boolean
}

/**
 * Issue boards: reading a project's boards and the labels its lists may carry (saved copies
 * offline), changing the lists (online, as GitLab's boards API), and moving a card, which is a
 * write to the issue through the item store, so it shows at once and waits in the outbox offline.
 */
export const useBoardsStore = defineStore('boards', () => {
  const bridge = useBridge()
  const boardsPath = (projectId: number): string => `/projects/${projectId}/boards`

  async function load(accountId: string, projectId: number): Promise<ProjectBoards> {
    const answer = await bridge.request('api:get', accountId, boardsPath(projectId), { per_page: 100 })
    return { boards: Array.isArray(answer.body) ? (answer.body as Board[]) : [], stale: answer.stale }
  }

  /** The issues the board can show, open and closed, from the cache (offline too). */
  async function issues(accountId: string, projectId: number, board: Board): Promise<Issue[]> {
    const lists = await Promise.all(
      (['opened', 'closed'] as const).map((state) =>
        bridge.request('issues:list', accountId, boardIssueQuery(board, projectId, state)),
      ),
    )
    return lists.flatMap((list) => list.items.map((i) => asIssue(i.data)))
  }

  /** The labels the project may put on a list: its own and its groups'. */
  async function labels(accountId: string, projectId: number): Promise<Label[]> {
    const answer = await bridge.request('api:get', accountId, `/projects/${projectId}/labels`, { per_page: 100 })
    return Array.isArray(answer.body) ? (answer.body as Label[]) : []
  }

  /** Sends a change of the project's boards; the saved copy of its board list is outdated by it. */
  async function send(
    accountId: string,
    projectId: number,
    method: 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: Readonly<Record<string, string | number>>,
  ): Promise<void> {
    await bridge.request('api:send', accountId, {
      method,
      path,
      ...(body ? { body } : {}),
      invalidates: [boardsPath(projectId)],
    })
  }

  const createBoard = (accountId: string, projectId: number, name: string) =>
    send(accountId, projectId, 'POST', boardsPath(projectId), { name })
  const addList = (accountId: string, projectId: number, boardId: number, labelId: number) =>
    send(accountId, projectId, 'POST', `${boardsPath(projectId)}/${boardId}/lists`, { label_id: labelId })
  const moveList = (accountId: string, projectId: number, boardId: number, listId: number, position: number) =>
    send(accountId, projectId, 'PUT', `${boardsPath(projectId)}/${boardId}/lists/${listId}`, { position })
  const removeList = (accountId: string, projectId: number, boardId: number, listId: number) =>
    send(accountId, projectId, 'DELETE', `${boardsPath(projectId)}/${boardId}/lists/${listId}`)

  /**
   * Moves a card: relabels (and closes or reopens) the issue as GitLab's board move does, through
   * the item store. Null when the card stays where it is.
   */
  function moveCard(
    accountId: string,
    board: Board,
    issue: Issue,
    from: BoardColumn,
    to: BoardColumn,
  ): Promise<ItemWrite | null> {
    const changes = moveChanges(issue, from, to, boardColumns(board))
    return changes === null ? Promise.resolve(null) : useItemStore(accountId).update('issue', issue, changes)
  }

  return { load, issues, labels, createBoard, addList, moveList, removeList, moveCard }
})
