import type { CommitTarget, Mutation } from '../../../shared/ipc/outbox'
import type { JsonObject } from '../cache/json'
import { withLineCodes } from './review'
import { commentCheck, noteOutcome, ownNoteMatcher, threadOutcome, type NoteJson } from './notes'
import type { Check, Outcome, SendContext } from './send'
import type { StoredEntry } from './store'

/*
 * Comments on a commit (`commits:comment`): a new thread (on the whole commit, or on a line of its
 * diff with a position) or a reply in one of its threads, through the commit's discussions
 * (`…/repository/commits/:sha/discussions`). A comment adds something each time it is sent, so a
 * lost answer is looked up among the commit's notes and never sent again on its own.
 */

type CommentMutation = Extract<Mutation, { kind: 'comment' | 'reply' }>

/** The commit's discussions: `/projects/:id/repository/commits/:sha/discussions`. */
export function commitDiscussionsPath(target: CommitTarget): string {
  return `/projects/${target.projectId}/repository/commits/${target.sha}/discussions`
}

/** Sends a comment or reply on a commit. */
export async function sendCommitNote(target: CommitTarget, m: CommentMutation, ctx: SendContext): Promise<Outcome> {
  if (!ctx.beginSend()) return { state: 'skipped' }
  const path = commitDiscussionsPath(target)
  if (m.kind === 'reply') {
    const note = await ctx.client.post<JsonObject>(`${path}/${encodeURIComponent(m.discussionId)}/notes`, {
      body: m.body,
    })
    return typeof note.id === 'number'
      ? noteOutcome({ ...note, id: note.id })
      : { state: 'failed', reason: 'The server answered without the new reply.', status: null }
  }
  const discussion = await ctx.client.post<{ notes?: JsonObject[] }>(path, {
    body: m.body,
    ...(m.position === undefined ? {} : { position: withLineCodes(m.position) }),
  })
  return threadOutcome(discussion)
}

/** Looks for the note a commit comment or reply whose answer was lost became: in its thread, or in every thread. */
export async function checkCommitNote(
  entry: StoredEntry,
  target: CommitTarget,
  m: CommentMutation,
  ctx: SendContext,
): Promise<Check> {
  const matches = ownNoteMatcher(entry, m.body, ctx)
  const path = commitDiscussionsPath(target)
  if (m.kind === 'reply') {
    const thread = await ctx.client.get<{ notes?: NoteJson[] }>(`${path}/${encodeURIComponent(m.discussionId)}`)
    return commentCheck((thread.notes ?? []).find(matches) ?? null)
  }
  for await (const thread of ctx.client.paginate<{ notes?: NoteJson[] }>(path, { per_page: 100 })) {
    // A new thread's comment is its first note.
    const first = thread.notes?.[0]
    if (first !== undefined && matches(first)) return commentCheck(first)
  }
  return commentCheck(null)
}
