import type { Board, BoardList } from '../../../shared/api/board'
import type { ProjectSimple } from '../../../shared/api/project'
import type { UserRef } from '../../../shared/api/user'
import { labelBasicEntity } from '../labels'
import type { LabelRow } from '../labels'
import { milestoneEntity } from '../milestones'
import type { BoardListRow, BoardRow, OwnedMilestoneRow } from './queries'

/** What a board needs besides its row, loaded for a whole page. */
export interface BoardParts {
  readonly project: ProjectSimple
  readonly milestone: OwnedMilestoneRow | undefined
  readonly assignee: UserRef | undefined
  readonly labels: readonly LabelRow[]
  readonly lists: readonly { readonly list: BoardListRow; readonly label: LabelRow }[]
}

/** GitLab's LabelBasic of a label row. */
function labelBasic(label: LabelRow): BoardList['label'] {
  return labelBasicEntity(label) as BoardList['label']
}

/** GitLab's List entity: a label list (work in progress limits are not kept). */
export function boardListEntity(list: BoardListRow, label: LabelRow): BoardList {
  return {
    id: list.id,
    label: labelBasic(label),
    position: list.position,
    max_issue_count: 0,
    max_issue_weight: 0,
    limit_metric: null,
  }
}

/** GitLab's Board entity; `today` judges whether the milestone has expired. */
export function boardEntity(row: BoardRow, parts: BoardParts, baseUrl: string, today: string): Board {
  const milestone = parts.milestone
  return {
    id: row.id,
    name: row.name,
    hide_backlog_list: row.hide_backlog_list === 1,
    hide_closed_list: row.hide_closed_list === 1,
    project: parts.project,
    group: null,
    milestone: milestone ? milestoneEntity(milestone, baseUrl, milestone.owner_path, today) : null,
    assignee: parts.assignee ?? null,
    labels: parts.labels.map(labelBasic),
    weight: row.weight,
    lists: parts.lists.map(({ list, label }) => boardListEntity(list, label)),
  }
}
