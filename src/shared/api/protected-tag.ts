/** Protected tags (GitLab's Protected tags API): who may create tags matching a name or wildcard. */
import { Type, type Static } from 'typebox'
import { AccessLevelValue, Entity, Nullable } from './common'

/** A role that may create matching tags (users, groups and deploy keys are not kept: always null). */
export const TagCreateAccessLevel = Entity({
  id: Type.Integer(),
  access_level: AccessLevelValue,
  access_level_description: Type.String(),
  user_id: Nullable(Type.Integer()),
  group_id: Nullable(Type.Integer()),
  deploy_key_id: Nullable(Type.Integer()),
})
export type TagCreateAccessLevel = Static<typeof TagCreateAccessLevel>

/** GitLab's ProtectedTag entity. */
export const ProtectedTag = Entity({
  /** A tag name or a wildcard (`v*`). */
  name: Type.String(),
  create_access_levels: Type.Array(TagCreateAccessLevel),
})
export type ProtectedTag = Static<typeof ProtectedTag>
