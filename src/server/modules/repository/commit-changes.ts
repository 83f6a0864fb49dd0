import { signedInUser, type Caller } from '../../platform/caller'
import { readCommit, type GitCommit } from '../../platform/git/commits'
import { EMPTY_TREE_SHA } from '../../platform/git/diff'
import { GitError } from '../../platform/git/git'
import { commitTree, mergeTreeWithBase, treeOf, updateRef, type CommitIdentity } from '../../platform/git/merge'
import { pushLanded } from '../../platform/git/push-listeners'
import { readRef } from '../../platform/git/refs'
import { AccessLevel } from '../../platform/auth/access'
import { ApiError, apiMessage, forbidden, notFound } from '../../platform/http/errors'
import type { CodeProject } from '../../platform/http/repository'
import { listProtectedBranches, refusal } from '../branches'
import { assertRepositoryWritable } from '../storage-moves'
import { COMMIT_MESSAGES, userIdentity } from './service'

/** GitLab's two commit changes: applying a commit's diff to a branch, or its reverse. */
export type CommitChangeKind = 'cherry_pick' | 'revert'

/** Why GitLab could not apply a change: it conflicts with the branch, or changes nothing there. */
export type CommitChangeErrorCode = 'conflict' | 'empty'

export interface CommitChangeRequest {
  readonly kind: CommitChangeKind
  /** The commit to apply: a SHA, branch or tag. */
  readonly rev: string
  readonly branch: string
  /** Check that the change applies without committing it. */
  readonly dryRun: boolean
  /** A cherry-pick's own commit message (GitLab's `message`); revert messages are always GitLab's. */
  readonly message?: string
}

export type CommitChangeResult = { readonly dryRun: true } | { readonly commit: GitCommit }

const WORD: Readonly<Record<CommitChangeKind, { readonly verb: string; readonly done: string }>> = {
  cherry_pick: { verb: 'cherry-pick', done: 'cherry-picked' },
  revert: { verb: 'revert', done: 'reverted' },
}

/**
 * 400 `{"message", "error_code"}` (and `"dry_run": "error"` for a dry run) as GitLab's
 * Commits::ChangeService answers a change that does not apply.
 */
function cannotApply(req: CommitChangeRequest, code: CommitChangeErrorCode): never {
  const { verb, done } = WORD[req.kind]
  const message =
    `Sorry, we cannot ${verb} this commit automatically. This commit may already have been ${done}, ` +
    'or a more recent commit may have updated some of its content.'
  throw new ApiError(400, { message, error_code: code, ...(req.dryRun ? { dry_run: 'error' } : {}) })
}

/** The message GitLab gives the new commit (Commit#cherry_pick_message, Commit#revert_message). */
function changeMessage(req: CommitChangeRequest, commit: GitCommit): string {
  if (req.kind === 'revert') return `Revert "${commit.title.trim()}"\n\nThis reverts commit ${commit.id}.`
  if (req.message !== undefined && req.message !== '') return req.message
  return `${commit.message.trimEnd()}\n\n(cherry picked from commit ${commit.id})`
}

/**
 * Cherry-picks or reverts a commit onto a branch, as GitLab's Commits API does: a three-way merge
 * in memory (a merge commit against its first parent), refused with GitLab's error codes when it
 * conflicts or changes nothing, then a commit on the branch moved by compare-and-swap and announced
 * as a push. Pushing to the branch takes what the files API takes (403 on a protected branch).
 */
export async function applyCommitChange(
  caller: Caller,
  repo: CodeProject,
  req: CommitChangeRequest,
): Promise<CommitChangeResult> {
  const user = signedInUser(caller)
  const { project, gitDir } = repo
  const rules = listProtectedBranches(caller.db, project.id)
  const mayPush =
    caller.perms.canInProject(project, AccessLevel.DEVELOPER) &&
    refusal(caller.perms, project, rules, req.branch, 'update', 'api') === null
  if (!mayPush) throw forbidden(COMMIT_MESSAGES.protected)
  if (!repo.exists) throw notFound('Commit')
  const commit = await readCommit(gitDir, req.rev).catch((error: unknown) => {
    if (error instanceof GitError) throw notFound('Commit')
    throw error
  })
  const ref = `refs/heads/${req.branch}`
  const head = await readRef(gitDir, ref)
  if (!head) throw notFound('Branch')
  assertRepositoryWritable(caller.db, project)

  const parent = commit.parentIds[0] ?? EMPTY_TREE_SHA
  const [base, theirs] = req.kind === 'cherry_pick' ? [parent, commit.id] : [commit.id, parent]
  const merged = await mergeTreeWithBase(gitDir, base, head, theirs)
  if (merged.conflicts) cannotApply(req, 'conflict')
  if (merged.tree === (await treeOf(gitDir, head))) cannotApply(req, 'empty')
  if (req.dryRun) return { dryRun: true }

  const committer = userIdentity(user)
  const author: CommitIdentity =
    req.kind === 'cherry_pick'
      ? { name: commit.authorName, email: commit.authorEmail, date: commit.authoredDate }
      : committer
  const sha = await commitTree(gitDir, merged.tree, [head], changeMessage(req, commit), { author, committer })
  try {
    await updateRef(gitDir, ref, sha, head)
  } catch (error) {
    if (error instanceof GitError)
      throw apiMessage(400, `Could not update branch ${req.branch}. Please refresh and try again.`)
    throw error
  }
  await pushLanded({ ctx: caller.ctx, project, user, updates: [{ oldSha: head, newSha: sha, ref }] })
  return { commit: await readCommit(gitDir, sha) }
}
