import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { AppInfo, IpcError, ServerStatus } from '../../shared/ipc/contract'
import { useBridge } from '../bridge'

/** The shell's own state: which mode we run in and how the local server is doing. */
export const useAppStore = defineStore('app', () => {
  const bridge = useBridge()
  const info = ref<AppInfo | null>(null)
  const server = ref<ServerStatus | null>(null)
  const error = ref<IpcError | null>(null)
  const loading = ref(false)

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
      error.value = e !== null && typeof e === 'object' && 'code' in e ? (e as IpcError) : { code: 'handler-failed', message: String(e) }
    } finally {
      loading.value = false
    }
  }

  return { info, server, error, loading, load }
})
