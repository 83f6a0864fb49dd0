import { computed, type ComputedRef } from 'vue'
import type { SelectOption } from 'naive-ui'
import type { RepoDiff, RepoMergeRequestChanges } from '../../shared/ipc/repos'
import { useBridge } from '../bridge'
import type { Commit } from '../lib/items'
import { useCachedQuery, type CachedQuery } from './use-cached-query'

/** A diff the review shows: the merge request's changes, or one commit's with the parent it is against. */
export type ReviewSource = RepoMergeRequestChanges & { readonly parentSha?: string | null }

/** The commit picker's value for all the merge request's changes. */
export const ALL_CHANGES = ''

export interface MergeRequestCommits {
  readonly commits: CachedQuery<readonly Commit[]>
  /** The picker's choices: All changes, then each commit (short SHA and title), newest first. */
  readonly options: ComputedRef<SelectOption[]>
  /** One commit's own diff against its first parent (a root commit: none), as last read offline. */
  diffOf(sha: string): Promise<ReviewSource>
}

/**
 * The commits of a merge request for the review's commit picker (GitLab's), and the diff of one of
 * them. Both are read through the cached `api:get`, not the clone: a merge request's commits need
 * not be in it (a branch not fetched yet, a fork's).
 */
export function useMergeRequestCommits(options: {
  readonly accountId: () => string
  readonly projectId: () => number
  readonly iid: () => number
  /** The merge request's head: its commits are read again when it moves. */
  readonly sha: () => string | null
}): MergeRequestCommits {
  const bridge = useBridge()
  const commits = useCachedQuery(
    () => [options.accountId(), options.projectId(), options.iid(), options.sha()],
    () => [options.accountId()],
    [],
    async () => {
      const path = `/projects/${options.projectId()}/merge_requests/${options.iid()}/commits`
      const answer = await bridge.request('api:get', options.accountId(), path, { per_page: 100 })
      return Array.isArray(answer.body) ? (answer.body as Commit[]) : []
    },
  )
  return {
    commits,
    options: computed(() => [
      { label: 'All changes', value: ALL_CHANGES },
      ...(commits.data.value ?? []).map((c) => ({ label: `${c.short_id} ${c.title}`, value: c.id })),
    ]),
    async diffOf(sha) {
      const path = `/projects/${options.projectId()}/repository/commits/${sha}`
      const [commit, diff] = await Promise.all([
        bridge.request('api:get', options.accountId(), path),
        bridge.request('api:get', options.accountId(), `${path}/diff`, { per_page: 100 }),
      ])
      const diffs = Array.isArray(diff.body) ? (diff.body as RepoDiff[]) : []
      const parents = (commit.body as { parent_ids?: readonly string[] } | null)?.parent_ids ?? []
      return {
        source: 'server',
        stale: diff.stale,
        fetchedAt: diff.fetchedAt,
        diffs,
        overflow: (diff.page?.total ?? diffs.length) > diffs.length,
        headSha: sha,
        parentSha: parents[0] ?? null,
      }
    },
  }
}
