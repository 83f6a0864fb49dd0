/**
 * Epics (spec "Epic", PREMIUM): the entity, its issues with their link, and child epics.
 */
import { Type, type Static } from 'typebox'
import { Entity, IsoDate, ItemLabels, Nullable, References, Timestamp } from './common'
import { Issue } from './issue'
import { UserRef } from './user'

const epicFields = {
  id: Type.Integer(),
  iid: Type.Integer(),
  group_id: Type.Integer(),
  parent_id: Nullable(Type.Integer()),
  parent_iid: Nullable(Type.Integer()),
  title: Type.String(),
  description: Nullable(Type.String()),
  state: Type.Enum(['opened', 'closed']),
  confidential: Type.Boolean(),
  web_url: Type.String(),
  /** Deprecated: `&5`, or the full form inside an epic-issue link. */
  reference: Type.String(),
  references: References,
  author: Nullable(UserRef),
  start_date: Nullable(IsoDate),
  start_date_is_fixed: Type.Optional(Type.Boolean()),
  start_date_fixed: Type.Optional(Nullable(IsoDate)),
  /** Deprecated: `start_date_from_inherited_source`. */
  start_date_from_milestones: Nullable(IsoDate),
  start_date_from_inherited_source: Nullable(IsoDate),
  /** Deprecated: `due_date`. */
  end_date: Nullable(IsoDate),
  due_date: Nullable(IsoDate),
  due_date_is_fixed: Type.Optional(Type.Boolean()),
  due_date_fixed: Type.Optional(Nullable(IsoDate)),
  /** Deprecated: `due_date_from_inherited_source`. */
  due_date_from_milestones: Nullable(IsoDate),
  due_date_from_inherited_source: Nullable(IsoDate),
  created_at: Timestamp,
  updated_at: Timestamp,
  closed_at: Nullable(Timestamp),
  labels: ItemLabels,
  upvotes: Type.Integer(),
  downvotes: Type.Integer(),
  subscribed: Type.Optional(Type.Boolean()),
  _links: Entity({
    self: Type.String(),
    epic_issues: Type.String(),
    group: Type.String(),
    parent: Nullable(Type.String()),
  }),
}

/**
 * GitLab's Epic entity. The `*_is_fixed` and `*_fixed` fields are shown to callers who may edit
 * the group's epics; `subscribed` only on single-epic answers.
 */
export const Epic = Entity(epicFields)
export type Epic = Static<typeof Epic>

/** `GET /groups/:id/epics/:epic_iid/issues`: an issue with its link to the epic. */
export const EpicIssue = Entity({
  ...Issue.properties,
  epic_issue_id: Nullable(Type.Integer()),
  relative_position: Nullable(Type.Integer()),
})
export type EpicIssue = Static<typeof EpicIssue>

/** GitLab's EpicIssueLink: assigning (or removing) an issue answers with the link, its epic and its issue. */
export const EpicIssueLink = Entity({
  id: Type.Integer(),
  relative_position: Nullable(Type.Integer()),
  epic: Epic,
  issue: Issue,
})
export type EpicIssueLink = Static<typeof EpicIssueLink>

/** GitLab's LinkedEpic: a child epic created under a parent (`POST /groups/:id/epics/:epic_iid/epics`). */
export const LinkedEpic = Entity({
  id: Type.Integer(),
  iid: Type.Integer(),
  title: Type.String(),
  group_id: Type.Integer(),
  parent_id: Nullable(Type.Integer()),
  has_children: Type.Boolean(),
  has_issues: Type.Boolean(),
  reference: Type.String(),
  url: Type.String(),
  relation_url: Type.String(),
})
export type LinkedEpic = Static<typeof LinkedEpic>
