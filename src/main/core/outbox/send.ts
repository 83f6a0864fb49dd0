import { setTimeout as sleep } from 'node:timers/promises'
import {
  isItemTarget,
  type ItemChanges,
  type ItemFields,
  type ItemTarget,
  type Mutation,
  type OutboxConflict,
} from '../../../shared/ipc/outbox'
import type { ApiClient } from '../api/client'
import { ApiError, PreconditionFailedError } from '../api/errors'
import { isRecord, type JsonObject } from '../cache/json'
import {
  FIELD_LABELS,
  classify,
  classifyFields,
  desiredFields,
  pick,
  snapshotOf,
  updateBody,
  type FieldName,
  type ItemJson,
} from './fields'
import type { CacheUpdate } from './optimistic'
import { checkCommitNote, sendCommitNote } from './commit-notes'
import { commentCheck, noteOutcome, ownNoteMatcher, SKEW_ALLOWANCE_MS, threadOutcome, type NoteJson } from './notes'
import { checkLinkWrite, sendLinkWrite } from './links'
import { checkApprove, checkReview, sendApprove, sendReview, withLineCodes } from './review'
import type { EntryResult, Progress, StoredEntry } from './store'

/**
 * How each kind of write reaches the server, and how an unknown outcome is checked by
 * reading the server. The queue (outbox.ts) decides when; this file decides how.
 */

/** Where one attempt left an entry. */
export type Outcome =
  | {
      readonly state: 'done' | 'reconciled'
      readonly reason: string | null
      readonly result?: EntryResult
      readonly update?: CacheUpdate
    }
  | { readonly state: 'failed'; readonly reason: string; readonly status: number | null }
  | {
      readonly state: 'conflict'
      readonly reason: string
      readonly conflict: OutboxConflict
      readonly update: CacheUpdate
    }
  /** Transient trouble (offline, 5xx on an idempotent write, 429, a sign-in to renew): try again later; an unknown outcome is checked then. */
  | {
      readonly state: 'queued' | 'unknown-outcome'
      readonly reason: string
      readonly retryAfterMs?: number
      /** The account cannot send now (offline, its requests held): its loop stops until it can. */
      readonly pause?: boolean
    }
  /** The entry was moved by the user (discarded) while its reads were out: nothing to record. */
  | { readonly state: 'skipped' }

/** What the queue gives one attempt. */
export interface SendContext {
  readonly client: ApiClient
  /** The account's user id on the instance (authorship of notes when checking an unknown outcome). */
  readonly userId: number
  /**
   * Commits `sending` (with facts to read back after a crash) before the write goes out.
   * False when the entry is no longer in a sendable state (the user discarded it).
   */
  beginSend(progress?: Progress): boolean
  /** Note ids that other settled comments of this item already account for. */
  claimedNoteIds(): Set<number>
  /** Iids of the target's project that other creations of the same kind already account for. */
  claimedCreatedIids(): Set<number>
  /**
   * Saves the answer of a GET again in the URL cache (what a write just changed) and tells the
   * views of the project's `kind` to read again; best effort: never throws.
   */
  resave(path: string, kind: 'issue', projectId: number): Promise<void>
}

/** What reading the server showed about a write whose outcome was unknown. */
export type Check =
  | { readonly applied: true; readonly reason: string; readonly result?: EntryResult; readonly update?: CacheUpdate }
  | { readonly applied: false; readonly reason: string }
  | { readonly applied: 'unknown'; readonly reason: string }

export function itemPath(t: ItemTarget): string {
  return `/projects/${t.projectId}/${t.type === 'issue' ? 'issues' : 'merge_requests'}/${t.iid}`
}

const noun = (t: ItemTarget): string => (t.type === 'issue' ? 'issue' : 'merge request')

/** A duration the API reads unambiguously, in seconds (`-90s` subtracts). */
const seconds = (s: number): string => `${s}s`

/** How many rounds of read-compare-write an update gets when the item keeps changing under it (412). */
const MAX_PRECONDITION_ROUNDS = 3

/** Sends one entry (its state is queued, or an unknown outcome the server showed as not applied). */
export async function send(entry: StoredEntry, ctx: SendContext): Promise<Outcome> {
  const m = entry.mutation
  if (entry.target.type === 'todo') {
    if (m.kind !== 'todo-done') return invalid(entry)
    if (!ctx.beginSend()) return { state: 'skipped' }
    const todo = await ctx.client.post<JsonObject>(`/todos/${entry.target.todoId}/mark_as_done`)
    return { state: 'done', reason: null, update: isRecord(todo) ? { kind: 'todo', json: todo } : undefined }
  }
  if (entry.target.type === 'commit')
    return m.kind === 'comment' || m.kind === 'reply' ? sendCommitNote(entry.target, m, ctx) : invalid(entry)
  const target = entry.target
  const path = itemPath(target)
  switch (m.kind) {
    case 'create-issue':
    case 'create-merge-request': {
      if (!ctx.beginSend()) return { state: 'skipped' }
      const created = await ctx.client.post<ItemJson>(collectionPath(target), { ...m.fields })
      return createdOutcome(target, created, null)
    }
    case 'comment':
    case 'reply': {
      if (!ctx.beginSend()) return { state: 'skipped' }
      if (m.kind === 'comment' && m.position !== undefined) {
        // A line comment starts a thread: the answer is the discussion, its first note the comment.
        const discussion = await ctx.client.post<{ notes?: JsonObject[] }>(`${path}/discussions`, {
          body: m.body,
          position: withLineCodes(m.position),
          ...(m.commitId === undefined ? {} : { commit_id: m.commitId }),
        })
        return threadOutcome(discussion)
      }
      const url =
        m.kind === 'comment' ? `${path}/notes` : `${path}/discussions/${encodeURIComponent(m.discussionId)}/notes`
      const note = await ctx.client.post<JsonObject>(url, { body: m.body })
      // A comment made only of quick actions answers 202 without a note.
      if (!isRecord(note) || typeof note.id !== 'number')
        return { state: 'done', reason: 'Only quick actions: the server applied them and kept no comment.' }
      return noteOutcome({ ...note, id: note.id })
    }
    case 'update':
      return sendUpdate(entry, m.changes, target, ctx)
    case 'submit-review':
      return target.type === 'merge_request' ? sendReview(target, m.drafts, ctx) : invalid(entry)
    case 'approve':
      return target.type === 'merge_request' ? sendApprove(target, m.sha, ctx) : invalid(entry)
    case 'time-estimate': {
      const item = await ctx.client.get<ItemJson>(path)
      const remote = snapshotOf(item)
      const wanted: ItemFields = { time_estimate: m.seconds }
      const c = classifyFields(wanted, entry.base?.fields ?? null, remote.fields)
      if (c.conflicting.length > 0)
        return conflict(wanted, remote.fields, remote.updatedAt, itemUpdate(target, item), c.conflicting)
      if (c.toSend.length === 0)
        return { state: 'done', reason: 'The server already had this estimate.', update: itemUpdate(target, item) }
      if (!ctx.beginSend()) return { state: 'skipped' }
      const stats =
        m.seconds === 0
          ? await ctx.client.post<{ time_estimate?: number }>(`${path}/reset_time_estimate`)
          : await ctx.client.post<{ time_estimate?: number }>(`${path}/time_estimate`, { duration: seconds(m.seconds) })
      if (stats?.time_estimate !== m.seconds)
        return {
          state: 'failed',
          reason: `The server answered with an estimate of ${String(stats?.time_estimate)} seconds instead of ${m.seconds}.`,
          status: null,
        }
      return { state: 'done', reason: null, update: await refreshed(target, ctx) }
    }
    case 'add-spent-time': {
      // Adding time is not idempotent: the total before goes in with `sending`, so a crash can be checked.
      const before = await ctx.client.get<{ total_time_spent?: number }>(`${path}/time_stats`)
      if (!ctx.beginSend({ spentBefore: before.total_time_spent ?? 0 })) return { state: 'skipped' }
      await ctx.client.post(
        `${path}/add_spent_time`,
        m.summary === undefined
          ? { duration: seconds(m.seconds) }
          : { duration: seconds(m.seconds), summary: m.summary },
      )
      return { state: 'done', reason: null, update: await refreshed(target, ctx) }
    }
    case 'todo': {
      if (!ctx.beginSend()) return { state: 'skipped' }
      try {
        const todo = await ctx.client.post<JsonObject>(`${path}/todo`)
        if (!isRecord(todo) || typeof todo.id !== 'number') return { state: 'done', reason: null }
        return { state: 'done', reason: null, result: { todoId: todo.id }, update: { kind: 'todo', json: todo } }
      } catch (error) {
        if (error instanceof ApiError && error.status === 304)
          return { state: 'done', reason: `The ${noun(target)} was already on your to-do list.` }
        throw error
      }
    }
    case 'link':
    case 'unlink':
      return target.type === 'issue' ? sendLinkWrite(target, m, ctx) : invalid(entry)
    case 'subscription': {
      const item = await ctx.client.get<ItemJson>(path)
      if (item.subscribed === m.subscribed)
        return {
          state: 'done',
          reason: m.subscribed ? 'Already subscribed.' : 'Already unsubscribed.',
          update: itemUpdate(target, item),
        }
      if (!ctx.beginSend()) return { state: 'skipped' }
      try {
        const updated = await ctx.client.post<ItemJson>(`${path}/${m.subscribed ? 'subscribe' : 'unsubscribe'}`)
        return { state: 'done', reason: null, update: isRecord(updated) ? itemUpdate(target, updated) : undefined }
      } catch (error) {
        // 304: it already was; the write's intent holds.
        if (!(error instanceof ApiError && error.status === 304)) throw error
        return { state: 'done', reason: m.subscribed ? 'Already subscribed.' : 'Already unsubscribed.' }
      }
    }
    default:
      return invalid(entry)
  }
}

/** The list a target's item is created in: `/projects/:id/issues` or `…/merge_requests`. */
function collectionPath(t: ItemTarget): string {
  return `/projects/${t.projectId}/${t.type === 'issue' ? 'issues' : 'merge_requests'}`
}

/** A landed creation: the new item's numbers (which later writes move to) and its JSON for the cache. */
function createdOutcome(target: ItemTarget, created: ItemJson, reason: string | null): Outcome {
  if (typeof created.iid !== 'number' || typeof created.id !== 'number')
    return { state: 'failed', reason: 'The server answered without the new item.', status: null }
  return {
    state: 'done',
    reason,
    result: { iid: created.iid, itemId: created.id },
    update: itemUpdate(target, created),
  }
}

function invalid(entry: StoredEntry): Outcome {
  return {
    state: 'failed',
    reason: `A ${entry.mutation.kind} write does not apply to a ${entry.target.type.replace('_', ' ')}.`,
    status: null,
  }
}

function itemUpdate(target: ItemTarget, json: ItemJson): CacheUpdate {
  return { kind: target.type, json }
}

/** The item after a write whose answer is not the item (time tracking): best effort, the write is done either way. */
async function refreshed(target: ItemTarget, ctx: SendContext): Promise<CacheUpdate | undefined> {
  try {
    return itemUpdate(target, await ctx.client.get<ItemJson>(itemPath(target)))
  } catch {
    return undefined
  }
}

function conflict(
  wanted: ItemFields,
  remote: Required<ItemFields>,
  remoteUpdatedAt: string | null,
  update: CacheUpdate,
  fields: readonly FieldName[],
): Outcome {
  const keys = Object.keys(wanted) as FieldName[]
  return {
    state: 'conflict',
    reason: `Changed on the server since your edit: ${fields.map((f) => FIELD_LABELS[f]).join(', ')}.`,
    conflict: { local: wanted, remote: pick(remote, keys), remoteUpdatedAt },
    update,
  }
}

/**
 * Read, compare the fields this write changes with the server's, then PUT only what is still
 * needed with `If-Unmodified-Since` set to the version just read; a 412 (it changed in between)
 * starts another round.
 */
async function sendUpdate(
  entry: StoredEntry,
  changes: ItemChanges,
  target: ItemTarget,
  ctx: SendContext,
): Promise<Outcome> {
  const path = itemPath(target)
  for (let round = 0; round < MAX_PRECONDITION_ROUNDS; round++) {
    const item = await readPastLastChange(path, ctx)
    const remote = snapshotOf(item)
    const c = classify(changes, entry.base?.fields ?? null, remote.fields)
    if (c.conflicting.length > 0)
      return conflict(desiredFields(changes), remote.fields, remote.updatedAt, itemUpdate(target, item), c.conflicting)
    const body = updateBody(changes, c)
    if (Object.keys(body).length === 0)
      return { state: 'done', reason: 'The server already had these changes.', update: itemUpdate(target, item) }
    if (!ctx.beginSend()) return { state: 'skipped' }
    let updated: ItemJson
    try {
      updated = await ctx.client.put<ItemJson>(
        path,
        body,
        remote.updatedAt === null ? {} : { ifUnmodifiedSince: new Date(remote.updatedAt) },
      )
    } catch (error) {
      if (error instanceof PreconditionFailedError) continue
      throw error
    }
    // GitLab ignores some values without an error (an unknown assignee, a milestone of another
    // project): a write the server did not apply is reported, not marked done.
    const after = classify(changes, null, snapshotOf(updated).fields)
    const missing = [...after.toSend, ...after.conflicting].map((f) => FIELD_LABELS[f])
    if (after.deltasToSend) missing.push('labels')
    if (missing.length > 0)
      return {
        state: 'failed',
        reason: `The server accepted the update but did not apply: ${missing.join(', ')}.`,
        status: null,
      }
    return { state: 'done', reason: null, update: itemUpdate(target, updated) }
  }
  return {
    state: 'failed',
    reason: `The ${noun(target)} kept changing on the server while this update was being sent; retry it.`,
    status: 412,
  }
}

/**
 * Reads the item, again if needed, until the server's clock is past the second of the item's
 * last change. `If-Unmodified-Since` has whole seconds: a change made later in that same second
 * would otherwise slip through; made after this read, it falls in a later second and gets a 412.
 */
async function readPastLastChange(path: string, ctx: SendContext): Promise<ItemJson> {
  for (let read = 0; ; read++) {
    const { data, headers } = await ctx.client.request<ItemJson>('GET', path)
    const serverNow = Date.parse(headers.get('date') ?? '')
    const updated = Date.parse(data.updated_at ?? '')
    if (
      read >= 3 ||
      Number.isNaN(serverNow) ||
      Number.isNaN(updated) ||
      Math.floor(serverNow / 1000) > Math.floor(updated / 1000)
    )
      return data
    await sleep(1000 - (updated % 1000) + 20)
  }
}

/** Lines that are quick actions (`/label ~x`): a body made only of them leaves no note to find. */
function onlyQuickActions(body: string): boolean {
  const lines = body.split('\n').filter((l) => l.trim() !== '')
  return lines.length > 0 && lines.every((l) => /^\/[a-z_]+/.test(l.trim()))
}

/** The note an item's comment became, if the server has it (`ownNoteMatcher`). */
async function findOwnNote(entry: StoredEntry, body: string, ctx: SendContext): Promise<NoteJson | null> {
  if (!isItemTarget(entry.target)) return null
  const path = itemPath(entry.target)
  const since = Date.parse(entry.sentAt ?? entry.createdAt) - SKEW_ALLOWANCE_MS
  const matches = ownNoteMatcher(entry, body, ctx)
  if (entry.mutation.kind === 'reply') {
    const discussion = await ctx.client.get<{ notes?: NoteJson[] }>(
      `${path}/discussions/${encodeURIComponent(entry.mutation.discussionId)}`,
    )
    return (discussion.notes ?? []).find(matches) ?? null
  }
  // Newest first, stopping at notes older than the window.
  for (let page = 1; ; page++) {
    const { items, nextPage } = await ctx.client.getPage<NoteJson>(`${path}/notes`, {
      order_by: 'created_at',
      sort: 'desc',
      per_page: 100,
      page,
    })
    const found = items.find(matches)
    if (found !== undefined) return found
    if (nextPage === null || items.length === 0 || Date.parse(items[items.length - 1].created_at) < since) return null
  }
}

/**
 * The item a creation became, if the server has it: by this account, with this exact title (and
 * for a merge request, these branches), created no earlier than shortly before the send, and
 * not already claimed by another creation entry.
 */
async function findOwnCreation(entry: StoredEntry, target: ItemTarget, ctx: SendContext): Promise<ItemJson | null> {
  const m = entry.mutation
  if (m.kind !== 'create-issue' && m.kind !== 'create-merge-request') return null
  const since = Date.parse(entry.sentAt ?? entry.createdAt) - SKEW_ALLOWANCE_MS
  const claimed = ctx.claimedCreatedIids()
  const query: Record<string, string | number> = {
    author_id: ctx.userId,
    created_after: new Date(since).toISOString(),
    state: 'all',
    order_by: 'created_at',
    sort: 'desc',
    per_page: 100,
  }
  if (m.kind === 'create-merge-request') query.source_branch = m.fields.source_branch
  else Object.assign(query, { search: m.fields.title, in: 'title' })
  const matches = (item: ItemJson): boolean =>
    item.title === m.fields.title &&
    typeof item.iid === 'number' &&
    !claimed.has(item.iid) &&
    Date.parse(String(item.created_at)) >= since &&
    (m.kind === 'create-issue' || item.target_branch === m.fields.target_branch)
  for await (const item of ctx.client.paginate<ItemJson>(collectionPath(target), query)) {
    if (matches(item)) return item
  }
  return null
}

/**
 * Reads the server to learn whether a write whose response was lost took effect. Never sends
 * the write itself: when the read shows it missing, the queue sends it as a new attempt.
 */
export async function check(entry: StoredEntry, ctx: SendContext): Promise<Check> {
  const m: Mutation = entry.mutation
  if (entry.target.type === 'todo') {
    const todoId = entry.target.todoId
    for await (const todo of ctx.client.paginate<{ id: number }>('/todos', { state: 'pending' })) {
      if (todo.id === todoId) return { applied: false, reason: 'The to-do is still pending on the server.' }
    }
    return { applied: true, reason: 'The to-do is no longer pending on the server.' }
  }
  if (entry.target.type === 'commit')
    return m.kind === 'comment' || m.kind === 'reply'
      ? checkCommitNote(entry, entry.target, m, ctx)
      : { applied: 'unknown', reason: `Cannot check a ${m.kind} write on a commit.` }
  const target = entry.target
  const path = itemPath(target)
  switch (m.kind) {
    case 'create-issue':
    case 'create-merge-request': {
      const item = await findOwnCreation(entry, target, ctx)
      if (item === null) return { applied: false, reason: `The new ${noun(target)} was not on the server.` }
      const landed = createdOutcome(target, item, null)
      if (landed.state !== 'done') return { applied: 'unknown', reason: 'The server answered without the new item.' }
      return {
        applied: true,
        reason: `The new ${noun(target)} was found on the server.`,
        result: landed.result,
        update: landed.update,
      }
    }
    case 'comment':
    case 'reply': {
      if (onlyQuickActions(m.body)) {
        return {
          applied: 'unknown',
          reason:
            'This comment holds only quick actions, which leave no comment to look for: check the item, then retry or discard it.',
        }
      }
      return commentCheck(await findOwnNote(entry, m.body, ctx))
    }
    case 'submit-review':
      return checkReview(entry, target, m.drafts, ctx)
    case 'approve':
      return checkApprove(target, ctx)
    case 'update': {
      const item = await ctx.client.get<ItemJson>(path)
      const c = classify(m.changes, null, snapshotOf(item).fields)
      if (c.toSend.length === 0 && c.conflicting.length === 0 && !c.deltasToSend)
        return { applied: true, reason: 'The server has these changes.', update: itemUpdate(target, item) }
      // Not (fully) there: the normal send path compares with the base again before writing.
      return { applied: false, reason: 'The server did not have these changes.' }
    }
    case 'time-estimate': {
      const stats = await ctx.client.get<{ time_estimate?: number }>(`${path}/time_stats`)
      return stats.time_estimate === m.seconds
        ? { applied: true, reason: 'The server has this estimate.' }
        : { applied: false, reason: 'The server did not have this estimate.' }
    }
    case 'add-spent-time': {
      const before = entry.progress?.spentBefore
      const stats = await ctx.client.get<{ total_time_spent?: number }>(`${path}/time_stats`)
      const total = stats.total_time_spent ?? 0
      if (before === undefined)
        return {
          applied: 'unknown',
          reason: 'The spent time before the request was not recorded: check the time tracking, then retry or discard.',
        }
      if (total - before === m.seconds) return { applied: true, reason: 'The server recorded this time.' }
      if (total === before) return { applied: false, reason: 'The server had not recorded this time.' }
      return {
        applied: 'unknown',
        reason: `The total spent time changed by ${total - before} seconds since, not by this entry's ${m.seconds}: someone else also logged time. Check the time tracking, then retry or discard.`,
      }
    }
    case 'todo': {
      const type = target.type === 'issue' ? 'Issue' : 'MergeRequest'
      for await (const todo of ctx.client.paginate<{ target?: { iid?: number } }>('/todos', {
        state: 'pending',
        project_id: target.projectId,
        type,
      })) {
        if (todo.target?.iid === target.iid) return { applied: true, reason: 'The to-do is on the server.' }
      }
      return { applied: false, reason: 'The to-do was not on the server.' }
    }
    case 'link':
    case 'unlink':
      return target.type === 'issue'
        ? checkLinkWrite(target, m, ctx)
        : { applied: 'unknown', reason: `Cannot check a ${m.kind} write on a ${noun(target)}.` }
    case 'subscription': {
      const item = await ctx.client.get<ItemJson>(path)
      return item.subscribed === m.subscribed
        ? { applied: true, reason: 'The subscription is as wanted.', update: itemUpdate(target, item) }
        : { applied: false, reason: 'The subscription was not changed.' }
    }
    default:
      return { applied: 'unknown', reason: `Cannot check a ${m.kind} write on a ${noun(target)}.` }
  }
}
