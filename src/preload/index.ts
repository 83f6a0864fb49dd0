import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import {
  EVENT_CHANNELS,
  REQUEST_CHANNELS,
  type BurrowBridge,
  type EventChannel,
  type IpcEvents,
  type IpcResponse,
  type RequestChannel,
} from '../shared/ipc/contract'

// The allowlists come from the contract: a channel that is not in it cannot be reached from the page.
const requests = new Set<string>(REQUEST_CHANNELS)
const events = new Set<string>(EVENT_CHANNELS)

const bridge: BurrowBridge = {
  invoke(channel: RequestChannel, ...args: readonly unknown[]) {
    if (!requests.has(channel)) {
      return Promise.resolve<IpcResponse<never>>({
        ok: false,
        error: { code: 'unknown-channel', message: `Unknown channel: ${String(channel)}` },
      })
    }
    return ipcRenderer.invoke(channel, ...args) as Promise<IpcResponse<never>>
  },
  on<E extends EventChannel>(event: E, listener: (payload: IpcEvents[E]) => void) {
    if (!events.has(event)) throw new Error(`Unknown event: ${String(event)}`)
    // The page never sees the IpcRendererEvent (it would expose `sender`).
    const wrapped = (_event: IpcRendererEvent, payload: IpcEvents[E]): void => listener(payload)
    ipcRenderer.on(event, wrapped)
    return () => {
      ipcRenderer.off(event, wrapped)
    }
  },
}

contextBridge.exposeInMainWorld('burrow', bridge)
