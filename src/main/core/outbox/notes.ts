import type { Note } from '../../../shared/api/note'
import { isRecord, type JsonObject } from '../cache/json'
import type { Check, Outcome, SendContext } from './send'
import type { StoredEntry } from './store'

/*
 * Comments of every target (issues, merge requests, commits): what a landed comment records, and
 * how the note a comment became is recognised when its answer was lost.
 */

/** A comment that landed as `note`: its id (which a lost answer's check must not claim again) and its JSON. */
export function noteOutcome(note: JsonObject & { readonly id: number }): Outcome {
  return { state: 'done', reason: null, result: { noteId: note.id }, update: { kind: 'note', json: note } }
}

/** A new thread that landed (the answer is the discussion): its first note is the comment. */
export function threadOutcome(discussion: { readonly notes?: readonly unknown[] }): Outcome {
  const first = discussion.notes?.[0]
  if (!isRecord(first) || typeof first.id !== 'number')
    return { state: 'failed', reason: 'The server answered without the new thread.', status: null }
  return noteOutcome({ ...first, id: first.id })
}

/** How far before the local send time a note may be stamped by the server (clock skew allowance). */
export const SKEW_ALLOWANCE_MS = 10 * 60_000

/** What the search for a sent comment reads of a note. */
export type NoteJson = Readonly<Pick<Note, 'id' | 'body' | 'created_at'> & Partial<Pick<Note, 'system'>>> & {
  readonly author?: { readonly id: number }
}

/**
 * Whether a note read from the server is the one an entry's comment became: by this account,
 * with this exact body, created no earlier than shortly before the send, and not already claimed
 * by another entry of the same item.
 */
export function ownNoteMatcher(entry: StoredEntry, body: string, ctx: SendContext): (note: NoteJson) => boolean {
  const since = Date.parse(entry.sentAt ?? entry.createdAt) - SKEW_ALLOWANCE_MS
  const claimed = ctx.claimedNoteIds()
  return (n) =>
    n.body === body &&
    n.author?.id === ctx.userId &&
    n.system !== true &&
    !claimed.has(n.id) &&
    Date.parse(n.created_at) >= since
}

/** What a check answers once the comment's note is found (or not). */
export function commentCheck(note: NoteJson | null): Check {
  if (note === null) return { applied: false, reason: 'The comment was not on the server.' }
  return {
    applied: true,
    reason: 'The comment was found on the server.',
    result: { noteId: note.id },
    update: { kind: 'note', json: note },
  }
}
