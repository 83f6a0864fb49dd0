/**
 * Issue boards of projects (GitLab's Project issue boards API): a board, its scope and its label
 * lists. The Open and Closed lists are not lists of the API (GitLab leaves them out too).
 */
import { Type, type Static } from 'typebox'
import { Entity, LabelBasic, Nullable } from './common'
import { Milestone } from './milestone'
import { ProjectSimple } from './project'
import { UserRef } from './user'

/** GitLab's List entity: a column of issues carrying a label, at its position from 0. */
export const BoardList = Entity({
  id: Type.Integer(),
  label: LabelBasic,
  position: Type.Integer(),
  /** Work in progress limits are not kept: always 0, and no limit metric. */
  max_issue_count: Type.Integer(),
  max_issue_weight: Type.Integer(),
  limit_metric: Type.Null(),
})
export type BoardList = Static<typeof BoardList>

/** GitLab's Board entity with its scope (milestone, assignee, labels, weight) and label lists. */
export const Board = Entity({
  id: Type.Integer(),
  name: Type.String(),
  /** The Open list is hidden. */
  hide_backlog_list: Type.Boolean(),
  /** The Closed list is hidden. */
  hide_closed_list: Type.Boolean(),
  project: Nullable(ProjectSimple),
  /** Group boards are not served: always null. */
  group: Type.Null(),
  milestone: Nullable(Milestone),
  assignee: Nullable(UserRef),
  labels: Type.Array(LabelBasic),
  weight: Nullable(Type.Integer()),
  lists: Type.Array(BoardList),
})
export type Board = Static<typeof Board>
