import type { EventChannel, IpcEvents, IpcResponse } from './contract'

/**
 * Frames of the browser-mode WebSocket (web-host.ts ⇄ renderer/ws-client.ts). Electron IPC
 * does not need them: ipcRenderer.invoke already pairs requests with responses.
 */
export interface WireRequest {
  readonly type: 'request'
  readonly id: number
  readonly channel: string
  readonly args: readonly unknown[]
}

export type WireResponse = { readonly type: 'response'; readonly id: number } & IpcResponse

export interface WireEvent<E extends EventChannel = EventChannel> {
  readonly type: 'event'
  readonly event: E
  readonly payload: IpcEvents[E]
}

export type WireServerMessage = WireResponse | WireEvent

/** WebSocket path the web host upgrades; the secret travels as `?secret=`, without it the upgrade gets a 401. */
export const WIRE_PATH = '/ipc'
