import { onScopeDispose, shallowRef, watch, type ShallowRef, type WatchSource } from 'vue'
import { useBridge } from '../bridge'
import { toReadableError } from '../lib/ipc-errors'
import { SERVER_SEARCH_SCOPES, type ServerSearchScope } from '../lib/server-search'

/** Where the server searches: the whole instance, or one project or group (the search view's scope). */
export type ServerSearchPlace =
  | { readonly kind: 'instance' }
  | { readonly kind: 'project'; readonly id: number }
  | { readonly kind: 'group'; readonly id: number }

/** One scope's answer for one account: up to `perScope` results for `search`, or why there are none. */
export interface ServerSearchSection {
  readonly accountId: string
  readonly scope: ServerSearchScope
  readonly search: string
  readonly results: readonly unknown[]
  readonly error: string | null
}

/** Typing pauses this long before the server is asked (each answer costs it a search). */
const SETTLE_MS = 400

/** The scopes each place's search answers (GitLab has no `projects` scope inside a project). */
function scopesOf(place: ServerSearchPlace): readonly ServerSearchScope[] {
  return place.kind === 'project' ? SERVER_SEARCH_SCOPES.filter((s) => s !== 'projects') : SERVER_SEARCH_SCOPES
}

function pathOf(place: ServerSearchPlace): string {
  return place.kind === 'instance'
    ? '/search'
    : `/${place.kind === 'project' ? 'projects' : 'groups'}/${place.id}/search`
}

/**
 * The search API of each account's instance for what the cache does not hold (commits, code,
 * comments, users, projects, wiki pages), once typing settles: one request per scope and
 * account. The answers to older text are dropped as they come (the requests cannot be called
 * back), so what shows is always the answer to what is typed; a refused scope shows its reason.
 * `accounts()` gives only the accounts to ask (the online ones).
 */
export function useServerSearch(options: {
  readonly key: WatchSource<unknown>
  readonly accounts: () => readonly string[]
  readonly query: () => string | null
  readonly place: () => ServerSearchPlace
  readonly perScope: number
}): { readonly sections: ShallowRef<readonly ServerSearchSection[]>; readonly loading: ShallowRef<boolean> } {
  const bridge = useBridge()
  const sections = shallowRef<readonly ServerSearchSection[]>([])
  const loading = shallowRef(false)
  let generation = 0
  let timer: ReturnType<typeof setTimeout> | null = null

  async function askOne(accountId: string, scope: ServerSearchScope, search: string): Promise<ServerSearchSection> {
    try {
      const answer = await bridge.request('api:get', accountId, pathOf(options.place()), {
        scope,
        search,
        per_page: options.perScope,
      })
      return { accountId, scope, search, results: Array.isArray(answer.body) ? answer.body : [], error: null }
    } catch (e) {
      return { accountId, scope, search, results: [], error: toReadableError(e).message }
    }
  }

  async function ask(search: string, mine: number): Promise<void> {
    const scopes = scopesOf(options.place())
    const asked = options.accounts().flatMap((accountId) => scopes.map((scope) => askOne(accountId, scope, search)))
    const answers = await Promise.all(asked)
    if (mine !== generation) return
    sections.value = answers
    loading.value = false
  }

  watch(
    options.key,
    () => {
      const mine = ++generation
      if (timer !== null) clearTimeout(timer)
      const search = options.query()
      if (search === null || options.accounts().length === 0) {
        sections.value = []
        loading.value = false
        return
      }
      loading.value = true
      timer = setTimeout(() => void ask(search, mine), SETTLE_MS)
    },
    { immediate: true, deep: true },
  )
  onScopeDispose(() => {
    generation++
    if (timer !== null) clearTimeout(timer)
  })
  return { sections, loading }
}
