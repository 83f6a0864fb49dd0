import { computed, shallowRef, watch, type ComputedRef, type ShallowRef } from 'vue'
import type { SelectOption } from 'naive-ui'
import { useBridge } from '../bridge'
import { isRecord } from '../../shared/json'
import type { UserRef } from '../lib/items'
import { useReferenceDataStore } from '../stores/reference-data'

/** One page of `GET /projects/:id/users`: GitLab's largest. */
const PAGE = 100

/** The bindings of a people select: spread on an `NSelect` with `v-bind`. */
export interface UserSelectProps {
  readonly options: SelectOption[]
  /** More people than one page: the server searches as the user types. */
  readonly remote: boolean
  readonly loading: boolean
  readonly onSearch: (text: string) => void
}

export interface ProjectUsers {
  readonly select: ComputedRef<UserSelectProps>
  /** The person of an id among every one read so far (the offered ones and `keep`). */
  userOf(id: number): UserRef | undefined
  /** True when the people come from the account's cache because the project's could not be read. */
  readonly fallback: ShallowRef<boolean>
}

const userOption = (u: UserRef): SelectOption => ({ value: u.id, label: `${u.name} (@${u.username})` })

/** The users of an answer, skipping anything that is not one. */
function usersIn(body: unknown): UserRef[] {
  if (!Array.isArray(body)) return []
  return body.filter((u): u is UserRef => isRecord(u) && typeof u.id === 'number' && typeof u.username === 'string')
}

/**
 * Who can be assigned to or review a project's work, as GitLab's pickers offer them: the users
 * of `GET /projects/:id/users` (members of the project and of the groups above it), read through
 * `api:get` so the last answer also serves offline. A project with more people than one page is
 * searched on the server as the user types (each search saved the same way). When the project's
 * people cannot be read at all (offline before they were ever read) the account's cached users
 * stand in. `keep` are always offered (an item's current assignees, who may have left).
 */
export function useProjectUsers(
  accountId: () => string,
  projectId: () => number | null,
  keep: () => readonly UserRef[] = () => [],
): ProjectUsers {
  const bridge = useBridge()
  const reference = useReferenceDataStore()
  const firstPage = shallowRef<readonly UserRef[]>([])
  const found = shallowRef<readonly UserRef[] | null>(null)
  const complete = shallowRef(true)
  const loading = shallowRef(false)
  const fallback = shallowRef(false)
  const known = new Map<number, UserRef>()
  // Answers that arrive after a newer question are dropped: one count for the project, one for searches.
  let generation = 0
  let searches = 0

  async function read(account: string, project: number, search: string): Promise<readonly UserRef[]> {
    const answer = await bridge.request('api:get', account, `/projects/${project}/users`, {
      per_page: PAGE,
      ...(search === '' ? {} : { search }),
    })
    if (search === '') complete.value = answer.page?.nextPage == null
    const users = usersIn(answer.body)
    for (const u of users) known.set(u.id, u)
    return users
  }

  watch(
    [accountId, projectId],
    async ([account, project]) => {
      const mine = ++generation
      firstPage.value = []
      found.value = null
      complete.value = true
      fallback.value = false
      if (account === '' || project === null) return
      loading.value = true
      try {
        const users = await read(account, project, '')
        if (mine === generation) firstPage.value = users
      } catch {
        if (mine !== generation) return
        await reference.ensure(account)
        fallback.value = true
        firstPage.value = reference.of(account).users
        for (const u of firstPage.value) known.set(u.id, u)
      } finally {
        if (mine === generation) loading.value = false
      }
    },
    { immediate: true },
  )

  function onSearch(text: string): void {
    const account = accountId()
    const project = projectId()
    if (complete.value || account === '' || project === null) return
    const mine = ++searches
    const query = text.trim()
    if (query === '') {
      found.value = null
      return
    }
    loading.value = true
    read(account, project, query)
      .then((users) => {
        if (mine === searches && project === projectId()) found.value = users
      })
      .catch(() => {
        // Offline without a saved answer for this search: the select searches what was read.
        if (mine === searches) found.value = null
      })
      .finally(() => {
        if (mine === searches) loading.value = false
      })
  }

  const select = computed<UserSelectProps>(() => {
    const offered = new Map<number, UserRef>()
    for (const u of [...(found.value ?? firstPage.value), ...keep()]) offered.set(u.id, u)
    return {
      options: [...offered.values()].map(userOption),
      remote: !complete.value && found.value !== null,
      loading: loading.value,
      onSearch,
    }
  })

  return { select, userOf: (id) => known.get(id) ?? keep().find((u) => u.id === id), fallback }
}
