import { onScopeDispose, shallowRef, watch, type ShallowRef, type WatchSource } from 'vue'
import type { RepoSearchHit } from '../../shared/ipc/repos'
import { useBridge } from '../bridge'

export interface AccountFileHit {
  readonly accountId: string
  readonly hit: RepoSearchHit
}

/** Typing pauses this long before clones are searched (their first search reads every file). */
const SETTLE_MS = 150

/**
 * File names and contents of the cloned repositories (`repos:search`) of the accounts in view,
 * for the search view: name matches of every account first, then content matches. Answers to
 * older text are dropped; accounts without clones answer nothing.
 */
export function useFileSearch(options: {
  readonly key: WatchSource<unknown>
  readonly accounts: () => readonly string[]
  readonly query: () => string | null
  readonly limit: number
}): {
  readonly hits: ShallowRef<readonly AccountFileHit[]>
  readonly truncated: ShallowRef<boolean>
} {
  const bridge = useBridge()
  const hits = shallowRef<readonly AccountFileHit[]>([])
  const truncated = shallowRef(false)
  let generation = 0
  let timer: ReturnType<typeof setTimeout> | null = null

  async function ask(query: string, mine: number): Promise<void> {
    const answers = await Promise.all(
      options.accounts().map(async (accountId) => {
        try {
          const result = await bridge.request('repos:search', accountId, { query, limit: options.limit })
          return { accountId, result }
        } catch {
          return { accountId, result: { hits: [], truncated: false, skippedFiles: 0 } }
        }
      }),
    )
    if (mine !== generation) return
    const all = answers.flatMap(({ accountId, result }) => result.hits.map((hit) => ({ accountId, hit })))
    const ordered = [
      ...all.filter((h) => h.hit.matchedIn === 'name'),
      ...all.filter((h) => h.hit.matchedIn === 'content'),
    ]
    hits.value = ordered.slice(0, options.limit)
    truncated.value = ordered.length > options.limit || answers.some((a) => a.result.truncated)
  }

  watch(
    options.key,
    () => {
      const mine = ++generation
      if (timer !== null) clearTimeout(timer)
      const query = options.query()
      if (query === null) {
        hits.value = []
        truncated.value = false
        return
      }
      timer = setTimeout(() => void ask(query, mine), SETTLE_MS)
    },
    { immediate: true, deep: true },
  )
  onScopeDispose(() => {
    if (timer !== null) clearTimeout(timer)
  })
  return { hits, truncated }
}
