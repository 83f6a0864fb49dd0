import { commitEntity, type GitCommit } from '../../platform/git/commits'
import type { GitTag } from '../../platform/git/tags'
import type { TagRelease } from '../../../shared/api/repository'

/** GitLab's `Entities::Tag`. */
export interface TagEntity {
  readonly name: string
  readonly message: string
  readonly target: string
  readonly commit: Readonly<Record<string, unknown>> | null
  readonly release: TagRelease | null
  readonly protected: boolean
  readonly created_at: string | null
}

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
