import type { DiffPosition } from './diff-position'
import type {
  ApplySuggestionRequest,
  ApplySuggestionsRequest,
  CommentRequest,
  CommitCommentRequest,
  ConflictResolution,
  CreateIssueRequest,
  CreateMergeRequestRequest,
  ItemChanges,
  ItemRef,
  LinkIssueRequest,
  MarkTodoDoneRequest,
  MergeRequestMergeRequest,
  MergeRequestRebaseRequest,
  NewIssue,
  NewMergeRequest,
  OutboxListFilter,
  SpentTimeRequest,
  SubscribeRequest,
  TimeEstimateRequest,
  UnlinkIssueRequest,
  UpdateRequest,
} from './outbox-schema'

// Durations (`1h 30m`) are GitLab's time-tracking grammar, shared with the server.
export { parseDuration } from '../duration'

/**
 * The outbox part of the IPC contract (contract.ts imports its types): the writes the app queues
 * while offline or online, and what the renderer sees of each. The requests' shapes are TypeBox
 * schemas in outbox-schema.ts (their types are re-exported here), which only core imports: the
 * renderer takes its values from this file without bundling typebox.
 */

export type {
  ApplySuggestionRequest,
  ApplySuggestionsRequest,
  CommentRequest,
  CommitCommentRequest,
  ConflictResolution,
  CreateIssueRequest,
  CreateMergeRequestRequest,
  ItemChanges,
  ItemRef,
  LinkIssueRequest,
  MarkTodoDoneRequest,
  MergeRequestMergeRequest,
  MergeRequestRebaseRequest,
  NewIssue,
  NewMergeRequest,
  OutboxListFilter,
  SpentTimeRequest,
  SubscribeRequest,
  TimeEstimateRequest,
  UnlinkIssueRequest,
  UpdateRequest,
}

/**
 * An issue or merge request, by project id and iid (what every item write targets). An item
 * created offline has a temporary iid (negative: `temporaryIid`) until its creation lands; the
 * outbox then rewrites the later writes queued on it to the real iid.
 */
export interface ItemTarget {
  readonly type: 'issue' | 'merge_request'
  readonly projectId: number
  readonly iid: number
}

/** The iid an item created through the outbox has until the server gives it one: minus the creation's entry id. */
export const temporaryIid = (entryId: number): number => -entryId

/** Whether an iid is an outbox creation's temporary one (real iids are positive). */
export const isTemporaryIid = (iid: number): boolean => iid < 0

/** The outbox entry that creates the item of a temporary iid. */
export const creationEntryOf = (iid: number): number => -iid

/** What a pending new item is called until it has its number: `#new-3`, `!new-3` (3: its outbox entry). */
export function temporaryReference(type: ItemTarget['type'], iid: number): string {
  return `${type === 'issue' ? '#' : '!'}new-${creationEntryOf(iid)}`
}

/** A to-do of the signed-in user (`todos:mark-done`). */
export interface TodoTarget {
  readonly type: 'todo'
  readonly todoId: number
}

/** A commit of a project (`…/repository/commits/:sha`, its full SHA): its comments and their replies. */
export interface CommitTarget {
  readonly type: 'commit'
  readonly projectId: number
  readonly sha: string
}

export type OutboxTarget = ItemTarget | TodoTarget | CommitTarget

/** Whether a write targets an issue or merge request (the targets the cache holds as items). */
export const isItemTarget = (target: OutboxTarget): target is ItemTarget =>
  target.type === 'issue' || target.type === 'merge_request'

/** The mutations a commit target takes: a comment (on the commit or one of its diff's lines) and a reply. */
export const COMMIT_MUTATION_KINDS: readonly MutationKind[] = ['comment', 'reply']

/** The ItemChanges fields only issues have (merge requests have no due date, weight or epic). */
export const ISSUE_ONLY_CHANGES = ['due_date', 'weight', 'epic_id'] as const
/** The ItemChanges fields only merge requests have. */
export const MERGE_REQUEST_ONLY_CHANGES = ['reviewer_ids'] as const

/** One write the user made. Durations are seconds (`parseDuration` reads `1h 30m`). */
export type Mutation =
  /** With a position (merge requests and commits): a new thread on a line of the diff (GitLab's DiffNote). */
  | {
      readonly kind: 'comment'
      readonly body: string
      readonly position?: DiffPosition
      /** Merge requests only, with a position: the thread is on this commit of the merge request's diff (GitLab's `commit_id`). */
      readonly commitId?: string
    }
  | { readonly kind: 'reply'; readonly discussionId: string; readonly body: string }
  | { readonly kind: 'update'; readonly changes: ItemChanges }
  /** 0 resets the estimate. */
  | { readonly kind: 'time-estimate'; readonly seconds: number }
  /** Negative subtracts, as GitLab allows. */
  | { readonly kind: 'add-spent-time'; readonly seconds: number; readonly summary?: string }
  | { readonly kind: 'todo' }
  | { readonly kind: 'todo-done' }
  | { readonly kind: 'subscription'; readonly subscribed: boolean }
  /** Creates the target's issue (its iid is temporary until this lands). */
  | { readonly kind: 'create-issue'; readonly fields: NewIssue }
  /** Creates the target's merge request (its iid is temporary until this lands). */
  | { readonly kind: 'create-merge-request'; readonly fields: NewMergeRequest }
  /**
   * Submits the user's pending review of a merge request: `drafts` (written offline) become draft
   * notes on the server, then every draft of the user's is published at once (`bulk_publish`).
   */
  | { readonly kind: 'submit-review'; readonly drafts: readonly DraftInput[] }
  /** Approves a merge request at the head the user reviewed (`sha`: the server refuses it if the branch moved). */
  | { readonly kind: 'approve'; readonly sha: string }
  /** Issues only: links the target issue to another (GitLab's issue links; an existing link is left as it is). */
  | {
      readonly kind: 'link'
      readonly targetProjectId: number
      readonly targetIid: number
      readonly linkType: IssueLinkType
    }
  /** Issues only: removes the target issue's link to another, whatever its id by then (none left is not an error). */
  | { readonly kind: 'unlink'; readonly targetProjectId: number; readonly targetIid: number }

/** How a linked issue stands to the issue whose links are listed (GitLab's `link_type`). */
export type IssueLinkType = 'relates_to' | 'blocks' | 'is_blocked_by'

/** The link types, in the order GitLab groups linked items: blocks, is blocked by, relates to. */
export const ISSUE_LINK_TYPES: readonly IssueLinkType[] = ['blocks', 'is_blocked_by', 'relates_to']

/** A draft comment of a pending review: on a line (`position`), a reply in a thread (`discussionId`), or general. */
export interface DraftInput {
  readonly note: string
  readonly position?: DiffPosition
  readonly discussionId?: string
}

/** The mutations that create their target. */
export const CREATION_KINDS = ['create-issue', 'create-merge-request'] as const

export type MutationKind = Mutation['kind']

/**
 * The fields of an item a write can set, in one vocabulary for the base it was made against,
 * the values it wants, and the server's values in a conflict.
 */
export interface ItemFields {
  readonly title?: string
  readonly description?: string
  readonly labels?: readonly string[]
  readonly assignee_ids?: readonly number[]
  readonly reviewer_ids?: readonly number[]
  readonly milestone_id?: number | null
  readonly state?: string
  readonly time_estimate?: number
  readonly due_date?: string | null
  readonly weight?: number | null
  readonly epic_id?: number | null
}

/** The version a write was made against: the item's `updated_at` and the fields it changes. */
export interface OutboxBase {
  readonly updatedAt: string | null
  readonly fields: ItemFields
}

/**
 * - `queued`: waiting to be sent (again, after a retry or a resolution);
 * - `sending`: committed just before the request goes out;
 * - `done`: the server accepted it;
 * - `failed`: the server refused it, or its outcome could not be established; `reason` says why;
 * - `conflict`: the item changed on the server in a field this write changes; both versions kept;
 * - `unknown-outcome`: the request may or may not have reached the server (crash, timeout); it is
 *   checked by reading the server, never sent again blindly;
 * - `reconciled`: an unknown outcome the server's state showed as applied;
 * - `discarded`: the user gave it up (discard, or "take theirs" in a conflict).
 */
export type OutboxState =
  'queued' | 'sending' | 'done' | 'failed' | 'conflict' | 'unknown-outcome' | 'reconciled' | 'discarded'

export interface OutboxConflict {
  /** What this write sets, by field. */
  readonly local: ItemFields
  /** The server's current values of the same fields. */
  readonly remote: ItemFields
  readonly remoteUpdatedAt: string | null
}

/** One write, as the renderer sees it. */
export interface OutboxEntry {
  /** Also the order: entries of one account are sent in increasing id order. */
  readonly id: number
  readonly accountId: string
  readonly target: OutboxTarget
  readonly mutation: Mutation
  readonly base: OutboxBase | null
  readonly state: OutboxState
  /** Why it failed; for queued entries, the last transient error; for reconciled ones, what the check found. */
  readonly reason: string | null
  /** HTTP status of the refusal, when there was one. */
  readonly status: number | null
  readonly conflict: OutboxConflict | null
  readonly attempts: number
  /** An earlier unsettled entry for the same item that this one waits behind (failed, conflict or unknown outcome). */
  readonly blockedBy: number | null
  /** ISO 8601. */
  readonly createdAt: string
  readonly updatedAt: string
  /** When it was last handed to the network. */
  readonly sentAt: string | null
  readonly settledAt: string | null
  /** A creation that landed: the new item's iid (later writes on its temporary iid were moved to it). */
  readonly createdIid?: number
}

/** `outbox:did-change`: one entry was added or changed state. */
export interface OutboxChange {
  readonly entry: OutboxEntry
}

/** An API object as the server answered it (online-only actions return the server's answer as is). */
export type ServerJson = Readonly<Record<string, unknown>>

type Queued<R> = { readonly args: readonly [accountId: string, request: R]; readonly result: OutboxEntry }

/**
 * The outbox request channels. Every item write resolves with its queued entry as soon as it is
 * stored (not when the server has it): watch `outbox:did-change` for what happens next.
 * Online-only actions (merge, rebase, approve, apply a suggestion) go straight to the server and fail with code
 * `offline` when it cannot be reached; they are never queued.
 */
export interface OutboxRequests {
  /**
   * Queues a new issue: shown at once in the cache under a temporary iid (`temporaryIid` of the
   * entry's id, the entry's `target.iid`); `createdIid` once it landed.
   */
  'issues:create': Queued<CreateIssueRequest>
  /** Queues a new merge request, like `issues:create`. */
  'merge-requests:create': Queued<CreateMergeRequestRequest>
  'issues:comment': Queued<CommentRequest>
  'issues:update': Queued<UpdateRequest>
  /** `seconds: 0` resets the estimate. */
  'issues:time-estimate': Queued<TimeEstimateRequest>
  'issues:add-spent-time': Queued<SpentTimeRequest>
  /** Adds the issue to the user's to-do list. */
  'issues:todo': Queued<ItemRef>
  'issues:subscribe': Queued<SubscribeRequest>
  /** Links two issues; replayed, a link already there is not an error. */
  'issues:link': Queued<LinkIssueRequest>
  /** Removes the link between two issues; replayed, a link already gone is not an error. */
  'issues:unlink': Queued<UnlinkIssueRequest>
  'merge-requests:comment': Queued<CommentRequest>
  'merge-requests:update': Queued<UpdateRequest>
  'merge-requests:time-estimate': Queued<TimeEstimateRequest>
  'merge-requests:add-spent-time': Queued<SpentTimeRequest>
  'merge-requests:todo': Queued<ItemRef>
  'merge-requests:subscribe': Queued<SubscribeRequest>
  'todos:mark-done': Queued<MarkTodoDoneRequest>
  /** Comments on a commit, or replies in one of its threads; replayed like an item's comment. */
  'commits:comment': Queued<CommitCommentRequest>
  /** Online only: the merged merge request. */
  'merge-requests:merge': {
    readonly args: readonly [accountId: string, request: MergeRequestMergeRequest]
    readonly result: ServerJson
  }
  /** Online only: `{rebase_in_progress: true}`; poll the merge request. */
  'merge-requests:rebase': {
    readonly args: readonly [accountId: string, request: MergeRequestRebaseRequest]
    readonly result: ServerJson
  }
  /** Online only: the approval state. */
  'merge-requests:approve': {
    readonly args: readonly [accountId: string, request: ItemRef]
    readonly result: ServerJson
  }
  'merge-requests:unapprove': {
    readonly args: readonly [accountId: string, request: ItemRef]
    readonly result: ServerJson
  }
  /**
   * Online only: applies a review suggestion as a commit on the source branch (`PUT
   * /suggestions/:id/apply`); the applied suggestion. Never queued: a commit whose outcome is
   * unknown must not be sent again.
   */
  'merge-requests:apply-suggestion': {
    readonly args: readonly [accountId: string, request: ApplySuggestionRequest]
    readonly result: ServerJson
  }
  /**
   * Online only: applies a batch of the merge request's review suggestions as one commit on the
   * source branch (`PUT /suggestions/batch_apply`); the applied suggestions. Never queued, like
   * one suggestion's apply. The server refuses the whole batch when one of them cannot apply.
   */
  'merge-requests:apply-suggestions': {
    readonly args: readonly [accountId: string, request: ApplySuggestionsRequest]
    readonly result: readonly ServerJson[]
  }
  /** Unsettled entries (and with `includeSettled`, recent settled ones), oldest first. */
  'outbox:list': { readonly args: readonly [filter?: OutboxListFilter]; readonly result: readonly OutboxEntry[] }
  /** A failed entry goes back to the queue; a waiting one is tried now. */
  'outbox:retry': { readonly args: readonly [entryId: number]; readonly result: OutboxEntry }
  /** Gives an entry up (not while `sending`). */
  'outbox:discard': { readonly args: readonly [entryId: number]; readonly result: OutboxEntry }
  'outbox:resolve': {
    readonly args: readonly [entryId: number, resolution: ConflictResolution]
    readonly result: OutboxEntry
  }
}

/** The outbox events. */
export interface OutboxEvents {
  /** An entry was queued or changed state (later entries of the same item come too: their `blockedBy` may change). */
  'outbox:did-change': OutboxChange
}
