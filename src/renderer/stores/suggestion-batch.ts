import { defineStore } from 'pinia'
import { shallowRef } from 'vue'

/** A merge request of an account, whose review suggestions are batched. */
export interface SuggestionBatchKey {
  readonly accountId: string
  readonly projectId: number
  readonly iid: number
}

const keyText = (k: SuggestionBatchKey): string => `${k.accountId}\u0000${k.projectId}\u0000${k.iid}`

/**
 * The review suggestions batched to apply as one commit (GitLab's "Add suggestion to batch"), per
 * merge request, in this window's memory only: applying is online only and never queued, so a batch
 * is a choice on screen, not a pending write. Ids stay in the order they were added.
 */
export const useSuggestionBatchStore = defineStore('suggestion-batch', () => {
  const batches = shallowRef<ReadonlyMap<string, readonly number[]>>(new Map())

  function set(key: SuggestionBatchKey, ids: readonly number[]): void {
    const next = new Map(batches.value)
    if (ids.length === 0) next.delete(keyText(key))
    else next.set(keyText(key), ids)
    batches.value = next
  }

  /** The merge request's batched suggestion ids. */
  function ids(key: SuggestionBatchKey): readonly number[] {
    return batches.value.get(keyText(key)) ?? []
  }

  /** Adds a suggestion to the merge request's batch, or takes it out. */
  function toggle(key: SuggestionBatchKey, suggestionId: number, on: boolean): void {
    const now = ids(key).filter((id) => id !== suggestionId)
    set(key, on ? [...now, suggestionId] : now)
  }

  /** Empties the merge request's batch (discarded, or applied). */
  function discard(key: SuggestionBatchKey): void {
    set(key, [])
  }

  return { ids, toggle, discard }
})
