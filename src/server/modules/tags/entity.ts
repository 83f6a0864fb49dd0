import { commitEntity, type GitCommit } from '../../platform/git/commits'
import type { GitTag } from '../../platform/git/tags'

/** GitLab's `Entities::Tag`. */
export interface TagEntity {
  readonly name: string
  readonly message: string
  readonly target: string
  readonly commit: Readonly<Record<string, unknown>> | null
  readonly release: null
  readonly protected: boolean
  readonly created_at: string | null
}

/** A tag with its commit (looked up by the caller, one batch per page). Releases and protected tags do not exist yet. */
export function tagEntity(t: GitTag, commit: GitCommit | undefined, projectWebUrl: string): TagEntity {
  return {
    name: t.name,
    message: t.message,
    target: t.target,
    commit: commit ? commitEntity(commit, projectWebUrl) : null,
    release: null,
    protected: false,
    created_at: t.taggedAt,
  }
}
