import { onScopeDispose, shallowRef, watch, type ShallowRef } from 'vue'
import { useBridge } from '../bridge'
import type { AccountHit } from './use-search-pages'

/** How long typing pauses before the palette asks the cache. */
const SETTLE_MS = 60
/** Items the palette offers at most. */
const MAX_JUMPS = 8

/** Whether text reads as a reference (`#12`, `!4`, `&2`, `%sprint`, `group/project#12`) rather than words. */
export function looksLikeReference(text: string): boolean {
  return /^(?:[\p{L}\p{N}_.-]+(?:\/[\p{L}\p{N}_.-]+)*)?(?:[#!&]\d+|%.*)$/u.test(text.trim())
}

/**
 * The items the palette can jump to for what is typed: the cache's search (`search:query`) of
 * every account, by reference or by words of the title, the best few across accounts. Answers
 * to older text are dropped.
 */
export function useItemJumps(
  query: () => string,
  accounts: () => readonly string[],
): ShallowRef<readonly AccountHit[]> {
  const bridge = useBridge()
  const jumps = shallowRef<readonly AccountHit[]>([])
  let generation = 0
  let timer: ReturnType<typeof setTimeout> | null = null

  async function ask(text: string, mine: number): Promise<void> {
    const answers = await Promise.all(
      accounts().map(async (accountId) => {
        try {
          const { hits } = await bridge.request('search:query', accountId, { query: text, limit: MAX_JUMPS })
          return hits.map((hit) => ({ accountId, hit }))
        } catch {
          return []
        }
      }),
    )
    if (mine !== generation) return
    jumps.value = answers
      .flat()
      .sort((a, b) => a.hit.score - b.hit.score)
      .slice(0, MAX_JUMPS)
  }

  watch(query, (typed) => {
    const text = typed.trim()
    const mine = ++generation
    if (timer !== null) clearTimeout(timer)
    // One letter would match half the cache: wait for a second, unless it is a reference.
    if (text.length < 2 && !looksLikeReference(text)) {
      jumps.value = []
      return
    }
    timer = setTimeout(() => void ask(text, mine), SETTLE_MS)
  })
  onScopeDispose(() => {
    if (timer !== null) clearTimeout(timer)
  })
  return jumps
}
