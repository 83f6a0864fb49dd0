/**
 * Checking a diff note's text position against the diff it was written on: a merge request
 * version's diff, or one commit's diff (its parent to it). The noteables find the diff; this file
 * finds the line.
 */
import type { GitCommit } from '../../platform/git/commits'
import { diffTrees, EMPTY_TREE_SHA, UNLIMITED_DIFF, type FileDiff } from '../../platform/git/diff'
import { findPatchLine, lineCode, type PatchLine } from '../../platform/git/diff-lines'
import { git } from '../../platform/git/git'
import { badRequest } from '../../platform/http/errors'
import type { LineRangeEnd, TextPosition } from './diff-position'
import type { CheckedPosition } from './service'

/** What GitLab answers when a position names no line of the diff (the note's validation errors). */
export const POSITION_REFUSED = `Note {:line_code=>["can't be blank", "must be a valid line code"], :position=>["is incomplete"]}`

/**
 * What GitLab answers when a complete position names other diff refs than the commit's own (its
 * first parent to it): the note's commit_id validation error.
 */
export const DIFF_REFS_MISMATCH = `Note {:commit_id=>["does not match the diff refs"]}`

/** How many lines a file has at a commit (0 when it is not there). */
async function lineCountAt(gitDir: string, commit: string, path: string): Promise<number> {
  const out = await git(['cat-file', 'blob', `${commit}:${path}`], { gitDir }).catch(() => null)
  if (!out || out.stdout.length === 0) return 0
  const text = out.stdout.toString('utf8')
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
}

/**
 * Checks a position against the files of a diff whose head is `headSha`: its paths must be a file
 * of the diff, and its lines (and those of its line range) lines of that file's diff — an added
 * line by its new_line, a removed one by its old_line, an unchanged one by both. Answers the
 * position as stored (range ends with their line codes) and its line code; 400 with GitLab's note
 * validation message otherwise.
 */
export async function checkPositionInFiles(
  gitDir: string,
  headSha: string,
  files: readonly FileDiff[],
  position: TextPosition,
): Promise<CheckedPosition> {
  const file = files.find((f) => f.oldPath === position.old_path && f.newPath === position.new_path)
  if (!file) throw badRequest(POSITION_REFUSED)
  const newLineCount = file.deletedFile ? 0 : await lineCountAt(gitDir, headSha, file.newPath)
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

/** The SHA GitLab's diff refs name as the base of a root commit's diff (its blank ref). */
export const BLANK_SHA = '0'.repeat(40)

/**
 * Checks a position against one commit's own changes, as GitLab's commit diff refs name them:
 * base and start its first parent (the blank SHA for a root commit), head the commit itself.
 */
export async function checkCommitPosition(
  gitDir: string,
  commit: Pick<GitCommit, 'id' | 'parentIds'>,
  position: TextPosition,
): Promise<CheckedPosition> {
  const parent = commit.parentIds[0]
  const base = parent ?? BLANK_SHA
  if (position.head_sha !== commit.id || position.base_sha !== base || position.start_sha !== base)
    throw badRequest(DIFF_REFS_MISMATCH)
  const files = await diffTrees(gitDir, parent ?? EMPTY_TREE_SHA, commit.id, UNLIMITED_DIFF)
  return checkPositionInFiles(gitDir, commit.id, files, position)
}
