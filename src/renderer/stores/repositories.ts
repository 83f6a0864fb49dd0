import { defineStore } from 'pinia'
import { shallowRef } from 'vue'
import type { RepoChange, RepoClone, RepoProgress } from '../../shared/ipc/repos'
import { useBridge } from '../bridge'
import { toReadableError, type ReadableError } from '../lib/ipc-errors'

const keyOf = (accountId: string, projectId: number): string => `${accountId}:${projectId}`

/**
 * The local clones of every account (`repos:list`), kept current by `repos:did-change` and
 * `repos:did-progress`, and the clone, fetch, cancel and remove actions. One failed action's
 * readable error per clone, until the next action on it.
 */
export const useRepositoriesStore = defineStore('repositories', () => {
  const bridge = useBridge()
  const clones = shallowRef<ReadonlyMap<string, RepoClone>>(new Map())
  const errors = shallowRef<ReadonlyMap<string, ReadableError>>(new Map())
  const loaded = shallowRef(false)
  const loadError = shallowRef<ReadableError | null>(null)
  let loading: Promise<void> | null = null

  function put(accountId: string, projectId: number, clone: RepoClone | null): void {
    const next = new Map(clones.value)
    if (clone === null) next.delete(keyOf(accountId, projectId))
    else next.set(keyOf(accountId, projectId), clone)
    clones.value = next
  }

  function setError(accountId: string, projectId: number, error: ReadableError | null): void {
    const next = new Map(errors.value)
    if (error === null) next.delete(keyOf(accountId, projectId))
    else next.set(keyOf(accountId, projectId), error)
    errors.value = next
  }

  bridge.on('repos:did-change', (change: RepoChange) => put(change.accountId, change.projectId, change.clone))
  bridge.on('repos:did-progress', (progress: RepoProgress) => {
    const current = clones.value.get(keyOf(progress.accountId, progress.projectId))
    if (current === undefined) return
    put(progress.accountId, progress.projectId, {
      ...current,
      state: progress.operation === 'clone' ? 'cloning' : 'fetching',
      progress,
    })
  })

  /** Loads every account's clones once (again with `force`). */
  function ensureLoaded(force = false): Promise<void> {
    if (loading !== null && !force) return loading
    loading = (async () => {
      try {
        const list = await bridge.request('repos:list')
        clones.value = new Map(list.map((c) => [keyOf(c.accountId, c.projectId), c]))
        loadError.value = null
      } catch (e) {
        loadError.value = toReadableError(e)
      } finally {
        loaded.value = true
      }
    })()
    return loading
  }

  const get = (accountId: string, projectId: number): RepoClone | null =>
    clones.value.get(keyOf(accountId, projectId)) ?? null
  const errorOf = (accountId: string, projectId: number): ReadableError | null =>
    errors.value.get(keyOf(accountId, projectId)) ?? null

  async function act(accountId: string, projectId: number, run: () => Promise<RepoClone | null>): Promise<void> {
    setError(accountId, projectId, null)
    try {
      const clone = await run()
      put(accountId, projectId, clone)
    } catch (e) {
      const readable = toReadableError(e)
      // Stopping an operation on purpose is not a failure to show.
      if ((e as { code?: unknown }).code !== 'cancelled') setError(accountId, projectId, readable)
      const list = await bridge.request('repos:list', accountId).catch(() => null)
      if (list !== null) put(accountId, projectId, list.find((c) => c.projectId === projectId) ?? null)
    }
  }

  return {
    clones,
    loaded,
    loadError,
    ensureLoaded,
    get,
    errorOf,
    clone: (accountId: string, projectId: number) =>
      act(accountId, projectId, () => bridge.request('repos:clone', accountId, projectId)),
    fetch: (accountId: string, projectId: number) =>
      act(accountId, projectId, () => bridge.request('repos:fetch', accountId, projectId)),
    cancel: (accountId: string, projectId: number) =>
      act(accountId, projectId, () => bridge.request('repos:cancel', accountId, projectId)),
    remove: (accountId: string, projectId: number) =>
      act(accountId, projectId, async () => {
        await bridge.request('repos:remove', accountId, projectId)
        return null
      }),
  }
})
