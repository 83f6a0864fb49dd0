import { diffPositionProblem, type DiffPosition } from './diff-position'
import { accountAndRequest, isDiscussionId, type ItemRef, type OutboxEntry } from './outbox'

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

export interface AddDraftRequest extends ItemRef {
  readonly note: string
  readonly position?: DiffPosition
  readonly discussionId?: string
}

export interface DeleteDraftRequest extends ItemRef {
  readonly draftId: string
}

export interface SubmitReviewRequest extends ItemRef {
  /** Also approve, at this head (the one reviewed): queued after the submission. */
  readonly approveSha?: string
}

const isNoteText = (value: unknown): value is string =>
  typeof value === 'string' && value.trim() !== '' && value.length <= 1_000_000

/** A positive item ref (drafts belong to merge requests that exist: no temporary iid). */
function refProblem(o: Record<string, unknown>): string | null {
  for (const k of ['projectId', 'iid'] as const)
    if (!(typeof o[k] === 'number' && Number.isSafeInteger(o[k]) && (o[k] as number) > 0))
      return `${k} must be a positive integer`
  return null
}

const ref = ['projectId', 'iid']

export const draftsArgs = accountAndRequest(ref, refProblem)

export const addDraftArgs = accountAndRequest([...ref, 'note', 'position', 'discussionId'], (o) => {
  if (!isNoteText(o.note)) return 'note must be a non-empty string'
  if (o.position !== undefined && o.discussionId !== undefined)
    return 'a reply takes no position: it goes in its thread'
  if (o.discussionId !== undefined && !isDiscussionId(o.discussionId))
    return 'discussionId must be a discussion id (hexadecimal)'
  return (o.position === undefined ? null : diffPositionProblem(o.position)) ?? refProblem(o)
})

export const deleteDraftArgs = accountAndRequest([...ref, 'draftId'], (o) =>
  typeof o.draftId === 'string' && /^(server|local)-[1-9]\d{0,15}$/.test(o.draftId)
    ? refProblem(o)
    : 'draftId must be a draft id (server-N or local-N)',
)

export const submitReviewArgs = accountAndRequest([...ref, 'approveSha'], (o) =>
  o.approveSha === undefined || (typeof o.approveSha === 'string' && /^[0-9a-f]{7,64}$/.test(o.approveSha))
    ? refProblem(o)
    : 'approveSha must be a commit id',
)

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
