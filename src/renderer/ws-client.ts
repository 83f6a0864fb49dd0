import type { BurrowBridge, EventChannel, IpcEvents, IpcResponse, RequestChannel } from '../shared/ipc/contract'
import { WIRE_PATH, type WireRequest, type WireServerMessage } from '../shared/ipc/wire'

type Pending = (response: IpcResponse) => void
type AnyListener = (payload: IpcEvents[EventChannel]) => void

/** The WebSocket URL of the web host that served this page, carrying the launch secret. */
export function wireUrl(location: Pick<Location, 'protocol' | 'host'>, secret: string): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
  return `${scheme}//${location.host}${WIRE_PATH}?secret=${encodeURIComponent(secret)}`
}

/**
 * Browser mode's side of the contract: the same BurrowBridge the preload exposes, carried over
 * the web host's WebSocket. Connects lazily and again after a drop; requests in flight when the
 * socket closes fail with `unavailable`.
 */
export function createWebSocketBridge(url: string, WebSocketImpl: typeof WebSocket = WebSocket): BurrowBridge {
  let socket: WebSocket | null = null
  let opened: Promise<WebSocket> | null = null
  let nextId = 1
  const pending = new Map<number, Pending>()
  const listeners = new Map<EventChannel, Set<AnyListener>>()

  const failAll = (message: string): void => {
    for (const resolve of pending.values()) resolve({ ok: false, error: { code: 'unavailable', message } })
    pending.clear()
  }

  const connect = (): Promise<WebSocket> => {
    if (opened !== null && socket !== null && socket.readyState <= WebSocketImpl.OPEN) return opened
    const ws = new WebSocketImpl(url)
    socket = ws
    opened = new Promise<WebSocket>((resolve, reject) => {
      ws.addEventListener('open', () => resolve(ws), { once: true })
      ws.addEventListener('close', (event) => {
        reject(new Error(`WebSocket closed (${event.code})`))
        failAll(`The connection to Burrow closed (${event.code})`)
        if (socket === ws) {
          socket = null
          opened = null
        }
      })
    })
    ws.addEventListener('message', (event: MessageEvent<string>) => {
      let message: WireServerMessage
      try {
        message = JSON.parse(event.data) as WireServerMessage
      } catch {
        return
      }
      if (message.type === 'response') {
        const resolve = pending.get(message.id)
        pending.delete(message.id)
        resolve?.(message.ok ? { ok: true, result: message.result } : { ok: false, error: message.error })
      } else if (message.type === 'event') {
        for (const listener of listeners.get(message.event) ?? []) listener(message.payload)
      }
    })
    return opened
  }

  return {
    async invoke(channel: RequestChannel, ...args: readonly unknown[]) {
      let ws: WebSocket
      try {
        ws = await connect()
      } catch (error) {
        return {
          ok: false,
          error: { code: 'unavailable', message: error instanceof Error ? error.message : String(error) },
        }
      }
      const id = nextId++
      const frame: WireRequest = { type: 'request', id, channel, args }
      return new Promise<IpcResponse<never>>((resolve) => {
        pending.set(id, resolve as Pending)
        ws.send(JSON.stringify(frame))
      })
    },
    on<E extends EventChannel>(event: E, listener: (payload: IpcEvents[E]) => void) {
      const set = listeners.get(event) ?? new Set<AnyListener>()
      listeners.set(event, set)
      set.add(listener as AnyListener)
      // Events only flow over an open socket: subscribing is a reason to connect.
      connect().catch(() => undefined)
      return () => {
        set.delete(listener as AnyListener)
      }
    },
  }
}
