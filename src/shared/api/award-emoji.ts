/**
 * Award emoji on issues, merge requests, snippets, epics and their notes.
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable, Timestamp } from './common'
import { UserRef } from './user'

/** GitLab's AwardEmoji entity. */
export const AwardEmoji = Entity({
  id: Type.Integer(),
  /** The emoji's name, e.g. `thumbsup`. */
  name: Type.String(),
  user: Nullable(UserRef),
  created_at: Timestamp,
  updated_at: Timestamp,
  awardable_id: Type.Integer(),
  awardable_type: Type.Enum(['Issue', 'MergeRequest', 'Snippet', 'Note', 'Epic']),
  /** The custom emoji's image; null for the standard set. */
  url: Nullable(Type.String()),
})
export type AwardEmoji = Static<typeof AwardEmoji>
