/**
 * Merge request diff versions (GitLab's merge_request_diffs): what each recorded set of diff refs
 * changed, and diff note positions checked against them.
 */
import type { Caller } from '../../platform/caller'
import type { ServerContext } from '../../platform/context'
import type { ProjectRow } from '../../platform/db/rows'
import { logCommits, type GitCommit } from '../../platform/git/commits'
import { diffTrees, type DiffLimits, type FileDiff } from '../../platform/git/diff'
import { findPatchLine, lineCode, type PatchLine } from '../../platform/git/diff-lines'
import { git } from '../../platform/git/git'
import { projectGitDir, repoExists } from '../../platform/git/project-repo'
import { badRequest } from '../../platform/http/errors'
import type { LineRangeEnd, TextPosition } from '../notes'
import type { MergeRequestRow } from './queries'
import { diffVersionsOf, setDiffVersionSize, syncDiffVersion, type DiffVersionRow } from './versions-queries'

/** No limit: the whole diff (raw diffs, and checking positions against every file). */
export const UNLIMITED_DIFF: DiffLimits = {
  maxPatchBytes: Number.MAX_SAFE_INTEGER,
  maxFiles: Number.MAX_SAFE_INTEGER,
  maxLines: Number.MAX_SAFE_INTEGER,
}

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
  const range = version.base_commit_sha ? [`^${version.base_commit_sha}`] : []
  const commits = repoExists(gitDir)
    ? await logCommits(gitDir, [version.head_commit_sha, ...range, '--']).catch(() => [])
    : []
  return { version, commits, diffs: await versionDiffs(gitDir, version, diffLimitsOf(caller.ctx)) }
}

// What GitLab answers when a position names no line of the merge request's diff (the note's validation errors).
const POSITION_REFUSED = `Note {:line_code=>["can't be blank", "must be a valid line code"], :position=>["is incomplete"]}`

/** How many lines a file has at a commit (0 when it is not there). */
async function lineCountAt(gitDir: string, commit: string, path: string): Promise<number> {
  const out = await git(['cat-file', 'blob', `${commit}:${path}`], { gitDir }).catch(() => null)
  if (!out || out.stdout.length === 0) return 0
  const text = out.stdout.toString('utf8')
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
}

/** A checked diff note position: the position as stored (line range ends with their line codes) and its line code. */
export interface CheckedPosition {
  readonly position: TextPosition
  readonly lineCode: string
}

/**
 * Checks a text position against the merge request: its SHAs must be the refs of one of its
 * versions (the latest or an older one), its paths a file of that version's diff, and its lines
 * (and those of its line range) lines of that file's diff: an added line by its new_line, a
 * removed one by its old_line, an unchanged one by both. 400 with GitLab's note validation
 * message otherwise.
 */
export async function checkDiffPosition(
  caller: Caller,
  project: ProjectRow,
  mr: MergeRequestRow,
  position: TextPosition,
): Promise<CheckedPosition> {
  const versions = await diffVersions(caller, project, mr)
  const version = versions.find(
    (v) =>
      v.head_commit_sha === position.head_sha &&
      v.base_commit_sha === position.base_sha &&
      v.start_commit_sha === position.start_sha,
  )
  if (!version) throw badRequest(POSITION_REFUSED)
  const gitDir = projectGitDir(caller.ctx, project)
  const file = (await versionDiffs(gitDir, version, UNLIMITED_DIFF)).find(
    (f) => f.oldPath === position.old_path && f.newPath === position.new_path,
  )
  if (!file) throw badRequest(POSITION_REFUSED)
  const newLineCount = file.deletedFile ? 0 : await lineCountAt(gitDir, version.head_commit_sha, file.newPath)
  const lineOf = (oldLine: number | null, newLine: number | null): PatchLine => {
    const line = findPatchLine(file.diff, oldLine, newLine, newLineCount)
    if (!line) throw badRequest(POSITION_REFUSED)
    return line
  }
  const path = file.newPath
  const rangeEnd = (end: LineRangeEnd): LineRangeEnd => {
    if (end.old_line === null && end.new_line === null) return end
    const line = lineOf(end.old_line, end.new_line)
    return { ...end, line_code: lineCode(path, line), type: end.type ?? line.type }
  }
  const code = lineCode(path, lineOf(position.old_line, position.new_line))
  const range = position.line_range
  return {
    position: range
      ? { ...position, line_range: { start: rangeEnd(range.start), end: rangeEnd(range.end) } }
      : position,
    lineCode: code,
  }
}
