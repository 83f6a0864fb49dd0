import { toReadableError } from '../lib/ipc-errors'
import type { Issue, MergeRequest } from '../lib/items'
import { useItemStore, type ItemWrite, type WorkKind } from '../stores/items'
import { useToastsStore } from '../stores/toasts'

/** An item a write acts on, with its account. */
export interface WriteTarget {
  readonly accountId: string
  readonly item: Issue | MergeRequest
}

export type ItemStore = ReturnType<typeof useItemStore>

export interface ItemWrites {
  /**
   * Runs one write per target through its account's item store (each shows at once), then says
   * what was done in a toast with Undo — or names the first refusal.
   */
  write(
    targets: readonly WriteTarget[],
    run: (store: ItemStore, target: WriteTarget) => Promise<ItemWrite | null>,
    what: string,
  ): Promise<void>
  /** Shows a refusal as a toast. */
  sayRefused(error: unknown): void
  /** Waits for the writes; a toast names the first refusal, else says `success` (when given). */
  settle(writes: readonly Promise<unknown>[], success: string | null): Promise<void>
}

/** What the triage commands and the bulk bar share: writes through the item stores, told about in toasts with Undo. */
export function useItemWrites(kind: WorkKind): ItemWrites {
  const toasts = useToastsStore()
  const noun = kind === 'issue' ? 'issue' : 'merge request'
  const sigil = kind === 'issue' ? '#' : '!'

  function sayRefused(error: unknown): void {
    const e = toReadableError(error)
    toasts.show('error', `${e.title}: ${e.message}`)
  }

  async function settle(writes: readonly Promise<unknown>[], success: string | null): Promise<void> {
    const failed = (await Promise.allSettled(writes)).filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (failed.length > 0) sayRefused(failed[0].reason)
    else if (success !== null) toasts.show('success', success)
  }

  const reference = (w: ItemWrite): string => w.before.references?.full ?? `${sigil}${w.before.iid}`

  async function write(
    targets: readonly WriteTarget[],
    run: (store: ItemStore, target: WriteTarget) => Promise<ItemWrite | null>,
    what: string,
  ): Promise<void> {
    const results = await Promise.allSettled(targets.map((t) => run(useItemStore(t.accountId), t)))
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    const done = results.flatMap((r) => (r.status === 'fulfilled' && r.value !== null ? [r.value] : []))
    if (failed.length > 0) sayRefused(failed[0].reason)
    if (done.length === 0) return
    const text = done.length === 1 ? `${what}: ${reference(done[0])}` : `${what} on ${done.length} ${noun}s`
    toasts.show('success', text, {
      label: 'Undo',
      run: () =>
        settle(
          done.map((w) => useItemStore(w.accountId).undo(w)),
          null,
        ),
    })
  }

  return { write, sayRefused, settle }
}
