import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { AppInfo, AppMode, IpcError, ServerStatus } from '../../shared/ipc/contract'
import { useBridge } from '../bridge'

/** How often the status area asks about the local server; main only reports changes it has probed. */
export const SERVER_POLL_MS = 30_000

/** How the app's mode reads on screen (`electron` is the name of a library, not of the app). */
export const MODE_LABEL: Readonly<Record<AppMode, string>> = { electron: 'desktop app', browser: 'browser' }

/** How the local server's state reads on screen. */
export const SERVER_STATE_LABEL: Readonly<Record<ServerStatus['state'], string>> = {
  reachable: 'Reachable',
  unreachable: 'Not answering',
  none: 'None',
}

/** The shell's own state: which mode we run in and how the local server is doing. */
export const useAppStore = defineStore('app', () => {
  const bridge = useBridge()
  const info = ref<AppInfo | null>(null)
  const server = ref<ServerStatus | null>(null)
  const error = ref<IpcError | null>(null)
  const loading = ref(false)
  /** A view's own title for the header (an issue's reference), over its route's title. */
  const pageTitle = ref<string | null>(null)
  let poller: ReturnType<typeof setInterval> | null = null

  bridge.on('server:did-change-status', (status) => {
    server.value = status
  })

  /** Loads `app:info` then `server:status`; a failure lands in `error`, never thrown. */
  async function load(): Promise<void> {
    loading.value = true
    error.value = null
    try {
      info.value = await bridge.request('app:info')
      server.value = await bridge.request('server:status')
    } catch (e) {
      error.value =
        e !== null && typeof e === 'object' && 'code' in e
          ? (e as IpcError)
          : { code: 'handler-failed', message: String(e) }
    } finally {
      loading.value = false
    }
  }

  /** Asks `server:status` again; a failure keeps the last known status. */
  async function refreshServer(): Promise<void> {
    try {
      server.value = await bridge.request('server:status')
    } catch {
      // the bridge itself is down: `error` from load() already says so
    }
  }

  /** Starts asking about the local server every SERVER_POLL_MS; idempotent. */
  function startPolling(): void {
    if (poller !== null) return
    poller = setInterval(() => void refreshServer(), SERVER_POLL_MS)
  }

  function stopPolling(): void {
    if (poller !== null) clearInterval(poller)
    poller = null
  }

  return { info, server, error, loading, pageTitle, load, refreshServer, startPolling, stopPolling }
})
