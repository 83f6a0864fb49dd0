import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { SyncFinished, SyncProgress, SyncStatus } from '../../shared/ipc/cache'
import { useBridge } from '../bridge'
import { toReadableError, type ReadableError } from '../lib/ipc-errors'

/** How often the status area asks each account's sync state (events cover the runs themselves). */
export const SYNC_POLL_MS = 30_000

/**
 * Sync and connectivity per account, from `sync:status` and the `sync:did-*` events. "Offline"
 * here means core found the account's instance unreachable: what disables online-only actions.
 */
export const useSyncStore = defineStore('sync', () => {
  const bridge = useBridge()
  const statuses = ref<Readonly<Record<string, SyncStatus>>>({})
  const finished = ref<Readonly<Record<string, SyncFinished>>>({})
  const error = ref<ReadableError | null>(null)
  let poller: ReturnType<typeof setInterval> | null = null
  let watched: readonly string[] = []

  bridge.on('sync:did-progress', (progress: SyncProgress) => {
    const current = statuses.value[progress.accountId]
    if (current === undefined) return void refresh(progress.accountId)
    statuses.value = { ...statuses.value, [progress.accountId]: { ...current, state: 'running', progress } }
  })
  bridge.on('sync:did-change-status', (status: SyncStatus) => {
    statuses.value = { ...statuses.value, [status.accountId]: status }
  })
  bridge.on('sync:did-finish', (done: SyncFinished) => {
    finished.value = { ...finished.value, [done.accountId]: done }
    void refresh(done.accountId)
  })

  async function refresh(accountId: string): Promise<void> {
    try {
      const status = await bridge.request('sync:status', accountId)
      statuses.value = { ...statuses.value, [accountId]: status }
    } catch (e) {
      error.value = toReadableError(e)
    }
  }

  /** Follows these accounts: loads their status now and every SYNC_POLL_MS. */
  function watch(accountIds: readonly string[]): void {
    watched = accountIds
    for (const id of accountIds) void refresh(id)
    poller ??= setInterval(() => watched.forEach((id) => void refresh(id)), SYNC_POLL_MS)
  }

  function stop(): void {
    if (poller !== null) clearInterval(poller)
    poller = null
  }

  /** Starts a sync run now. Throws IpcFailure. */
  async function start(accountId: string): Promise<void> {
    const status = await bridge.request('sync:start', accountId)
    statuses.value = { ...statuses.value, [accountId]: status }
  }

  const isOffline = (accountId: string): boolean =>
    statuses.value[accountId]?.state === 'offline' || finished.value[accountId]?.outcome === 'offline'
  const running = computed(() => Object.values(statuses.value).filter((s) => s.state === 'running'))
  const offline = computed(() => Object.keys(statuses.value).filter(isOffline))

  return { statuses, finished, error, running, offline, watch, stop, refresh, start, isOffline }
})
