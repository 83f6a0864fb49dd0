import type { GitCommit } from '../../platform/git/commits'
import { commitEntity } from '../../platform/git/commits'
import type { Branch } from '../../../shared/api/repository'

/** What a branch entity needs beyond its name and head, computed once per page. */
export interface BranchFacts {
  readonly merged: boolean
  readonly protected: boolean
  readonly isDefault: boolean
  readonly developersCanPush: boolean
  readonly developersCanMerge: boolean
  readonly canPush: boolean
}

/** GitLab's Branch entity. */
export function branchEntity(name: string, commit: GitCommit, facts: BranchFacts, projectWebUrl: string): Branch {
  return {
    name,
    commit: commitEntity(commit, projectWebUrl),
    merged: facts.merged,
    protected: facts.protected,
    developers_can_push: facts.developersCanPush,
    developers_can_merge: facts.developersCanMerge,
    can_push: facts.canPush,
    default: facts.isDefault,
    web_url: `${projectWebUrl}/-/tree/${name}`,
  }
}
