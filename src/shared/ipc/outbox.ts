import { isRecord } from '../json'
import { diffPositionProblem, type DiffPosition } from './diff-position'
import { refProblem } from './repos'

// Durations (`1h 30m`) are GitLab's time-tracking grammar, shared with the server.
export { parseDuration } from '../duration'

/**
 * The outbox part of the IPC contract (contract.ts imports it): the writes the app queues while
 * offline or online, what the renderer sees of each, and the validators of their requests.
 */

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

/** A new issue (`POST /projects/:id/issues`), by the API's field names. */
export interface NewIssue {
  readonly title: string
  readonly description?: string
  readonly labels?: readonly string[]
  readonly assignee_ids?: readonly number[]
  readonly milestone_id?: number
  /** `YYYY-MM-DD`. */
  readonly due_date?: string
  readonly confidential?: boolean
}

/** A new merge request (`POST /projects/:id/merge_requests`), by the API's field names. */
export interface NewMergeRequest {
  readonly source_branch: string
  readonly target_branch: string
  /** A draft's title starts with `Draft: ` (GitLab's rule); the app adds it when `draft` is set. */
  readonly title: string
  readonly description?: string
  readonly labels?: readonly string[]
  readonly assignee_ids?: readonly number[]
  readonly reviewer_ids?: readonly number[]
  readonly milestone_id?: number
  readonly remove_source_branch?: boolean
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

/**
 * Field changes of one issue or merge request update (one `PUT`), by their API names. `labels`
 * replaces the whole set; `add_labels`/`remove_labels` change it relative to whatever the
 * server has, so they never conflict. `milestone_id: null` removes the milestone.
 */
export interface ItemChanges {
  readonly title?: string
  readonly description?: string
  readonly labels?: readonly string[]
  readonly add_labels?: readonly string[]
  readonly remove_labels?: readonly string[]
  readonly assignee_ids?: readonly number[]
  /** Merge requests only: the reviewers, all of them (empty removes every reviewer). */
  readonly reviewer_ids?: readonly number[]
  readonly milestone_id?: number | null
  readonly state_event?: 'close' | 'reopen'
  /** Issues only: `YYYY-MM-DD`, or null to clear it. */
  readonly due_date?: string | null
  /** Issues only: a whole number from 0, or null to clear it. */
  readonly weight?: number | null
  /** Issues only: the epic's id (not its iid), or null to take the issue out of its epic. */
  readonly epic_id?: number | null
}

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

/** `outbox:resolve`: keep my version (sent again over theirs), take theirs (mine discarded), or send an edited version. */
export type ConflictResolution =
  | { readonly choice: 'mine' }
  | { readonly choice: 'theirs' }
  | { readonly choice: 'edited'; readonly changes: ItemChanges }

/** Requests of the item write channels (`issues:*`, `merge-requests:*`). */
export interface ItemRef {
  readonly projectId: number
  readonly iid: number
}
export interface CommentRequest extends ItemRef {
  readonly body: string
  /** Reply in this thread instead of starting a new comment. */
  readonly discussionId?: string
  /** Merge requests only: start a thread on this line of the diff. Not with `discussionId`. */
  readonly position?: DiffPosition
  /** Merge requests only, with `position`: the line is on this commit's own diff (GitLab's `commit_id`), not the merge request's. */
  readonly commitId?: string
}
export interface UpdateRequest extends ItemRef {
  readonly changes: ItemChanges
}
export interface TimeEstimateRequest extends ItemRef {
  readonly seconds: number
}
export interface SpentTimeRequest extends ItemRef {
  readonly seconds: number
  readonly summary?: string
}
export interface SubscribeRequest extends ItemRef {
  readonly subscribed: boolean
}
/** `issues:link`: links the issue to `targetProjectId`'s issue `targetIid`. */
export interface LinkIssueRequest extends ItemRef {
  readonly targetProjectId: number
  readonly targetIid: number
  readonly linkType: IssueLinkType
}
/** `issues:unlink`: removes the issue's link to `targetProjectId`'s issue `targetIid`. */
export interface UnlinkIssueRequest extends ItemRef {
  readonly targetProjectId: number
  readonly targetIid: number
}
/** `commits:comment`: a comment on a commit (on a line of its diff with `position`), or a reply in its thread. */
export interface CommitCommentRequest {
  readonly projectId: number
  /** The commit's full SHA (its writes are grouped by it). */
  readonly sha: string
  readonly body: string
  readonly discussionId?: string
  /** A line of the commit's own diff (its parent as base and start, itself as head). Not with `discussionId`. */
  readonly position?: DiffPosition
}
export interface CreateIssueRequest {
  readonly projectId: number
  readonly fields: NewIssue
}
export interface CreateMergeRequestRequest {
  readonly projectId: number
  readonly fields: NewMergeRequest
}
export interface MarkTodoDoneRequest {
  readonly todoId: number
}
export interface MergeRequestMergeRequest extends ItemRef {
  readonly mergeCommitMessage?: string
  readonly squashCommitMessage?: string
  readonly squash?: boolean
  readonly shouldRemoveSourceBranch?: boolean
  /** The head the user reviewed; the server refuses the merge if the branch moved. */
  readonly sha?: string
}
export interface MergeRequestRebaseRequest extends ItemRef {
  readonly skipCi?: boolean
}
export interface OutboxListFilter {
  readonly accountId?: string
  /** Also entries that are done, reconciled or discarded (the last 200). */
  readonly includeSettled?: boolean
}

/** `outbox:did-change`: one entry was added or changed state. */
export interface OutboxChange {
  readonly entry: OutboxEntry
}

type Problem = string | null

function unknownKeys(o: Record<string, unknown>, allowed: readonly string[]): Problem {
  const extra = Object.keys(o).filter((k) => !allowed.includes(k))
  return extra.length > 0 ? `unknown field(s): ${extra.join(', ')}` : null
}

function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0
}

function isText(value: unknown, max: number, allowEmpty = false): value is string {
  return typeof value === 'string' && value.length <= max && (allowEmpty || value.trim().length > 0)
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.length <= 100 && value.every((v) => isText(v, 255) && !v.includes(','))
}

function isIdList(value: unknown): value is number[] {
  return Array.isArray(value) && value.length <= 100 && value.every(isId)
}

function itemRefProblem(o: Record<string, unknown>): Problem {
  if (!isId(o.projectId)) return 'projectId must be a positive integer'
  if (!(typeof o.iid === 'number' && Number.isSafeInteger(o.iid) && o.iid !== 0))
    return "iid must be a positive integer (or a pending creation's temporary, negative one)"
  return null
}

/** Checks an ItemChanges object; returns the first problem or null. */
export function itemChangesProblem(value: unknown): Problem {
  if (!isRecord(value)) return 'changes must be an object'
  const c = value
  const keys = [
    'title',
    'description',
    'labels',
    'add_labels',
    'remove_labels',
    'assignee_ids',
    'milestone_id',
    'state_event',
    ...ISSUE_ONLY_CHANGES,
    ...MERGE_REQUEST_ONLY_CHANGES,
  ]
  const extra = unknownKeys(c, keys)
  if (extra !== null) return extra
  if (!keys.some((k) => c[k] !== undefined)) return 'changes must change at least one field'
  if (c.title !== undefined && !isText(c.title, 255))
    return 'title must be a non-empty string of at most 255 characters'
  if (c.description !== undefined && !isText(c.description, 1_048_576, true))
    return 'description must be a string of at most 1 MiB'
  for (const k of ['labels', 'add_labels', 'remove_labels'] as const) {
    if (c[k] !== undefined && !isStringList(c[k])) return `${k} must be a list of label names (no commas)`
  }
  if (c.labels !== undefined && (c.add_labels !== undefined || c.remove_labels !== undefined))
    return 'give labels, or add_labels/remove_labels, not both'
  for (const k of ['assignee_ids', 'reviewer_ids'] as const)
    if (c[k] !== undefined && !isIdList(c[k])) return `${k} must be a list of user ids`
  if (c.milestone_id !== undefined && c.milestone_id !== null && !isId(c.milestone_id))
    return 'milestone_id must be a milestone id or null'
  if (c.state_event !== undefined && c.state_event !== 'close' && c.state_event !== 'reopen')
    return "state_event must be 'close' or 'reopen'"
  if (c.due_date !== undefined && c.due_date !== null && !isDate(c.due_date))
    return 'due_date must be a date (YYYY-MM-DD) or null'
  if (
    c.weight !== undefined &&
    c.weight !== null &&
    !(typeof c.weight === 'number' && Number.isSafeInteger(c.weight) && c.weight >= 0)
  )
    return 'weight must be a whole number from 0, or null'
  if (c.epic_id !== undefined && c.epic_id !== null && !isId(c.epic_id)) return 'epic_id must be an epic id or null'
  return null
}

/** A real calendar day as `YYYY-MM-DD`. */
function isDate(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false
  const d = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value
}

/** Builds a validator of `[accountId, request]` from a check of the request object. */
export function accountAndRequest(
  allowed: readonly string[],
  check: (o: Record<string, unknown>) => Problem,
): (args: readonly unknown[]) => Problem {
  return (args) => {
    if (args.length !== 2) return `expected [accountId, request], got ${args.length} argument(s)`
    if (!isText(args[0], 200)) return 'accountId must be a non-empty string'
    if (!isRecord(args[1])) return 'the request must be an object'
    return unknownKeys(args[1], allowed) ?? check(args[1])
  }
}

const ref = ['projectId', 'iid']

/** Whether a value is a discussion id (GitLab's are 40 hexadecimal characters). */
export const isDiscussionId = (value: unknown): value is string => isText(value, 64) && /^[0-9a-f]+$/i.test(value)

function commentProblem(o: Record<string, unknown>): Problem {
  if (!isText(o.body, 1_000_000)) return 'body must be a non-empty string'
  if (o.discussionId !== undefined && !isDiscussionId(o.discussionId))
    return 'discussionId must be a discussion id (hexadecimal)'
  return itemRefProblem(o)
}

export const commentArgs = accountAndRequest([...ref, 'body', 'discussionId'], commentProblem)

/** A commit's full SHA: 40 or 64 lowercase hexadecimal characters. */
const isFullSha = (value: unknown): value is string =>
  typeof value === 'string' && /^([0-9a-f]{40}|[0-9a-f]{64})$/.test(value)

/**
 * `merge-requests:comment`: a comment, a reply, or a new thread on a line of the diff (`position`),
 * of the merge request or of one of its commits (`commitId`).
 */
export const mergeRequestCommentArgs = accountAndRequest(
  [...ref, 'body', 'discussionId', 'position', 'commitId'],
  (o) => {
    if (o.commitId !== undefined && !isFullSha(o.commitId)) return "commitId must be a commit's full SHA"
    if (o.commitId !== undefined && o.position === undefined)
      return 'commitId goes with a position on that commit’s diff'
    if (o.position === undefined) return commentProblem(o)
    if (o.discussionId !== undefined) return 'a reply takes no position: it goes in its thread'
    return diffPositionProblem(o.position) ?? commentProblem(o)
  },
)

/** The fields of `changes` (when an object) among `names`. */
const given = (changes: unknown, names: readonly string[]): string[] =>
  isRecord(changes) ? names.filter((k) => changes[k] !== undefined) : []

/** `issues:update`: the item changes less the merge-request-only fields. */
export const updateArgs = accountAndRequest([...ref, 'changes'], (o) => {
  const mergeRequestOnly = given(o.changes, MERGE_REQUEST_ONLY_CHANGES)
  if (mergeRequestOnly.length > 0) return `issues have no ${mergeRequestOnly.join(', ')}`
  return itemRefProblem(o) ?? itemChangesProblem(o.changes)
})

/** `merge-requests:update`: the item changes less the issue-only fields. */
export const mergeRequestUpdateArgs = accountAndRequest([...ref, 'changes'], (o) => {
  const issueOnly = given(o.changes, ISSUE_ONLY_CHANGES)
  if (issueOnly.length > 0) return `merge requests have no ${issueOnly.join(', ')}`
  return itemRefProblem(o) ?? itemChangesProblem(o.changes)
})

export const timeEstimateArgs = accountAndRequest([...ref, 'seconds'], (o) => {
  if (!(typeof o.seconds === 'number' && Number.isSafeInteger(o.seconds) && o.seconds >= 0))
    return 'seconds must be a non-negative integer'
  return itemRefProblem(o)
})

export const spentTimeArgs = accountAndRequest([...ref, 'seconds', 'summary'], (o) => {
  if (!(typeof o.seconds === 'number' && Number.isSafeInteger(o.seconds) && o.seconds !== 0))
    return 'seconds must be a non-zero integer'
  if (o.summary !== undefined && !isText(o.summary, 255, true))
    return 'summary must be a string of at most 255 characters'
  return itemRefProblem(o)
})

export const itemArgs = accountAndRequest(ref, itemRefProblem)

const optionalFields = (o: Record<string, unknown>): Problem => {
  if (o.description !== undefined && !isText(o.description, 1_048_576, true))
    return 'description must be a string of at most 1 MiB'
  if (o.labels !== undefined && !isStringList(o.labels)) return 'labels must be a list of label names (no commas)'
  for (const k of ['assignee_ids', 'reviewer_ids'] as const)
    if (o[k] !== undefined && !isIdList(o[k])) return `${k} must be a list of user ids`
  if (o.milestone_id !== undefined && !isId(o.milestone_id)) return 'milestone_id must be a milestone id'
  return null
}

/** Checks a NewIssue; returns the first problem or null. */
export function newIssueProblem(value: unknown): Problem {
  if (!isRecord(value)) return 'fields must be an object'
  const extra = unknownKeys(value, [
    'title',
    'description',
    'labels',
    'assignee_ids',
    'milestone_id',
    'due_date',
    'confidential',
  ])
  if (extra !== null) return extra
  if (!isText(value.title, 255)) return 'title must be a non-empty string of at most 255 characters'
  if (value.due_date !== undefined && !isDate(value.due_date)) return 'due_date must be a date (YYYY-MM-DD)'
  if (value.confidential !== undefined && typeof value.confidential !== 'boolean')
    return 'confidential must be a boolean'
  return optionalFields(value)
}

/** Checks a NewMergeRequest; returns the first problem or null. */
export function newMergeRequestProblem(value: unknown): Problem {
  if (!isRecord(value)) return 'fields must be an object'
  const extra = unknownKeys(value, [
    'source_branch',
    'target_branch',
    'title',
    'description',
    'labels',
    'assignee_ids',
    'reviewer_ids',
    'milestone_id',
    'remove_source_branch',
  ])
  if (extra !== null) return extra
  for (const k of ['source_branch', 'target_branch'] as const) {
    const problem = refProblem(value[k])
    if (problem !== null) return `${k}: ${problem}`
  }
  if (value.source_branch === value.target_branch) return 'source_branch and target_branch must differ'
  if (!isText(value.title, 255)) return 'title must be a non-empty string of at most 255 characters'
  if (value.remove_source_branch !== undefined && typeof value.remove_source_branch !== 'boolean')
    return 'remove_source_branch must be a boolean'
  return optionalFields(value)
}

export const createIssueArgs = accountAndRequest(['projectId', 'fields'], (o) =>
  isId(o.projectId) ? newIssueProblem(o.fields) : 'projectId must be a positive integer',
)

export const createMergeRequestArgs = accountAndRequest(['projectId', 'fields'], (o) =>
  isId(o.projectId) ? newMergeRequestProblem(o.fields) : 'projectId must be a positive integer',
)

export const subscribeArgs = accountAndRequest([...ref, 'subscribed'], (o) =>
  typeof o.subscribed === 'boolean' ? itemRefProblem(o) : 'subscribed must be a boolean',
)

/** `commits:comment`: a full SHA (40 or 64 hexadecimal characters), and a position only on a new thread. */
export const commitCommentArgs = accountAndRequest(['projectId', 'sha', 'body', 'discussionId', 'position'], (o) => {
  if (!isId(o.projectId)) return 'projectId must be a positive integer'
  if (!isFullSha(o.sha)) return "sha must be the commit's full SHA (40 or 64 lowercase hexadecimal characters)"
  if (!isText(o.body, 1_000_000)) return 'body must be a non-empty string'
  if (o.discussionId !== undefined && !isDiscussionId(o.discussionId))
    return 'discussionId must be a discussion id (hexadecimal)'
  if (o.position === undefined) return null
  if (o.discussionId !== undefined) return 'a reply takes no position: it goes in its thread'
  return diffPositionProblem(o.position)
})

/** The other issue of a link request: a cached project's issue (a real iid: a pending new issue cannot be linked yet). */
function linkTargetProblem(o: Record<string, unknown>): Problem {
  if (!isId(o.targetProjectId)) return 'targetProjectId must be a positive integer'
  if (!isId(o.targetIid)) return 'targetIid must be a positive integer'
  if (o.targetProjectId === o.projectId && o.targetIid === o.iid) return 'an issue cannot be linked to itself'
  return itemRefProblem(o)
}

export const linkIssueArgs = accountAndRequest([...ref, 'targetProjectId', 'targetIid', 'linkType'], (o) =>
  typeof o.linkType === 'string' && (ISSUE_LINK_TYPES as readonly string[]).includes(o.linkType)
    ? linkTargetProblem(o)
    : `linkType must be one of ${ISSUE_LINK_TYPES.join(', ')}`,
)

export const unlinkIssueArgs = accountAndRequest([...ref, 'targetProjectId', 'targetIid'], linkTargetProblem)

export const markTodoDoneArgs = accountAndRequest(['todoId'], (o) =>
  isId(o.todoId) ? null : 'todoId must be a positive integer',
)

export const mergeArgs = accountAndRequest(
  [...ref, 'mergeCommitMessage', 'squashCommitMessage', 'squash', 'shouldRemoveSourceBranch', 'sha'],
  (o) => {
    for (const k of ['mergeCommitMessage', 'squashCommitMessage'] as const)
      if (o[k] !== undefined && !isText(o[k], 100_000)) return `${k} must be a non-empty string`
    for (const k of ['squash', 'shouldRemoveSourceBranch'] as const)
      if (o[k] !== undefined && typeof o[k] !== 'boolean') return `${k} must be a boolean`
    if (o.sha !== undefined && !(typeof o.sha === 'string' && /^[0-9a-f]{7,64}$/.test(o.sha)))
      return 'sha must be a commit id'
    return itemRefProblem(o)
  },
)

export const rebaseArgs = accountAndRequest([...ref, 'skipCi'], (o) =>
  o.skipCi === undefined || typeof o.skipCi === 'boolean' ? itemRefProblem(o) : 'skipCi must be a boolean',
)

export function outboxListArgs(args: readonly unknown[]): Problem {
  if (args.length === 0) return null
  if (args.length !== 1 || !isRecord(args[0]))
    return 'expected no argument or one filter object {accountId?, includeSettled?}'
  const f = args[0]
  const extra = unknownKeys(f, ['accountId', 'includeSettled'])
  if (extra !== null) return extra
  if (f.accountId !== undefined && !isText(f.accountId, 200)) return 'accountId must be a non-empty string'
  if (f.includeSettled !== undefined && typeof f.includeSettled !== 'boolean') return 'includeSettled must be a boolean'
  return null
}

export function outboxEntryIdArgs(args: readonly unknown[]): Problem {
  return args.length === 1 && isId(args[0]) ? null : 'expected one outbox entry id (a positive integer)'
}

export function outboxResolveArgs(args: readonly unknown[]): Problem {
  if (args.length !== 2 || !isId(args[0])) return 'expected [entryId, resolution]'
  const r = args[1]
  if (!isRecord(r)) return "resolution must be {choice: 'mine' | 'theirs'} or {choice: 'edited', changes}"
  if (r.choice === 'mine' || r.choice === 'theirs') return unknownKeys(r, ['choice'])
  if (r.choice === 'edited') return unknownKeys(r, ['choice', 'changes']) ?? itemChangesProblem(r.changes)
  return "resolution.choice must be 'mine', 'theirs' or 'edited'"
}

/** The validators of the outbox channels, spread into request-validators.ts. */
export const outboxValidators = {
  'issues:create': createIssueArgs,
  'merge-requests:create': createMergeRequestArgs,
  'issues:comment': commentArgs,
  'issues:update': updateArgs,
  'issues:time-estimate': timeEstimateArgs,
  'issues:add-spent-time': spentTimeArgs,
  'issues:todo': itemArgs,
  'issues:subscribe': subscribeArgs,
  'issues:link': linkIssueArgs,
  'issues:unlink': unlinkIssueArgs,
  'merge-requests:comment': mergeRequestCommentArgs,
  'merge-requests:update': mergeRequestUpdateArgs,
  'merge-requests:time-estimate': timeEstimateArgs,
  'merge-requests:add-spent-time': spentTimeArgs,
  'merge-requests:todo': itemArgs,
  'merge-requests:subscribe': subscribeArgs,
  'todos:mark-done': markTodoDoneArgs,
  'commits:comment': commitCommentArgs,
  'merge-requests:merge': mergeArgs,
  'merge-requests:rebase': rebaseArgs,
  'merge-requests:approve': itemArgs,
  'merge-requests:unapprove': itemArgs,
  'outbox:list': outboxListArgs,
  'outbox:retry': outboxEntryIdArgs,
  'outbox:discard': outboxEntryIdArgs,
  'outbox:resolve': outboxResolveArgs,
} as const

/** An API object as the server answered it (online-only actions return the server's answer as is). */
export type ServerJson = Readonly<Record<string, unknown>>

type Queued<R> = { readonly args: readonly [accountId: string, request: R]; readonly result: OutboxEntry }

/**
 * The outbox request channels. Every item write resolves with its queued entry as soon as it is
 * stored (not when the server has it): watch `outbox:did-change` for what happens next.
 * Online-only actions (merge, rebase, approve) go straight to the server and fail with code
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
