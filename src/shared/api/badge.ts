/**
 * Badges of projects and groups (GitLab's Project badges and Group badges APIs): a link and an
 * image, as stored (with placeholders) and as rendered for a project.
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable } from './common'

const BadgeUrls = {
  name: Nullable(Type.String()),
  link_url: Type.String(),
  image_url: Type.String(),
  /** The link with its placeholders filled in for the project (a group's: its first project). */
  rendered_link_url: Type.String(),
  rendered_image_url: Type.String(),
}

/** GitLab's BasicBadgeDetails: what the render endpoint previews. */
export const BadgePreview = Entity(BadgeUrls)
export type BadgePreview = Static<typeof BadgePreview>

/** GitLab's Badge entity: a project's own badge or one it inherits from a group (`kind`). */
export const Badge = Entity({
  id: Type.Integer(),
  ...BadgeUrls,
  kind: Type.Union([Type.Literal('project'), Type.Literal('group')]),
})
export type Badge = Static<typeof Badge>
