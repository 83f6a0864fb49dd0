/**
 * Comments on commits (GitLab's Commits API comments and commit discussions): a commit of a
 * project as a noteable, so its notes, threads and diff threads are the notes module's.
 */
import type { Caller } from '../../platform/caller'
import { readCommit, type GitCommit } from '../../platform/git/commits'
import { diffTrees, EMPTY_TREE_SHA, UNLIMITED_DIFF } from '../../platform/git/diff'
import { patchLines } from '../../platform/git/diff-lines'
import { projectGitDir, repoExists } from '../../platform/git/project-repo'
import type { ProjectRow, UserRow } from '../../platform/db/rows'
import { notFound } from '../../platform/http/errors'
import {
  BLANK_SHA,
  checkCommitPosition,
  createDiffDiscussion,
  createNote,
  projectWebUrl,
  readableNotesPage,
  type CreateNoteResult,
  type Noteable,
  type NoteRow,
  type RefNoteableKind,
  type TextPosition,
} from '../notes'
import { usersByIds, userRef } from '../users'
import type { CommitNote } from '../../../shared/api/note'
import { commitNoteEntity } from './entity'
import { assertCanReadCommitNotes, canReadCommitNotes } from './policy'
import { commitNoteableId } from './queries'

/** The commit `ref` (SHA, branch or tag) names in the project's repository, or 404 `Commit Not Found`. */
export async function findCommit(caller: Caller, project: ProjectRow, ref: string): Promise<GitCommit> {
  const gitDir = projectGitDir(caller.ctx, project)
  if (!repoExists(gitDir)) throw notFound('Commit')
  return readCommit(gitDir, ref).catch(() => {
    throw notFound('Commit')
  })
}

/**
 * A commit as a noteable: readable with the project's code, its diff threads checked against its
 * own changes (from its first parent). GitLab raises no mention to-dos here through this API and
 * commits have no iid, quick actions, locking or resolvable threads.
 */
export function commitNoteable(caller: Caller, project: ProjectRow, commit: GitCommit): Noteable {
  return {
    type: 'Commit',
    id: commitNoteableId(caller.db, project.id, commit.id),
    iid: null,
    container: { kind: 'project', project },
    title: commit.title,
    webUrl: `${projectWebUrl(caller, project)}/-/commit/${commit.id}`,
    discussionLocked: false,
    todoTarget: false,
    canRead: (perms) => canReadCommitNotes(perms, project),
    checkDiffPosition: (caller, position) => checkCommitPosition(projectGitDir(caller.ctx, project), commit, position),
    // A commit never changes: there is no updated_at to move.
    touch: () => undefined,
  }
}

/** The discussions family of commits: `/projects/:id/repository/commits/:sha/discussions`, the commit by SHA or ref. */
export const commitNoteableKind: RefNoteableKind = {
  parent: 'projects',
  segment: 'repository/commits',
  param: 'sha',
  byRef: true,
  async find(caller, project, ref) {
    assertCanReadCommitNotes(caller, project)
    return commitNoteable(caller, project, await findCommit(caller, project, ref))
  },
}

/** A comment of the Commits API: its text and, for a line comment, the file, line and side. */
export interface CommitCommentInput {
  readonly note: string
  readonly path?: string
  readonly line?: number
  readonly lineType: 'new' | 'old'
}

/**
 * The position of a line comment on the commit's diff: the file whose new path is `path`, and its
 * added (`new`, by its new line number) or removed (`old`, by its old one) line `line`. Undefined
 * when the diff has no such line: GitLab then keeps the comment on the whole commit.
 */
async function lineCommentPosition(
  gitDir: string,
  commit: GitCommit,
  input: CommitCommentInput,
): Promise<TextPosition | undefined> {
  if (input.path === undefined || input.line === undefined) return undefined
  const parent = commit.parentIds[0]
  const files = await diffTrees(gitDir, parent ?? EMPTY_TREE_SHA, commit.id, UNLIMITED_DIFF)
  const file = files.find((f) => f.newPath === input.path)
  const line = file
    ? patchLines(file.diff).find(
        (l) => l.type === input.lineType && (l.type === 'new' ? l.newLine : l.oldLine) === input.line,
      )
    : undefined
  if (!file || !line) return undefined
  const base = parent ?? BLANK_SHA
  return {
    base_sha: base,
    start_sha: base,
    head_sha: commit.id,
    old_path: file.oldPath,
    new_path: file.newPath,
    position_type: 'text',
    old_line: line.oldLine,
    new_line: line.newLine,
    line_range: null,
  }
}

/**
 * Posts a Commits API comment: a diff thread on the named line of the commit's diff when there is
 * one, else a comment on the whole commit (GitLab ignores a path or line the diff does not have).
 */
export async function createCommitComment(
  caller: Caller,
  project: ProjectRow,
  commit: GitCommit,
  input: CommitCommentInput,
): Promise<NoteRow> {
  const noteable = commitNoteable(caller, project, commit)
  const position = await lineCommentPosition(projectGitDir(caller.ctx, project), commit, input)
  const created: CreateNoteResult = position
    ? await createDiffDiscussion(caller, noteable, { body: input.note, position })
    : createNote(caller, noteable, input.note)
  // Commits have no quick actions, so a comment is always saved as a note.
  if (created.kind !== 'note') throw new Error('a commit comment ran quick actions')
  return created.note
}

/** One page of a commit's comments the caller may read, oldest first (GitLab orders them by created_at), with the total. */
export function commitComments(
  caller: Caller,
  project: ProjectRow,
  commit: GitCommit,
  page: { readonly limit: number; readonly offset: number },
): { comments: CommitNote[]; total: number } {
  const noteable = commitNoteable(caller, project, commit)
  const { rows, total } = readableNotesPage(caller, noteable, { order: { by: 'created_at', sort: 'asc' } }, page)
  return { comments: presentCommitNotes(caller, rows), total }
}

/** Serialises commit notes with their authors, loaded in one query. */
export function presentCommitNotes(caller: Caller, rows: readonly NoteRow[]): CommitNote[] {
  const users = usersByIds(
    caller.db,
    rows.map((r) => r.author_id),
  )
  return rows.map((r) => commitNoteEntity(r, userRef(users.get(r.author_id) as UserRow, caller.baseUrl)))
}
