import {
  isItemTarget,
  temporaryReference,
  type ItemTarget,
  type Mutation,
  type NewIssue,
  type NewMergeRequest,
} from '../../../shared/ipc/outbox'
import { isDraftTitle } from '../../../shared/draft-titles'
import { exclusiveLabels, labelsAfter } from '../../../shared/labels'
import type { Cache } from '../cache/cache'
import { isRecord, type JsonObject } from '../cache/json'
import type { UserSummary } from '../../../shared/api/user'
import { labelTitles } from '../cache/kinds'
import type { ItemJson } from './fields'
import type { StoredEntry } from './store'

/**
 * Every optimistic change the outbox makes to the cache, in one place. The rule: an entry's
 * patch is in the cache exactly while the entry is queued, sending or of unknown outcome. It
 * goes on at enqueue (and again on retry or "keep mine"), and comes off when the entry settles
 * (after the server's answer is written, so the confirmed state shows at once), fails, lands in
 * a conflict (the server's version shows; the entry keeps both), or is discarded.
 *
 * The cache side (cache.ts `applyOptimistic`/`clearPending`) keeps the server's JSON in
 * `base_json` and re-applies pending patches over every sync, so sync never hides them.
 */

/** Server JSON to write into the cache when an entry settles. */
export type CacheUpdate =
  | { readonly kind: 'issue' | 'merge_request'; readonly json: ItemJson }
  | { readonly kind: 'note' | 'todo'; readonly json: JsonObject }
  /** Notes landed that the answer does not carry (a published review): the item's discussions are read again. */
  | { readonly kind: 'notes-stale' }

/**
 * The id of a provisional row (a comment or a to-do made offline): negative, so it never meets
 * a server id, and increasing with the entry, so provisional comments list in the order written.
 */
export const provisionalId = (entryId: number): number => Number.MIN_SAFE_INTEGER + entryId

const TABLES = { issue: 'issues', merge_request: 'merge_requests' } as const

/** The cached item (pending patches included), or null when the cache does not have it. */
export function cachedItem(cache: Cache, accountId: string, target: ItemTarget): (ItemJson & JsonObject) | null {
  const acct = cache.existingAcct(accountId)
  if (acct === null) return null
  const json = cache.db
    .prepare(`SELECT json FROM ${TABLES[target.type]} WHERE acct = ? AND project_id = ? AND iid = ?`)
    .pluck()
    .get(acct, target.projectId, target.iid) as string | undefined
  return json === undefined ? null : (JSON.parse(json) as ItemJson & JsonObject)
}

function cachedRow(
  cache: Cache,
  accountId: string,
  table: 'users' | 'milestones' | 'todos' | 'epics',
  id: number,
): JsonObject | null {
  const acct = cache.existingAcct(accountId)
  if (acct === null) return null
  const json = cache.db.prepare(`SELECT json FROM ${table} WHERE acct = ? AND id = ?`).pluck().get(acct, id) as
    string | undefined
  return json === undefined ? null : (JSON.parse(json) as JsonObject)
}

/**
 * The merge patches (applied in order) that show an item write in the cached item's JSON.
 * A milestone is replaced, not merged into the old one, hence its `null` patch first.
 */
function itemPatches(cache: Cache, accountId: string, mutation: Mutation, item: JsonObject): JsonObject[] {
  switch (mutation.kind) {
    case 'update': {
      const c = mutation.changes
      const patch: Record<string, unknown> = {}
      const patches: JsonObject[] = []
      if (c.title !== undefined) patch.title = c.title
      if (c.description !== undefined) patch.description = c.description
      if (c.labels !== undefined) patch.labels = exclusiveLabels(c.labels)
      else if (c.add_labels !== undefined || c.remove_labels !== undefined)
        patch.labels = labelsAfter(labelTitles(item), c.add_labels ?? [], c.remove_labels ?? [])
      if (c.state_event !== undefined) patch.state = c.state_event === 'close' ? 'closed' : 'opened'
      if (c.assignee_ids !== undefined) {
        const users = c.assignee_ids.map((id) => cachedRow(cache, accountId, 'users', id) ?? { id })
        patch.assignees = users
        patch.assignee = users[0] ?? null
      }
      if (c.reviewer_ids !== undefined)
        patch.reviewers = c.reviewer_ids.map((id) => cachedRow(cache, accountId, 'users', id) ?? { id })
      if (c.milestone_id !== undefined) {
        patches.push({ milestone: null })
        if (c.milestone_id !== null)
          patch.milestone = cachedRow(cache, accountId, 'milestones', c.milestone_id) ?? { id: c.milestone_id }
      }
      if (c.due_date !== undefined) patch.due_date = c.due_date
      if (c.weight !== undefined) patch.weight = c.weight
      if (c.epic_id !== undefined) {
        // The issue's `epic` is a small object of its own (id, iid, title, group_id, …): replaced, not merged.
        patches.push({ epic: null })
        const epic = c.epic_id === null ? null : cachedRow(cache, accountId, 'epics', c.epic_id)
        if (c.epic_id !== null)
          patch.epic =
            epic === null
              ? { id: c.epic_id }
              : { id: c.epic_id, iid: epic.iid, title: epic.title, group_id: epic.group_id }
        patch.epic_iid = c.epic_id === null ? null : (epic?.iid ?? null)
      }
      patches.push(patch)
      return patches
    }
    case 'time-estimate':
      return [{ time_stats: { time_estimate: mutation.seconds } }]
    case 'add-spent-time': {
      const stats = isRecord(item.time_stats) ? item.time_stats : {}
      const total = typeof stats.total_time_spent === 'number' ? stats.total_time_spent : 0
      return [{ time_stats: { total_time_spent: total + mutation.seconds } }]
    }
    case 'subscription':
      return [{ subscribed: mutation.subscribed }]
    default:
      return []
  }
}

/**
 * The item a creation will make, as the API would show it, for the cache until it lands: its id
 * the entry's provisional id, its iid the temporary one, its reference `#new-N`.
 */
function provisionalItem(
  cache: Cache,
  entry: StoredEntry,
  target: ItemTarget,
  fields: NewIssue | NewMergeRequest,
  author: UserSummary,
): JsonObject {
  const users = (ids: readonly number[] | undefined): JsonObject[] =>
    (ids ?? []).map((id) => cachedRow(cache, entry.accountId, 'users', id) ?? { id })
  const assignees = users(fields.assignee_ids)
  const reference = temporaryReference(target.type, target.iid)
  const common: JsonObject = {
    iid: target.iid,
    project_id: target.projectId,
    title: fields.title,
    description: fields.description ?? '',
    state: 'opened',
    labels: exclusiveLabels(fields.labels ?? []),
    assignees,
    assignee: assignees[0] ?? null,
    milestone:
      fields.milestone_id === undefined
        ? null
        : (cachedRow(cache, entry.accountId, 'milestones', fields.milestone_id) ?? { id: fields.milestone_id }),
    author,
    created_at: entry.createdAt,
    updated_at: entry.createdAt,
    closed_at: null,
    user_notes_count: 0,
    upvotes: 0,
    downvotes: 0,
    references: { short: reference, relative: reference, full: reference },
    web_url: null,
    time_stats: { time_estimate: 0, total_time_spent: 0 },
  }
  if ('source_branch' in fields)
    return {
      ...common,
      source_branch: fields.source_branch,
      target_branch: fields.target_branch,
      source_project_id: target.projectId,
      target_project_id: target.projectId,
      reviewers: users(fields.reviewer_ids),
      draft: isDraftTitle(fields.title),
      merge_status: 'unchecked',
      merged_at: null,
    }
  return {
    ...common,
    confidential: fields.confidential ?? false,
    due_date: fields.due_date ?? null,
    issue_type: 'issue',
  }
}

/**
 * Shows an entry's write in the cache (inside the caller's transaction). Items the cache does
 * not hold are left alone: the write still goes to the server, and sync brings the result.
 */
export function applyOptimistic(cache: Cache, entry: StoredEntry, author: UserSummary): void {
  const { target, mutation } = entry
  if (target.type === 'todo') {
    if (mutation.kind === 'todo-done' && cachedRow(cache, entry.accountId, 'todos', target.todoId) !== null) {
      cache.applyOptimistic(entry.accountId, 'todo', { id: target.todoId }, { state: 'done' }, entry.id)
    }
    return
  }
  // A commit's comments are shown pending from the outbox itself: the cache holds no commits.
  if (target.type === 'commit') return
  if (mutation.kind === 'create-issue' || mutation.kind === 'create-merge-request') {
    const json = provisionalItem(cache, entry, target, mutation.fields, author)
    cache.applyOptimistic(entry.accountId, target.type, { id: provisionalId(entry.id) }, json, entry.id)
    return
  }
  const item = cachedItem(cache, entry.accountId, target)
  if (item === null || typeof item.id !== 'number') return
  const now = new Date().toISOString()
  switch (mutation.kind) {
    case 'comment':
    case 'reply':
      cache.applyOptimistic(
        entry.accountId,
        'note',
        { id: provisionalId(entry.id) },
        {
          body: mutation.body,
          author,
          created_at: entry.createdAt,
          updated_at: entry.createdAt,
          system: false,
          type: mutation.kind === 'reply' ? 'DiscussionNote' : mutation.position === undefined ? null : 'DiffNote',
          ...(mutation.kind === 'reply' ? { discussion_id: mutation.discussionId } : {}),
          ...(mutation.kind === 'comment' && mutation.position !== undefined
            ? { position: { ...mutation.position }, commit_id: mutation.commitId ?? null }
            : {}),
          noteable_id: item.id,
          noteable_iid: target.iid,
          noteable_type: target.type === 'issue' ? 'Issue' : 'MergeRequest',
          project_id: target.projectId,
        },
        entry.id,
      )
      return
    case 'todo':
      cache.applyOptimistic(
        entry.accountId,
        'todo',
        { id: provisionalId(entry.id) },
        {
          project: { id: target.projectId },
          author,
          action_name: 'marked',
          target_type: target.type === 'issue' ? 'Issue' : 'MergeRequest',
          target: item,
          target_url: typeof item.web_url === 'string' ? item.web_url : null,
          body: typeof item.title === 'string' ? item.title : '',
          state: 'pending',
          created_at: now,
          updated_at: now,
        },
        entry.id,
      )
      return
    default:
      for (const patch of itemPatches(cache, entry.accountId, mutation, item))
        cache.applyOptimistic(entry.accountId, target.type, { id: item.id }, patch, entry.id)
  }
}

/** Has the next read of the entry's item fetch its discussions again. */
function markNotesStale(cache: Cache, entry: StoredEntry): void {
  if (!isItemTarget(entry.target)) return
  const item = cachedItem(cache, entry.accountId, entry.target)
  if (item !== null && typeof item.id === 'number') cache.markNotesStale(entry.accountId, entry.target.type, [item.id])
}

/**
 * Takes an entry's patch off (inside the caller's transaction), first writing what the server
 * answered, so the item goes straight from the optimistic to the confirmed version.
 */
export function clearOptimistic(cache: Cache, entry: StoredEntry, update: CacheUpdate | null): void {
  if (update !== null) {
    if (update.kind === 'notes-stale') {
      markNotesStale(cache, entry)
    } else if (update.kind === 'note') {
      cache.upsert(entry.accountId, 'note', [update.json], {
        discussionId: null,
        position: Number.MAX_SAFE_INTEGER - 1,
      })
      // The note's thread and place come with the next sync of the item's discussions.
      markNotesStale(cache, entry)
    } else {
      cache.upsert(entry.accountId, update.kind, [update.json as JsonObject])
    }
  }
  cache.clearPending(entry.id)
}
