import { commitEntity, type GitCommit } from '../../platform/git/commits'
import type { GitTag } from '../../platform/git/tags'
import type { Tag, TagRelease } from '../../../shared/api/repository'

/** GitLab's `Entities::Tag`. */
export type TagEntity = Tag

/**
 * A tag with its commit and its release (looked up by the caller, one batch per page). Protected
 * tags do not exist yet.
 */
export function tagEntity(
  t: GitTag,
  commit: GitCommit | undefined,
  projectWebUrl: string,
  release: TagRelease | undefined,
): TagEntity {
  return {
    name: t.name,
    message: t.message,
    target: t.target,
    commit: commit ? commitEntity(commit, projectWebUrl) : null,
    release: release ?? null,
    protected: false,
    created_at: t.taggedAt,
  }
}
