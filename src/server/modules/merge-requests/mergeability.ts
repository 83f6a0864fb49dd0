import type { ServerContext } from '../../platform/context'
import { nowIso } from '../../platform/db/connection'
import {
  findMergeRequestById,
  openMergeRequestsTouching,
  updateMergeRequestRow,
  type MergeRequestRow,
  type MergeStatus,
  sourceProjectOf,
} from './queries'
import { findProjectById } from '../namespaces'
import type { ProjectRow } from '../../platform/db/rows'
import { git, ZERO_SHA } from '../../platform/git/git'
import { isAncestor, mergeTree } from '../../platform/git/merge'
import { mergeBase } from '../../platform/git/merge-base'
import { projectGitDir, repoExists } from '../../platform/git/project-repo'
import { fetchCommitInto, resolveCommit, resolveCommits } from '../../platform/git/refs'
import { recordEvent } from '../events'
import { callerFor } from '../../platform/caller'
import { traceDiffNotes } from './position-tracer'
import { onPush, type PushContext } from '../../platform/git/push-listeners'

// Checks queued per server, so a merge request is never checked twice at once and tests (or a
// shutdown) can wait for the queue to drain.
const queues = new WeakMap<ServerContext, Map<number, Promise<void>>>()
// Checks asked for while one was already running for the same merge request: its result may be
// stale (a branch moved meanwhile), so it runs once more afterwards.
const reruns = new WeakMap<ServerContext, Set<number>>()

function queueOf(ctx: ServerContext): Map<number, Promise<void>> {
  let q = queues.get(ctx)
  if (!q) {
    q = new Map()
    queues.set(ctx, q)
  }
  return q
}

/** What a client may hold of a merge request while its check is pending: the row it last read. */
interface ShownStatus {
  readonly status: MergeStatus
  readonly updatedAt: string
}
// Per merge request with a pending check, its merge_status and updated_at before the check began.
const shownBeforeCheck = new WeakMap<ServerContext, Map<number, ShownStatus>>()

function shownOf(ctx: ServerContext): Map<number, ShownStatus> {
  let shown = shownBeforeCheck.get(ctx)
  if (!shown) {
    shown = new Map()
    shownBeforeCheck.set(ctx, shown)
  }
  return shown
}

/**
 * Marks the merge request `checking` and computes its merge_status in the background, as GitLab's
 * MergeabilityCheckService does: a clean `git merge-tree` of target and source heads is
 * `can_be_merged`, a conflicting one (or a missing branch, or histories git refuses to merge)
 * `cannot_be_merged`. A check that fails for any other reason settles `cannot_be_merged` too:
 * nothing is left `checking`.
 */
export function queueMergeabilityCheck(ctx: ServerContext, mrId: number): void {
  const row = findMergeRequestById(ctx.db, mrId)
  if (!row || row.state !== 'opened') return
  if (!shownOf(ctx).has(mrId)) shownOf(ctx).set(mrId, { status: row.merge_status, updatedAt: row.updated_at })
  updateMergeRequestRow(ctx.db, mrId, { merge_status: 'checking' }, false)
  const q = queueOf(ctx)
  if (q.has(mrId)) {
    if (!reruns.has(ctx)) reruns.set(ctx, new Set())
    reruns.get(ctx)?.add(mrId)
    return
  }
  const job = new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => held.get(ctx))
    .then(() => checkMergeability(ctx, mrId))
    .catch((error: unknown) => {
      process.emitWarning(`mergeability check failed: ${error instanceof Error ? error.message : String(error)}`)
      settleFailedCheck(ctx, mrId)
    })
    .finally(() => {
      q.delete(mrId)
      try {
        if (reruns.get(ctx)?.delete(mrId)) queueMergeabilityCheck(ctx, mrId)
      } catch {
        // The server is shutting down (database closed): nothing left to check for.
      }
    })
  q.set(mrId, job)
}

// Per server, while checks are held: what they wait for before they start.
const held = new WeakMap<ServerContext, Promise<void>>()

/**
 * Keeps queued checks from starting until the returned release is called (one hold at a time): what
 * a client can read between a write that queues a check and its answer, made observable.
 */
export function holdMergeabilityChecks(ctx: ServerContext): () => void {
  let release = (): void => undefined
  held.set(ctx, new Promise<void>((resolve) => (release = resolve)))
  return () => {
    held.delete(ctx)
    release()
  }
}

/**
 * Queues a check for a merge request whose status is still open to question (`unchecked`, or
 * `checking` with no check under way, as a restart leaves it), as GitLab checks on reading one.
 */
export function ensureMergeabilityChecked(ctx: ServerContext, mr: MergeRequestRow): void {
  if (mr.state !== 'opened' || queueOf(ctx).has(mr.id)) return
  if (mr.merge_status === 'unchecked' || mr.merge_status === 'checking') queueMergeabilityCheck(ctx, mr.id)
}

/**
 * Stores a check's answer. Clients that sync by `updated_after` keep the status they read last
 * with the row's updated_at, so a settled status they may not hold (another answer than before
 * the check, or the transient `checking` read while the row changed) moves updated_at on; an
 * answer they already hold leaves it, so a recheck that changes nothing changes no version.
 */
function settle(ctx: ServerContext, mr: MergeRequestRow, status: MergeStatus): void {
  const shown = shownOf(ctx).get(mr.id)
  shownOf(ctx).delete(mr.id)
  const clientsMayHoldOther = !shown || shown.status !== status || shown.updatedAt !== mr.updated_at
  updateMergeRequestRow(ctx.db, mr.id, { merge_status: status }, clientsMayHoldOther)
}

function settleFailedCheck(ctx: ServerContext, mrId: number): void {
  try {
    const mr = findMergeRequestById(ctx.db, mrId)
    if (mr?.merge_status === 'checking' && !reruns.get(ctx)?.has(mrId)) settle(ctx, mr, 'cannot_be_merged')
  } catch {
    // The server is shutting down (database closed): the next start reads it as unchecked work.
  }
}

// Other background work on merge requests (rebases), awaited with the checks before shutdown.
const background = new WeakMap<ServerContext, Set<Promise<void>>>()

/** Runs `job` in the background of this server; mergeabilityIdle waits for it. Errors are the job's to handle. */
export function runInBackground(ctx: ServerContext, job: () => Promise<void>): void {
  let jobs = background.get(ctx)
  if (!jobs) {
    jobs = new Set()
    background.set(ctx, jobs)
  }
  const set = jobs
  const p: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(job)
    .catch(() => undefined)
    .finally(() => set.delete(p))
  set.add(p)
}

/** Resolves when every queued mergeability check and background job of this server has finished. */
export async function mergeabilityIdle(ctx: ServerContext): Promise<void> {
  for (;;) {
    const pending = [...queueOf(ctx).values(), ...(background.get(ctx) ?? [])]
    if (pending.length === 0) return
    await Promise.all(pending)
  }
}

/** The heads of a merge request's branches (null: gone) and its target project. */
export interface BranchHeads {
  readonly source: string | null
  readonly target: string | null
  readonly target_project: ProjectRow | undefined
  /** Where `refs/merge-requests/:iid/head` points (null: nowhere), when it was read with the heads. */
  readonly storedHead?: string | null
}

/**
 * Heads of the source and target branches, null for a branch (or repository) that is gone. A
 * merge request within one project reads both, and its stored head ref, with one git process.
 */
export async function branchHeads(ctx: ServerContext, mr: MergeRequestRow): Promise<BranchHeads> {
  const targetProject = findProjectById(ctx.db, mr.project_id)
  const sourceProject = sourceProjectOf(ctx.db, mr)
  if (targetProject && sourceProject?.id === targetProject.id) {
    const dir = projectGitDir(ctx, targetProject)
    if (!repoExists(dir)) return { source: null, target: null, target_project: targetProject }
    const revs = [`refs/heads/${mr.source_branch}`, `refs/heads/${mr.target_branch}`, headRefOf(mr)]
    const read = await resolveCommits(dir, revs).catch(() => null)
    // A name git refuses fails the whole batch: each branch is then read on its own, as below.
    if (read) return { source: read[0], target: read[1], target_project: targetProject, storedHead: read[2] }
  }
  const head = async (p: ProjectRow | undefined, branch: string): Promise<string | null> => {
    if (!p) return null
    const dir = projectGitDir(ctx, p)
    return repoExists(dir) ? resolveCommit(dir, `refs/heads/${branch}`).catch(() => null) : null
  }
  return {
    source: await head(sourceProject, mr.source_branch),
    target: await head(targetProject, mr.target_branch),
    target_project: targetProject,
  }
}

function headRefOf(mr: MergeRequestRow): string {
  return `refs/merge-requests/${mr.iid}/head`
}

/**
 * Points `refs/merge-requests/:iid/head` of the target repository at the source head `sha`, as
 * GitLab keeps it for clients to fetch. A merge request from a fork fetches the commit from the
 * fork's repository first: diffs, commits, versions and the merge all run in the target repository.
 */
export async function storeHeadRef(
  ctx: ServerContext,
  mr: MergeRequestRow,
  sha: string,
  storedHead?: string | null,
): Promise<void> {
  if (storedHead === sha) return
  const target = findProjectById(ctx.db, mr.project_id)
  if (!target) return
  const gitDir = projectGitDir(ctx, target)
  const ref = headRefOf(mr)
  const source = mr.source_project_id === mr.project_id ? undefined : sourceProjectOf(ctx.db, mr)
  if (source) await fetchCommitInto(gitDir, projectGitDir(ctx, source), sha, ref)
  else await git(['update-ref', ref, sha], { gitDir })
}

/** Computes and stores merge_status now (the body of a queued check). */
export async function checkMergeability(ctx: ServerContext, mrId: number): Promise<void> {
  const mr = findMergeRequestById(ctx.db, mrId)
  if (!mr) return
  if (mr.state !== 'opened') return settleClosed(ctx, mr, null)
  const heads = await branchHeads(ctx, mr)
  if (!heads.source || !heads.target || !heads.target_project) return settle(ctx, mr, 'cannot_be_merged')
  const gitDir = projectGitDir(ctx, heads.target_project)
  await storeHeadRef(ctx, mr, heads.source, heads.storedHead).catch(() => undefined)
  // git refuses some merges outright (unrelated histories after a force push): they cannot be merged.
  const conflicts = await mergeTree(gitDir, heads.target, heads.source).then(
    (r) => r.conflicts,
    () => true,
  )
  const latest = findMergeRequestById(ctx.db, mrId)
  if (!latest) return
  if (latest.state !== 'opened') return settleClosed(ctx, latest, conflicts)
  // A newer check was asked for while this one ran: its result may be stale, so only the rerun writes.
  if (reruns.get(ctx)?.has(mrId)) return
  // head_sha is left to creation, the push listener and rebase, which know the newest head.
  settle(ctx, latest, conflicts ? 'cannot_be_merged' : 'can_be_merged')
}

/**
 * A merge request merged or closed while its check was queued or running must not keep the
 * transient `checking` for ever: a merged one could be merged, a closed one keeps what the check
 * found (or `cannot_be_merged` when it never ran).
 */
function settleClosed(ctx: ServerContext, mr: MergeRequestRow, conflicts: boolean | null): void {
  if (mr.merge_status !== 'checking') {
    shownOf(ctx).delete(mr.id)
    return
  }
  settle(ctx, mr, mr.state === 'merged' || conflicts === false ? 'can_be_merged' : 'cannot_be_merged')
}

/**
 * After a push: merge requests whose source or target branch moved get fresh diff refs and a new
 * mergeability check; one whose source head became reachable from its target (merged outside
 * Burrow) is marked merged by the pusher, as GitLab's refresh service does.
 */
async function refreshAfterPush(push: PushContext): Promise<void> {
  const { ctx, project } = push
  const moved = new Map<string, { oldSha: string; newSha: string }>()
  for (const u of push.updates) if (u.ref.startsWith('refs/heads/')) moved.set(u.ref.slice('refs/heads/'.length), u)
  if (moved.size === 0) return
  for (const mr of openMergeRequestsTouching(ctx.db, project.id, [...moved.keys()])) {
    const targetProject = mr.project_id === project.id ? project : findProjectById(ctx.db, mr.project_id)
    if (!targetProject) continue
    // A push to a fork moves the source of merge requests into its upstream: git work is in the target's repository.
    const gitDir = projectGitDir(ctx, targetProject)
    const sourceMove = mr.source_project_id === project.id ? moved.get(mr.source_branch) : undefined
    const targetMove = mr.project_id === project.id ? moved.get(mr.target_branch) : undefined
    const head = sourceMove ? (sourceMove.newSha === ZERO_SHA ? mr.head_sha : sourceMove.newSha) : mr.head_sha
    if (sourceMove && head && sourceMove.newSha !== ZERO_SHA) await storeHeadRef(ctx, mr, head).catch(() => undefined)
    if (
      targetMove &&
      targetMove.newSha !== ZERO_SHA &&
      head &&
      (await mergedBy(gitDir, head, targetMove.oldSha, targetMove.newSha))
    ) {
      updateMergeRequestRow(ctx.db, mr.id, {
        state: 'merged',
        merged_at: nowIso(),
        merged_by_id: push.user.id,
        head_sha: head,
      })
      recordEvent(ctx.db, {
        authorId: push.user.id,
        action: 'merged',
        projectId: mr.project_id,
        targetType: 'MergeRequest',
        targetId: mr.id,
        targetIid: mr.iid,
        targetTitle: mr.title,
      })
      continue
    }
    const target = targetMove
      ? targetMove.newSha
      : await resolveCommit(gitDir, `refs/heads/${mr.target_branch}`).catch(() => null)
    const base =
      head && target && target !== ZERO_SHA ? await mergeBase(gitDir, [target, head]).catch(() => null) : null
    // Queued before the write that moves updated_at for a new source head, so the check knows
    // clients may read `checking` with that updated_at and gives its answer a new one.
    queueMergeabilityCheck(ctx, mr.id)
    // head_sha is written only for a move of the source: a target-only refresh must not put back a
    // head it read before a concurrent rebase or push replaced it.
    const refreshed = updateMergeRequestRow(
      ctx.db,
      mr.id,
      {
        ...(sourceMove ? { head_sha: head } : {}),
        base_sha: base ?? mr.base_sha,
        start_sha: target && target !== ZERO_SHA ? target : mr.start_sha,
      },
      sourceMove !== undefined,
    )
    await carryDiffNotes(push, refreshed)
  }
}

/** The merge request's diff notes carried to the version the push made (its project may be the fork's target). */
async function carryDiffNotes(push: PushContext, mr: MergeRequestRow): Promise<void> {
  const project = mr.project_id === push.project.id ? push.project : findProjectById(push.ctx.db, mr.project_id)
  if (project) await traceDiffNotes(callerFor(push.ctx, push.user), project, mr)
}

async function mergedBy(gitDir: string, head: string, oldTarget: string, newTarget: string): Promise<boolean> {
  if (!(await isAncestor(gitDir, head, newTarget).catch(() => false))) return false
  return oldTarget === ZERO_SHA || !(await isAncestor(gitDir, head, oldTarget).catch(() => false))
}

/** Registers the merge request refresh on this server's landed pushes (idempotent). */
export function registerMergeRequestRefresh(ctx: ServerContext): void {
  onPush(ctx, refreshAfterPush)
}
