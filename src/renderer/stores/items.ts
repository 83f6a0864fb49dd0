import { defineStore } from 'pinia'
import { shallowRef } from 'vue'
import {
  isItemTarget,
  type ItemChanges,
  type ItemRef,
  type MergeRequestMergeRequest,
  type NewIssue,
  type NewMergeRequest,
  type OutboxEntry,
  type OutboxState,
} from '../../shared/ipc/outbox'
import { isRecord } from '../../shared/json'
import { useBridge } from '../bridge'
import {
  applyChanges,
  effectiveChanges,
  undoChanges,
  undoDisplay,
  type ChangeDisplay,
  type WorkItem,
} from '../lib/item-writes'
import type { Issue, MergeRequest, MilestoneRef, UserRef } from '../lib/items'
import { SYNC_SETTLE_MS } from './cache-changes'
import { useTodosStore } from './todos'

export type WorkKind = 'issue' | 'merge_request'

/** One write the store made, as the caller may want to take it back. */
export interface ItemWrite {
  readonly accountId: string
  readonly kind: WorkKind
  /** The item as it was on screen just before. */
  readonly before: WorkItem
  /** What was sent (only what changed anything). */
  readonly changes: ItemChanges
  readonly entry: OutboxEntry
}

/** A write shown on screen before core has it in its cache, until its outbox entry settles. */
interface ShownWrite {
  readonly seq: number
  readonly changes: ItemChanges
  readonly display: ChangeDisplay
  entryId: number | null
}

// An entry keeps its optimistic change in the cache while it waits; once it settles the server's
// answer takes its place.
const WAITING: readonly OutboxState[] = ['queued', 'sending', 'unknown-outcome']
/** States after which the write left the cache unchanged: it comes off the screen at once. */
const UNDONE: readonly OutboxState[] = ['failed', 'conflict', 'discarded']

const keyOf = (kind: WorkKind, projectId: number, iid: number): string => `${kind}:${projectId}:${iid}`
const refOf = (item: { readonly project_id: number; readonly iid: number }): ItemRef => ({
  projectId: item.project_id,
  iid: item.iid,
})
const channelPrefix = (kind: WorkKind): 'issues' | 'merge-requests' => (kind === 'issue' ? 'issues' : 'merge-requests')

function itemStoreSetup(accountId: string) {
  return () => {
    const bridge = useBridge()
    const todos = useTodosStore()
    /** Writes on screen, by item. */
    const shown = shallowRef<ReadonlyMap<string, readonly ShownWrite[]>>(new Map())
    // Outbox events can overtake the answer to the request that queued the entry.
    const seenStates = new Map<number, OutboxState>()
    let seq = 0

    function put(key: string, writes: readonly ShownWrite[]): void {
      const next = new Map(shown.value)
      if (writes.length === 0) next.delete(key)
      else next.set(key, writes)
      shown.value = next
    }
    function drop(key: string, write: ShownWrite): void {
      put(
        key,
        (shown.value.get(key) ?? []).filter((w) => w !== write),
      )
    }
    /** Takes a write off the screen once its entry settled: at once when it changed nothing, after views read the server's version otherwise. */
    function settle(key: string, write: ShownWrite, state: OutboxState): void {
      if (UNDONE.includes(state)) drop(key, write)
      else if (!WAITING.includes(state)) setTimeout(() => drop(key, write), SYNC_SETTLE_MS)
    }

    bridge.on('outbox:did-change', ({ entry }) => {
      if (entry.accountId !== accountId || !isItemTarget(entry.target)) return
      seenStates.set(entry.id, entry.state)
      const key = keyOf(entry.target.type, entry.target.projectId, entry.target.iid)
      const write = shown.value.get(key)?.find((w) => w.entryId === entry.id)
      if (write !== undefined) settle(key, write, entry.state)
    })

    /** The item as the user should see it now: its cached version with the writes not yet in it. */
    function show<T extends WorkItem>(kind: WorkKind, item: T): T {
      const writes = shown.value.get(keyOf(kind, item.project_id, item.iid))
      return writes === undefined
        ? item
        : writes.reduce((shownItem, w) => applyChanges(shownItem, w.changes, w.display), item)
    }

    /** Whether a write of the app's is on its way for this item (its pending marker). */
    function hasWrites(kind: WorkKind, item: { readonly project_id: number; readonly iid: number }): boolean {
      return shown.value.has(keyOf(kind, item.project_id, item.iid))
    }

    /**
     * The one way an issue or merge request field changes: the part of `changes` that changes
     * anything shows at once (same frame), then goes to core's outbox, which queues it durably and
     * sends it; it leaves the screen's overlay when the entry settles (refused: the cached state
     * shows again). Resolves to null when nothing would change; rejects with core's refusal.
     */
    async function update(
      kind: WorkKind,
      item: WorkItem,
      changes: ItemChanges,
      display: ChangeDisplay = {},
    ): Promise<ItemWrite | null> {
      const before = show(kind, item)
      const effective = effectiveChanges(before, changes)
      if (effective === null) return null
      const key = keyOf(kind, item.project_id, item.iid)
      const write: ShownWrite = { seq: ++seq, changes: effective, display, entryId: null }
      put(key, [...(shown.value.get(key) ?? []), write])
      try {
        const request = { ...refOf(item), changes: effective }
        const entry =
          kind === 'issue'
            ? await bridge.request('issues:update', accountId, request)
            : await bridge.request('merge-requests:update', accountId, request)
        write.entryId = entry.id
        settle(key, write, seenStates.get(entry.id) ?? entry.state)
        return { accountId, kind, before, changes: effective, entry }
      } catch (error) {
        drop(key, write)
        throw error
      }
    }

    /**
     * Takes a write back: an entry still waiting to go (or refused) is discarded, so the server
     * never sees it; one already sent, or being sent, is followed by the write that restores the
     * old values.
     */
    async function undo(write: ItemWrite): Promise<void> {
      const state = seenStates.get(write.entry.id) ?? write.entry.state
      if (state === 'queued' || state === 'failed' || state === 'conflict') {
        try {
          await bridge.request('outbox:discard', write.entry.id)
          return
        } catch {
          // It left meanwhile: restore the old values instead.
        }
      }
      if (state === 'discarded') return
      const back = undoChanges(write.before, write.changes)
      if (back !== null)
        await update(write.kind, applyChanges(write.before, write.changes), back, undoDisplay(write.before))
    }

    const addLabels = (kind: WorkKind, item: WorkItem, names: readonly string[]) =>
      update(kind, item, { add_labels: names })
    const removeLabels = (kind: WorkKind, item: WorkItem, names: readonly string[]) =>
      update(kind, item, { remove_labels: names })
    /** The label set an editor ends with, sent as what it adds and removes (which never conflicts). */
    function setLabels(kind: WorkKind, item: WorkItem, names: readonly string[]): Promise<ItemWrite | null> {
      const current = show(kind, item).labels
      return update(kind, item, {
        add_labels: names.filter((n) => !current.includes(n)),
        remove_labels: current.filter((n) => !names.includes(n)),
      })
    }
    const setAssignees = (kind: WorkKind, item: WorkItem, users: readonly UserRef[]) =>
      update(kind, item, { assignee_ids: users.map((u) => u.id) }, { assignees: users })
    /** A merge request's reviewers, all of them (GitLab's `reviewer_ids`). */
    const setReviewers = (item: MergeRequest, users: readonly UserRef[]) =>
      update('merge_request', item, { reviewer_ids: users.map((u) => u.id) }, { reviewers: users })
    /** Adds or takes off one assignee, keeping the others. */
    function toggleAssignee(
      kind: WorkKind,
      item: WorkItem,
      user: UserRef,
      assigned: boolean,
    ): Promise<ItemWrite | null> {
      const others = show(kind, item).assignees.filter((a) => a.id !== user.id)
      return setAssignees(kind, item, assigned ? [...others, user] : others)
    }
    const setMilestone = (kind: WorkKind, item: WorkItem, milestone: MilestoneRef | null) =>
      update(kind, item, { milestone_id: milestone?.id ?? null }, { milestone })
    const setEpic = (item: Issue, epic: Issue['epic']) => update('issue', item, { epic_id: epic?.id ?? null }, { epic })
    const setState = (kind: WorkKind, item: WorkItem, event: 'close' | 'reopen') =>
      update(kind, item, { state_event: event })

    /**
     * A new issue, queued in the outbox: core shows it at once in the cache under the entry's
     * temporary iid (`entry.target.iid`), which the page can open before the server has it.
     */
    function createIssue(projectId: number, fields: NewIssue): Promise<OutboxEntry> {
      return bridge.request('issues:create', accountId, { projectId, fields })
    }
    /** A new merge request, queued like `createIssue`. */
    function createMergeRequest(projectId: number, fields: NewMergeRequest): Promise<OutboxEntry> {
      return bridge.request('merge-requests:create', accountId, { projectId, fields })
    }

    /**
     * A merge request from a fork into another project of its network (GitLab's `target_project_id`),
     * sent straight to the server: it lives in the target project, and the outbox keeps a new item
     * in the project it was written in. Its iid in the target project.
     */
    async function createForkMergeRequest(
      sourceProjectId: number,
      targetProjectId: number,
      fields: NewMergeRequest,
    ): Promise<number> {
      const result = await bridge.request('api:send', accountId, {
        method: 'POST',
        path: `/projects/${sourceProjectId}/merge_requests`,
        body: { ...fields, target_project_id: targetProjectId },
        invalidates: [`/projects/${targetProjectId}/merge_requests`],
      })
      const iid = isRecord(result.body) ? result.body.iid : undefined
      if (typeof iid !== 'number') throw new Error('The server answered without the merge request')
      return iid
    }

    /**
     * A branch on the server (online only, like GitLab's Create branch: there is no version of a
     * branch to check a replayed creation against); the project's refs are read again after it.
     */
    async function createBranch(projectId: number, branch: string, ref: string): Promise<void> {
      await bridge.request('api:send', accountId, {
        method: 'POST',
        path: `/projects/${projectId}/repository/branches`,
        body: { branch, ref },
        invalidates: [`/projects/${projectId}/repository/branches`],
      })
    }

    /** A comment, or a reply in `discussionId`'s thread, queued in the outbox (the discussion shows it pending). */
    function comment(
      kind: WorkKind,
      item: { readonly project_id: number; readonly iid: number },
      body: string,
      discussionId?: string,
    ): Promise<OutboxEntry> {
      const request = { ...refOf(item), body, ...(discussionId === undefined ? {} : { discussionId }) }
      return kind === 'issue'
        ? bridge.request('issues:comment', accountId, request)
        : bridge.request('merge-requests:comment', accountId, request)
    }
    function setEstimate(kind: WorkKind, item: WorkItem, seconds: number): Promise<OutboxEntry> {
      return bridge.request(`${channelPrefix(kind)}:time-estimate`, accountId, { ...refOf(item), seconds })
    }
    function addSpentTime(kind: WorkKind, item: WorkItem, seconds: number, summary?: string): Promise<OutboxEntry> {
      return bridge.request(`${channelPrefix(kind)}:add-spent-time`, accountId, {
        ...refOf(item),
        seconds,
        ...(summary ? { summary } : {}),
      })
    }
    function subscribe(kind: WorkKind, item: WorkItem, subscribed: boolean): Promise<OutboxEntry> {
      return bridge.request(`${channelPrefix(kind)}:subscribe`, accountId, { ...refOf(item), subscribed })
    }

    /**
     * Moves an issue to another project (online only: the server gives it a new number there and
     * closes this one); both are read again at once rather than at the next sync.
     */
    async function move(issue: Issue, toProjectId: number): Promise<{ project_id: number; iid: number }> {
      const answer = await bridge.request('api:send', accountId, {
        method: 'POST',
        path: `/projects/${issue.project_id}/issues/${issue.iid}/move`,
        body: { to_project_id: toProjectId },
      })
      const moved = answer.body as { project_id: number; iid: number }
      await Promise.allSettled([
        bridge.request('issues:get', accountId, { project_id: moved.project_id, iid: moved.iid }, { refresh: true }),
        bridge.request('issues:get', accountId, { project_id: issue.project_id, iid: issue.iid }, { refresh: true }),
      ])
      return moved
    }

    /**
     * Merges on the server (online only), then brings what the merge changed into the cache at
     * once rather than at the next sync: the merge request, the issues it closed, and the to-dos
     * GitLab resolved (the merging user's on the merge request and on those issues).
     */
    async function merge(
      mr: MergeRequest,
      options: Omit<MergeRequestMergeRequest, 'projectId' | 'iid'>,
    ): Promise<void> {
      await bridge.request('merge-requests:merge', accountId, { ...refOf(mr), ...options })
      const closed = await closedIssues(mr)
      todos.resolveFor(accountId, [
        { kind: 'merge_request', projectId: mr.project_id, iid: mr.iid },
        ...closed.map((i) => ({ kind: 'issue' as const, projectId: i.project_id, iid: i.iid })),
      ])
      await Promise.allSettled([
        bridge.request('merge-requests:get', accountId, { project_id: mr.project_id, iid: mr.iid }, { refresh: true }),
        ...closed.map((i) =>
          bridge.request('issues:get', accountId, { project_id: i.project_id, iid: i.iid }, { refresh: true }),
        ),
        todos.refresh(accountId),
      ])
    }
    async function closedIssues(mr: MergeRequest): Promise<{ project_id: number; iid: number }[]> {
      try {
        const answer = await bridge.request(
          'api:get',
          accountId,
          `/projects/${mr.project_id}/merge_requests/${mr.iid}/closes_issues`,
        )
        return Array.isArray(answer.body) ? (answer.body as { project_id: number; iid: number }[]) : []
      } catch {
        return []
      }
    }

    return {
      shown,
      show,
      hasWrites,
      update,
      undo,
      addLabels,
      removeLabels,
      setLabels,
      setAssignees,
      setReviewers,
      toggleAssignee,
      setMilestone,
      setEpic,
      setState,
      createIssue,
      createMergeRequest,
      createForkMergeRequest,
      createBranch,
      comment,
      setEstimate,
      addSpentTime,
      subscribe,
      move,
      merge,
    }
  }
}

const defineItemStore = (accountId: string) => defineStore(`items/${accountId}`, itemStoreSetup(accountId))
const definitions = new Map<string, ReturnType<typeof defineItemStore>>()

/**
 * The store of one account's issues and merge requests as the views show them, and of every
 * write to them: one per account (Pinia store `items/<account>`).
 */
export function useItemStore(accountId: string): ReturnType<ReturnType<typeof defineItemStore>> {
  let use = definitions.get(accountId)
  if (use === undefined) {
    use = defineItemStore(accountId)
    definitions.set(accountId, use)
  }
  return use()
}
