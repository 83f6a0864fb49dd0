/**
 * Subsequence matching for the command palette: every character of the query must appear in
 * order, within a span a few times the query's length. Scores favour matches at word starts and consecutive runs, so "gi" ranks
 * "Go to Issues" above "Sign in".
 */
export function fuzzyScore(query: string, text: string): number | null {
  const q = query.trim().toLowerCase()
  if (q === '') return 0
  const t = text.toLowerCase()
  let score = 0
  let from = 0
  let previous = -2
  let first = -1
  const letters = q.replace(/\s+/g, '').length
  for (const char of q) {
    if (char === ' ') continue
    const at = t.indexOf(char, from)
    if (at === -1) return null
    if (first === -1) first = at
    // Letters scattered across a long text are a coincidence, not a match ("scheduler" in a list of keywords).
    if (at - first > 3 * letters + 10) return null
    const wordStart = at === 0 || /[\s\-_/:.]/.test(t[at - 1])
    score += 1 + (wordStart ? 3 : 0) + (at === previous + 1 ? 2 : 0)
    previous = at
    from = at + 1
  }
  // Shorter texts win ties: the match is a larger part of them.
  return score - t.length / 100
}

/**
 * Items matching `query`, best first; the original order among equals. `text` may give several
 * texts per item, most important first (a title, then keywords): a match in a later one counts
 * for less, so a title match beats the same words found among keywords.
 */
export function fuzzyFilter<T>(items: readonly T[], query: string, text: (item: T) => string | readonly string[]): T[] {
  const scoreOf = (item: T): number | null => {
    const texts = text(item)
    let best: number | null = null
    ;(typeof texts === 'string' ? [texts] : texts).forEach((t, i) => {
      const score = fuzzyScore(query, t)
      if (score !== null && (best === null || score - i * 5 > best)) best = score - i * 5
    })
    return best
  }
  return items
    .map((item, index) => ({ item, index, score: scoreOf(item) }))
    .filter((e): e is { item: T; index: number; score: number } => e.score !== null)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((e) => e.item)
}
