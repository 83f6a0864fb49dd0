/**
 * Diff notes carried to a merge request's newest diff version (GitLab's position tracer, run as
 * its refresh service runs it after a push): a note whose lines are untouched between the version
 * it is on and the newest one moves to the lines they are now, keeping `original_position`; a
 * note whose line (or any line of its range) changed, or whose file left the diff, stays where it
 * was, outdated.
 */
import type { Caller } from '../../platform/caller'
import type { ProjectRow } from '../../platform/db/rows'
import { diffTrees, type FileDiff } from '../../platform/git/diff'
import { traceUnchangedLine } from '../../platform/git/diff-lines'
import { projectGitDir, repoExists } from '../../platform/git/project-repo'
import { ApiError } from '../../platform/http/errors'
import {
  checkPositionInFiles,
  diffNotesOfMergeRequest,
  moveDiffNote,
  type LineRangeEnd,
  type TextPosition,
} from '../notes'
import type { MergeRequestRow } from './queries'
import { diffVersions, isOnVersion, UNLIMITED_DIFF } from './versions'
import type { DiffVersionRow } from './versions-queries'

/** One side of the diff a line is traced through: the file before or after the merge request's changes. */
type Side = 'old' | 'new'

/** The changes between two commits, read once per pair while a merge request's notes are traced. */
type DiffReader = (from: string, to: string) => Promise<FileDiff[] | null>

function diffReader(gitDir: string): DiffReader {
  const read = new Map<string, Promise<FileDiff[] | null>>()
  return (from, to) => {
    const key = `${from}..${to}`
    let diffs = read.get(key)
    if (!diffs) {
      diffs = diffTrees(gitDir, from, to, UNLIMITED_DIFF).catch(() => null)
      read.set(key, diffs)
    }
    return diffs
  }
}

/** A file's path and line numbers on one side, moved from one commit to another; null when it changed or is gone. */
async function traceSide(
  read: DiffReader,
  from: string,
  to: string,
  path: string,
  lines: readonly number[],
): Promise<{ path: string; lines: number[] } | null> {
  if (from === to) return { path, lines: [...lines] }
  const diffs = await read(from, to)
  if (diffs === null) return null
  const file = diffs.find((f) => f.oldPath === path)
  // Not in the diff: the file is the same at both commits.
  if (!file) return { path, lines: [...lines] }
  if (file.deletedFile || file.tooLarge) return null
  const traced = lines.map((line) => traceUnchangedLine(file.diff, line, 'old'))
  return traced.every((l) => l !== null) ? { path: file.newPath, lines: traced as number[] } : null
}

/** Every line number from `a` to `b`, both included. */
const span = (a: number, b: number): number[] =>
  Array.from({ length: Math.abs(b - a) + 1 }, (_, i) => Math.min(a, b) + i)

/** The lines of a position on one side (its own line and, for a range, every line of the range on that side). */
function sideLines(position: TextPosition, side: Side): number[] {
  const at = (end: Pick<LineRangeEnd, 'old_line' | 'new_line'>): number | null =>
    side === 'old' ? end.old_line : end.new_line
  const own = at(position)
  const range = position.line_range
  const start = range ? at(range.start) : null
  const end = range ? at(range.end) : null
  const lines = start !== null && end !== null ? span(start, end) : [start, end].filter((l) => l !== null)
  return own === null ? lines : [...new Set([own, ...lines])]
}

/**
 * The position moved to `latest`: the new side's lines traced from the note's head to the newest
 * head, the old side's from its base to the newest base (line codes left for the check on the
 * newest diff to fill). Null when a line changed or a file is gone.
 */
async function tracePosition(
  read: DiffReader,
  position: TextPosition,
  latest: DiffVersionRow,
): Promise<TextPosition | null> {
  if (!latest.base_commit_sha || !latest.start_commit_sha) return null
  const newSide = await traceSide(
    read,
    position.head_sha,
    latest.head_commit_sha,
    position.new_path,
    sideLines(position, 'new'),
  )
  const oldSide = await traceSide(
    read,
    position.base_sha,
    latest.base_commit_sha,
    position.old_path,
    sideLines(position, 'old'),
  )
  if (newSide === null || oldSide === null) return null
  const moved = (side: Side, line: number | null): number | null => {
    if (line === null) return null
    const before = sideLines(position, side)
    const after = side === 'new' ? newSide.lines : oldSide.lines
    return after[before.indexOf(line)]
  }
  const end = (e: LineRangeEnd): LineRangeEnd => ({
    ...e,
    line_code: null,
    old_line: moved('old', e.old_line),
    new_line: moved('new', e.new_line),
  })
  return {
    ...position,
    base_sha: latest.base_commit_sha,
    start_sha: latest.start_commit_sha,
    head_sha: latest.head_commit_sha,
    old_path: oldSide.path,
    new_path: newSide.path,
    old_line: moved('old', position.old_line),
    new_line: moved('new', position.new_line),
    line_range: position.line_range && { start: end(position.line_range.start), end: end(position.line_range.end) },
  }
}

/**
 * The positions to try on the newest diff, best first: the traced one, and for a line written
 * unchanged (both numbers) the same new line as an added one, which it is when the newest diff
 * adds it (the target branch no longer has it).
 */
function candidates(traced: TextPosition, original: TextPosition): TextPosition[] {
  if (original.old_line === null || original.new_line === null) return [traced]
  return [traced, { ...traced, old_line: null }]
}

/**
 * Carries the merge request's diff notes to its newest diff version (see the file's header).
 * A position is moved only when the newest version's diff has its lines (`checkPositionInFiles`),
 * so a moved note names a line of the diff shown now; nothing is written for the others. Notes
 * on one commit of the merge request (`commit_id`) or on a range of its commits stay on that diff.
 */
export async function traceDiffNotes(caller: Caller, project: ProjectRow, mr: MergeRequestRow): Promise<void> {
  const gitDir = projectGitDir(caller.ctx, project)
  if (!repoExists(gitDir)) return
  const versions = await diffVersions(caller, project, mr)
  const [latest] = versions
  if (!latest) return
  const read = diffReader(gitDir)
  const newest = latest.base_commit_sha ? await read(latest.base_commit_sha, latest.head_commit_sha) : null
  if (newest === null) return
  for (const note of diffNotesOfMergeRequest(caller.db, mr.id)) {
    if (note.commit_id !== null) continue
    const stored = note.position as string
    const position = JSON.parse(stored) as TextPosition
    // GitLab moves the threads of the version a push replaced; those on a range of commits stay on that range's diff.
    if (!versions.some((v) => isOnVersion(v, position))) continue
    if (position.head_sha === latest.head_commit_sha && position.base_sha === latest.base_commit_sha) continue
    const traced = await tracePosition(read, position, latest)
    if (traced === null) continue
    for (const candidate of candidates(traced, position)) {
      const checked = await checkPositionInFiles(gitDir, latest.head_commit_sha, newest, candidate).catch(
        (error: unknown) => {
          if (error instanceof ApiError) return null
          throw error
        },
      )
      if (checked === null) continue
      moveDiffNote(caller.db, note.id, stored, {
        position: JSON.stringify(checked.position),
        lineCode: checked.lineCode,
      })
      break
    }
  }
}
