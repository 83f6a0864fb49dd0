/**
 * Merge request diff versions (GitLab's merge_request_diffs): what each recorded set of diff refs
 * changed, and diff note positions checked against them.
 */
import type { Caller } from '../../platform/caller'
import type { ServerContext } from '../../platform/context'
import type { ProjectRow } from '../../platform/db/rows'
import { logCommits, type GitCommit } from '../../platform/git/commits'
import { diffTrees, UNLIMITED_DIFF, type DiffLimits, type FileDiff } from '../../platform/git/diff'
import { projectGitDir, repoExists } from '../../platform/git/project-repo'
import { badRequest } from '../../platform/http/errors'
import {
  checkCommitPosition,
  checkPositionInFiles,
  POSITION_REFUSED,
  type CheckedPosition,
  type TextPosition,
} from '../notes'
import type { MergeRequestRow } from './queries'
import { diffVersionsOf, setDiffVersionSize, syncDiffVersion, type DiffVersionRow } from './versions-queries'

export { UNLIMITED_DIFF }

/** The instance's diff size limits (GitLab's `diff_max_patch_bytes`, `diff_max_files`, `diff_max_lines`). */
export function diffLimitsOf(ctx: ServerContext): DiffLimits {
  return {
    maxPatchBytes: ctx.settings.get('diff_max_patch_bytes') as number,
    maxFiles: ctx.settings.get('diff_max_files') as number,
    maxLines: ctx.settings.get('diff_max_lines') as number,
  }
}

/** The changes of a version, from its base to its head; none when the repository or a commit is gone. */
async function versionDiffs(gitDir: string, version: DiffVersionRow, limits: DiffLimits): Promise<FileDiff[]> {
  if (!repoExists(gitDir) || !version.base_commit_sha) return []
  return diffTrees(gitDir, version.base_commit_sha, version.head_commit_sha, limits).catch(() => [])
}

/**
 * A merge request's versions, newest first. A merge request whose refs were written without a
 * version (the seed's bulk writer) gets its version here, and versions whose size was never
 * read (those the migration recorded) get it, so the list always ends at the current diff refs.
 */
export async function diffVersions(
  caller: Caller,
  project: ProjectRow,
  mr: MergeRequestRow,
): Promise<DiffVersionRow[]> {
  syncDiffVersion(caller.db, mr.id, mr)
  const gitDir = projectGitDir(caller.ctx, project)
  for (const version of diffVersionsOf(caller.db, mr.id)) {
    if (version.real_size !== null) continue
    const files = await versionDiffs(gitDir, version, UNLIMITED_DIFF)
    setDiffVersionSize(caller.db, version.id, files.length)
  }
  return diffVersionsOf(caller.db, mr.id)
}

/** The commits a version adds (from its base to its head), newest first; none when the repository or a commit is gone. */
async function versionCommits(gitDir: string, version: DiffVersionRow): Promise<GitCommit[]> {
  if (!repoExists(gitDir)) return []
  const range = version.base_commit_sha ? [`^${version.base_commit_sha}`] : []
  return logCommits(gitDir, [version.head_commit_sha, ...range, '--']).catch(() => [])
}

/** The SHAs of the newest `limit` commits of the merge request's latest version (GitLab's `commit_shas(limit:)`). */
export async function latestCommitShas(
  caller: Caller,
  project: ProjectRow,
  mr: MergeRequestRow,
  limit: number,
): Promise<string[]> {
  const [latest] = await diffVersions(caller, project, mr)
  if (!latest) return []
  return (await versionCommits(projectGitDir(caller.ctx, project), latest)).slice(0, limit).map((c) => c.id)
}

/** One version with its commits (newest first) and its diffs, or undefined when the merge request has no such version. */
export async function diffVersion(
  caller: Caller,
  project: ProjectRow,
  mr: MergeRequestRow,
  id: number,
): Promise<{ version: DiffVersionRow; commits: GitCommit[]; diffs: FileDiff[] } | undefined> {
  const version = (await diffVersions(caller, project, mr)).find((v) => v.id === id)
  if (!version) return undefined
  const gitDir = projectGitDir(caller.ctx, project)
  const commits = await versionCommits(gitDir, version)
  return { version, commits, diffs: await versionDiffs(gitDir, version, diffLimitsOf(caller.ctx)) }
}

/**
 * Checks a text position against the merge request: its SHAs must be the refs of one of its
 * versions (the latest or an older one); with `commitId` (GitLab's `commit_id`), the refs of
 * that commit of the merge request (its parent and itself); else the refs of a range of its
 * commits (`commitRangeOf`). Its paths must be a file of that diff and its lines lines of that
 * file's diff (checkPositionInFiles). 400 with GitLab's note validation message otherwise.
 */
export async function checkDiffPosition(
  caller: Caller,
  project: ProjectRow,
  mr: MergeRequestRow,
  position: TextPosition,
  commitId?: string,
): Promise<CheckedPosition> {
  const versions = await diffVersions(caller, project, mr)
  const gitDir = projectGitDir(caller.ctx, project)
  const version = versions.find((v) => isOnVersion(v, position))
  if (version)
    return checkPositionInFiles(
      gitDir,
      version.head_commit_sha,
      await versionDiffs(gitDir, version, UNLIMITED_DIFF),
      position,
    )
  if (commitId !== undefined) {
    const commit = await commitOfVersions(gitDir, versions, commitId)
    if (!commit) throw badRequest(POSITION_REFUSED)
    return checkCommitPosition(gitDir, commit, position)
  }
  const range = await commitRangeOf(gitDir, versions, position)
  if (!range) throw badRequest(POSITION_REFUSED)
  return checkPositionInFiles(
    gitDir,
    range.head,
    await diffTrees(gitDir, range.base, range.head, UNLIMITED_DIFF),
    position,
  )
}

/** Whether a position is on a version of the merge request: its SHAs are the version's refs. */
export function isOnVersion(version: DiffVersionRow, position: TextPosition): boolean {
  return (
    version.head_commit_sha === position.head_sha &&
    version.base_commit_sha === position.base_sha &&
    version.start_commit_sha === position.start_sha
  )
}

/**
 * The range of the merge request's commits a position's SHAs name, as a reviewer picks one in
 * its Changes ("from commit A through commit B", GitLab's straight compare of A's parent and B):
 * base and start the first parent of a commit of one version, head a newer commit of the same
 * version. Undefined when they name no such range; one commit's own refs are not one, a thread
 * there names its commit (`commit_id`).
 */
async function commitRangeOf(
  gitDir: string,
  versions: readonly DiffVersionRow[],
  position: TextPosition,
): Promise<{ base: string; head: string } | undefined> {
  if (position.base_sha !== position.start_sha) return undefined
  for (const version of versions) {
    const commits = await versionCommits(gitDir, version)
    const head = commits.findIndex((c) => c.id === position.head_sha)
    if (head === -1) continue
    if (commits.slice(head + 1).some((c) => c.parentIds[0] === position.base_sha))
      return { base: position.base_sha, head: position.head_sha }
  }
  return undefined
}

/** The commit `sha` when it is one of the commits of the merge request's versions, else undefined. */
async function commitOfVersions(
  gitDir: string,
  versions: readonly DiffVersionRow[],
  sha: string,
): Promise<GitCommit | undefined> {
  for (const version of versions) {
    const commit = (await versionCommits(gitDir, version)).find((c) => c.id === sha)
    if (commit) return commit
  }
  return undefined
}
