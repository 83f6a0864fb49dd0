/**
 * `max-tag-count` for a multiple select of labels: 'responsive' (tags that do not fit become "+N")
 * only once two or more are chosen. Naive's responsive mode measures the select's children with a
 * forced layout on every mount and update, which the filter bars pay on each visit to a list; an
 * empty select or a single tag has nothing to fold.
 */
export function tagCount(chosen: readonly string[]): 'responsive' | undefined {
  return chosen.length > 1 ? 'responsive' : undefined
}
