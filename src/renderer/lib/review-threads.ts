import type { Note } from '../../shared/api/note'
import type { CachedDiscussion } from '../../shared/ipc/cache'
import type { DiffPosition, LineRangeEnd } from '../../shared/ipc/diff-position'
import type { ReviewDraft } from '../../shared/ipc/review'
import type { DiffLine, ParsedDiffFile } from './diff'
import { asNote } from './items'
import { anchorKey, lineAnchor, type LineAnchor } from './review'

/**
 * A merge request's line threads placed on its diff: each diff note's thread under the line its
 * position names, keyed like the rows' anchors (lib/review.ts `anchorKey`). A thread whose
 * position is on another diff version than the one shown is outdated: it goes to the discussion
 * list instead, with the snippet it was written on.
 */

/** A note that may carry a diff position (GitLab's DiffNote). */
export type PositionedNote = Note & { readonly position?: DiffPosition | null }

export interface LineThread {
  readonly id: string
  readonly position: DiffPosition
  readonly notes: readonly { readonly note: PositionedNote; readonly pending: boolean }[]
  readonly resolvable: boolean
  readonly resolved: boolean
  /** On an older (or another) version of the diff than the one shown. */
  readonly outdated: boolean
}

/** The anchor of a position: the line it ends on (a range's last line). */
export function positionAnchor(position: DiffPosition): LineAnchor {
  return {
    path: position.new_path,
    oldPath: position.old_path,
    oldLine: position.old_line,
    newLine: position.new_line,
  }
}

/**
 * The discussions of a merge request that are line threads, each marked outdated against the diff
 * shown: its head `headSha` and, when known, its base `baseSha` (GitLab shows a thread on the diff
 * whose refs it names: one on a commit or a range of commits is not on the whole merge request's).
 */
export function lineThreads(
  discussions: readonly CachedDiscussion[],
  headSha: string | null,
  baseSha: string | null = null,
): LineThread[] {
  const threads: LineThread[] = []
  for (const d of discussions) {
    const notes = d.notes.map((n) => ({ note: asNote(n.data) as PositionedNote, pending: n.pending }))
    const position = notes[0]?.note.position
    if (position == null || typeof position.head_sha !== 'string') continue
    const resolvable = notes.some((n) => n.note.resolvable === true)
    threads.push({
      id: d.id,
      position,
      notes,
      resolvable,
      resolved: resolvable && notes.every((n) => n.note.resolvable !== true || n.note.resolved === true),
      outdated:
        (headSha !== null && position.head_sha !== headSha) || (baseSha !== null && position.base_sha !== baseSha),
    })
  }
  return threads
}

/** What shows under each line: its current threads and the pending review's drafts, by anchor key. */
export interface LineAttachments {
  readonly threads: ReadonlyMap<string, readonly LineThread[]>
  readonly drafts: ReadonlyMap<string, readonly ReviewDraft[]>
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

/**
 * Groups the current threads and the positioned drafts that start a thread by the anchor key of
 * their line (a draft reply shows in its thread instead).
 */
export function attachments(threads: readonly LineThread[], drafts: readonly ReviewDraft[]): LineAttachments {
  const byLine = new Map<string, LineThread[]>()
  for (const t of threads) if (!t.outdated) push(byLine, anchorKey(positionAnchor(t.position)), t)
  const draftsByLine = new Map<string, ReviewDraft[]>()
  for (const d of drafts)
    if (d.position !== null && d.discussionId === null) push(draftsByLine, anchorKey(positionAnchor(d.position)), d)
  return { threads: byLine, drafts: draftsByLine }
}

/**
 * The lines an outdated thread was written on: up to `context` changed or unchanged lines before
 * the position's line, and the line itself, from that version's diff of the file.
 */
export function snippetAt(
  lines: readonly DiffLine[],
  position: Pick<DiffPosition, 'old_line' | 'new_line'>,
  context = 3,
): DiffLine[] {
  const code = lines.filter((l) => l.kind === 'addition' || l.kind === 'deletion' || l.kind === 'context')
  const at = code.findIndex(
    (l) => l.newLine === position.new_line && (position.new_line !== null || l.oldLine === position.old_line),
  )
  return at === -1 ? [] : code.slice(Math.max(0, at - context), at + 1)
}

/** The diff version a comment is written on (the merge request's `diff_refs`). */
export interface DiffRefs {
  readonly base_sha: string
  readonly start_sha: string
  readonly head_sha: string
}

/** A merge request's `diff_refs` when they name all three commits (a comment needs them), else null. */
export function diffRefsOf(
  refs:
    | { readonly base_sha: string | null; readonly start_sha: string | null; readonly head_sha: string }
    | null
    | undefined,
): DiffRefs | null {
  if (refs == null || refs.base_sha === null || refs.start_sha === null) return null
  return { base_sha: refs.base_sha, start_sha: refs.start_sha, head_sha: refs.head_sha }
}

/** The base GitLab names for a root commit's own diff, which has no parent: its blank ref, forty zeros. */
export const ROOT_COMMIT_BASE = '0'.repeat(40)

/**
 * GitLab's diff refs of a commit's own changes (what a comment on its diff is positioned on):
 * base and start its first parent, or the blank ref for a root commit; head the commit itself.
 */
export function commitDiffRefs(commit: { readonly id: string; readonly parent_ids: readonly string[] }): DiffRefs {
  const base = commit.parent_ids[0] ?? ROOT_COMMIT_BASE
  return { base_sha: base, start_sha: base, head_sha: commit.id }
}

/** The line of a file with this anchor key, with its index, or null. */
export function lineAt(file: ParsedDiffFile, key: string): { readonly line: DiffLine; readonly index: number } | null {
  const index = file.lines.findIndex(
    (l) => l.kind !== 'hunk' && l.kind !== 'note' && anchorKey(lineAnchor(file, l)) === key,
  )
  return index === -1 ? null : { line: file.lines[index], index }
}

const rangeEnd = (line: DiffLine): LineRangeEnd => ({
  type: line.kind === 'addition' ? 'new' : line.kind === 'deletion' ? 'old' : null,
  old_line: line.oldLine,
  new_line: line.newLine,
})

/**
 * GitLab's position of a comment on lines `from` to `to` of a file (one line when they are the same),
 * on the diff version `refs`: it names the last line, and a range names both ends.
 */
export function positionFor(file: ParsedDiffFile, from: DiffLine, to: DiffLine, refs: DiffRefs): DiffPosition {
  return {
    position_type: 'text',
    base_sha: refs.base_sha,
    start_sha: refs.start_sha,
    head_sha: refs.head_sha,
    old_path: file.oldPath,
    new_path: file.newPath,
    old_line: to.oldLine,
    new_line: to.newLine,
    ...(from === to ? {} : { line_range: { start: rangeEnd(from), end: rangeEnd(to) } }),
  }
}

/** How the comment form names its lines: `Line 12`, `Lines 10 to 14` (a removed line's number with −). */
export function linesLabel(from: DiffLine, to: DiffLine): string {
  const name = (l: DiffLine): string => (l.newLine !== null ? String(l.newLine) : `−${l.oldLine ?? ''}`)
  return from === to ? `Comment on line ${name(to)}` : `Comment on lines ${name(from)} to ${name(to)}`
}

/** A line comment sent from the review and not yet among the merge request's discussions. */
export interface SentComment {
  /** Unique on the page: the thread shows as `sent-<key>` until the server's takes its place. */
  readonly key: number
  readonly body: string
  readonly position: DiffPosition
  /** ISO 8601: when it was sent. */
  readonly at: string
}

/** Who a sent comment shows as written by: the account's user. */
export interface SentAuthor {
  readonly id: number
  readonly username: string
  readonly name: string
  readonly avatarUrl: string | null
}

const sameLine = (a: DiffPosition, b: DiffPosition): boolean =>
  a.head_sha === b.head_sha && anchorKey(positionAnchor(a)) === anchorKey(positionAnchor(b))

/**
 * The sent comments the threads do not show yet: each first note of a thread with a sent
 * comment's text on its line accounts for one of them (two identical comments need two threads).
 */
export function unshownComments(sent: readonly SentComment[], threads: readonly LineThread[]): SentComment[] {
  const unclaimed = threads.map((t) => t.notes[0]?.note).filter((n) => n !== undefined)
  return sent.filter((comment) => {
    const at = unclaimed.findIndex(
      (n) => n.body === comment.body && n.position != null && sameLine(n.position, comment.position),
    )
    if (at === -1) return true
    unclaimed.splice(at, 1)
    return false
  })
}

/** A sent comment as a thread of its own under its line, marked pending, until the server's thread replaces it. */
export function sentThread(comment: SentComment, author: SentAuthor): LineThread {
  const note: PositionedNote = {
    id: -comment.key,
    type: 'DiffNote',
    body: comment.body,
    attachment: null,
    author: {
      id: author.id,
      username: author.username,
      name: author.name,
      state: 'active',
      locked: false,
      avatar_url: author.avatarUrl,
      web_url: '',
    },
    created_at: comment.at,
    updated_at: comment.at,
    system: false,
    noteable_id: 0,
    noteable_type: 'MergeRequest',
    project_id: null,
    resolvable: false,
    confidential: false,
    internal: false,
    imported: false,
    imported_from: 'none',
    noteable_iid: null,
  }
  return {
    id: `sent-${comment.key}`,
    position: comment.position,
    notes: [{ note, pending: true }],
    resolvable: false,
    resolved: false,
    outdated: false,
  }
}
