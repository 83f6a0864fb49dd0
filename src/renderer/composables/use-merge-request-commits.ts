import { computed, type ComputedRef } from 'vue'
import type { SelectOption } from 'naive-ui'
import { IpcFailure } from '../../shared/ipc/contract'
import type { RepoDiff, RepoMergeRequestChanges } from '../../shared/ipc/repos'
import { useBridge } from '../bridge'
import { rangeDiffRefs, rangeEnds } from '../lib/commit-range'
import type { Commit } from '../lib/items'
import type { DiffRefs } from '../lib/review-threads'
import { useCachedQuery, type CachedQuery } from './use-cached-query'

/** A diff the review shows: the merge request's changes, or a commit's or a range's with the parent it is against. */
export type ReviewSource = RepoMergeRequestChanges & { readonly parentSha?: string | null }

/** The commit picker's value for all the merge request's changes. */
export const ALL_CHANGES = ''

export interface MergeRequestCommits {
  readonly commits: CachedQuery<readonly Commit[]>
  /** The picker's choices: All changes, then each commit (short SHA and title), newest first. */
  readonly options: ComputedRef<SelectOption[]>
  /**
   * The range end picker's choices for a range from commit `from`: it alone, then each newer commit
   * (newest first); none when no range can start there (its parent is not known, a root commit).
   */
  endOptions(from: string): SelectOption[]
  /**
   * One commit's own diff against its first parent (a root commit: none), as last read offline,
   * else from the clone when it has fetched the commit.
   */
  diffOf(sha: string): Promise<ReviewSource>
  /**
   * A range's diff, its head against its base (`rangeDiffRefs`): the server's straight compare,
   * its saved answer offline, else computed from the clone when it has fetched those commits.
   */
  rangeDiffOf(refs: DiffRefs): Promise<ReviewSource>
}

/**
 * The commits of a merge request for the review's commit picker (GitLab's), and the diff of one of
 * them or of a range of them (lib/commit-range.ts). They are read through the cached `api:get`, not
 * the clone: a merge request's commits need not be in it (a branch not fetched yet, a fork's); a
 * range offline with no saved answer is computed from the clone.
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
    endOptions(from) {
      const list = commits.data.value ?? []
      if (rangeDiffRefs(list, { from, to: from }) === null) return []
      return rangeEnds(list, from).map((c) => ({
        label: c.id === from ? 'This commit only' : `Through ${c.short_id} ${c.title}`,
        value: c.id,
      }))
    },
    diffOf(sha) {
      const path = `/projects/${options.projectId()}/repository/commits/${sha}`
      return orFromClone(
        async () => {
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
        async () => {
          const local = await bridge.request('repos:commit', options.accountId(), {
            projectId: options.projectId(),
            sha,
          })
          const { source, stale, fetchedAt, diffs, overflow } = local
          return {
            source,
            stale,
            fetchedAt,
            diffs,
            overflow,
            headSha: sha,
            parentSha: local.commit.parent_ids[0] ?? null,
          }
        },
      )
    },
    rangeDiffOf(refs) {
      const ends = { headSha: refs.head_sha, parentSha: refs.base_sha }
      const compare = { from: refs.base_sha, to: refs.head_sha, straight: true }
      return orFromClone(
        async () => {
          const path = `/projects/${options.projectId()}/repository/compare`
          const answer = await bridge.request('api:get', options.accountId(), path, compare)
          const body = answer.body as { diffs?: RepoDiff[]; compare_timeout?: boolean } | null
          const diffs = Array.isArray(body?.diffs) ? body.diffs : []
          const overflow = body?.compare_timeout === true
          return { source: 'server', stale: answer.stale, fetchedAt: answer.fetchedAt, diffs, overflow, ...ends }
        },
        async () => {
          const request = { projectId: options.projectId(), ...compare }
          const { source, stale, fetchedAt, diffs, overflow } = await bridge.request(
            'repos:compare',
            options.accountId(),
            request,
          )
          return { source, stale, fetchedAt, diffs, overflow, ...ends }
        },
      )
    },
  }
}

/**
 * A diff read from the server (its saved answer offline), or, offline with nothing saved, from the
 * clone, which has a merge request's commits once it fetched them; failing that, the offline failure
 * is the reason to show (a clone without those commits would only say "not found").
 */
async function orFromClone(
  read: () => Promise<ReviewSource>,
  fromClone: () => Promise<ReviewSource>,
): Promise<ReviewSource> {
  try {
    return await read()
  } catch (error) {
    if (!(error instanceof IpcFailure && error.code === 'offline')) throw error
    return fromClone().catch(() => {
      throw error
    })
  }
}
