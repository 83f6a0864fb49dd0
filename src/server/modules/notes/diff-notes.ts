/**
 * Diff notes: threads started on a line of a merge request's diff (GitLab's DiffNote), with the
 * position checked against the noteable's diff before anything is stored.
 */
import type { Caller } from '../../platform/caller'
import { badRequest, paramError } from '../../platform/http/errors'
import { parseTextPosition, PositionError, type TextPosition } from './diff-position'
import { assertCanComment } from './policy'
import { createNote, type CreateNoteResult, type Noteable, type NoteOptions } from './service'

/** What a diff thread is started with: its text, the position as the client sent it, and the usual note options. */
export interface DiffDiscussionInput extends Omit<NoteOptions, 'thread' | 'replyTo' | 'diff'> {
  readonly body: string
  /** The `position` object of the request (see `positionInput`), unchecked. */
  readonly position: unknown
  /** The commit of the merge request the thread was started on (GitLab's `commit_id`), if any. */
  readonly commitId?: string
}

/** A position read from the request, or 400 naming the field as Grape does (`position[base_sha] is missing`). */
function readPosition(input: unknown): TextPosition {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw paramError('position is invalid')
  try {
    return parseTextPosition(input as Readonly<Record<string, unknown>>)
  } catch (error) {
    if (error instanceof PositionError) throw paramError(error.message.replace(/^(\w+)/, 'position[$1]'))
    throw error
  }
}

/**
 * Starts a diff thread on a noteable that takes positions (merge requests, commits): who may comment is
 * checked first, then the position is read and checked against the noteable's diff versions
 * (400 when it names no line of them), then the DiffNote is created as `createNote` creates a
 * thread (quick actions, events, mention to-dos). Draft notes publish through this too.
 */
export async function createDiffDiscussion(
  caller: Caller,
  noteable: Noteable,
  input: DiffDiscussionInput,
): Promise<CreateNoteResult> {
  assertCanComment(caller, noteable)
  if (!noteable.checkDiffPosition) throw badRequest('position is not supported here')
  const { body, position: _position, commitId, ...options } = input
  const checked = await noteable.checkDiffPosition(caller, readPosition(input.position), commitId)
  return createNote(caller, noteable, body, {
    ...options,
    thread: true,
    diff: { position: JSON.stringify(checked.position), lineCode: checked.lineCode, commitId: commitId ?? null },
  })
}
