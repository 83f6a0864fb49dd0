import { callerFor } from '../../platform/caller'
import type { ServerContext } from '../../platform/context'
import { AccessLevel } from '../../platform/auth/access'
import type { Db } from '../../platform/db/connection'
import {
  autoMergeIdsAt,
  deleteAutoMerge,
  findAutoMerge,
  findMergeRequestById,
  saveAutoMerge,
  updateMergeRequestRow,
  type MergeRequestRow,
} from './queries'
import { findProjectById } from '../namespaces'
import { latestPipelineFor, type CiStatus, type PipelineRow } from '../pipelines'
import type { ProjectRow, UserRow } from '../../platform/db/rows'
import { findUserById } from '../users'
import { projectSettings } from '../projects'
import { ApiError } from '../../platform/http/errors'
import type { PipelineStatusEvent } from '../pipelines'
import { assertMergeable, mergeMergeRequest, type MergeOptions } from './merge'
import { runInBackground } from './mergeability'
import { noteAutoMerge } from './system-notes'

/** Pipeline statuses that may still end in success (GitLab's ACTIVE_STATUSES). */
export const ACTIVE_PIPELINE_STATUSES: readonly CiStatus[] = [
  'created',
  'waiting_for_resource',
  'preparing',
  'pending',
  'running',
  'scheduled',
]

/** The head pipeline of a merge request: the newest pipeline of its source branch at its head commit. */
export function headPipelineOf(db: Db, mr: MergeRequestRow): PipelineRow | undefined {
  if (!mr.head_sha || mr.source_project_id === null) return undefined
  return latestPipelineFor(db, mr.source_project_id, mr.source_branch, mr.head_sha)
}

/**
 * GitLab's "Pipelines must succeed": with only_allow_merge_if_pipeline_succeeds, the head pipeline
 * must exist and have succeeded (or been skipped, when skipped pipelines count as successful).
 */
export function pipelineAllowsMerge(project: ProjectRow, head: PipelineRow | undefined): boolean {
  const s = projectSettings(project.settings)
  if (s.only_allow_merge_if_pipeline_succeeds !== true) return true
  if (!head) return false
  return head.status === 'success' || (head.status === 'skipped' && s.allow_merge_on_skipped_pipeline === true)
}

/** Sets the merge request to merge when its head pipeline succeeds, remembering who asked and how. */
export function enableAutoMerge(db: Db, mr: MergeRequestRow, user: UserRow, options: MergeOptions): MergeRequestRow {
  return db.transaction(() => {
    saveAutoMerge(db, mr.id, user.id, JSON.stringify(options))
    if (mr.merge_when_pipeline_succeeds !== 1 && mr.head_sha) noteAutoMerge(db, mr, user.id, mr.head_sha)
    return updateMergeRequestRow(db, mr.id, { merge_when_pipeline_succeeds: 1, merge_error: null })
  })()
}

/** Cancels a pending auto-merge at `user`'s request (`canceled the automatic merge`). */
export function cancelAutoMerge(db: Db, mr: MergeRequestRow, user: UserRow): MergeRequestRow {
  return db.transaction(() => {
    const row = updateMergeRequestRow(db, mr.id, { merge_when_pipeline_succeeds: 0 })
    disableAutoMerge(db, mr.id)
    noteAutoMerge(db, mr, user.id, null)
    return row
  })()
}

/** Forgets a pending auto-merge (cancelled, merged, or failed). */
export function disableAutoMerge(db: Db, mrId: number): void {
  deleteAutoMerge(db, mrId)
}

/** Where the pipeline event came from: merges run as their user but keep the request's origin. */
interface EventOrigin {
  readonly ctx: ServerContext
  readonly baseUrl: string
  readonly ip: string | null
}

async function autoMerge(origin: EventOrigin, mrId: number, pipeline: PipelineRow): Promise<void> {
  const { ctx } = origin
  const mr = findMergeRequestById(ctx.db, mrId)
  if (!mr || mr.state !== 'opened' || mr.merge_when_pipeline_succeeds !== 1 || mr.head_sha !== pipeline.sha) return
  const pending = findAutoMerge(ctx.db, mr.id)
  const user = pending ? findUserById(ctx.db, pending.user_id) : undefined
  const project = findProjectById(ctx.db, mr.project_id)
  const fail = (message: string) => {
    updateMergeRequestRow(ctx.db, mr.id, { merge_when_pipeline_succeeds: 0, merge_error: message })
    disableAutoMerge(ctx.db, mr.id)
  }
  if (!user || !project)
    return fail('The user who set the merge request to merge when the pipeline succeeds no longer exists')
  const as = callerFor(ctx, user, { baseUrl: origin.baseUrl, ip: origin.ip })
  if (!as.perms.canInProject(project, AccessLevel.DEVELOPER))
    return fail('The user who set the merge request to merge when the pipeline succeeds may no longer merge it')
  try {
    assertMergeable(mr)
    await mergeMergeRequest(as, project, mr, user, {
      ...(JSON.parse(pending?.params ?? '{}') as MergeOptions),
      sha: pipeline.sha,
    })
    disableAutoMerge(ctx.db, mr.id)
  } catch (error) {
    fail(
      error instanceof ApiError
        ? String((error.body as { message?: unknown } | null)?.message ?? error.message)
        : 'Merge failed',
    )
  }
}

/**
 * Pipeline status listener: when a pipeline succeeds, the open merge requests set to merge when
 * their pipeline succeeds whose head it ran on are merged (in the background, as the user who
 * set them); a failed merge turns the setting off and leaves the reason in merge_error.
 */
export function mergeWhenPipelineSucceeds({ ctx, caller, pipeline }: PipelineStatusEvent): void {
  if (pipeline.status !== 'success' || !caller) return
  const origin: EventOrigin = { ctx, baseUrl: caller.baseUrl, ip: caller.ip }
  for (const id of autoMergeIdsAt(ctx.db, pipeline.project_id, pipeline.ref, pipeline.sha))
    runInBackground(ctx, () => autoMerge(origin, id, pipeline))
}
