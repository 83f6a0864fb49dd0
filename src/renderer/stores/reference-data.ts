import { defineStore } from 'pinia'
import { shallowRef } from 'vue'
import { useBridge } from '../bridge'
import { asLabel, asProject, type Label, type Project, type UserRef } from '../lib/items'
import { useCacheChangesStore } from './cache-changes'

interface AccountData {
  readonly labels: ReadonlyMap<string, Label>
  readonly projects: readonly Project[]
  readonly projectsById: ReadonlyMap<number, Project>
  readonly projectsByPath: ReadonlyMap<string, Project>
  readonly users: readonly UserRef[]
}

const EMPTY: AccountData = {
  labels: new Map(),
  projects: [],
  projectsById: new Map(),
  projectsByPath: new Map(),
  users: [],
}

/**
 * What lists and editors need to show names and colours: each account's labels, projects and
 * users from the cache, loaded once per account (in-flight loads shared) and again when
 * the cache says they changed.
 */
export const useReferenceDataStore = defineStore('reference-data', () => {
  const bridge = useBridge()
  const data = shallowRef<Readonly<Record<string, AccountData>>>({})
  const inFlight = new Map<string, Promise<void>>()

  useCacheChangesStore().watchCache(
    () => Object.keys(data.value),
    ['label', 'project', 'user'],
    (changed) => changed.forEach((id) => void reload(id)),
  )

  async function reload(accountId: string): Promise<void> {
    const [labels, projects, users] = await Promise.all([
      bridge.request('labels:list', accountId).catch(() => []),
      bridge.request('projects:list', accountId).catch(() => []),
      bridge.request('users:list', accountId, { limit: 500 }).catch(() => []),
    ])
    const projectList = projects.map(asProject)
    data.value = {
      ...data.value,
      [accountId]: {
        labels: new Map(labels.map(asLabel).map((l) => [l.name, l])),
        projects: projectList,
        projectsById: new Map(projectList.map((p) => [p.id, p])),
        projectsByPath: new Map(projectList.map((p) => [p.path_with_namespace.toLowerCase(), p])),
        users,
      },
    }
  }

  /** Loads an account's data unless it is loaded or loading. */
  function ensure(accountId: string): Promise<void> {
    if (data.value[accountId] !== undefined) return Promise.resolve()
    let loading = inFlight.get(accountId)
    if (loading === undefined) {
      loading = reload(accountId).finally(() => inFlight.delete(accountId))
      inFlight.set(accountId, loading)
    }
    return loading
  }

  const of = (accountId: string): AccountData => data.value[accountId] ?? EMPTY

  return { data, ensure, reload, of }
})
