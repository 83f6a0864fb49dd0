/**
 * Labels of groups and projects (spec "Group label").
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable } from './common'

/**
 * GitLab's Label entity. The counts appear when asked for (`with_counts`, single reads and writes);
 * labels shown under a project add `priority` and `is_project_label`.
 */
export const Label = Entity({
  id: Type.Integer(),
  name: Type.String(),
  /** `#rrggbb` or a CSS colour name. */
  color: Type.String(),
  text_color: Type.String(),
  description: Nullable(Type.String()),
  description_html: Nullable(Type.String()),
  open_issues_count: Type.Optional(Type.Integer()),
  closed_issues_count: Type.Optional(Type.Integer()),
  open_merge_requests_count: Type.Optional(Type.Integer()),
  subscribed: Type.Boolean(),
  priority: Type.Optional(Nullable(Type.Integer())),
  is_project_label: Type.Optional(Type.Boolean()),
})
export type Label = Static<typeof Label>
