import { computed, shallowRef, watch, type ComputedRef } from 'vue'
import type { Note } from '../../shared/api/note'
import type { CachedDiscussion } from '../../shared/ipc/cache'
import type { DiffPosition } from '../../shared/ipc/diff-position'
import type { CommitTarget, OutboxEntry } from '../../shared/ipc/outbox'
import { useBridge } from '../bridge'
import type { PositionedNote } from '../lib/review-threads'
import { useOutboxStore } from '../stores/outbox'
import { useCachedQuery, type CachedQuery } from './use-cached-query'

/** A thread of a commit as `…/repository/commits/:sha/discussions` lists it (GitLab's Discussion entity). */
export interface CommitThread {
  readonly id: string
  readonly individual_note: boolean
  readonly notes: readonly PositionedNote[]
}

/** A comment of the user's on the commit that the outbox holds (queued, sending, failed or of unknown outcome). */
export interface PendingCommitComment {
  readonly entry: OutboxEntry
  readonly body: string
  /** A line comment's position. */
  readonly position: DiffPosition | null
  /** A reply's thread. */
  readonly discussionId: string | null
}

export interface CommitDiscussions {
  /** The commit's threads as last read (offline: as saved). */
  readonly query: CachedQuery<readonly CommitThread[]>
  /** The same threads in the shape the review's line threads read (lib/review-threads.ts `lineThreads`). */
  readonly discussions: ComputedRef<readonly CachedDiscussion[]>
  /**
   * The user's comments on the commit not landed yet, oldest first, then those that landed but are not in the
   * threads as last read (state `done` or `reconciled`).
   */
  readonly pending: ComputedRef<readonly PendingCommitComment[]>
  /** Queues a comment: on the commit, on its diff's lines (`position`), or a reply in thread `discussionId`. */
  comment(
    body: string,
    where?: { readonly position?: DiffPosition; readonly discussionId?: string },
  ): Promise<OutboxEntry>
}

/**
 * The comments of one commit: its threads, read through the cached `api:get`, and the user's
 * comments the outbox holds for it (written offline, or on their way), which the threads are read
 * again without once they land. Comments are queued with `commits:comment`, online or offline.
 */
export function useCommitDiscussions(options: {
  readonly accountId: () => string
  readonly projectId: () => number
  readonly sha: () => string
}): CommitDiscussions {
  const bridge = useBridge()
  const outbox = useOutboxStore()
  const path = () => `/projects/${options.projectId()}/repository/commits/${options.sha()}/discussions`
  const query = useCachedQuery(
    () => [options.accountId(), options.projectId(), options.sha()],
    () => [options.accountId()],
    [],
    async () => {
      const answer = await bridge.request('api:get', options.accountId(), path(), { per_page: 100 })
      return Array.isArray(answer.body) ? (answer.body as CommitThread[]) : []
    },
  )
  const isThisCommit = (t: OutboxEntry['target']): t is CommitTarget =>
    t.type === 'commit' && t.projectId === options.projectId() && t.sha === options.sha()
  const unsettled = computed<readonly PendingCommitComment[]>(() =>
    outbox.unsettled
      .filter((e) => e.accountId === options.accountId() && isThisCommit(e.target))
      .flatMap((entry): PendingCommitComment[] => {
        const m = entry.mutation
        if (m.kind === 'comment') return [{ entry, body: m.body, position: m.position ?? null, discussionId: null }]
        if (m.kind === 'reply') return [{ entry, body: m.body, position: null, discussionId: m.discussionId }]
        return []
      }),
  )
  // A comment that landed leaves the outbox's unsettled list: the threads are read again, and until they hold it the
  // comment stays in its place, marked sent (without this it vanished while the threads were read, and stayed away
  // when that read failed because the network dropped just then).
  const landed = shallowRef<readonly PendingCommitComment[]>([])
  watch(unsettled, (now, before) => {
    const left = before.filter((p) => !now.some((n) => n.entry.id === p.entry.id))
    if (left.length === 0) return
    const latest = new Map(outbox.entries.map((e) => [e.id, e]))
    const sent = left.flatMap((p) => {
      const entry = latest.get(p.entry.id)
      return entry?.state === 'done' || entry?.state === 'reconciled' ? [{ ...p, entry }] : []
    })
    landed.value = [...landed.value, ...sent]
    void query.reload()
  })
  const notShown = computed(() => landedNotRead(landed.value, query.data.value ?? []))
  // Once the threads hold a landed comment it is dropped for good.
  watch(notShown, (now) => {
    if (now.length < landed.value.length) landed.value = now
  })
  const pending = computed<readonly PendingCommitComment[]>(() => [...unsettled.value, ...notShown.value])
  const discussions = computed<readonly CachedDiscussion[]>(() =>
    (query.data.value ?? []).map((thread) => ({
      id: thread.id,
      individual_note: thread.individual_note,
      notes: thread.notes.map((note) => ({ data: note as Note & Record<string, unknown>, pending: false })),
    })),
  )
  return {
    query,
    discussions,
    pending,
    comment: (body, where = {}) =>
      bridge.request('commits:comment', options.accountId(), {
        projectId: options.projectId(),
        sha: options.sha(),
        body,
        ...(where.position === undefined ? {} : { position: where.position }),
        ...(where.discussionId === undefined ? {} : { discussionId: where.discussionId }),
      }),
  }
}

/**
 * The landed comments the threads do not show yet: a reply is shown by a later note of its thread with its text, a
 * comment by a thread opening with its text on the same line (or on the whole commit). Each note accounts for one
 * comment, so two identical comments need two notes.
 */
function landedNotRead(
  landed: readonly PendingCommitComment[],
  threads: readonly CommitThread[],
): PendingCommitComment[] {
  const claimed = new Set<PositionedNote>()
  const claim = (notes: readonly PositionedNote[], matches: (n: PositionedNote) => boolean): boolean => {
    const note = notes.find((n) => !claimed.has(n) && matches(n))
    if (note !== undefined) claimed.add(note)
    return note !== undefined
  }
  const sameLine = (n: PositionedNote, p: DiffPosition | null): boolean =>
    p === null
      ? n.position == null
      : n.position != null &&
        n.position.new_path === p.new_path &&
        n.position.new_line === p.new_line &&
        n.position.old_line === p.old_line
  return landed.filter((p) =>
    p.discussionId !== null
      ? !claim(threads.find((t) => t.id === p.discussionId)?.notes.slice(1) ?? [], (n) => n.body === p.body)
      : !claim(
          threads.flatMap((t) => t.notes.slice(0, 1)),
          (n) => n.body === p.body && sameLine(n, p.position),
        ),
  )
}
