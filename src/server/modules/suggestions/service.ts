/**
 * Suggestions of merge request diff notes (GitLab's Suggestions): stored when a note's text is
 * written, shown with the note, and applied as a commit on the merge request's source branch.
 */
import type { Suggestion } from '../../../shared/api/suggestion'
import { signedInUser, type Caller } from '../../platform/caller'
import { findProjectById } from '../../platform/db/platform-queries'
import { projectSettings, textSetting } from '../../platform/db/project-settings'
import type { ProjectRow, UserRow } from '../../platform/db/rows'
import { readFileAt } from '../../platform/git/file-at'
import { GitError } from '../../platform/git/git'
import { projectGitDir } from '../../platform/git/project-repo'
import { pushLanded } from '../../platform/git/push-listeners'
import { readRef } from '../../platform/git/refs'
import { RefMovedError, writeCommit, type Identity } from '../../platform/git/write-commit'
import { apiMessage, forbidden, invalidParam } from '../../platform/http/errors'
import { canPushToBranch, listProtectedBranches } from '../branches'
import { findMergeRequestById, mergeRequestNoteable, sourceProjectOf, type MergeRequestRow } from '../merge-requests'
import { canReadMergeRequestsWith } from '../merge-requests'
import {
  canSeeInternalNotes,
  findNoteById,
  settleRepliedThread,
  type NoteRow,
  type NoteSuggestions,
  type TextPosition,
} from '../notes'
import { userIdentity } from '../repository'
import { assertRepositoryWritable } from '../storage-moves'
import { findUserById } from '../users'
import { suggestionEntity } from './entity'
import { fileLines, parseSuggestions } from '../../../shared/suggestions'
import {
  markApplied,
  replaceSuggestions,
  suggestionsByIds,
  suggestionsOfNotes,
  type NewSuggestion,
  type SuggestionRow,
} from './queries'

/** GitLab's answers when suggestions cannot be applied (400 unless said otherwise). */
export const SUGGESTION_MESSAGES = {
  notFound: 'Suggestion is not applicable as the suggestion was not found.',
  someNotFound: 'Suggestions are not applicable as one or more suggestions were not found.',
  applied: 'This suggestion has already been applied.',
  merged: 'This merge request was merged. To apply this suggestion, edit this file directly.',
  closed: 'This merge request is closed. To apply this suggestion, edit this file directly.',
  sourceBranchDeleted: "Can't apply as the source branch was deleted.",
  outdatedLine: "Can't apply as this line was changed in a more recent version.",
  outdatedLines: "Can't apply as these lines were changed in a more recent version.",
  sameContent: 'This suggestion already matches its content.',
  sameBranch: 'Suggestions must all be on the same branch.',
  overlap: 'Suggestions are not applicable as their lines cannot overlap.',
  fileChanged: 'A file has been changed.',
  fileNotFound: 'A file was not found.',
} as const

/** GitLab's default: the other authors of the suggestions follow as Co-authored-by trailers. */
const DEFAULT_COMMIT_MESSAGE = 'Apply %{suggestions_count} suggestion(s) to %{files_count} file(s)\n\n%{co_authored_by}'

function positionOf(note: NoteRow): TextPosition | null {
  return note.position === null ? null : (JSON.parse(note.position) as TextPosition)
}

/**
 * Stores the suggestions of a merge request diff note just written: each ```suggestion block
 * covers the lines around the note's new line (clipped to the file), their text read from the
 * note's head commit. A note on a removed line has none (GitLab applies only to the new side);
 * the suggestions of a note that had one applied stay as they were.
 */
async function recordNoteSuggestions(caller: Caller, note: NoteRow): Promise<void> {
  const position = positionOf(note)
  if (note.noteable_type !== 'MergeRequest' || position === null || note.project_id === null) return
  if (suggestionsOfNotes(caller.db, [note.id]).some((s) => s.applied === 1)) return
  const line = position.new_line
  const parsed = line === null ? [] : parseSuggestions(note.body)
  const rows: NewSuggestion[] = []
  const project = parsed.length > 0 ? findProjectById(caller.db, note.project_id) : undefined
  if (project && line !== null) {
    // The head was checked against the diff versions when the note was written; a repository that
    // lost it since leaves the note without suggestions rather than failing the write.
    const file = await readFileAt(projectGitDir(caller.ctx, project), position.head_sha, position.new_path).catch(
      (error: unknown) => {
        if (error instanceof GitError) return null
        throw error
      },
    )
    const lines = file ? fileLines(file.content.toString('utf8')) : []
    for (const p of parsed) {
      const fromLine = Math.max(1, line - p.linesAbove)
      const toLine = Math.min(lines.length, line + p.linesBelow)
      if (fromLine > toLine) continue
      rows.push({
        linesAbove: p.linesAbove,
        linesBelow: p.linesBelow,
        fromLine,
        toLine,
        fromContent: lines.slice(fromLine - 1, toLine).join(''),
        toContent: p.content,
      })
    }
  }
  replaceSuggestions(caller.db, note.id, rows)
}

/** Why a suggestion cannot be applied now, without asking git (null: it may be). */
function inapplicableReason(row: SuggestionRow, note: NoteRow, mr: MergeRequestRow | undefined): string | null {
  if (row.applied === 1) return SUGGESTION_MESSAGES.applied
  if (!mr || mr.state === 'merged') return SUGGESTION_MESSAGES.merged
  if (mr.state !== 'opened') return SUGGESTION_MESSAGES.closed
  if (mr.source_project_id === null) return SUGGESTION_MESSAGES.sourceBranchDeleted
  // The position tracer carries a note to the newest version while its lines are unchanged.
  if (positionOf(note)?.head_sha !== mr.head_sha)
    return row.from_line === row.to_line ? SUGGESTION_MESSAGES.outdatedLine : SUGGESTION_MESSAGES.outdatedLines
  if (row.from_content === row.to_content) return SUGGESTION_MESSAGES.sameContent
  return null
}

/** The suggestions of diff notes being shown, with whether each may be applied now; one query for them all. */
function presentNoteSuggestions(caller: Caller, notes: readonly NoteRow[]): Map<number, Suggestion[]> {
  const byNote = new Map<number, Suggestion[]>()
  const rows = suggestionsOfNotes(
    caller.db,
    notes.filter((n) => n.noteable_type === 'MergeRequest').map((n) => n.id),
  )
  if (rows.length === 0) return byNote
  const notesById = new Map(notes.map((n) => [n.id, n]))
  const mrs = new Map<number, MergeRequestRow | undefined>()
  for (const row of rows) {
    const note = notesById.get(row.note_id) as NoteRow
    if (!mrs.has(note.noteable_id)) mrs.set(note.noteable_id, findMergeRequestById(caller.db, note.noteable_id))
    const entity = suggestionEntity(row, inapplicableReason(row, note, mrs.get(note.noteable_id)) === null)
    byNote.set(row.note_id, [...(byNote.get(row.note_id) ?? []), entity])
  }
  return byNote
}

/** What the notes module calls for suggestions (fillRegistries registers it). */
export const noteSuggestions: NoteSuggestions = {
  record: recordNoteSuggestions,
  of: presentNoteSuggestions,
}

/** A suggestion about to be applied, with its note and the file it changes. */
interface Target {
  readonly row: SuggestionRow
  readonly note: NoteRow
  readonly path: string
}

/**
 * The message of the commit (custom, else the project's template, else GitLab's), placeholders
 * filled. `%{co_authored_by}` is one `Co-authored-by: Name <email>` trailer per co-author; trailing
 * blank lines (the default's when there is none) are dropped, as git's own cleanup would.
 */
function commitMessage(
  template: string,
  ctx: {
    project: ProjectRow
    mr: MergeRequestRow
    user: UserRow
    paths: readonly string[]
    count: number
    coAuthors: readonly Identity[]
  },
): string {
  const values: Readonly<Record<string, string>> = {
    branch_name: ctx.mr.source_branch,
    files_count: String(ctx.paths.length),
    file_paths: [...ctx.paths].sort().join(', '),
    project_name: ctx.project.name,
    project_path: ctx.project.path,
    user_full_name: ctx.user.name,
    username: ctx.user.username,
    suggestions_count: String(ctx.count),
    co_authored_by: ctx.coAuthors.map((a) => `Co-authored-by: ${a.name} <${a.email}>`).join('\n'),
  }
  return template.replace(/%\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole).trimEnd()
}

/**
 * The suggestions' authors in the order of their suggestions, each once: GitLab's commit author
 * when there is only one, and its co-authors (all but the one applying) otherwise.
 */
function suggestionAuthors(caller: Caller, targets: readonly Target[]): UserRow[] {
  const ids = [...new Set(targets.map((t) => t.note.author_id))]
  return ids.map((id) => findUserById(caller.db, id)).filter((u): u is UserRow => u !== undefined)
}

/**
 * Applies suggestions in one commit on their merge request's source branch, as GitLab's
 * `PUT /suggestions/:id/apply` and `PUT /suggestions/batch_apply` do. Unknown ids, and suggestions
 * of merge requests or internal notes the caller may not read, answer 404 with `notFoundMessage`;
 * a reader who may not push to the source branch gets 403; a suggestion that cannot apply (applied,
 * merge request merged or closed, its lines changed since, same content, another branch,
 * overlapping lines, the branch moved meanwhile) gets 400 and nothing is written. The commit is
 * authored by the suggestions' author when there is one (GitLab's), committed by the caller, and
 * GitLab's default message names the other authors as co-authors; the suggestions are marked
 * applied, their threads resolved, and the push announced.
 */
export async function applySuggestions(
  caller: Caller,
  ids: readonly number[],
  customMessage: string | undefined,
  notFoundMessage: string,
): Promise<Suggestion[]> {
  const user = signedInUser(caller)
  if (customMessage?.includes('\0')) throw invalidParam('commit_message')
  const unique = [...new Set(ids)]
  const rows = suggestionsByIds(caller.db, unique)
  if (rows.length !== unique.length) throw apiMessage(404, notFoundMessage)

  // Every suggestion is found and may be applied by the caller (404, 403) before any is checked (400).
  const found = rows.map((row) => {
    const note = findNoteById(caller.db, row.note_id)
    const its = note && findMergeRequestById(caller.db, note.noteable_id)
    const target = its && findProjectById(caller.db, its.project_id)
    const readable =
      target &&
      canReadMergeRequestsWith(caller.perms, target) &&
      (note.internal === 0 || canSeeInternalNotes(caller.perms, { kind: 'project', project: target }))
    if (!readable || !note || !its || !target) throw apiMessage(404, notFoundMessage)
    return { row, note, mr: its, project: target }
  })
  for (const f of found) {
    const source = sourceProjectOf(caller.db, f.mr)
    const rules = source ? listProtectedBranches(caller.db, source.id) : []
    if (source && !canPushToBranch(caller.perms, source, rules, f.mr.source_branch)) throw forbidden()
  }
  const targets: Target[] = []
  let mr: MergeRequestRow | undefined
  let project: ProjectRow | undefined
  for (const f of found) {
    const reason = inapplicableReason(f.row, f.note, f.mr)
    if (reason) throw apiMessage(400, reason)
    if (mr && mr.id !== f.mr.id) throw apiMessage(400, SUGGESTION_MESSAGES.sameBranch)
    mr = f.mr
    project = f.project
    targets.push({ row: f.row, note: f.note, path: (positionOf(f.note) as TextPosition).new_path })
  }
  if (!mr || !project) throw apiMessage(404, notFoundMessage)
  const source = sourceProjectOf(caller.db, mr) as ProjectRow
  assertRepositoryWritable(caller.db, source)

  const gitDir = projectGitDir(caller.ctx, source)
  const ref = `refs/heads/${mr.source_branch}`
  const head = await readRef(gitDir, ref)
  if (!head) throw apiMessage(400, SUGGESTION_MESSAGES.sourceBranchDeleted)
  if (head !== mr.head_sha) throw apiMessage(400, SUGGESTION_MESSAGES.fileChanged)

  const paths = [...new Set(targets.map((t) => t.path))]
  const actions = []
  for (const path of paths) {
    const file = await readFileAt(gitDir, head, path)
    if (!file) throw apiMessage(400, SUGGESTION_MESSAGES.fileNotFound)
    const lines = fileLines(file.content.toString('utf8'))
    // Bottom-up, so each replacement leaves the line numbers of those above it alone.
    const inFile = targets.filter((t) => t.path === path).sort((a, b) => b.row.from_line - a.row.from_line)
    inFile.forEach((t, i) => {
      if (i > 0 && t.row.to_line >= inFile[i - 1].row.from_line) throw apiMessage(400, SUGGESTION_MESSAGES.overlap)
      if (lines.slice(t.row.from_line - 1, t.row.to_line).join('') !== t.row.from_content)
        throw apiMessage(400, SUGGESTION_MESSAGES.fileChanged)
      lines.splice(t.row.from_line - 1, t.row.to_line - t.row.from_line + 1, ...fileLines(t.row.to_content))
    })
    actions.push({ action: 'update' as const, filePath: path, content: Buffer.from(lines.join(''), 'utf8') })
  }

  const template =
    (customMessage?.trim() ? customMessage : null) ??
    textSetting(projectSettings(project.settings), 'suggestion_commit_message') ??
    DEFAULT_COMMIT_MESSAGE
  const authors = suggestionAuthors(caller, targets)
  const coAuthors = authors.filter((a) => a.id !== user.id).map(userIdentity)
  const message = commitMessage(template, { project, mr, user, paths, count: targets.length, coAuthors })
  const suggester = authors.length === 1 ? authors[0] : undefined
  const committer: Identity = userIdentity(user)
  let sha: string
  try {
    sha = await writeCommit(gitDir, {
      ref,
      parent: head,
      expectedOld: head,
      actions,
      message,
      author: suggester ? userIdentity(suggester) : committer,
      committer,
    })
  } catch (error) {
    if (error instanceof RefMovedError) throw apiMessage(400, SUGGESTION_MESSAGES.fileChanged)
    throw error
  }
  const noteable = mergeRequestNoteable(caller, project, mr)
  caller.db.transaction(() => {
    markApplied(
      caller.db,
      targets.map((t) => t.row.id),
      sha,
    )
    for (const discussionId of new Set(targets.map((t) => t.note.discussion_id)))
      settleRepliedThread(caller, noteable, discussionId, true)
  })()
  await pushLanded({ ctx: caller.ctx, project: source, user, updates: [{ oldSha: head, newSha: sha, ref }] })
  return suggestionsByIds(caller.db, unique).map((row) => suggestionEntity(row, false))
}
