import { ref, watch, type Ref } from 'vue'

export interface ComparePicks {
  /** The base picked for Compare, not yet in the address. */
  readonly from: Ref<string | null>
  readonly to: Ref<string | null>
}

/**
 * The repository's Compare pickers: they show what the address compares (`from`, `to`) and, without a
 * `from`, the default branch once the branches are read. A later read of the branches (the clone
 * fetched, a refresh) leaves what the user has picked meanwhile alone.
 */
export function useComparePicks(
  fromQuery: () => string | null,
  toQuery: () => string | null,
  defaultBranch: () => string | null,
): ComparePicks {
  const from = ref<string | null>(null)
  const to = ref<string | null>(null)
  watch(
    [fromQuery, toQuery],
    ([f, t]) => {
      from.value = f ?? defaultBranch()
      to.value = t
    },
    { immediate: true },
  )
  watch(defaultBranch, (branch) => {
    if (from.value === null && fromQuery() === null) from.value = branch
  })
  return { from, to }
}
