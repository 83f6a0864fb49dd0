/**
 * Namespaces: the personal namespace of a user or a group, as projects embed it and as the
 * namespaces API lists it.
 */
import { Type, type Static } from 'typebox'
import { Entity, IsoDate, Nullable } from './common'

const refFields = {
  id: Type.Integer(),
  name: Type.String(),
  path: Type.String(),
  kind: Type.Enum(['user', 'group']),
  full_path: Type.String(),
  parent_id: Nullable(Type.Integer()),
}

/** A namespace named by its paths (the group of a group-level to-do). */
export const NamespaceRef = Entity(refFields)
export type NamespaceRef = Static<typeof NamespaceRef>

const namespaceFields = {
  ...refFields,
  avatar_url: Nullable(Type.String()),
  web_url: Type.String(),
}

/** The `namespace` object of a project. */
export const ProjectNamespace = Entity(namespaceFields)
export type ProjectNamespace = Static<typeof ProjectNamespace>

/** GitLab's Namespace entity (`GET /namespaces`, `GET /namespaces/:id`). */
export const Namespace = Entity({
  ...namespaceFields,
  billable_members_count: Type.Integer(),
  plan: Type.String(),
  end_date: Nullable(IsoDate),
  trial_ends_on: Nullable(IsoDate),
  trial: Type.Boolean(),
  root_repository_size: Type.Integer(),
  projects_count: Type.Integer(),
  members_count_with_descendants: Type.Optional(Type.Integer()),
})
export type Namespace = Static<typeof Namespace>

/** `GET /namespaces/:id/exists`: whether the path is taken, and a free one when it is. */
export const NamespaceExists = Entity({ exists: Type.Boolean(), suggests: Type.Array(Type.String()) })
export type NamespaceExists = Static<typeof NamespaceExists>
