import type { Branch } from '../../../shared/api/repository'
import { AccessLevel } from '../../platform/auth/access'
import { signedInUser, type Caller } from '../../platform/caller'
import { branchCommits, isValidBranchName, listBranchNames, mergedBranchNames } from '../../platform/git/branches'
import { isValidRef, ZERO_SHA } from '../../platform/git/git'
import { ensureProjectRepo } from '../../platform/git/project-repo'
import { pushLanded, type RefUpdate } from '../../platform/git/push-listeners'
import { matchesRefSearch } from '../../platform/git/ref-search'
import { readRef, resolveCommit } from '../../platform/git/refs'
import { moveRef, RefMovedError } from '../../platform/git/write-commit'
import { apiMessage, notFound } from '../../platform/http/errors'
import type { CodeProject } from '../../platform/http/repository'
import { assertRepositoryWritable } from '../storage-moves'
import { branchEntity } from './entity'
import { listProtectedBranches, type ProtectedBranch } from './protected-queries'
import { canPushToBranch, refusal, rulesFor } from './protected-service'

function developersCan(rules: readonly ProtectedBranch[], kind: 'push' | 'merge'): boolean {
  return rules.some((r) => r.access.some((a) => a.kind === kind && a.access_level === AccessLevel.DEVELOPER))
}

/** The repository's branch names, those matching `search` only (an empty repository has none). */
export async function findBranchNames(repo: CodeProject, search: string | undefined): Promise<string[]> {
  const names = repo.exists ? await listBranchNames(repo.gitDir) : []
  return search ? names.filter((n) => matchesRefSearch(n, search)) : names
}

/** The head commit of branch `name`, or null when there is no such branch. */
export async function branchHead(repo: CodeProject, name: string): Promise<string | null> {
  if (!repo.exists || !isValidRef(name)) return null
  return readRef(repo.gitDir, `refs/heads/${name}`)
}

/**
 * Branches as the caller sees them, with two git calls for the whole set (heads with commit
 * fields, and which are merged into the default branch) and one query for the protection rules.
 */
export async function presentBranches(caller: Caller, repo: CodeProject, names: readonly string[]): Promise<Branch[]> {
  if (names.length === 0) return []
  const { project, gitDir, webUrl } = repo
  const rules = listProtectedBranches(caller.db, project.id)
  const defaultBranch = project.default_branch
  const commits = await branchCommits(gitDir, names)
  const defaultExists = defaultBranch !== null && (await readRef(gitDir, `refs/heads/${defaultBranch}`)) !== null
  const merged = defaultExists
    ? await mergedBranchNames(gitDir, `refs/heads/${defaultBranch}`, names)
    : new Set<string>()
  const out: Branch[] = []
  for (const name of names) {
    const commit = commits.get(name)
    if (!commit) continue
    const matching = rulesFor(rules, name)
    const facts = {
      merged: name !== defaultBranch && merged.has(name),
      protected: matching.length > 0,
      isDefault: name === defaultBranch,
      developersCanPush: developersCan(matching, 'push'),
      developersCanMerge: developersCan(matching, 'merge'),
      canPush: caller.user !== null && canPushToBranch(caller.perms, project, rules, name),
    }
    out.push(branchEntity(name, commit, facts, webUrl))
  }
  return out
}

/**
 * Creates branch `branch` at `ref` as the caller (GitLab's Branches::CreateService) and announces
 * the push; 400 with GitLab's messages for an invalid or taken name, an unknown ref or a protected
 * branch the caller may not create. Answers the repository as it is now (it may just have been made).
 */
export async function createBranch(
  caller: Caller,
  repo: CodeProject,
  branch: string,
  ref: string,
): Promise<CodeProject> {
  const user = signedInUser(caller)
  assertRepositoryWritable(caller.db, repo.project)
  if (!isValidRef(branch) || !(await isValidBranchName(branch))) throw apiMessage(400, 'Branch name is invalid')
  const gitDir = await ensureProjectRepo(caller.ctx, repo.project)
  if (await readRef(gitDir, `refs/heads/${branch}`)) throw apiMessage(400, 'Branch already exists')
  const target = isValidRef(ref) ? await resolveCommit(gitDir, ref) : null
  if (!target) throw apiMessage(400, `Invalid reference name: ${ref}`)
  // GitLab refuses this in its pre-receive check, whose message the branch service answers as a 400.
  const rules = listProtectedBranches(caller.db, repo.project.id)
  const refused = refusal(caller.perms, repo.project, rules, branch, 'create', 'api')
  if (refused) throw apiMessage(400, refused)
  try {
    await moveRef(gitDir, `refs/heads/${branch}`, target, null)
  } catch (error) {
    if (error instanceof RefMovedError) throw apiMessage(400, 'Branch already exists')
    throw error
  }
  const updates = [{ oldSha: ZERO_SHA, newSha: target, ref: `refs/heads/${branch}` }]
  await pushLanded({ ctx: caller.ctx, project: repo.project, user, updates })
  return { ...repo, gitDir, exists: true }
}

/**
 * Deletes branch `branch` as the caller and announces the push: 404 for no such branch, 400 for
 * the default branch, 403 for a protected branch the caller may not delete.
 */
export async function deleteBranch(caller: Caller, repo: CodeProject, branch: string): Promise<void> {
  const user = signedInUser(caller)
  assertRepositoryWritable(caller.db, repo.project)
  const head = await branchHead(repo, branch)
  if (!head) throw notFound('Branch')
  const rules = listProtectedBranches(caller.db, repo.project.id)
  const refused = refusal(caller.perms, repo.project, rules, branch, 'delete', 'api')
  if (refused) throw apiMessage(branch === repo.project.default_branch ? 400 : 403, refused)
  try {
    await moveRef(repo.gitDir, `refs/heads/${branch}`, null, head)
  } catch (error) {
    if (error instanceof RefMovedError) throw apiMessage(400, 'Failed to remove branch')
    throw error
  }
  const updates = [{ oldSha: head, newSha: ZERO_SHA, ref: `refs/heads/${branch}` }]
  await pushLanded({ ctx: caller.ctx, project: repo.project, user, updates })
}

/**
 * Deletes the unprotected branches merged into the default branch (GitLab's
 * DeleteMergedBranchesService); a branch that moved meanwhile is left alone.
 */
export async function deleteMergedBranches(caller: Caller, repo: CodeProject): Promise<void> {
  const user = signedInUser(caller)
  assertRepositoryWritable(caller.db, repo.project)
  const defaultBranch = repo.project.default_branch
  if (!repo.exists || !defaultBranch || !(await readRef(repo.gitDir, `refs/heads/${defaultBranch}`))) return
  const rules = listProtectedBranches(caller.db, repo.project.id)
  const candidates = (await listBranchNames(repo.gitDir)).filter(
    (n) => n !== defaultBranch && rulesFor(rules, n).length === 0,
  )
  const merged = await mergedBranchNames(repo.gitDir, `refs/heads/${defaultBranch}`, candidates)
  const heads = await branchCommits(repo.gitDir, [...merged])
  const updates: RefUpdate[] = []
  for (const name of merged) {
    const head = heads.get(name)?.id
    if (!head) continue
    try {
      await moveRef(repo.gitDir, `refs/heads/${name}`, null, head)
      updates.push({ oldSha: head, newSha: ZERO_SHA, ref: `refs/heads/${name}` })
    } catch (error) {
      // A branch that moved meanwhile may no longer be merged: leave it.
      if (!(error instanceof RefMovedError)) throw error
    }
  }
  if (updates.length > 0) await pushLanded({ ctx: caller.ctx, project: repo.project, user, updates })
}
