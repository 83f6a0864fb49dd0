/**
 * Deciding how a merge request is merged: the checks of `PUT …/merge` (who may merge into the
 * target branch, state, draft, conflicts, "pipelines must succeed") and the choice between merging
 * now and merging once the running head pipeline succeeds. The route and the `/merge` quick action
 * both go through here, so a comment can never merge what the endpoint would refuse.
 */

import type { Caller } from '../../platform/caller'
import { AccessLevel } from '../../platform/auth/access'
import type { MergeRequestRow } from './queries'
import type { ProjectRow, UserRow } from '../../platform/db/rows'
import { ApiError, apiMessage, unauthorized } from '../../platform/http/errors'
import { ACTIVE_PIPELINE_STATUSES, enableAutoMerge, headPipelineOf, pipelineAllowsMerge } from './auto-merge'
import { assertMergeable, mergeMergeRequest, type MergeOptions } from './merge'
import { hasAccess, listProtectedBranches, rulesFor } from '../branches'

/** Developer on an unprotected target branch; on a protected one, the rule's "allowed to merge" levels. */
export function canMergeInto(caller: Caller, project: ProjectRow, branch: string): boolean {
  const rules = rulesFor(listProtectedBranches(caller.db, project.id), branch)
  if (rules.length === 0) return caller.perms.canInProject(project, AccessLevel.DEVELOPER)
  return hasAccess(caller.perms, project, rules, 'merge')
}

/** `now`: merge at once; `when_pipeline_succeeds`: the head pipeline is still running and will merge it. */
export type MergeStrategy = 'now' | 'when_pipeline_succeeds'

/**
 * How the caller's merge would happen, or GitLab's refusal: 401 without the right to merge into the
 * target branch (GitLab's answer here), 405/406 from `assertMergeable`, 405 when the project wants
 * a successful pipeline it does not have. `autoMerge` accepts waiting for a running head pipeline.
 */
export function mergeStrategy(
  caller: Caller,
  project: ProjectRow,
  mr: MergeRequestRow,
  autoMerge: boolean,
): MergeStrategy {
  if (!canMergeInto(caller, project, mr.target_branch)) throw unauthorized()
  assertMergeable(mr)
  const head = headPipelineOf(caller.db, mr)
  if (autoMerge && head && ACTIVE_PIPELINE_STATUSES.includes(head.status)) return 'when_pipeline_succeeds'
  if (!pipelineAllowsMerge(project, head)) throw apiMessage(405, '405 Method Not Allowed')
  return 'now'
}

/** The strategy as `mergeStrategy` decides it, or null where it refuses (GitLab's `can_merge?`). */
export function availableMergeStrategy(caller: Caller, project: ProjectRow, mr: MergeRequestRow): MergeStrategy | null {
  try {
    return mergeStrategy(caller, project, mr, true)
  } catch (error) {
    if (error instanceof ApiError) return null
    throw error
  }
}

/**
 * Merges now, or sets the merge request to merge when its running head pipeline succeeds (when
 * `autoMerge` allows it), after every check of `mergeStrategy`. A given `sha` must be the source
 * branch's head (409 otherwise), as for `PUT …/merge`.
 */
export async function mergeOrSchedule(
  caller: Caller,
  project: ProjectRow,
  mr: MergeRequestRow,
  user: UserRow,
  options: MergeOptions,
  autoMerge: boolean,
): Promise<{ readonly row: MergeRequestRow; readonly strategy: MergeStrategy }> {
  const strategy = mergeStrategy(caller, project, mr, autoMerge)
  if (strategy === 'when_pipeline_succeeds') {
    if (options.sha !== undefined && options.sha !== mr.head_sha)
      throw apiMessage(409, `SHA does not match HEAD of source branch: ${mr.head_sha ?? ''}`)
    return { row: enableAutoMerge(caller.db, mr, user, options), strategy }
  }
  return { row: await mergeMergeRequest(caller, project, mr, user, options), strategy }
}
