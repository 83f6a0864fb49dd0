import { Type, type Static } from 'typebox'
import { Entity } from '../api/common'
import type { DiffPosition } from './diff-position'
import type { ItemRef, OutboxEntry } from './outbox'
import { accountAndRequest, Body, CommitId, DiscussionId, PositiveId, replyPositionRule } from './outbox-schema'
import { Position } from './diff-position-schema'
import { Explained } from './schema-check'

/**
 * A pending review of a merge request (GitLab's batched review, the Draft notes API): draft
 * comments only their author sees, published together by one submission. Online, drafts are the
 * server's draft notes; offline, they are kept on this computer (core, durably) and become draft
 * notes when the submission, queued in the outbox, lands.
 */

/** One draft comment of the user's pending review. */
export interface ReviewDraft {
  /** `server-<draft note id>` or `local-<id>`. */
  readonly id: string
  /** `local`: kept on this computer until the review is submitted. */
  readonly source: 'server' | 'local'
  readonly note: string
  readonly position: DiffPosition | null
  /** A reply in this thread. */
  readonly discussionId: string | null
}

/** `reviews:drafts`: the user's drafts on a merge request. */
export interface ReviewDrafts {
  readonly drafts: readonly ReviewDraft[]
  /** False when the server could not be asked: only the drafts kept on this computer are listed. */
  readonly serverRead: boolean
}

/** A merge request by project id and iid, both positive: drafts belong to merge requests that exist (no temporary iid). */
const mergeRequestRef = { projectId: PositiveId('projectId'), iid: PositiveId('iid') }

/** `reviews:add-draft`: a draft on a line (`position`), a reply in a thread (`discussionId`), or a general one. */
export const AddDraftRequest = Explained(
  Entity({
    ...mergeRequestRef,
    note: Body('note'),
    position: Type.Optional(Position),
    discussionId: Type.Optional(DiscussionId),
  }),
  replyPositionRule,
)
export type AddDraftRequest = Static<typeof AddDraftRequest>

export const DeleteDraftRequest = Entity({
  ...mergeRequestRef,
  draftId: Explained(
    Type.String({ pattern: '^(server|local)-[1-9]\\d{0,15}$' }),
    'draftId must be a draft id (server-N or local-N)',
  ),
})
export type DeleteDraftRequest = Static<typeof DeleteDraftRequest>

export const SubmitReviewRequest = Entity({
  ...mergeRequestRef,
  /** Also approve, at this head (the one reviewed): queued after the submission. */
  approveSha: Type.Optional(CommitId('approveSha')),
})
export type SubmitReviewRequest = Static<typeof SubmitReviewRequest>

export const draftsArgs = accountAndRequest(Entity(mergeRequestRef))
export const addDraftArgs = accountAndRequest(AddDraftRequest)
export const deleteDraftArgs = accountAndRequest(DeleteDraftRequest)
export const submitReviewArgs = accountAndRequest(SubmitReviewRequest)

/** The validators of the review channels, spread into request-validators.ts. */
export const reviewValidators = {
  'reviews:drafts': draftsArgs,
  'reviews:add-draft': addDraftArgs,
  'reviews:delete-draft': deleteDraftArgs,
  'reviews:submit': submitReviewArgs,
} as const

/** The review channels. */
export interface ReviewRequests {
  /** The user's drafts: the server's (when it can be asked) and the ones kept on this computer. */
  'reviews:drafts': { readonly args: readonly [accountId: string, request: ItemRef]; readonly result: ReviewDrafts }
  /** Adds a draft: on the server when it can be reached, else kept on this computer (`source: local`). */
  'reviews:add-draft': {
    readonly args: readonly [accountId: string, request: AddDraftRequest]
    readonly result: ReviewDraft
  }
  /** Deletes a draft (a server draft needs the server). */
  'reviews:delete-draft': {
    readonly args: readonly [accountId: string, request: DeleteDraftRequest]
    readonly result: { readonly deleted: true }
  }
  /**
   * Queues the submission of the pending review (the drafts kept on this computer move into it) and,
   * with `approveSha`, an approval behind it. Resolves with the submission's outbox entry once stored.
   */
  'reviews:submit': {
    readonly args: readonly [accountId: string, request: SubmitReviewRequest]
    readonly result: OutboxEntry
  }
}
