import { createHash } from 'node:crypto'
import { samePosition, type DiffPosition, type LineRangeEnd } from '../../../shared/ipc/diff-position'
import type { DraftInput, ItemTarget } from '../../../shared/ipc/outbox'
import type { ReviewDraft } from '../../../shared/ipc/review'
import type { ApiClient } from '../api/client'
import { isRecord } from '../cache/json'
import { SKEW_ALLOWANCE_MS, type NoteJson } from './notes'
import type { Check, Outcome, SendContext } from './send'
import type { StoredEntry } from './store'

/**
 * How a pending review reaches the server (GitLab's Draft notes API) and how a submission whose
 * answer was lost is looked up. A submission makes the drafts written offline into draft notes,
 * skipping any the server already has (an earlier attempt's), then publishes all the user's
 * drafts at once with `bulk_publish`: sent again after a check, it adds nothing twice.
 */

/** A draft note as GitLab's Draft notes API answers it (the fields read here). */
export interface DraftNoteJson {
  readonly id: number
  readonly note: string
  readonly position?: DiffPosition | null
  readonly discussion_id?: string | null
}

const mrPath = (t: Pick<ItemTarget, 'projectId' | 'iid'>): string => `/projects/${t.projectId}/merge_requests/${t.iid}`

/** `…/draft_notes` of a merge request. */
export const draftNotesPath = (t: Pick<ItemTarget, 'projectId' | 'iid'>): string => `${mrPath(t)}/draft_notes`

/** GitLab's line code of a diff line: the path's SHA-1, then the old and new line numbers. */
export function lineCode(path: string, oldLine: number | null, newLine: number | null): string {
  return `${createHash('sha1').update(path).digest('hex')}_${oldLine ?? 0}_${newLine ?? 0}`
}

/** The position with the line codes of its range filled in (GitLab needs them; the renderer cannot hash). */
export function withLineCodes(position: DiffPosition): DiffPosition {
  if (position.line_range === undefined) return position
  const coded = (end: LineRangeEnd): LineRangeEnd => ({
    ...end,
    line_code: end.line_code ?? lineCode(position.new_path, end.old_line, end.new_line),
  })
  return { ...position, line_range: { start: coded(position.line_range.start), end: coded(position.line_range.end) } }
}

/** A server draft note as the app lists it. */
export function serverDraft(json: DraftNoteJson): ReviewDraft {
  const position = isRecord(json.position) && typeof json.position.head_sha === 'string' ? json.position : null
  return {
    id: `server-${json.id}`,
    source: 'server',
    note: json.note,
    position,
    discussionId: typeof json.discussion_id === 'string' && json.discussion_id !== '' ? json.discussion_id : null,
  }
}

/** The body of `POST …/draft_notes` for a draft. */
export function draftNoteBody(draft: DraftInput): Record<string, unknown> {
  return {
    note: draft.note,
    ...(draft.position === undefined ? {} : { position: withLineCodes(draft.position) }),
    ...(draft.discussionId === undefined ? {} : { in_reply_to_discussion_id: draft.discussionId }),
  }
}

/** Every draft note of the user's on the merge request (drafts are private: the list is the caller's). */
export async function readDraftNotes(client: ApiClient, target: Pick<ItemTarget, 'projectId' | 'iid'>) {
  const drafts: DraftNoteJson[] = []
  for await (const d of client.paginate<DraftNoteJson>(draftNotesPath(target), { per_page: 100 })) drafts.push(d)
  return drafts
}

const isDraftOf = (draft: DraftInput) => (json: DraftNoteJson) =>
  json.note === draft.note &&
  samePosition(draft.position, serverDraft(json).position) &&
  (draft.discussionId ?? null) === serverDraft(json).discussionId

/**
 * The drafts the server does not have yet: each server draft accounts for one local draft with the
 * same text, line and thread (two identical drafts need two).
 */
export function missingDrafts(drafts: readonly DraftInput[], server: readonly DraftNoteJson[]): DraftInput[] {
  const unclaimed = [...server]
  return drafts.filter((draft) => {
    const at = unclaimed.findIndex(isDraftOf(draft))
    if (at === -1) return true
    unclaimed.splice(at, 1)
    return false
  })
}

/** Sends a review submission: the drafts the server lacks become draft notes, then all are published. */
export async function sendReview(
  target: ItemTarget,
  drafts: readonly DraftInput[],
  ctx: SendContext,
): Promise<Outcome> {
  const server = await readDraftNotes(ctx.client, target)
  const missing = missingDrafts(drafts, server)
  if (missing.length === 0 && server.length === 0)
    return { state: 'done', reason: 'There was nothing to publish: the review had no comments.' }
  if (!ctx.beginSend()) return { state: 'skipped' }
  for (const draft of missing) await ctx.client.post(draftNotesPath(target), draftNoteBody(draft))
  await ctx.client.post(`${draftNotesPath(target)}/bulk_publish`)
  return { state: 'done', reason: null, update: { kind: 'notes-stale' } }
}

/**
 * Whether a submission whose answer was lost took effect: its drafts still on the server as drafts
 * mean it was not published (sending again creates only what is missing); every draft found among
 * the user's notes since the send, with no draft left, means it was.
 */
export async function checkReview(
  entry: StoredEntry,
  target: ItemTarget,
  drafts: readonly DraftInput[],
  ctx: SendContext,
): Promise<Check> {
  const server = await readDraftNotes(ctx.client, target)
  if (server.length > 0)
    return { applied: false, reason: `The review was not published: ${server.length} draft(s) still on the server.` }
  const since = Date.parse(entry.sentAt ?? entry.createdAt) - SKEW_ALLOWANCE_MS
  const bodies: string[] = []
  for await (const n of ctx.client.paginate<NoteJson>(`${mrPath(target)}/notes`, {
    order_by: 'created_at',
    sort: 'desc',
    per_page: 100,
  })) {
    if (Date.parse(n.created_at) < since) break
    if (n.author?.id === ctx.userId && !n.system) bodies.push(n.body)
  }
  const unpublished = drafts.filter((d) => {
    const at = bodies.indexOf(d.note)
    if (at === -1) return true
    bodies.splice(at, 1)
    return false
  })
  if (unpublished.length === 0)
    return { applied: true, reason: 'The review was found published on the server.', update: { kind: 'notes-stale' } }
  if (unpublished.length === drafts.length)
    return { applied: false, reason: 'The review was not on the server: none of its comments was found.' }
  return {
    applied: 'unknown',
    reason: `Only part of the review was found on the server (${drafts.length - unpublished.length} of ${drafts.length} comments): check the merge request, then retry or discard.`,
  }
}

interface ApprovalsJson {
  readonly approved_by?: readonly { readonly user?: { readonly id?: number } }[]
}

async function approvedByMe(target: ItemTarget, ctx: SendContext): Promise<boolean> {
  const approvals = await ctx.client.get<ApprovalsJson>(`${mrPath(target)}/approvals`)
  return (approvals.approved_by ?? []).some((a) => a.user?.id === ctx.userId)
}

/** Approves at the reviewed head; an approval already given is left as it is. */
export async function sendApprove(target: ItemTarget, sha: string, ctx: SendContext): Promise<Outcome> {
  if (await approvedByMe(target, ctx)) return { state: 'done', reason: 'You had already approved it.' }
  if (!ctx.beginSend()) return { state: 'skipped' }
  await ctx.client.post(`${mrPath(target)}/approve`, { sha })
  return { state: 'done', reason: null }
}

/** Whether an approval whose answer was lost is on the server. */
export async function checkApprove(target: ItemTarget, ctx: SendContext): Promise<Check> {
  return (await approvedByMe(target, ctx))
    ? { applied: true, reason: 'The approval is on the server.' }
    : { applied: false, reason: 'The approval was not on the server.' }
}
