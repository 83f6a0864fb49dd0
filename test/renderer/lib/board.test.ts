import { describe, expect, it } from 'vitest'
import type { Board } from '../../../src/shared/api/board'
import { boardColumns, boardIssueQuery, columnIssues, moveChanges } from '../../../src/renderer/lib/board'
import type { Issue } from '../../../src/renderer/lib/items'

const label = (id: number, name: string) => ({
  id,
  name,
  color: '#428BCA',
  description: null,
  description_html: null,
  text_color: '#FFFFFF',
})

const board = (overrides: Partial<Board> = {}): Board => ({
  id: 1,
  name: 'Development',
  hide_backlog_list: false,
  hide_closed_list: false,
  project: null,
  group: null,
  milestone: null,
  assignee: null,
  labels: [],
  weight: null,
  lists: [
    { id: 12, label: label(2, 'Doing'), position: 1, max_issue_count: 0, max_issue_weight: 0, limit_metric: null },
    { id: 11, label: label(1, 'To Do'), position: 0, max_issue_count: 0, max_issue_weight: 0, limit_metric: null },
  ],
  ...overrides,
})

const issue = (iid: number, labels: string[], state: 'opened' | 'closed' = 'opened'): Issue =>
  ({ id: iid, iid, project_id: 5, title: `Issue ${iid}`, labels, state, assignees: [] }) as unknown as Issue

describe('issue boards', () => {
  const columns = boardColumns(board())
  const [open, todo, doing, closed] = columns

  it('orders the columns Open, label lists by position, Closed, leaving out the hidden lists', () => {
    expect(columns.map((c) => c.title)).toEqual(['Open', 'To Do', 'Doing', 'Closed'])
    expect(boardColumns(board({ hide_backlog_list: true, hide_closed_list: true })).map((c) => c.title)).toEqual([
      'To Do',
      'Doing',
    ])
  })

  it('puts open issues without a list label in Open, with one in its lists, closed ones in Closed', () => {
    const issues = [issue(1, ['bug']), issue(2, ['To Do']), issue(3, ['To Do', 'Doing']), issue(4, ['Doing'], 'closed')]
    const iids = (c: (typeof columns)[number]) => columnIssues(c, columns, issues).map((i) => i.iid)
    expect([iids(open), iids(todo), iids(doing), iids(closed)]).toEqual([[1], [2, 3], [3], [4]])
  })

  it('relabels a card moved between label lists, from Open, and back to Open', () => {
    expect(moveChanges(issue(2, ['To Do']), todo, doing, columns)).toEqual({
      add_labels: ['Doing'],
      remove_labels: ['To Do'],
    })
    expect(moveChanges(issue(1, ['bug']), open, todo, columns)).toEqual({ add_labels: ['To Do'] })
    expect(moveChanges(issue(3, ['To Do', 'Doing', 'bug']), doing, open, columns)).toEqual({
      remove_labels: ['To Do', 'Doing'],
    })
    expect(moveChanges(issue(2, ['To Do']), todo, todo, columns)).toBeNull()
  })

  it('closes a card moved to Closed, taking its list labels, and reopens one moved out of it', () => {
    expect(moveChanges(issue(2, ['To Do', 'bug']), todo, closed, columns)).toEqual({
      remove_labels: ['To Do'],
      state_event: 'close',
    })
    expect(moveChanges(issue(4, ['bug'], 'closed'), closed, doing, columns)).toEqual({
      add_labels: ['Doing'],
      state_event: 'reopen',
    })
    expect(moveChanges(issue(4, [], 'closed'), closed, open, columns)).toEqual({ state_event: 'reopen' })
  })

  it("asks the cache for the project's issues within the board's scope", () => {
    const scoped = board({
      milestone: { title: 'Sprint 1' } as Board['milestone'],
      assignee: { id: 7 } as Board['assignee'],
      labels: [label(3, 'backend')],
      weight: 2,
    })
    expect(boardIssueQuery(scoped, 5, 'opened')).toEqual({
      project_id: 5,
      state: 'opened',
      milestone: 'Sprint 1',
      assignee_id: 7,
      labels: ['backend'],
      weight: 2,
      limit: 500,
    })
    expect(boardIssueQuery(board(), 5, 'closed')).toEqual({
      project_id: 5,
      state: 'closed',
      order_by: 'updated_at',
      sort: 'desc',
      limit: 50,
    })
  })
})
