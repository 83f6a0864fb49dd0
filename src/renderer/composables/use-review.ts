import { computed, shallowRef, watch, type ComputedRef, type ShallowRef } from 'vue'
import type { DiffPosition } from '../../shared/ipc/diff-position'
import type { OutboxEntry } from '../../shared/ipc/outbox'
import type { ReviewDraft } from '../../shared/ipc/review'
import type { SentComment } from '../lib/review-threads'
import { useBridge } from '../bridge'
import { useOutboxStore } from '../stores/outbox'
import { useCachedQuery, type CachedQuery } from './use-cached-query'

export interface Review {
  /** The user's drafts: on the server, kept on this computer, and those of a submission not landed yet. */
  readonly drafts: ComputedRef<readonly ReviewDraft[]>
  readonly query: CachedQuery<{ readonly drafts: readonly ReviewDraft[]; readonly serverRead: boolean }>
  /** A submission is queued and has not landed. */
  readonly submitting: ComputedRef<boolean>
  /**
   * Adds a draft to the pending review (on a line at `position`, a reply in thread `discussionId`,
   * or general); resolves with it once the list shows it.
   */
  addDraft(note: string, position?: DiffPosition, discussionId?: string): Promise<ReviewDraft>
  deleteDraft(draftId: string): Promise<void>
  /** Submits the pending review, with an approval at `approveSha` when given. */
  submit(approveSha?: string): Promise<OutboxEntry>
  /** Line comments sent from this page that the discussions may not show yet (see `comment`). */
  readonly sent: ShallowRef<readonly SentComment[]>
  /**
   * Starts a thread on a line (queued in the outbox like any comment), of the merge request's diff
   * or, with `commitId`, of that commit's. It is in `sent` at once, before core has it, and leaves
   * it when refused (the promise rejects with the reason).
   */
  comment(body: string, position: DiffPosition, commitId?: string): Promise<OutboxEntry>
  /** Resolves or reopens a thread (online: the server's answer is read back by `onChanged`). */
  resolve(discussionId: string, resolved: boolean): Promise<void>
  /**
   * Applies a review suggestion as a commit on the source branch (online only, never queued);
   * then `onChanged`, for the thread, the diff and the merge request's head to be read again.
   */
  applySuggestion(suggestionId: number, commitMessage?: string): Promise<void>
  /**
   * Applies a batch of the merge request's suggestions as one commit (online only, never queued;
   * all or none); then `onChanged`. `commitMessage` undefined: the server's default.
   */
  applySuggestions(suggestionIds: readonly number[], commitMessage?: string): Promise<void>
}

/**
 * A merge request's pending review and line comments for the review's diff. `onChanged` runs when
 * the merge request's discussions changed on the server (a submission landed, a thread resolved),
 * for the page to read them again.
 */
export function useReview(options: {
  readonly accountId: () => string
  readonly projectId: () => number
  readonly iid: () => number
  readonly onChanged: () => void
}): Review {
  const bridge = useBridge()
  const outbox = useOutboxStore()
  const ref = () => ({ projectId: options.projectId(), iid: options.iid() })
  const query = useCachedQuery(
    () => [options.accountId(), options.projectId(), options.iid()],
    () => [options.accountId()],
    [],
    () => bridge.request('reviews:drafts', options.accountId(), ref()),
  )
  const pending = computed(() =>
    outbox.forItem(options.accountId(), 'merge_request', options.projectId(), options.iid()),
  )
  const submissions = computed(() => pending.value.filter((e) => e.mutation.kind === 'submit-review'))
  // A submission or a line comment that landed (or was given up) leaves the outbox's unsettled list: the
  // discussions are read again, so its comments show as the server's threads (their real ids, to reply and resolve).
  watch(
    () =>
      pending.value
        .filter((e) => e.mutation.kind === 'submit-review' || (e.mutation.kind === 'comment' && e.mutation.position))
        .map((e) => e.id),
    (now, before) => {
      if (!before.some((id) => !now.includes(id))) return
      void query.reload()
      options.onChanged()
    },
  )
  const sent = shallowRef<readonly SentComment[]>([])
  let sentCount = 0
  const drafts = computed<readonly ReviewDraft[]>(() => [
    ...(query.data.value?.drafts ?? []),
    ...submissions.value.flatMap((e) =>
      e.mutation.kind === 'submit-review'
        ? e.mutation.drafts.map((d, i) => ({
            id: `submitted-${e.id}-${i}`,
            source: 'local' as const,
            note: d.note,
            position: d.position ?? null,
            discussionId: d.discussionId ?? null,
          }))
        : [],
    ),
  ])
  return {
    drafts,
    query,
    submitting: computed(() => submissions.value.length > 0),
    async addDraft(note, position, discussionId) {
      const draft = await bridge.request('reviews:add-draft', options.accountId(), {
        ...ref(),
        note,
        ...(position === undefined ? {} : { position }),
        ...(discussionId === undefined ? {} : { discussionId }),
      })
      await query.reload()
      return draft
    },
    async deleteDraft(draftId) {
      await bridge.request('reviews:delete-draft', options.accountId(), { ...ref(), draftId })
      await query.reload()
    },
    async submit(approveSha) {
      const entry = await bridge.request('reviews:submit', options.accountId(), {
        ...ref(),
        ...(approveSha === undefined ? {} : { approveSha }),
      })
      await query.reload()
      return entry
    },
    sent,
    async comment(body, position, commitId) {
      const comment: SentComment = { key: ++sentCount, body, position, at: new Date().toISOString() }
      sent.value = [...sent.value, comment]
      try {
        return await bridge.request('merge-requests:comment', options.accountId(), {
          ...ref(),
          body,
          position,
          ...(commitId === undefined ? {} : { commitId }),
        })
      } catch (error) {
        sent.value = sent.value.filter((c) => c !== comment)
        throw error
      }
    },
    async resolve(discussionId, resolved) {
      const { projectId, iid } = ref()
      await bridge.request('api:send', options.accountId(), {
        method: 'PUT',
        path: `/projects/${projectId}/merge_requests/${iid}/discussions/${discussionId}`,
        body: { resolved },
      })
      options.onChanged()
    },
    async applySuggestion(suggestionId, commitMessage) {
      await bridge.request('merge-requests:apply-suggestion', options.accountId(), {
        ...ref(),
        suggestionId,
        ...(commitMessage === undefined ? {} : { commitMessage }),
      })
      options.onChanged()
    },
    async applySuggestions(suggestionIds, commitMessage) {
      await bridge.request('merge-requests:apply-suggestions', options.accountId(), {
        ...ref(),
        suggestionIds,
        ...(commitMessage === undefined ? {} : { commitMessage }),
      })
      options.onChanged()
    },
  }
}
