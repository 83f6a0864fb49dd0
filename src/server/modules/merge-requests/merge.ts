import type { Caller } from '../../platform/caller'
import { AccessLevel } from '../../platform/auth/access'
import type { ServerContext } from '../../platform/context'
import { findIssueByIid, type IssueRow } from '../issues'
import { nowIso } from '../../platform/db/connection'
import {
  findMergeRequestById,
  projectPaths,
  sourceProjectOf,
  updateMergeRequestRow,
  type MergeRequestRow,
} from './queries'
import { findUserById } from '../users'
import { findProject } from '../namespaces'
import type { ProjectRow, UserRow } from '../../platform/db/rows'
import { isDraftTitle } from './entity'
import { projectSettings } from '../projects'
import { git } from '../../platform/git/git'
import { commitTree, isAncestor, mergeTree, updateRef } from '../../platform/git/merge'
import { projectGitDir } from '../../platform/git/project-repo'
import { rebaseCommits } from '../../platform/git/rebase'
import { isReadOnly } from '../../platform/http/archived'
import { apiMessage } from '../../platform/http/errors'
import { resolveTodosForTarget } from '../todos'
import { recordEvent } from '../events'
import { mergeRequestTarget, recordStateEvent } from '../notes'
import { canReadIssue, updateIssue } from '../issues'
import { branchHeads, runInBackground, storeHeadRef } from './mergeability'
import { listProtectedBranches, rulesFor } from '../branches'
import { pushLanded } from '../../platform/git/push-listeners'
import { userIdentity } from '../repository'
import { assertRepositoryWritable } from '../storage-moves'

/** Options of `PUT .../merge`. */
export interface MergeOptions {
  readonly mergeCommitMessage?: string
  readonly squashCommitMessage?: string
  readonly squash?: boolean
  readonly shouldRemoveSourceBranch?: boolean
  readonly sha?: string
}

/** GitLab's default merge commit message. */
function defaultMergeMessage(mr: MergeRequestRow, projectPath: string): string {
  return `Merge branch '${mr.source_branch}' into '${mr.target_branch}'\n\n${mr.title}\n\nSee merge request ${projectPath}!${mr.iid}\n`
}

/**
 * GitLab's documented answers: 405 `Method Not Allowed` unless the merge request is open and not a
 * draft; 406 `Branch cannot be merged` when it has conflicts.
 */
export function assertMergeable(mr: MergeRequestRow): void {
  if (mr.state !== 'opened' || isDraftTitle(mr.title)) throw apiMessage(405, '405 Method Not Allowed')
  if (mr.merge_status === 'cannot_be_merged') throw apiMessage(406, 'Branch cannot be merged')
}

/**
 * Merges the merge request into its target branch in the bare repository: a merge commit with two
 * parents (merge_method `merge`), or a fast-forward (`ff`, and `rebase_merge` when the source is
 * already on top of the target); with squash, the source's changes first become one commit on the
 * target head. The target ref moves atomically from the head it was computed on. Then records the
 * merge, tells push listeners, and deletes the source branch when asked.
 */
export async function mergeMergeRequest(
  caller: Caller,
  project: ProjectRow,
  mr: MergeRequestRow,
  user: UserRow,
  options: MergeOptions,
): Promise<MergeRequestRow> {
  const ctx = caller.ctx
  assertRepositoryWritable(ctx.db, project)
  const heads = await branchHeads(ctx, mr)
  if (!heads.source || !heads.target) throw apiMessage(405, '405 Method Not Allowed')
  if (options.sha !== undefined && options.sha !== heads.source)
    throw apiMessage(409, `SHA does not match HEAD of source branch: ${heads.source}`)
  const gitDir = projectGitDir(ctx, project)
  // The source head must be in this repository (it is fetched there when the source is a fork).
  await storeHeadRef(ctx, mr, heads.source)
  const method = String(projectSettings(project.settings).merge_method ?? 'merge')
  const squash = options.squash ?? mr.squash === 1
  const merged = await mergeTree(gitDir, heads.target, heads.source)
  if (merged.conflicts) {
    updateMergeRequestRow(ctx.db, mr.id, { merge_status: 'cannot_be_merged' }, false)
    throw apiMessage(406, 'Branch cannot be merged')
  }
  const fastForwardable = await isAncestor(gitDir, heads.target, heads.source)
  if (method !== 'merge' && !fastForwardable && !squash) throw apiMessage(406, 'Branch cannot be merged')
  const projectPath = projectPaths(ctx.db, [project.id]).get(project.id) ?? project.path
  const message = options.mergeCommitMessage || defaultMergeMessage(mr, projectPath)
  const me = userIdentity(user)
  let squashSha: string | null = null
  let tip = heads.source
  if (squash) {
    const author = findUserById(ctx.db, mr.author_id)
    squashSha = await commitTree(gitDir, merged.tree, [heads.target], options.squashCommitMessage || mr.title, {
      author: author ? userIdentity(author) : me,
      committer: me,
    })
    tip = squashSha
  }
  let mergeSha: string | null = null
  let newTarget = tip
  if (method === 'merge' || method === 'rebase_merge') {
    mergeSha = await commitTree(gitDir, merged.tree, [heads.target, tip], message, { author: me, committer: me })
    newTarget = mergeSha
  }
  const ref = `refs/heads/${mr.target_branch}`
  try {
    await updateRef(gitDir, ref, newTarget, heads.target)
  } catch {
    throw apiMessage(409, 'The target branch was updated while merging; try again')
  }
  const row = updateMergeRequestRow(ctx.db, mr.id, {
    state: 'merged',
    merged_by_id: user.id,
    merged_at: nowIso(),
    merge_commit_sha: mergeSha,
    squash_commit_sha: squashSha,
    squash: Number(squash),
    head_sha: heads.source,
    merge_when_pipeline_succeeds: 0,
    merge_error: null,
  })
  recordEvent(ctx.db, {
    authorId: user.id,
    action: 'merged',
    projectId: project.id,
    targetType: 'MergeRequest',
    targetId: mr.id,
    targetIid: mr.iid,
    targetTitle: mr.title,
  })
  recordStateEvent(ctx.db, mergeRequestTarget(mr), user.id, 'merged')
  resolveTodosForTarget(ctx.db, user.id, 'MergeRequest', mr.id)
  await pushLanded({ ctx, project, user, updates: [{ oldSha: heads.target, newSha: newTarget, ref }] })
  const remove =
    options.shouldRemoveSourceBranch ?? (mr.should_remove_source_branch === 1 || mr.force_remove_source_branch === 1)
  if (remove) await removeSourceBranch(caller, mr, heads.source, user)
  closeReferencedIssues(caller, project, row)
  return findMergeRequestById(ctx.db, mr.id) as MergeRequestRow
}

async function removeSourceBranch(caller: Caller, mr: MergeRequestRow, head: string, user: UserRow): Promise<void> {
  const ctx = caller.ctx
  const source = sourceProjectOf(ctx.db, mr)
  if (!source) return
  // A fork's branch is removed only by someone who may push to the fork, as GitLab's can_remove_source_branch?.
  if (source.id !== mr.project_id && !caller.perms.canInProject(source, AccessLevel.DEVELOPER)) return
  // The default branch and protected branches are never removed, as in GitLab.
  if (source.default_branch === mr.source_branch) return
  if (rulesFor(listProtectedBranches(ctx.db, source.id), mr.source_branch).length > 0) return
  const gitDir = projectGitDir(ctx, source)
  const ref = `refs/heads/${mr.source_branch}`
  const out = await git(['update-ref', '-d', '--end-of-options', ref, head], { gitDir, successExitCodes: [0, 1, 128] })
  if (out.exitCode !== 0) return
  await pushLanded({
    ctx,
    project: source,
    user,
    updates: [{ oldSha: head, newSha: '0000000000000000000000000000000000000000', ref }],
  })
}

/** A reference to an issue that a description says the merge request closes. */
export interface ClosingReference {
  /** `group/project` for a cross-project reference; null for the merge request's own project. */
  readonly projectPath: string | null
  readonly iid: number
}

// GitLab's default closing pattern: a closing keyword, optional colon, then one or more issue
// references separated by commas, "and" or spaces.
const CLOSING =
  /\b(?:clos(?:e|es|ed|ing)|fix(?:|es|ed|ing)|resolv(?:e|es|ed|ing)|implement(?:|s|ed|ing))\b:?\s+((?:(?:[\w.\-/]+)?#\d+(?:\s*,\s*|\s+and\s+|\s*,\s*and\s+|\s+)?)+)/gi
const ISSUE_REF = /([\w.\-/]+)?#(\d+)/g

/** Issue references a description closes (`Closes #1`, `Fixes #2, #3`, `Resolves group/project#4`), without duplicates. */
export function closingReferences(description: string | null): ClosingReference[] {
  const seen = new Set<string>()
  const refs: ClosingReference[] = []
  for (const m of (description ?? '').matchAll(CLOSING)) {
    for (const r of m[1].matchAll(ISSUE_REF)) {
      const ref = { projectPath: r[1] ?? null, iid: Number(r[2]) }
      const key = `${ref.projectPath ?? ''}#${ref.iid}`
      if (!seen.has(key)) {
        seen.add(key)
        refs.push(ref)
      }
    }
  }
  return refs
}

/** An issue a merge request closes, with its project. */
export interface ClosableIssue {
  readonly project: ProjectRow
  readonly issue: IssueRow
}

/**
 * The issues the description's closing patterns name that the caller may read: `#N` in the merge
 * request's project, `group/project#N` elsewhere. Unknown projects and issues are skipped.
 */
export function closableIssues(caller: Caller, project: ProjectRow, mr: MergeRequestRow): ClosableIssue[] {
  const db = caller.db
  const found: ClosableIssue[] = []
  for (const ref of closingReferences(mr.description)) {
    const owner = ref.projectPath === null ? project : findProject(db, ref.projectPath)
    const issue = owner ? findIssueByIid(db, owner.id, ref.iid) : undefined
    if (owner && issue && canReadIssue(caller, owner, issue)) found.push({ project: owner, issue })
  }
  return found
}

/**
 * Closes the open issues the description references with closing patterns once the merge request
 * is merged, as the merging user; an issue that user may not close stays open.
 */
export function closeReferencedIssues(caller: Caller, project: ProjectRow, mr: MergeRequestRow): void {
  for (const { project: owner, issue } of closableIssues(caller, project, mr)) {
    if (issue.state !== 'opened' || isReadOnly(owner) || !caller.perms.canInProject(owner, AccessLevel.REPORTER))
      continue
    try {
      updateIssue(caller, owner, issue, { state_event: 'close', state_source: { mergeRequestId: mr.id } })
    } catch {
      // A refused close (permissions, archived project) must not undo the merge.
    }
  }
}

/**
 * Builds `refs/merge-requests/:iid/merge`: the merge commit the merge would create, without
 * touching the target branch. 400 when conflicting, already merged, or without changes.
 */
export async function buildMergeRef(
  ctx: ServerContext,
  project: ProjectRow,
  mr: MergeRequestRow,
  user: UserRow,
): Promise<string> {
  if (mr.state === 'merged' || mr.state === 'closed') throw apiMessage(400, 'Merge request is not mergeable')
  const heads = await branchHeads(ctx, mr)
  if (!heads.source || !heads.target) throw apiMessage(400, 'Merge request is not mergeable')
  const gitDir = projectGitDir(ctx, project)
  if (await isAncestor(gitDir, heads.source, heads.target))
    throw apiMessage(400, 'Merge request has no changes to merge')
  const merged = await mergeTree(gitDir, heads.target, heads.source)
  if (merged.conflicts) throw apiMessage(400, 'Merge request is not mergeable')
  const me = userIdentity(user)
  const sha = await commitTree(
    gitDir,
    merged.tree,
    [heads.target, heads.source],
    `Merge branch '${mr.source_branch}' into '${mr.target_branch}'`,
    { author: me, committer: me },
  )
  await git(['update-ref', '--end-of-options', `refs/merge-requests/${mr.iid}/merge`, sha], { gitDir })
  return sha
}

const REBASE_FAILED = 'Rebase failed: Rebase locally, resolve all conflicts, then push the branch.'

/**
 * Starts an asynchronous rebase of the source branch onto the target head: `rebase_in_progress`
 * is set now; the replay runs after the response, then moves the source branch atomically and
 * clears the flag, or leaves the branch alone and sets `merge_error`.
 */
export function startRebase(ctx: ServerContext, project: ProjectRow, mr: MergeRequestRow, user: UserRow): void {
  assertRepositoryWritable(ctx.db, project)
  updateMergeRequestRow(ctx.db, mr.id, { rebase_in_progress: 1, merge_error: null }, false)
  runInBackground(ctx, () =>
    runRebase(ctx, project, mr, user).catch((error: unknown) => {
      try {
        updateMergeRequestRow(
          ctx.db,
          mr.id,
          {
            rebase_in_progress: 0,
            merge_error: `Rebase failed: ${error instanceof Error ? error.message : String(error)}`,
          },
          false,
        )
      } catch {
        // The server closed while rebasing; nothing is left to report to.
      }
    }),
  )
}

async function runRebase(ctx: ServerContext, project: ProjectRow, mr: MergeRequestRow, user: UserRow): Promise<void> {
  const heads = await branchHeads(ctx, mr)
  const source = sourceProjectOf(ctx.db, mr)
  if (!heads.source || !heads.target || !source || source.id !== project.id) {
    updateMergeRequestRow(ctx.db, mr.id, { rebase_in_progress: 0, merge_error: REBASE_FAILED }, false)
    return
  }
  const gitDir = projectGitDir(ctx, project)
  const result = await rebaseCommits(gitDir, heads.target, heads.source)
  if (!result.ok) {
    updateMergeRequestRow(ctx.db, mr.id, { rebase_in_progress: 0, merge_error: REBASE_FAILED }, false)
    return
  }
  const ref = `refs/heads/${mr.source_branch}`
  if (result.head !== heads.source) await updateRef(gitDir, ref, result.head, heads.source)
  updateMergeRequestRow(ctx.db, mr.id, {
    rebase_in_progress: 0,
    merge_error: null,
    head_sha: result.head,
    base_sha: heads.target,
    start_sha: heads.target,
  })
  if (result.head !== heads.source)
    await pushLanded({ ctx, project, user, updates: [{ oldSha: heads.source, newSha: result.head, ref }] })
}
