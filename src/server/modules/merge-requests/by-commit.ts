/** The merge requests a commit belongs to (`GET /projects/:id/repository/commits/:sha/merge_requests`). */
import type { Caller } from '../../platform/caller'
import type { ProjectRow } from '../../platform/db/rows'
import { projectGitDir, repoExists } from '../../platform/git/project-repo'
import { descendantsOf, refNamesContaining } from '../../platform/git/refs'
import { mergeRequestsNamingCommit, type MergeRequestRow } from './queries'

const HEAD_REF = /^refs\/merge-requests\/(\d+)\/head$/
const STATES: readonly string[] = ['opened', 'closed', 'locked', 'merged']

/**
 * The project's merge requests holding commit `sha`, newest first, as GitLab's
 * by_related_commit_sha finds them: one of the merge request's commits (in its diff, from its
 * base to its head: `refs/merge-requests/:iid/head` or its recorded head contains the commit, its
 * base does not), or the commit it was merged or squashed into. Only those in `state` when it is
 * one (GitLab's finder ignores `all` and a state it does not know). "The project's" is GitLab's
 * `of_projects`: those it is the target of, from a fork included (their heads are refs of its
 * repository); a merge request it is only the source of belongs to its target's answer.
 */
export async function mergeRequestsOfCommit(
  caller: Caller,
  project: ProjectRow,
  sha: string,
  state?: string,
): Promise<MergeRequestRow[]> {
  const gitDir = projectGitDir(caller.ctx, project)
  if (!repoExists(gitDir)) return []
  const headRefs = await refNamesContaining(gitDir, sha, ['refs/merge-requests/'])
  const iids = headRefs.flatMap((ref) => {
    const match = HEAD_REF.exec(ref)
    return match ? [Number(match[1])] : []
  })
  const candidates = mergeRequestsNamingCommit(caller.db, project.id, sha, iids)
  const basesHolding = await descendantsOf(
    gitDir,
    sha,
    candidates.flatMap((mr) => (mr.base_sha ? [mr.base_sha] : [])),
  )
  const narrowed = state !== undefined && STATES.includes(state)
  return candidates.filter(
    (mr) =>
      (!narrowed || mr.state === state) &&
      (mr.merge_commit_sha === sha ||
        mr.squash_commit_sha === sha ||
        !(mr.base_sha !== null && basesHolding.has(mr.base_sha))),
  )
}
